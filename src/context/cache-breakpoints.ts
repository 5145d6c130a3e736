import type {
  AnthropicBlock,
  AnthropicCacheControl,
  AnthropicMessage,
  AnthropicPayload,
  AnthropicTextBlock,
} from './serialize/anthropic-types.js';

/** What the incremental request knows of its own layout, to place breakpoints by. */
export interface RequestLayout {
  /** Bumped by every rebuild: the prefix before it may have changed. */
  generation: number;
  /** The hoisted system texts, in order. */
  system: readonly string[];
  /** Whether `system[0]` is the agent's system prompt (the rest: a summary laid out as system). */
  systemPrompt: boolean;
  /** How many message items the summary (when it is a message) fills, and the last of them as folded then. */
  headItems: number;
  headLast: unknown;
  /** No message of the body yet: the request holds only a placeholder turn, replaced by the first one. */
  bodyEmpty: boolean;
}

/** Most `cache_control` breakpoints Anthropic accepts in one request. */
export const MAX_BREAKPOINTS = 4;

interface Spot {
  item: number;
  block: number;
}

/** A breakpoint's mark: Anthropic's default 5-minute entry, or its 1-hour one. */
export function markOf(ttl: '1h' | undefined): AnthropicCacheControl {
  return Object.freeze(ttl ? { type: 'ephemeral' as const, ttl } : { type: 'ephemeral' as const });
}

/**
 * Anthropic caches only prefixes that end at a `cache_control` breakpoint, and looks for an
 * earlier cache entry at most 20 blocks before one. Breakpoints, at most four: the system prompt
 * (tools come before it, so they are covered), the summary, the end of the previous request (so a
 * turn that adds more than 20 blocks still reads the last one's prefix) and the last message that
 * the next turn will not rewrite. Between prunes and compactions every earlier block is unchanged,
 * so each request reads the previous one's prefix and writes only what is new.
 *
 * The message list handed out is kept and extended like the incremental request's own: the fold
 * only appends items or replaces its last one, so a turn copies the new items and restores the few
 * it decorated; fragments are frozen and never edited.
 */
/** How one request format marks a breakpoint on a turn. */
export interface BreakpointDialect<M extends { role: string }> {
  /** The turn's last piece that may carry a breakpoint; null when none may. */
  cacheable(turn: M): number | null;
  /** The turn with breakpoints on these pieces (a new object: fragments are never edited). */
  mark(turn: M, pieces: ReadonlySet<number>): M;
}

const anthropicDialect = (mark: AnthropicCacheControl): BreakpointDialect<AnthropicMessage> => ({
  cacheable: (turn) => {
    for (let block = turn.content.length - 1; block >= 0; block--) {
      const b = turn.content[block]!;
      if (b.type === 'thinking' || b.type === 'redacted_thinking') continue;
      if (b.type === 'text' && b.text === '') continue;
      return block;
    }
    return null;
  },
  mark: (turn, pieces) => ({
    role: turn.role,
    content: turn.content.map((b, i) =>
      pieces.has(i) ? ({ ...b, cache_control: mark } as AnthropicBlock) : b,
    ),
  }),
});

/** Breakpoints on Anthropic's own request: system blocks and message blocks carry `cache_control`. */
export class AnthropicBreakpoints {
  private readonly mark: AnthropicCacheControl;
  private readonly marks: TurnBreakpoints<AnthropicMessage>;

  /** `ttl: '1h'`: every breakpoint asks for Anthropic's 1-hour entry (written at 2× the input price). */
  constructor(ttl?: '1h') {
    this.mark = markOf(ttl);
    this.marks = new TurnBreakpoints(anthropicDialect(this.mark));
  }

  apply(items: readonly AnthropicMessage[], layout: RequestLayout): AnthropicPayload {
    const system = systemBlocks(layout, this.mark);
    const messages = this.marks.apply(items, layout, system.filter((b) => b.cache_control).length);
    const payload: AnthropicPayload = { messages };
    return system.length > 0 ? { system, ...payload } : payload;
  }
}

