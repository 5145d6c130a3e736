import { asSchema } from 'ai';
import type { JsonValue } from '../json.js';

/** A tool as a provider receives it: what condense counts in every request. */
export interface ToolDefinition {
  name: string;
  description?: string;
  inputSchema: JsonValue;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** An AI SDK tool (from `tool()`, `dynamicTool()` or a provider tool) has an input schema. */
const isAiSdkTool = (v: unknown): v is { description?: unknown; inputSchema: unknown } =>
  isRecord(v) && 'inputSchema' in v;

/**
 * The definitions an AI SDK tool set sends to the provider: name, description and the JSON schema
 * of the input (through the AI SDK's own `asSchema`, so a zod schema counts its `.describe()` texts
 * and not its internals). Anything else (already plain JSON definitions) is counted as given.
 */
export async function toolDefinitions(tools: unknown): Promise<unknown> {
  if (!isRecord(tools)) return tools;
  const entries = Object.entries(tools);
  if (entries.length === 0 || !entries.every(([, t]) => isAiSdkTool(t))) return tools;
  return Promise.all(
    entries.map(async ([name, t]): Promise<ToolDefinition> => {
      const tool = t as { description?: unknown; inputSchema: unknown };
      const schema = await asSchema(tool.inputSchema as Parameters<typeof asSchema>[0]).jsonSchema;
      return {
        name,
        ...(typeof tool.description === 'string' ? { description: tool.description } : {}),
        inputSchema: schema as JsonValue,
      };
    }),
  );
}
