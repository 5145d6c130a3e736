/** In-process rows: per-turn costs by history and window size, compaction, and the AI SDK reference. */
import { randomBytes } from 'node:crypto';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ModelMessage, pruneMessages } from 'ai';
import pg from 'pg';
import { renderContext } from '../src/context/index.js';
import { syntheticSession } from '../src/demo/synthetic.js';
import { openSession, type Session, type SessionOptions } from '../src/session/index.js';
import { memoryStore } from '../src/store/index.js';
import { postgresStore } from '../src/store/postgres.js';
import { sqliteStore } from '../src/store/sqlite.js';
import type { Store } from '../src/store/store.js';
import { fillStore } from './fill.js';

export type StoreKind = 'memory' | 'sqlite' | 'postgres';

export interface TurnRow {
  name: string;
  store: StoreKind | 'ai';
  size: number;
  medianMicros: number;
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return Math.round(s[Math.floor(s.length / 2)]! * 10) / 10;
}

/** Steps to replay per turn, from a different seed than the history. */
const steps = [...syntheticSession({ messages: 1_000, seed: 99 })].filter((m) => m.role === 'assistant');

/** Where filled sessions come from: SQLite files are built once per size and copied per use. */
export class Sessions {
  private readonly templates = new Map<number, string>();
  private copies = 0;

  private readonly schemas: string[] = [];

  constructor(
    private readonly dir: string,
    private readonly pgUrl?: string,
  ) {}

  async store(kind: StoreKind, size: number): Promise<Store> {
    if (kind === 'memory') {
      const store = memoryStore();
      await fillStore(store, 's', size);
      return store;
    }
    if (kind === 'postgres') {
      if (this.pgUrl === undefined) throw new Error('no Postgres server for the bench');
      const schema = `condense_bench_${randomBytes(6).toString('hex')}`;
      this.schemas.push(schema);
      const store = postgresStore({ connectionString: this.pgUrl, schema });
      await fillStore(store, 's', size);
      return store;
    }
    return sqliteStore({ path: this.copy(await this.template(size)) });
  }

  /** The SQLite file of a never-compacted session `s` of `size` messages, built once per size. */
  async template(size: number): Promise<string> {
    let template = this.templates.get(size);
    if (template === undefined) {
      template = join(this.dir, `template-${size}.db`);
      const store = sqliteStore({ path: template });
      await fillStore(store, 's', size);
      await store.close();
      this.templates.set(size, template);
    }
    return template;
  }

  /** A fresh copy of a template, for one use. */
  copy(template: string): string {
    const path = join(this.dir, `copy-${this.copies++}.db`);
    copyFileSync(template, path);
    return path;
  }

  /** Drops the Postgres schemas made for the run. */
  async dispose(): Promise<void> {
    if (this.pgUrl === undefined || this.schemas.length === 0) return;
    const client = new pg.Client({ connectionString: this.pgUrl });
    await client.connect();
    try {
      for (const schema of this.schemas) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    } finally {
      await client.end();
    }
  }
}

/** A window as large as the history: nothing compacts or prunes, the whole history is sent. */
// No byte cap either: a 75,000-entry window is ~300 MB, over the 32 MiB a provider takes, and the
// session would compact it on the first prepare().
const UNBOUNDED: SessionOptions = {
  model: 'bench',
  limits: { contextWindow: 0 },
  budget: { maxRequestBytes: 0 },
  prune: false,
};

/** A real model's window (200k): the first compaction of a long history happens at once. */
const REAL: SessionOptions = { model: 'claude-sonnet-4-5' };

async function timeTurns(count: number, turn: (i: number) => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    await turn(i);
    times.push((performance.now() - t0) * 1000);
  }
  return median(times);
}

function step(session: Session, i: number, promptTokens: number) {
  return session.recordStep({
    message: steps[i % steps.length]!,
    usage: { prompt_tokens: promptTokens + i, completion_tokens: 200 },
  });
}

/** A session ready for one kind of turn: the turn, and what closes its store. */
interface TurnRig {
  name: string;
  turn(i: number): Promise<unknown>;
  close(): Promise<void>;
}

type RigOf = (sessions: Sessions, kind: StoreKind, size: number) => Promise<TurnRig>;

/** append step + usage + the O(1) before-turn check, on an unbounded window of `size` messages. */
const checkRig: RigOf = async (sessions, kind, size) => {
  const store = await sessions.store(kind, size);
  const session = await openSession(store, 's', UNBOUNDED);
  return {
    name: 'turn: append step + record usage + before-turn check',
    async turn(i) {
      await step(session, i, 50_000);
      session.estimate();
    },
    close: () => store.close(),
  };
};

