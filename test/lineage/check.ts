/**
 * The lineage invariants of a session's turn view, checked through the public traversal API.
 * Each check throws an Error naming what broke, so a shrunk counterexample reads as a bug report.
 */
import { type ContextFormat, renderContext, validate } from '../../src/context/index.js';
import type { Lineage, Turn } from '../../src/lineage/index.js';
import type { Entry } from '../../src/model/index.js';
import type { Session } from '../../src/session/index.js';
import { isMarker } from '../session/invariants.js';

const FORMATS: ContextFormat[] = ['ai-sdk', 'openai', 'anthropic', 'gemini'];

function fail(message: string): never {
  throw new Error(message);
}

function same(what: string, actual: unknown, expected: unknown): void {
  const [a, e] = [JSON.stringify(actual), JSON.stringify(expected)];
  if (a !== e) fail(`${what}: got ${a}, expected ${e}`);
}

/** Turns partition the log and chain one after another; the head's full history is every turn. */
export function checkTurns(lineage: Lineage, log: Entry[]): Turn[] {
  const turns = lineage.turns();
  same(
    'entries grouped by turn',
    turns.flatMap((t) => t.entryIds),
    log.map((e) => e.id),
  );
  turns.forEach((t, i) => {
    if (t.parentTurnId !== turns[i - 1]?.id) fail(`turn ${i} has parent ${t.parentTurnId}`);
    if (t.hasChildren !== i < turns.length - 1) fail(`turn ${i}: hasChildren ${t.hasChildren}`);
    if (t.turnType === 'compaction') {
      for (const ref of [t.summarizedThroughTurnId, t.firstKeptTurnId]) {
        if (ref !== undefined) lineage.turn(ref); // throws on a dangling reference
      }
    }
  });
  const head = lineage.head();
  if (head)
    same(
      'full history of the head',
      lineage.getFullHistory(head.id).map((t) => t.id),
      turns.map((t) => t.id),
    );
  return turns;
}

/**
 * Summarized ∪ kept = the branch's whole conversation, in order, no gap, no duplicate: the spans
 * the compactions summarized, then what the latest one kept and everything after it. `summarized`
 * maps a summarizedThroughId to the entries the summarizer was really given (a summary fork's pivot,
 * which no summarizer produced, is held to the fork's whole history instead).
 */
export function checkCoverage(lineage: Lineage, log: Entry[], summarized: Map<string, string[]>): void {
  const turns = lineage.turns();
  const conversation = log.filter((e) => e.kind === 'message' && !isMarker(e)).map((e) => e.id);
  const inConversation = new Set(conversation);
  const seqOf = new Map(log.map((e) => [e.id, e.seq]));
  const covered: string[] = [];
  const firstSummarizer = new Map<string, string>();
  let tail = conversation;
  for (const c of turns) {
    if (c.turnType !== 'compaction') continue;
    const coverage = lineage.getCoverage(c.id);
    const pivot = log.find((e) => e.id === c.id)!;
    const recorded = pivot.kind === 'compaction' ? pivot.pivot : undefined;
    if (recorded?.details.extra?.forkedFromCompaction) {
      // A summary fork's pivot (README session.fork, A002-07) reuses the summary its source's
      // compaction wrote from the source's window; no summarizer saw the fork's. It may share that
      // compaction's summarizedThroughId while the source's window started later (a pivot after the
      // fork point kept it, its summary standing for the rest), so its input is no measure here:
      // the fork's view is that summary alone, standing for all the fork held before it.
      same(
        `summary fork pivot ${c.id}: summarized spans through it vs the conversation before it`,
        [...covered, ...coverage.summarizedEntryIds],
        conversation.filter((id) => seqOf.get(id)! < pivot.seq),
      );
      same(`summary fork pivot ${c.id}: kept entries`, coverage.keptEntryIds, []);
    } else {
      const given = summarized.get(recorded?.summarizedThroughId ?? '');
      if (given)
        same(
          `compaction ${c.id}: summarized entries vs summarizer input`,
          coverage.summarizedEntryIds,
          given,
        );
    }
    covered.push(...coverage.summarizedEntryIds);
    for (const id of coverage.summarizedEntryIds) if (!firstSummarizer.has(id)) firstSummarizer.set(id, c.id);
    const after = conversation.filter((id) => seqOf.get(id)! > pivot.seq);
    tail = [...coverage.keptEntryIds, ...after];
    // The literal walk ends at the summarized-through turn and holds at most one (leading) compaction.
    const walk = lineage.getSummarizedTurns(c.id);
    if (walk.at(-1)?.id !== c.summarizedThroughTurnId)
      fail(`walk of ${c.id} does not end at its through turn`);
    if (walk.slice(1).some((t) => t.turnType === 'compaction')) fail(`walk of ${c.id} passes a compaction`);
  }
  same('summarized spans ++ kept tail vs the whole conversation', [...covered, ...tail], conversation);
  for (const t of turns) {
    const mine = t.entryIds.filter((id) => inConversation.has(id));
    if (t.turnType === 'normal' && mine.length === 0) continue;
    const expected =
      t.turnType === 'compaction'
        ? (turns.slice(turns.indexOf(t) + 1).find((u) => u.turnType === 'compaction')?.id ?? null)
        : (mine.map((id) => firstSummarizer.get(id)).find((id) => id !== undefined) ?? null);
    same(
      `findCompactionThatSummarized(${t.id})`,
      lineage.findCompactionThatSummarized(t.id)?.id ?? null,
      expected,
    );
  }
}

/** Every turn's context validates in every format; the head's is what the session would send. */
export function checkContexts(lineage: Lineage, session: Session): void {
  for (const t of lineage.turns()) {
    for (const format of FORMATS) {
      const violations = validate(lineage.buildContext(t.id, { format }), format);
      if (violations.length > 0) fail(`context of turn ${t.id} (${format}): ${JSON.stringify(violations)}`);
    }
  }
  const head = lineage.head();
  if (!head) return;
  const view = {
    system: session.config.system,
    summaryAs: session.config.compaction.summaryAs,
    prunedPlaceholder: session.config.prune?.placeholder,
  };
  same(
    'context of the head vs the active window',
    lineage.buildContext(head.id, { format: 'openai' }),
    renderContext(session.activeEntries(), { ...view, format: 'openai' }),
  );
}
