import type { Entry } from '../model/entry.js';
import type { TokenEstimate } from '../tokens/index.js';

/**
 * What fills the model's window on the next request, by kind, like Claude Code's `/context`: the
 * rows add up to the next-prompt figure exactly, and the free space and the compaction trigger
 * are placed against the window. Pure: the CLI prints it, a report can draw it.
 */
export type BreakdownKey =
  | 'system'
  | 'tools'
  | 'summary'
  | 'user'
  | 'assistant'
  | 'tool-results'
  | 'unstored';

export interface BreakdownRow {
  key: BreakdownKey;
  label: string;
  tokens: number;
  /** Share of the window (of the next prompt when the window is unlimited), 0..1. */
  share: number;
  /** Tool results by tool name, largest first. */
  byTool?: { name: string; tokens: number }[];
}

export interface ContextBreakdown {
  /** The next prompt's size: what the rows add up to. */
  total: number;
  /** 0: unlimited. */
  contextWindow: number;
  /** Room left in the window after the next prompt (null when unlimited). */
  free: number | null;
  /** The prompt size at which the session compacts (null: never). */
  trigger: number | null;
  /** Held back for the model's answer: window − usable budget (null when unlimited). */
  reservedForOutput: number | null;
  rows: BreakdownRow[];
}

export interface BreakdownInput {
  /** The estimator's raw counts of the system prompt and of the tool definitions. */
  systemRaw: number;
  toolsRaw: number;
  /** The entries of the model's view. */
  entries: readonly Entry[];
  /** The next-prompt figure and the ratio it scales raw counts by. */
  estimate: TokenEstimate;
  contextWindow: number;
  trigger: number | null;
  usable: number | null;
}

const LABELS: Record<BreakdownKey, string> = {
  system: 'System prompt',
  tools: 'Tool definitions',
  summary: 'Summary of earlier history',
  user: 'User messages',
  assistant: 'Assistant messages',
  'tool-results': 'Tool calls and results',
  unstored: 'Not in the stored log',
};

/** Raw counts of the view by kind: what each entry costs now (a pruned output as its placeholder). */
function rawCounts(entries: readonly Entry[]): {
  raw: Map<BreakdownKey, number>;
  byTool: Map<string, number>;
} {
  const raw = new Map<BreakdownKey, number>();
  const byTool = new Map<string, number>();
  const add = (key: BreakdownKey, n: number) => raw.set(key, (raw.get(key) ?? 0) + n);
  for (const entry of entries) {
    if (entry.kind === 'compaction') {
      add('summary', entry.tokens);
      continue;
    }
    let tools = 0;
    entry.message.parts.forEach((part, i) => {
      if (part.type !== 'tool') return;
      const n = entry.partTokens[i] ?? 0;
      tools += n;
      byTool.set(part.name, (byTool.get(part.name) ?? 0) + n);
    });
    add('tool-results', tools);
    const role = entry.message.role;
    const own = entry.tokens - tools;
    const summary = entry.message.metadata?.summary === true;
    add(
      summary ? 'summary' : role === 'assistant' ? 'assistant' : role === 'system' ? 'system' : 'user',
      own,
    );
  }
  return { raw, byTool };
}

/** `values` scaled to add up to `total`, then rounded to integers that do so exactly (largest remainders first). */
function apportion(values: number[], total: number): number[] {
  const sum = values.reduce((a, b) => a + b, 0);
  const scaled = sum > 0 ? values.map((v) => (v * total) / sum) : values.map(() => 0);
  const floors = scaled.map((v) => Math.floor(v));
  let left = sum > 0 ? total - floors.reduce((a, b) => a + b, 0) : 0;
  const order = scaled.map((v, i) => [v - Math.floor(v), i] as const).sort((a, b) => b[0] - a[0]);
  for (let k = 0; left > 0; k = (k + 1) % order.length, left--) floors[order[k]![1]]! += 1;
  return floors;
}

export function contextBreakdown(input: BreakdownInput): ContextBreakdown {
  const { raw, byTool } = rawCounts(input.entries);
  raw.set('system', (raw.get('system') ?? 0) + input.systemRaw);
  raw.set('tools', input.toolsRaw);
  const total = input.estimate.tokens;
  const ratio = input.estimate.ratio;
  const keys = (['system', 'tools', 'summary', 'user', 'assistant', 'tool-results'] as const).filter(
    (k) => (raw.get(k) ?? 0) > 0,
  );
  let scaled = keys.map((k) => (raw.get(k) ?? 0) * ratio);
  const known = scaled.reduce((a, b) => a + b, 0);
  // The provider counted more than the stored log explains (an agent's own system prompt and tools
  // that condense was not given): a row of its own. Counted less (pruned since it reported): the
  // rows shrink in proportion.
  const unstored = Math.max(0, total - known);
  if (known > total && known > 0) scaled = scaled.map((v) => (v * total) / known);
  const rowKeys: BreakdownKey[] = unstored > 0 ? [...keys, 'unstored'] : [...keys];
  const tokens = apportion(unstored > 0 ? [...scaled, unstored] : scaled, total);
  const window = input.contextWindow;
  const of = (n: number) => (window > 0 ? n / window : total > 0 ? n / total : 0);
  const toolScale =
    (raw.get('tool-results') ?? 0) > 0
      ? (tokens[rowKeys.indexOf('tool-results')] ?? 0) / raw.get('tool-results')!
      : 0;
  const rows = rowKeys.map((key, i): BreakdownRow => {
    const row: BreakdownRow = { key, label: LABELS[key], tokens: tokens[i]!, share: of(tokens[i]!) };
    if (key === 'tool-results')
      row.byTool = [...byTool]
        .map(([name, n]) => ({ name, tokens: Math.round(n * toolScale) }))
        .sort((a, b) => b.tokens - a.tokens);
    return row;
  });
  return {
    total,
    contextWindow: window,
    free: window > 0 ? Math.max(0, window - total) : null,
    trigger: input.trigger,
    reservedForOutput: window > 0 && input.usable !== null ? Math.max(0, window - input.usable) : null,
    rows,
  };
}

/** One glyph per kind, so that a bar of plain text tells them apart. */
export const BAR_GLYPHS: Record<BreakdownKey | 'free', string> = {
  system: '▓',
  tools: '▓',
  summary: '▒',
  user: '█',
  assistant: '█',
  'tool-results': '░',
  unstored: '▚',
  free: '·',
};

/**
 * The window as a bar of `width` cells: each kind's glyph in proportion, the free space as dots,
 * and `|` where compaction triggers. An unlimited window is drawn as the prompt alone.
 */
export function breakdownBar(b: ContextBreakdown, width = 50): string {
  const span = b.contextWindow > 0 ? b.contextWindow : Math.max(1, b.total);
  const cells: string[] = [];
  const lengths = apportion(
    b.rows.map((r) => (r.tokens / span) * width),
    Math.min(width, Math.round((Math.min(b.total, span) / span) * width)),
  );
  b.rows.forEach((r, i) => {
    for (let k = 0; k < lengths[i]!; k++) cells.push(BAR_GLYPHS[r.key]);
  });
  while (cells.length < width) cells.push(BAR_GLYPHS.free);
  if (b.trigger !== null && b.contextWindow > 0) {
    const at = Math.min(width - 1, Math.floor((b.trigger / b.contextWindow) * width));
    cells.splice(at, 1, '|');
  }
  return cells.join('');
}