/** A turn with prepare() once the long history has been compacted, as in a running agent. */
const compactedRig: RigOf = async (sessions, kind, size) => {
  const store = await sessions.store(kind, size);
  const session = await openSession(store, 's', REAL);
  await session.compact({});
  return {
    name: 'turn with prepare(), after compaction',
    async turn(i) {
      await step(session, i, 20_000);
      await session.prepare({ format: 'openai' });
    },
    close: () => store.close(),
  };
};

async function timedRig(rigOf: RigOf, sessions: Sessions, kind: StoreKind, size: number, turns: number) {
  const rig = await rigOf(sessions, kind, size);
  const medianMicros = await timeTurns(turns, (i) => rig.turn(i));
  await rig.close();
  return { name: rig.name, store: kind, size, medianMicros };
}

export const checkTurn = (sessions: Sessions, kind: StoreKind, size: number, turns: number) =>
  timedRig(checkRig, sessions, kind, size, turns);

export const compactedTurn = (sessions: Sessions, kind: StoreKind, size: number, turns: number) =>
  timedRig(compactedRig, sessions, kind, size, turns);

/** Turns of each store taken in alternating blocks, so both are timed over the same stretch of the run. */
const BLOCK = 20;

/**
 * The same turn on SQLite and on Postgres, side by side: the two sessions' turns alternate in
 * blocks, so a slower or faster spell of the machine falls on both stores, not on one.
 */
export async function sideBySide(sessions: Sessions, size: number, turns: number): Promise<TurnRow[]> {
  const rows: TurnRow[] = [];
  for (const rigOf of [checkRig, compactedRig]) {
    const kinds = ['sqlite', 'postgres'] as const;
    const rigs = [await rigOf(sessions, kinds[0], size), await rigOf(sessions, kinds[1], size)];
    const times: number[][] = [[], []];
    for (let from = 0; from < turns; from += BLOCK) {
      for (const [k, rig] of rigs.entries()) {
        for (let i = from; i < Math.min(turns, from + BLOCK); i++) {
          const t0 = performance.now();
          await rig.turn(i);
          times[k]!.push((performance.now() - t0) * 1000);
        }
      }
    }
    for (const [k, rig] of rigs.entries()) {
      rows.push({ name: rig.name, store: kinds[k]!, size, medianMicros: median(times[k]!) });
      await rig.close();
    }
  }
  return rows;
}

/**
 * A turn with prepare() on a window of `size` entries that never compacts (the window is as large
 * as the history): what a turn costs between compactions. Returns the AI SDK payload of the last
 * turn too, for the reference row.
 */
export async function uncompactedTurn(sessions: Sessions, kind: StoreKind, size: number, turns: number) {
  const store = await sessions.store(kind, size);
  const session = await openSession(store, 's', UNBOUNDED);
  const medianMicros = await timeTurns(turns, async (i) => {
    await step(session, i, 50_000);
    await session.prepare({ format: 'ai-sdk' });
  });
  const history = renderContext(session.activeEntries(), { format: 'ai-sdk' }) as ModelMessage[];
  await store.close();
  const row = { name: 'turn with prepare(), window never compacted', store: kind, size, medianMicros };
  return { row, history };
}

/**
 * AI SDK `pruneMessages` per call on the same history: what an AI SDK agent pays per turn to trim
 * its messages. Two settings: reasoning only (its cheapest call, a lower bound), and the docs'
 * example, which also drops tool calls and results before the last two messages.
 */
export function pruneMessagesCalls(history: ModelMessage[], size: number, calls: number): TurnRow[] {
  const settings = [
    { name: 'reasoning only', options: { reasoning: 'before-last-message' } },
    {
      name: 'reasoning + tool calls before the last 2 messages',
      options: { reasoning: 'before-last-message', toolCalls: 'before-last-2-messages' },
    },
  ] as const;
  return settings.map(({ name, options }) => {
    const times: number[] = [];
    for (let i = 0; i < calls; i++) {
      const t0 = performance.now();
      pruneMessages({ messages: history, ...options });
      times.push((performance.now() - t0) * 1000);
    }
    return {
      name: `AI SDK pruneMessages (${name}), same history: reference`,
      store: 'ai' as const,
      size,
      medianMicros: median(times),
    };
  });
}
