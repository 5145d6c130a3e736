import type { Message } from './message.js';
import type { Usage } from './session.js';

/**
 * The usage a provider reported for the request that produced a message, kept on that reply as
 * `metadata.usage` (normalized). The session state holds only the latest usage; this keeps every
 * request's, so a report can show the prompt size of each one later. Message metadata is never
 * sent to a provider.
 */
export function withReportedUsage<M extends Message>(message: M, usage: Usage): M {
  return { ...message, metadata: { ...message.metadata, usage: { ...usage } } };
}

/** The usage kept on a reply by withReportedUsage; undefined when none was or it is not readable. */
export function reportedUsage(message: Message): Usage | undefined {
  const u = message.metadata?.usage;
  if (u === null || typeof u !== 'object' || Array.isArray(u)) return undefined;
  const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined);
  const inputTotal = n(u.inputTotal);
  if (inputTotal === undefined || inputTotal === 0) return undefined;
  return {
    inputTotal,
    cacheRead: n(u.cacheRead) ?? 0,
    cacheWrite: n(u.cacheWrite) ?? 0,
    output: n(u.output) ?? 0,
    reasoning: n(u.reasoning) ?? 0,
  };
}
