import { z } from 'zod';
import { jsonValueSchema } from './json.js';
import { type Message, messageSchema } from './message.js';
import type { Part } from './parts.js';

/** What the summarizer extracted deterministically; carried by the pivot for later compactions. */
export const pivotDetailsSchema = z.object({
  filesRead: z.array(z.string()),
  filesModified: z.array(z.string()),
  failedCommands: z.array(z.string()).optional(),
  constraints: z.array(z.string()).optional(),
  lastUserRequest: z.string().optional(),
  extra: z.record(z.string(), jsonValueSchema).optional(),
});

/** Where a pivot's summary goes in the view (see context/summary.ts for each layout). */
export const SUMMARY_LAYOUTS = ['user', 'user-plain', 'assistant', 'system', 'question+assistant'] as const;

/**
 * The pivot (Nexus's compaction turn). Everything up to `summarizedThroughId` is represented by
 * `summary`; the view sends the summary, then entries from `firstKeptId` (null: none kept) onward.
 */
export const pivotSchema = z.object({
  summary: z.string().min(1),
  summarizedThroughId: z.string().min(1),
  firstKeptId: z.string().min(1).nullable(),
  tokensBefore: z.number().int().nonnegative(),
  tokensAfter: z.number().int().nonnegative(),
  auto: z.boolean(),
  summarizer: z.string().min(1),
  model: z.string().optional(),
  details: pivotDetailsSchema,
  previousPivotId: z.string().min(1).nullable(),
  /** The marker message this compaction answered, if it was queued. */
  markerId: z.string().min(1).optional(),
  /**
   * The layout this summary is always sent in, over the session's: an imported agent's summary
   * was written to be sent as it is (Claude Code and Codex send it as a plain user message).
   */
  summaryAs: z.enum(SUMMARY_LAYOUTS).optional(),
});

const entryBase = {
  id: z.string().min(1),
  sessionId: z.string().min(1),
  parentId: z.string().min(1).nullable(),
  /** Position in the session's log, strictly increasing; loads select by it through an index. */
  seq: z.number().int().nonnegative(),
  createdAt: z.number(),
  /** Estimated tokens of the whole entry, computed once at append time. */
  tokens: z.number().int().nonnegative(),
  /** Estimated tokens of each part (tool parts: their output or error), aligned with `parts`. */
  partTokens: z.array(z.number().int().nonnegative()),
};

export const messageEntrySchema = z.object({
  ...entryBase,
  kind: z.literal('message'),
  message: messageSchema,
});

export const compactionEntrySchema = z.object({
  ...entryBase,
  kind: z.literal('compaction'),
  pivot: pivotSchema,
});

export const entrySchema = z.discriminatedUnion('kind', [messageEntrySchema, compactionEntrySchema]);

export type PivotDetails = z.infer<typeof pivotDetailsSchema>;
export type Pivot = z.infer<typeof pivotSchema>;
type EntryBase = {
  id: string;
  sessionId: string;
  parentId: string | null;
  seq: number;
  createdAt: number;
  tokens: number;
  partTokens: number[];
};
export type MessageEntry = EntryBase & { kind: 'message'; message: Message };
export type CompactionEntry = EntryBase & { kind: 'compaction'; pivot: Pivot };
export type Entry = MessageEntry | CompactionEntry;

export function isMessageEntry(entry: Entry): entry is MessageEntry {
  return entry.kind === 'message';
}

export function isCompactionEntry(entry: Entry): entry is CompactionEntry {
  return entry.kind === 'compaction';
}

/** The newest compaction entry of a list in log order: the pivot the view starts from. */
export function latestPivot(entries: readonly Entry[]): CompactionEntry | null {
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!;
    if (entry.kind === 'compaction') return entry;
  }
  return null;
}

/** New parts for one message entry (pruning marks), applied in a batch. */
export interface PartsUpdate {
  entryId: string;
  parts: Part[];
  partTokens: number[];
  tokens: number;
}
