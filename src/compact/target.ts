/**
 * A compaction's target: what the summary and the verbatim tail may hold together, in the tokens
 * the provider will count. The caller names one number; the split between tail and summary is
 * condense's (see TAIL_SHARE). Pure arithmetic.
 */

/**
 * Share of the target the verbatim tail may take. Measured with `npm run eval` (LoCoMo in three
 * layouts, real coding sessions): a summary quoting whole turns from across the span keeps more
 * of what is asked about later than a longer tail of the newest turns, and the handover carries
 * the task's state; the tail keeps the newest exchange intact for the agent.
 */
export const TAIL_SHARE = 0.15;

/** Share of the usable room (limit − system prompt and tools) an automatic compaction aims for. */
export const AUTO_TARGET_SHARE = 0.5;

/** Turns the context should have room for after an automatic compaction, at the recent growth per turn. */
export const ROOM_TURNS = 12;

/** The least share of the room an automatic target keeps, however fast the context grows. */
export const MIN_TARGET_SHARE = 0.25;

/** The smallest summary worth writing: below it the tail is too large for the target. */
export const MIN_SUMMARY_TOKENS = 256;

/** Framing of the summary message (a message's role overhead). */
export const SUMMARY_FRAMING = 4;

export interface TargetInput {
  /** The target the caller named (compact({ targetTokens }), the CLI flag, the configuration). */
  asked?: number;
  /** The trigger limit in provider tokens, null when nothing triggers (unlimited window, auto off). */
  limit: number | null;
  /** Provider tokens that stay whatever is summarized: system prompt, tools, unexplained residual. */
  overhead: number;
  /** The context's size now, overhead included. */
  tokensBefore: number;
  /** An automatic compaction (a check or a queued marker), not one the caller asked for. */
  auto: boolean;
  /** What one turn has lately added to the context (provider tokens), when known. */
  growthPerTurn?: number;
}

/**
 * The target in provider tokens, overhead excluded. Automatic: half the room the limit leaves, so
 * the context has as much room to grow as it keeps — less when turns are large for the window, so
 * that ROOM_TURNS turns fit before the next compaction (never below MIN_TARGET_SHARE of the room).
 * Manual without a target: the same, and at most half of what the context holds now, so that
 * asking for a compaction always makes it smaller.
 */
export function compactionTarget(t: TargetInput): number {
  if (t.asked !== undefined) return Math.max(0, Math.floor(t.asked));
  const now = Math.max(0, t.tokensBefore - t.overhead);
  const half = Math.floor(now / 2);
  if (t.limit === null) return half;
  const room = Math.max(0, t.limit - t.overhead);
  const growing = room - ROOM_TURNS * (t.growthPerTurn ?? 0);
  const auto = Math.floor(Math.max(MIN_TARGET_SHARE * room, Math.min(AUTO_TARGET_SHARE * room, growing)));
  return t.auto ? auto : Math.min(auto, half);
}

/** Turns the growth is measured over: the newest steps of the window. */
const GROWTH_SAMPLE = 40;

/**
 * What a turn adds to the context lately, in the log's raw tokens, on the high side: the mean size
 * of the newest messages (each step of an agent is one model call) plus one standard deviation, so
 * that a run of large steps does not bring the next compaction early.
 */
export function recentGrowth(messages: ReadonlyArray<{ tokens: number }>): number {
  const recent = messages.slice(-GROWTH_SAMPLE);
  if (recent.length === 0) return 0;
  const mean = recent.reduce((a, m) => a + m.tokens, 0) / recent.length;
  const variance = recent.reduce((a, m) => a + (m.tokens - mean) ** 2, 0) / recent.length;
  return mean + Math.sqrt(variance);
}

/** The tail's cap within a target (provider tokens). */
export function tailCap(target: number): number {
  return Math.floor(target * TAIL_SHARE);
}

/**
 * What the summary may take once the tail is chosen: the target less the tail, the latest request
 * when the summary must repeat it, and the message framing; never below MIN_SUMMARY_TOKENS (the
 * caller checks the result against its limit).
 */
export function summaryRoom(target: number, tailTokens: number, repeatedRequestTokens: number): number {
  return Math.max(MIN_SUMMARY_TOKENS, target - tailTokens - repeatedRequestTokens - SUMMARY_FRAMING);
}
