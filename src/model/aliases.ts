/**
 * Tool parts written in the vocabularies agents store them in, mapped to condense's one shape
 * before validation: the AI SDK's UI parts (`type: 'tool-NAME' | 'dynamic-tool'`, `toolCallId`,
 * states `input-streaming` … `output-error`, `errorText`) and opencode's (`callID`, `tool`, a
 * `state: { status, input, output, error, time }` object). Qwery's prunable states
 * ('output-available', 'output-error', 'completed') thus all arrive as finished calls. Anything
 * else passes through unchanged, for the schema to accept or reject with its own message.
 */

type Raw = Record<string, unknown>;

const isRecord = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);

/** AI SDK UI tool states → condense states. */
const AI_SDK_STATES: Record<string, 'pending' | 'running' | 'completed' | 'error'> = {
  'input-streaming': 'pending',
  'approval-requested': 'pending',
  'approval-responded': 'pending',
  'input-available': 'running',
  'output-available': 'completed',
  'output-error': 'error',
  'output-denied': 'error',
};

function denial(raw: Raw): string {
  const approval = isRecord(raw.approval) ? raw.approval : undefined;
  const reason = typeof approval?.reason === 'string' ? `: ${approval.reason}` : '';
  return `execution denied${reason}`;
}

/** The fields every shape shares once renamed; undefined ones are left out. */
function defined(part: Raw): Raw {
  return Object.fromEntries(Object.entries(part).filter(([, v]) => v !== undefined));
}

function fromAiSdkUi(raw: Raw, name: unknown, aiSdkKind?: 'static' | 'dynamic'): Raw {
  const state = AI_SDK_STATES[String(raw.state)] ?? raw.state;
  const { type: _t, toolCallId, toolName: _n, errorText, approval: _a, preliminary: _p, ...rest } = raw;
  return defined({
    ...rest,
    type: 'tool',
    callId: toolCallId,
    name,
    state,
    aiSdkKind,
    input: raw.input ?? {},
    output: state === 'completed' ? raw.output : undefined,
    error:
      raw.state === 'output-denied' ? denial(raw) : state === 'error' ? (errorText ?? raw.error) : undefined,
  });
}

function fromOpencode(raw: Raw, state: Raw): Raw {
  const time = isRecord(state.time) ? state.time : {};
  const status = state.status;
  return defined({
    type: 'tool',
    callId: raw.callID ?? raw.callId,
    name: raw.tool ?? raw.name,
    state: status,
    input: state.input ?? {},
    output: status === 'completed' ? state.output : undefined,
    error: status === 'error' ? state.error : undefined,
    attachments: state.attachments,
    startedAt: time.start,
    endedAt: time.end,
    compactedAt: time.compacted ?? raw.compactedAt,
    providerMetadata: raw.providerMetadata,
  });
}

/** One part in any known vocabulary → condense's shape (unknown shapes unchanged). */
export function canonicalPart(part: unknown): unknown {
  if (!isRecord(part) || typeof part.type !== 'string') return part;
  // The compaction task's earlier name, in exports and sessions written before the rename.
  if (part.type === 'compaction-marker') return { ...part, type: 'compaction' };
  if (part.type === 'dynamic-tool') return fromAiSdkUi(part, part.toolName, 'dynamic');
  if (part.type.startsWith('tool-')) return fromAiSdkUi(part, part.type.slice('tool-'.length), 'static');
  if (part.type !== 'tool') return part;
  if (isRecord(part.state)) return fromOpencode(part, part.state);
  const state = typeof part.state === 'string' ? AI_SDK_STATES[part.state] : undefined;
  if (state === undefined) return part;
  return fromAiSdkUi({ ...part, toolCallId: part.toolCallId ?? part.callId }, part.name ?? part.toolName);
}

/** A message whose parts are mapped with `canonicalPart`; anything else unchanged. */
export function canonicalMessage(message: unknown): unknown {
  if (!isRecord(message) || !Array.isArray(message.parts)) return message;
  const parts = message.parts.map(canonicalPart);
  return parts.every((p, i) => p === (message.parts as unknown[])[i]) ? message : { ...message, parts };
}
