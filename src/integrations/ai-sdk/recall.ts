import { type Tool, tool } from 'ai';
import type { JsonValue } from '../../model/json.js';
import { type RecallOptions, recallToolSpecs } from '../../recall/tools.js';
import type { SessionHandle } from '../../session/handle.js';

/** The recall tools as an AI SDK tool set: pass it to generateText / streamText with the agent's own tools. */
export type RecallTools = Record<'session_archive_read' | 'history_search', Tool<unknown, JsonValue>>;

/**
 * `session_archive_read` (Pegasus) and `history_search` for an agent built on the AI SDK: the
 * same specs as recallToolSpecs, wrapped with `tool()`.
 */
export function recallTools(session: SessionHandle, opts: RecallOptions = {}): RecallTools {
  const specs = recallToolSpecs(session, opts);
  const wrap = (name: keyof RecallTools) => {
    const spec = specs.find((s) => s.name === name)!;
    return tool({
      description: spec.description,
      inputSchema: spec.schema,
      execute: (input) => spec.execute(input),
    });
  };
  return { session_archive_read: wrap('session_archive_read'), history_search: wrap('history_search') };
}
