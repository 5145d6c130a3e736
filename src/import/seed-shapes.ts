import type { Entry, Pivot } from '../model/entry.js';
import type { Message } from '../model/message.js';
import type { Part, ToolPart } from '../model/parts.js';

/**
 * The records Qwery and opencode store, for an export under their presets: a
 * compaction is the summary message those systems store (opencode: an assistant message
 * flagged `summary: true`; Qwery: `metadata.summary: true`), tool parts are written in
 * their vocabularies (opencode's `state.time.compacted`; the AI SDK's `tool-NAME` parts in states
 * 'output-available' / 'output-error', `compactedAt`). The entry around the record keeps condense's
 * fields, and a summary entry its `pivot`, so that importing the file restores the session.
 */
export type SeedShape = 'seed-000' | 'seed-001';

type Json = Record<string, unknown>;

const defined = (o: Json): Json => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

/** opencode's tool part: `callID`, `tool`, and a `state` holding status, input, output and times. */
function opencodeTool(p: ToolPart): Json {
  const time = defined({ start: p.startedAt, end: p.endedAt, compacted: p.compactedAt });
  const state = defined({
    status: p.state,
    input: p.input,
    output: p.state === 'completed' ? p.output : undefined,
    error: p.state === 'error' ? p.error : undefined,
    attachments: p.state === 'completed' || p.state === 'error' ? p.attachments : undefined,
    time: Object.keys(time).length > 0 ? time : undefined,
  });
  return defined({
    type: 'tool',
    callID: p.callId,
    tool: p.name,
    state,
    providerMetadata: p.providerMetadata,
  });
}

const AI_SDK_STATE = {
  pending: 'input-streaming',
  running: 'input-available',
  completed: 'output-available',
  error: 'output-error',
} as const;

/**
 * The AI SDK's UI tool part, as Qwery stores it: `tool-NAME` or `dynamic-tool` as it came, and a
 * part condense was given in its own shape as Qwery's plain `tool` part (which its rules prune),
 * so that importing the file gives back the same parts.
 */
function aiSdkTool(p: ToolPart): Json {
  const type =
    p.aiSdkKind === 'static' ? `tool-${p.name}` : p.aiSdkKind === 'dynamic' ? 'dynamic-tool' : 'tool';
  return defined({
    type,
    toolName: type === `tool-${p.name}` ? undefined : p.name,
    toolCallId: p.callId,
    state: AI_SDK_STATE[p.state],
    input: p.input,
    output: p.state === 'completed' ? p.output : undefined,
    errorText: p.state === 'error' ? p.error : undefined,
    attachments: p.state === 'completed' || p.state === 'error' ? p.attachments : undefined,
    startedAt: p.startedAt,
    endedAt: p.endedAt,
    compactedAt: p.compactedAt,
    providerMetadata: p.providerMetadata,
  });
}

function shapedPart(part: Part, shape: SeedShape): unknown {
  if (part.type !== 'tool') return part;
  return shape === 'seed-001' ? opencodeTool(part) : aiSdkTool(part);
}

/** The summary message the system stores for a compaction. */
function summaryMessage(pivot: Pivot, shape: SeedShape): Json {
  const parts = [{ type: 'text', text: pivot.summary }];
  if (shape === 'seed-000') return { role: 'assistant', parts, metadata: { summary: true } };
  // opencode links the summary to the marker it answers: its parent.
  return defined({ role: 'assistant', summary: true, parentID: pivot.markerId, parts });
}

/** One entry as the system would store it, inside condense's entry fields. */
export function seedShapedEntry(entry: Entry, shape: SeedShape): Json {
  if (entry.kind === 'compaction') {
    const { pivot, ...fields } = entry;
    return { ...fields, kind: 'message', message: summaryMessage(pivot, shape), pivot };
  }
  const message: Message = entry.message;
  return { ...entry, message: { ...message, parts: message.parts.map((p) => shapedPart(p, shape)) } };
}

/** A seed-shaped summary entry back as the compaction entry it was (anything else unchanged). */
export function fromSeedShape(fields: Json): Json {
  if (fields.kind !== 'message' || typeof fields.pivot !== 'object' || fields.pivot === null) return fields;
  const { message: _summary, ...rest } = fields;
  return { ...rest, kind: 'compaction' };
}
