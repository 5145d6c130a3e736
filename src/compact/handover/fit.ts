import type { Estimator } from '../../tokens/estimator.js';

/**
 * Fitting sections of items into a token budget. Every section has a share; a section that needs
 * less than its share gives the rest to the others; within a section the most important items
 * come first, and an item that does not fit whole may be shown short (its `short` form). What is
 * left out is counted per section. The final text is measured, never only estimated: it is never
 * longer than the budget.
 */

export interface FitItem {
  text: string;
  /** A shorter form, shown when the whole one does not fit. */
  short?: string;
}

export interface FitSection {
  id: string;
  weight: number;
  /**
   * The section's lines for the items shown (indices into `items`, each with its chosen form) and
   * the count left out; no line at all when nothing is shown.
   */
  render(shown: ReadonlyMap<number, string>, omitted: number): string[];
  /** Lines the section adds besides its items (title, pointer to what is left out): estimated once. */
  overhead: string[];
  /** Served before the shares: its first item (the current task) whole, when the budget allows. */
  first?: boolean;
  items: FitItem[];
  /** Item indices, most important first. */
  priority: number[];
}

export interface Fitted {
  text: string;
  tokens: number;
  /** Items left out, per section id (only sections with some). */
  omitted: Record<string, number>;
  /** Items shown, per section id. */
  shown: Map<string, Map<number, string>>;
}

/** Per-line framing the text estimate adds when lines are joined. */
const LINE = 1;
/**
 * A text longer than this many characters per token of the budget cannot fit: it is not counted
 * at all (a tokenizer may take seconds over a pathological 200,000-character request).
 */
const MAX_CHARS_PER_TOKEN = 8;

function allocate(budget: number, needs: number[], weights: number[]): number[] {
  const alloc = needs.map(() => 0);
  let open = needs.map((_, i) => i).filter((i) => needs[i]! > 0);
  let left = budget;
  // Water-filling: sections needing less than their share take what they need, the rest is shared again.
  while (open.length > 0 && left > 0) {
    const total = open.reduce((a, i) => a + weights[i]!, 0);
    const satisfied = open.filter((i) => needs[i]! - alloc[i]! <= (left * weights[i]!) / total);
    if (satisfied.length === 0) {
      for (const i of open) alloc[i]! += Math.floor((left * weights[i]!) / total);
      break;
    }
    for (const i of satisfied) {
      left -= needs[i]! - alloc[i]!;
      alloc[i] = needs[i]!;
    }
    open = open.filter((i) => !satisfied.includes(i));
  }
  return alloc;
}

/**
 * Fits the sections into `budget` tokens after `fixed` (text always present: headings). `compose`
 * joins the fixed text and each section's lines into the final text.
 */
export function fitSections(
  sections: readonly FitSection[],
  budget: number,
  estimator: Pick<Estimator, 'text'>,
  compose: (lines: Map<string, string[]>, omitted: Record<string, number>) => string,
): Fitted {
  const fits = (s: string) => s.length <= Math.max(1, budget) * MAX_CHARS_PER_TOKEN;
  const cost = (s: string) => (fits(s) ? estimator.text(s) + LINE : Number.POSITIVE_INFINITY);
  // What a section needs in all, for sharing: long texts by their length, not counted.
  const need = (s: string) => (fits(s) ? cost(s) : Math.ceil(s.length / 4));
  // The fixed text; the pointer to what is left out, when one is needed, is paid for at the end.
  const base = estimator.text(compose(new Map(), {}));
  const sizes = sections.map((s) => {
    const head = s.overhead.reduce((a, l) => a + cost(l), 0);
    const full = s.items.reduce((a, it) => a + need(it.text), 0);
    return { head, full: s.items.length === 0 ? 0 : head + full };
  });
  // A section served first gets its first item whole (its title too) before the rest is shared.
  const reserved = sections.map((s, si) =>
    s.first && s.items.length > 0
      ? Math.min(sizes[si]!.head + need(s.items[0]!.text), Math.max(0, budget - base))
      : 0,
  );
  const shared = allocate(
    Math.max(0, budget - base - reserved.reduce((a, x) => a + x, 0)),
    sizes.map((z, si) => Math.max(0, z.full - reserved[si]!)),
    sections.map((s) => s.weight),
  );
  const alloc = shared.map((x, si) => x + reserved[si]!);
  const shown = sections.map(() => new Map<number, string>());
  const spent = sections.map(() => 0);
  const order: Array<[number, number]> = [];
  const tryAdd = (si: number, limit: number): boolean => {
    const s = sections[si]!;
    const next = s.priority.find((i) => i < s.items.length && !shown[si]!.has(i));
    if (next === undefined) return false;
    const item = s.items[next]!;
    const head = spent[si] === 0 ? sizes[si]!.head : 0;
    for (const form of item.short === undefined ? [item.text] : [item.text, item.short]) {
      const c = cost(form) + head;
      if (spent[si]! + c <= limit) {
        shown[si]!.set(next, form);
        spent[si]! += c;
        order.push([si, next]);
        return true;
      }
    }
    return false;
  };
  sections.forEach((_, si) => {
    while (tryAdd(si, alloc[si]!));
  });
  // What the shares left unused goes to the sections in their order.
  let slack = budget - base - spent.reduce((a, x) => a + x, 0);
  for (let si = 0; si < sections.length && slack > 0; si++) {
    while (slack > 0) {
      const before = spent[si]!;
      if (!tryAdd(si, before + slack)) break;
      slack -= spent[si]! - before;
    }
  }
  const omittedNow = () => {
    const out: Record<string, number> = {};
    sections.forEach((s, si) => {
      const n = s.items.length - shown[si]!.size;
      if (n > 0) out[s.id] = n;
    });
    return out;
  };
  const text = () =>
    compose(
      new Map(sections.map((s, si) => [s.id, s.render(shown[si]!, s.items.length - shown[si]!.size)])),
      omittedNow(),
    );
  let out = text();
  let tokens = estimator.text(out);
  // The estimate of lines apart is not the estimate of the text: drop the last-added items until it fits.
  while (tokens > budget && order.length > 0) {
    let freed = 0;
    while (order.length > 0 && freed < tokens - budget) {
      const [si, i] = order.pop()!;
      freed += cost(shown[si]!.get(i)!);
      shown[si]!.delete(i);
      if (shown[si]!.size === 0) spent[si] = 0;
    }
    out = text();
    tokens = estimator.text(out);
  }
  if (tokens > budget) return { text: '', tokens: 0, omitted: omittedAll(sections), shown: new Map() };
  return {
    text: out,
    tokens,
    omitted: omittedNow(),
    shown: new Map(sections.map((s, si) => [s.id, shown[si]!])),
  };
}

function omittedAll(sections: readonly FitSection[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of sections) if (s.items.length > 0) out[s.id] = s.items.length;
  return out;
}
