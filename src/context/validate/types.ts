export type Provider = 'openai' | 'anthropic' | 'gemini' | 'ai-sdk';

/**
 * One broken rule. `index` is the position of the offending message (Anthropic/OpenAI/AI SDK
 * `messages`, Gemini `contents`), or -1 for the payload as a whole (its shape, the system slot).
 */
export interface Violation {
  index: number;
  rule: string;
  message: string;
}

export type Obj = Record<string, unknown>;

export function isObj(value: unknown): value is Obj {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function nonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

/** Collects violations in the order found. */
export class Violations {
  readonly list: Violation[] = [];

  add(index: number, rule: string, message: string): void {
    this.list.push({ index, rule, message });
  }

  /** Calls still open when their answer was due: `what` says, in the provider's words, what was missing. */
  missingResults(open: { calls: OpenCalls; at: number } | null, what: string): void {
    if (open === null || open.calls.size === 0) return;
    this.add(open.at, 'missing-tool-result', `${what}: ${open.calls.remaining().join(', ')}`);
  }
}

/**
 * Call ids that must be unique within a scope: one message (OpenAI, where results pair by id inside
 * the block that follows), one turn (Gemini) or the whole request (Anthropic; AI SDK for portability).
 */
export class UniqueIds {
  private readonly seen = new Set<string>();

  constructor(
    private readonly what: string,
    private readonly scope: 'message' | 'turn' | 'request',
  ) {}

  /** Records `id`, flagging it when the scope already holds it. */
  check(v: Violations, i: number, id: string): void {
    if (this.seen.has(id))
      v.add(i, 'duplicate-tool-call-id', `${this.what} id ${id} is used twice in the ${this.scope}`);
    this.seen.add(id);
  }
}

/**
 * Pairs calls with results by position: every result consumes one open call with its id, so ids
 * repeated inside one request (tau-bench) still pair one to one.
 */
export class OpenCalls {
  private readonly open = new Map<string, number>();
  private readonly called = new Set<string>();

  call(id: string): void {
    this.open.set(id, (this.open.get(id) ?? 0) + 1);
    this.called.add(id);
  }

  /** `answered`, or why not: every call with this id already has a result, or there is no such call. */
  answer(id: string): 'answered' | 'duplicate' | 'unknown' {
    const n = this.open.get(id) ?? 0;
    if (n === 0) return this.called.has(id) ? 'duplicate' : 'unknown';
    if (n === 1) this.open.delete(id);
    else this.open.set(id, n - 1);
    return 'answered';
  }

  /** Ids still unanswered (repeated as often as they are open). */
  remaining(): string[] {
    const out: string[] = [];
    for (const [id, n] of this.open) for (let i = 0; i < n; i++) out.push(id);
    return out;
  }

  get size(): number {
    return this.open.size;
  }
}
