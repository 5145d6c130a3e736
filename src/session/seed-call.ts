import { jsonSchema, type ToolSet, tool } from 'ai';
import { type LlmCall, type SummaryCall, summaryCallMessages } from '../compact/index.js';
import { splitAiSdkSystem, toAiSdk } from '../context/index.js';
import type { Message } from '../model/message.js';

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The agent's tool definitions (as counted: `{ name, description?, inputSchema }`, or the same
 * with `parameters` / `input_schema`) as an AI SDK tool set without `execute`: the summary call
 * offers them as the agent does, and nothing could run.
 */
export function toolSetOf(definitions: unknown): ToolSet | undefined {
  if (!Array.isArray(definitions)) return undefined;
  const set: ToolSet = {};
  for (const d of definitions) {
    if (!isRecord(d) || typeof d.name !== 'string') continue;
    const schema = d.inputSchema ?? d.parameters ?? d.input_schema ?? { type: 'object' };
    set[d.name] = tool({
      ...(typeof d.description === 'string' ? { description: d.description } : {}),
      inputSchema: jsonSchema(schema as Parameters<typeof jsonSchema>[0]),
    });
  }
  return Object.keys(set).length > 0 ? set : undefined;
}

/**
 * A seed's summary call for a span: its system prompt (or the agent's, with the agent's tools
 * and tool use off), the history as AI SDK messages, its final instruction.
 */
export function seedCall(
  call: SummaryCall,
  view: Message[],
  agent: { system?: string; tools?: unknown },
): LlmCall {
  const split = splitAiSdkSystem(toAiSdk(summaryCallMessages(call, view, agent.system)));
  if (call.system !== 'agent') {
    // A system summary of the span (Pegasus's "Summary: …" entry) follows the call's own prompt.
    const system = [call.system, split.system].filter(Boolean).join('\n\n');
    return { system, messages: split.messages };
  }
  const tools = toolSetOf(agent.tools);
  return { ...split, ...(tools ? { tools, toolChoice: 'none' as const } : {}) };
}
