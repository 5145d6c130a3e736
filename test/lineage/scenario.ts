/** Seed 002's scenario, shared by the turn-view tests: the Nexus preset and turns of exact sizes. */
import { expect } from 'vitest';
import type { CompactionTurn, Turn } from '../../src/lineage/index.js';
import type { Message } from '../../src/model/index.js';
import { openSession, presetOptions, type Session, type SessionOptions } from '../../src/session/index.js';
import { memoryStore, type Store } from '../../src/store/index.js';
import { scripted, sizedSay, sizedUser } from '../presets/support.js';

export const label = (n: number) => `turn-${String(n).padStart(3, '0')}`;

/** Turn n: a 1,000-token query and its response, `tokens` in all. */
export const turn = (n: number, tokens = 15_000): Message[] => [
  sizedUser(`${label(n)} query`, 1_000),
  sizedSay(`${label(n)} response`, tokens - 1_000),
];

/** The seed-002 preset on a 200k window, its summaries scripted like the seed's examples. */
export async function nexus(store: Store = memoryStore(), extra: SessionOptions = {}): Promise<Session> {
  const summarizer = scripted((request, n) =>
    n === 1
      ? 'User discussed project setup, decided on TypeScript...'
      : `Previously summarized: [${request.previousSummary}]. Then user worked on auth...`,
  );
  const preset = presetOptions('seed-002');
  return openSession(store, 'nexus', {
    ...preset,
    model: 'nexus-model',
    metadata: { model: 'nexus-model' },
    limits: { contextWindow: 200_000 },
    compaction: { ...preset.compaction, summarizer },
    ...extra,
  });
}

export async function compactNow(session: Session): Promise<void> {
  const prepared = await session.prepare();
  expect(prepared.compaction?.status).toBe('compacted');
}

/** Turns 1-5 (180,001 tokens), compacted as in the seed: summarize 1-3, keep 4-5. */
export async function firstCompaction(session: Session): Promise<void> {
  for (const [n, tokens] of [
    [1, 50_000],
    [2, 50_000],
    [3, 50_001],
    [4, 15_000],
    [5, 15_000],
  ] as const)
    await session.append(turn(n, tokens));
  await compactNow(session);
}

/** Then turns 6-8 and the second compaction: summarize compact-001 through 6, keep 7-8. */
export async function secondCompaction(session: Session): Promise<void> {
  await firstCompaction(session);
  await session.append([...turn(6, 121_000), ...turn(7), ...turn(8)]);
  await compactNow(session);
}

/** The seed's name of a turn: turn-00n by its query's text, compact-00k by its rank. */
export function seedNames(turns: Turn[]): (t: Turn) => string {
  const compactions = turns.filter((t) => t.turnType === 'compaction').map((t) => t.id);
  return (t) => {
    if (t.turnType === 'compaction') return `compact-00${compactions.indexOf(t.id) + 1}`;
    const first = t.queryMessages[0]?.parts[0];
    return first?.type === 'text' ? first.text.split(' ')[0]! : `?${t.id}`;
  };
}

export function asCompaction(t: Turn): CompactionTurn {
  if (t.turnType !== 'compaction') throw new Error(`turn ${t.id} is not a compaction`);
  return t;
}