/**
 * The breakpoints on a request's turns, at most `MAX_BREAKPOINTS` with those the caller placed
 * elsewhere (`used`): see AnthropicBreakpoints for where and why.
 */
export class TurnBreakpoints<M extends { role: string }> {
  private out: M[] = [];
  private items: readonly M[] | null = null;
  private generation = -1;
  private synced = 0;
  private marked: number[] = [];
  private previousEnd: Spot | null = null;
  private handedOut: { length: number; last: unknown } = { length: 0, last: undefined };

  constructor(private readonly dialect: BreakpointDialect<M>) {}

  apply(items: readonly M[], layout: RequestLayout, used: number): M[] {
    const same =
      items === this.items &&
      layout.generation === this.generation &&
      this.out.length === this.handedOut.length &&
      this.out.at(-1) === this.handedOut.last;
    if (same) {
      for (let i = Math.max(0, this.synced - 1); i < items.length; i++) this.out[i] = items[i]!;
      this.out.length = items.length;
      for (const i of this.marked) if (i < items.length) this.out[i] = items[i]!;
    } else {
      this.out = items.slice();
      this.previousEnd = null;
    }
    this.items = items;
    this.generation = layout.generation;
    this.synced = items.length;

    const spots = this.spots(items, layout, used);
    this.marked = [...new Set(spots.map((s) => s.item))];
    for (const item of this.marked) {
      const pieces = new Set(spots.filter((s) => s.item === item).map((s) => s.block));
      this.out[item] = this.dialect.mark(items[item]!, pieces);
    }
    this.handedOut = { length: this.out.length, last: this.out.at(-1) };
    return this.out;
  }

  private spots(items: readonly M[], layout: RequestLayout, used: number): Spot[] {
    const wanted: (Spot | null)[] = [];
    if (layout.bodyEmpty) {
      this.previousEnd = null;
      return [];
    }
    if (layout.headItems > 0 && layout.headLast)
      wanted.push(this.spotAt(layout.headLast as M, layout.headItems - 1));
    // A request ending on an assistant turn (a prefill) has it trimmed now and rewritten next turn.
    let last = items.length - 1;
    if (last > 0 && items[last]!.role === 'assistant') last--;
    const end = last >= 0 ? this.spotAt(items[last]!, last) : null;
    wanted.push(end);
    if (this.previousEnd && this.previousEnd.item < items.length) wanted.push(this.previousEnd);
    const spots: Spot[] = [];
    for (const s of wanted) {
      if (s === null || spots.some((t) => t.item === s.item && t.block === s.block)) continue;
      if (used + spots.length >= MAX_BREAKPOINTS) break;
      spots.push(s);
    }
    this.previousEnd = end;
    return spots;
  }

  private spotAt(turn: M, item: number): Spot | null {
    const block = this.dialect.cacheable(turn);
    return block === null ? null : { item, block };
  }
}

/** The system texts as blocks: the system prompt and a summary laid out as system each end a cached prefix. */
function systemBlocks(layout: RequestLayout, mark: AnthropicCacheControl): AnthropicTextBlock[] {
  const n = layout.system.length;
  return layout.system.map((text, i) => {
    const cached =
      text !== '' &&
      ((i === 0 && layout.systemPrompt) || (i === n - 1 && i >= (layout.systemPrompt ? 1 : 0)));
    return cached ? { type: 'text', text, cache_control: mark } : { type: 'text', text };
  });
}

/** The same request without its breakpoints, the system as one string: what `renderContext` builds. */
export function withoutBreakpoints(payload: AnthropicPayload): AnthropicPayload {
  const drop = (b: AnthropicBlock): AnthropicBlock => {
    if (!('cache_control' in b)) return b;
    const { cache_control: _, ...rest } = b;
    return rest as AnthropicBlock;
  };
  const messages = payload.messages.map((m) =>
    m.content.some((b) => 'cache_control' in b) ? { role: m.role, content: m.content.map(drop) } : m,
  );
  const system = Array.isArray(payload.system)
    ? payload.system.map((b) => b.text).join('\n\n')
    : payload.system;
  return system === undefined ? { messages } : { system, messages };
}
