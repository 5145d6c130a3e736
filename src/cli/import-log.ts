import { handoverAndDetails, latestRequestAt, requestText } from '../compact/index.js';
import type { ImportedCompaction } from '../import/index.js';
import { buildCompactionEntry, buildMessageEntry, type EntryPlace } from '../model/build.js';
import type { CompactionEntry, Entry, MessageEntry, PivotDetails } from '../model/entry.js';
import type { JsonObject } from '../model/json.js';
import type { Message } from '../model/message.js';
import { withReportedUsage } from '../model/reported-usage.js';
import { emptySessionState, type SessionState, type Usage } from '../model/session.js';
import { type ResolvedSession, resolveSession } from '../session/resolve.js';
import { afterAppend, afterPivot, afterUsage, nextPromptEstimate } from '../session/state.js';

/** One imported message, checked, with the provider usage of the request that produced it. */
export interface ImportedStep {
  message: Message;
  usage?: Usage;
  model?: string;
  createdAt?: number;
}

export interface LogSource {
  id: string;
  messages: ImportedStep[];
  compactions: ImportedCompaction[];
  system?: string;
  /** The agent that wrote the transcript: named as the summarizer of its compactions. */
  agent: string;
}

export interface ImportedLog {
  entries: Entry[];
  metadata: JsonObject;
  createdAt: number;
  state: SessionState;
}

/**
 * The session an agent's transcript describes, as if it had been recorded live: each entry keeps
 * the source's time; each reported usage is a step's usage, so the calibration learns from every
 * request in order (against the view that request contained: the entries before its reply) and the
 * last one is the base of the next estimate; each compaction the agent ran is a pivot the view
 * starts from, with the history before it kept in the log. Pure: `now` stands in for missing times.
 */
export function importedLog(src: LogSource, now: number): ImportedLog {
  const model = sessionModel(src.messages);
  const config = resolveSession(model ? { model } : {}, { system: src.system });
  const entries: Entry[] = [];
  let state = emptySessionState();
  let pivotId: string | null = null;
  const place = (createdAt: number | undefined) => ({
    sessionId: src.id,
    seq: entries.length,
    parentId: entries.at(-1)?.id ?? null,
    createdAt: createdAt ?? now,
  });
  const estimate = () => nextPromptEstimate(state, config.model, config.overheadRaw).tokens;
  let previous: CompactionEntry | undefined;
  const compact = (c: ImportedCompaction) => {
    const since = entries.slice(previous === undefined ? 0 : previous.seq + 1) as MessageEntry[];
    const facts = importedFacts(since, previous?.pivot.details);
    const entry = pivotEntry(
      c,
      entries.at(-1)!,
      pivotId,
      src.agent,
      estimate,
      place(c.createdAt),
      config,
      facts,
    );
    state = afterPivot(state, entry, [], entry.seq);
    entry.pivot.tokensAfter = estimate();
    entries.push(entry);
    pivotId = entry.id;
    previous = entry;
  };
  let next = 0;
  src.messages.forEach((step, i) => {
    while (src.compactions[next]?.at === i) compact(src.compactions[next++]!);
    // The usage rides on its reply too: the state keeps only the last, a report shows each.
    const message = step.usage ? withReportedUsage(step.message, step.usage) : step.message;
    const entry = buildMessageEntry(message, place(step.createdAt), config.estimator);
    const logRaw = state.activeTokens;
    state = afterAppend(state, [entry]);
    if (step.usage) {
      const sent = { logRaw, overheadRaw: config.overheadRaw };
      state = afterUsage(state, step.usage, step.model ?? config.model, sent, entry.seq);
    }
    entries.push(entry);
  });
  while (next < src.compactions.length) compact(src.compactions[next++]!);
  return {
    entries,
    metadata: { ...(src.system ? { system: src.system } : {}), ...(model ? { model } : {}) },
    createdAt: entries[0]?.createdAt ?? now,
    state,
  };
}

/** The model the next prompt goes to: the one that answered the last reported request. */
function sessionModel(messages: ImportedStep[]): string | undefined {
  const named = messages.filter((m) => m.model !== undefined);
  return (named.findLast((m) => m.usage !== undefined) ?? named.at(-1))?.model;
}

/**
 * What condense itself would carry over the agent's compaction: the handover of the messages it
 * summarized (every request verbatim, files, failures, the working directory…), so that a later
 * compaction by condense still has them though the agent's summary quotes them only in part.
 */
function importedFacts(span: MessageEntry[], previous: PivotDetails | undefined): PivotDetails {
  const at = latestRequestAt(span);
  const latestRequest = at >= 0 ? requestText(span[at]!) : previous?.lastUserRequest;
  return handoverAndDetails({
    span,
    ...(previous ? { previous } : {}),
    ...(latestRequest === undefined ? {} : { latestRequest }),
  }).details;
}

function pivotEntry(
  c: ImportedCompaction,
  last: Entry,
  previousPivotId: string | null,
  agent: string,
  estimate: () => number,
  place: EntryPlace,
  config: ResolvedSession,
  facts: PivotDetails,
): CompactionEntry {
  return buildCompactionEntry(
    {
      summary: c.summary,
      summarizedThroughId: last.id,
      // The agent kept nothing verbatim: what it sent next follows the pivot in the log.
      firstKeptId: null,
      tokensBefore: c.tokensBefore ?? estimate(),
      tokensAfter: 0,
      auto: c.auto,
      summarizer: agent,
      details: { ...facts, extra: { ...c.source, ...facts.extra } },
      previousPivotId,
      summaryAs: 'user-plain',
    },
    place,
    config.estimator,
  );
}
