import type { JsonObject, JsonValue } from '../../model/json.js';
import type { Message, SystemMessage, UserMessage } from '../../model/message.js';
import type { FilePart, ToolPart } from '../../model/parts.js';
import { INTERRUPTED_TOOL_ERROR, repair } from '../repair.js';

/** Text of the user turn inserted where a provider needs one first. */
export const CONTINUING_TEXT = '(continuing)';
export const EMPTY_OUTPUT_TEXT = '(no output)';
export const EMPTY_ERROR_TEXT = '(the tool failed without a message)';

/** The result half of a tool part, whatever its state (unfinished ones count as interrupted). */
export interface ToolResultView {
  isError: boolean;
  /** The output as text: strings as they are, other JSON serialized; never blank (some providers reject it). */
  text: string;
  /** The output as stored (the error text for failures). */
  value: JsonValue;
  attachments: FilePart[];
}

export function toolResult(part: ToolPart): ToolResultView {
  switch (part.state) {
    case 'completed': {
      const text = typeof part.output === 'string' ? part.output : (JSON.stringify(part.output) ?? '');
      const blank = text.trim() === '';
      return {
        isError: false,
        text: blank ? EMPTY_OUTPUT_TEXT : text,
        value: blank ? EMPTY_OUTPUT_TEXT : part.output,
        attachments: part.attachments ?? [],
      };
    }
    case 'error': {
      const text = part.error.trim() === '' ? EMPTY_ERROR_TEXT : part.error;
      return { isError: true, text, value: text, attachments: part.attachments ?? [] };
    }
    default:
      return { isError: true, text: INTERRUPTED_TOOL_ERROR, value: INTERRUPTED_TOOL_ERROR, attachments: [] };
  }
}

function isJsonObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Tool input as the object Anthropic (`input`), Gemini (`args`) and OpenAI (`arguments`) expect.
 * Importers may keep OpenAI's raw arguments string: parse it when it is a JSON object; anything
 * else is wrapped, so no input is lost.
 */
export function toolInputObject(input: JsonValue): JsonObject {
  if (isJsonObject(input)) return input;
  if (typeof input === 'string') {
    try {
      const parsed: unknown = JSON.parse(input);
      if (isJsonObject(parsed)) return parsed as JsonObject;
    } catch {
      // not JSON: wrapped below
    }
  }
  return { input };
}

/** The object a provider keeps under its own key in providerMetadata, if any. */
export function providerEntry(metadata: JsonObject | undefined, provider: string): JsonObject | undefined {
  const value = metadata?.[provider];
  return isJsonObject(value) ? value : undefined;
}

export function stringField(obj: JsonObject | undefined, field: string): string | undefined {
  const value = obj?.[field];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * Maps each call id to one not yet used in this request, so a request holds every id once even
 * when the history repeats one across messages (tau-bench does). The first holder of an id keeps
 * it; results follow their call's new id.
 *
 * A request rebuilt in part (context/incremental.ts) gives back the names a stretch of messages
 * took and folds the stretch again: taking the same call ids in the same order then yields the
 * same names, since every name before the stretch is still held and none after it is one of them.
 */
export class CallIds {
  private readonly used = new Set<string>();
  /** When set, every name handed out is also pushed here (what one fragment took). */
  taken: string[] | null = null;

  /** The name for `callId`: itself, or with the first free `_n` suffix. */
  readonly take = (callId: string): string => {
    let id = callId;
    for (let n = 2; this.used.has(id); n++) id = `${callId}_${n}`;
    this.used.add(id);
    this.taken?.push(id);
    return id;
  };

  release(names: readonly string[]): void {
    for (const name of names) this.used.delete(name);
  }
}

/** How one format names the call id of a call block and of a result block. */
export interface CallIdFields<C, R> {
  /** The block's call id, or undefined when the block is not a call. */
  callId(block: C): string | undefined;
  withCallId(block: C, id: string): C;
  withResultId(block: R, id: string): R;
}

/**
 * One message's call blocks and the result blocks answering them (by position), with every call
 * id passed through `ids` to make it unique in the request; null when no id changed, so the
 * blocks are used as they are.
 */
export function uniqueCalls<C, R>(
  calls: readonly C[],
  results: readonly R[],
  ids: (callId: string) => string,
  fields: CallIdFields<C, R>,
): { calls: C[]; results: R[] } | null {
  const renamed = new Map<number, string>();
  let k = 0;
  for (const block of calls) {
    const callId = fields.callId(block);
    if (callId === undefined) continue;
    const id = ids(callId);
    if (id !== callId) renamed.set(k, id);
    k++;
  }
  if (renamed.size === 0) return null;
  let c = 0;
  return {
    calls: calls.map((block) => {
      if (fields.callId(block) === undefined) return block;
      const id = renamed.get(c++);
      return id === undefined ? block : fields.withCallId(block, id);
    }),
    results: results.map((block, r) => {
      const id = renamed.get(r);
      return id === undefined ? block : fields.withResultId(block, id);
    }),
  };
}

/** Stands for a file a format cannot carry, so the model at least knows it was there. */
export function fileMention(file: FilePart): string {
  const name = file.filename ?? file.url ?? 'unnamed';
  return `[file: ${name} (${file.mediaType})]`;
}

export function dataUrl(file: FilePart): string {
  return file.url ?? `data:${file.mediaType};base64,${file.data ?? ''}`;
}

export function continuingMessage(): UserMessage {
  return {
    role: 'user',
    parts: [{ type: 'text', text: CONTINUING_TEXT, synthetic: true }],
    metadata: { synthetic: true },
  };
}

export interface PreparedMessages {
  /** Texts of every system message, in order (for providers with one system slot). */
  system: string[];
  /** Repaired messages; without system messages when they were hoisted. */
  messages: Message[];
}

export interface PrepareOptions {
  /** Move every system message's text to the system slot. */
  hoistSystem: boolean;
  /** Insert a synthetic user turn when the conversation would not start with one (or is empty). */
  leadingUser: boolean;
}

/** A system message as the one string a system slot takes. */
export function systemText(message: SystemMessage): string {
  return message.parts.map((p) => p.text).join('\n');
}

/** repair(), then the provider-level adjustments shared by several serializers. */
export function prepare(messages: Message[], opts: PrepareOptions): PreparedMessages {
  const repaired = repair(messages);
  const system: string[] = [];
  let rest = repaired;
  if (opts.hoistSystem) {
    rest = [];
    for (const m of repaired) {
      if (m.role === 'system') system.push(systemText(m));
      else rest.push(m);
    }
  }
  if (opts.leadingUser) {
    const first = rest.findIndex((m) => m.role !== 'system');
    if (first === -1) rest = [...rest, continuingMessage()];
    else if (rest[first]!.role !== 'user')
      rest = [...rest.slice(0, first), continuingMessage(), ...rest.slice(first)];
  }
  return { system, messages: rest };
}
