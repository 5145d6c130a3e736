import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InputError } from '../../src/model/errors.js';
import { openSession } from '../../src/session/index.js';
import { type ChannelEvent, DuplicateEventError, type EventLedger } from '../../src/store/events.js';
import type { Store } from '../../src/store/store.js';

const T0 = Date.UTC(2026, 0, 29, 10, 0, 0);

const event = (n: number, extra: Partial<ChannelEvent> = {}): ChannelEvent => ({
  channel: n % 2 === 0 ? 'discord' : 'imessage',
  externalId: `msg-${n}`,
  author: n % 3 === 0 ? 'carol' : 'alice',
  at: T0 + n * 60_000,
  body: `message number ${n} about the weekly deploy`,
  ...extra,
});

/**
 * One behaviour suite for every events ledger (memory, SQLite, Postgres later): append-only
 * records, idempotent redelivery, all-or-nothing batches, listing and full-text search. `make`
 * returns an empty store keeping a ledger.
 */
export function describeLedgerConformance(
  name: string,
  make: () => Promise<Store & EventLedger> | (Store & EventLedger),
  cleanup?: (store: Store & EventLedger) => Promise<void> | void,
): void {
  describe(`${name} events ledger conformance`, () => {
    let store: Store & EventLedger;
    beforeEach(async () => {
      store = await make();
    });
    afterEach(async () => {
      await store.close();
      await cleanup?.(store);
    });

    it('records events with an id and ledger order, and gets them back by id', async () => {
      const before = Date.now();
      const [a, b] = await store.addEvents([event(1), event(2, { metadata: { thread: 't1', n: [1] } })]);
      expect(a).toStrictEqual({
        id: expect.any(String),
        seq: expect.any(Number),
        channel: 'imessage',
        externalId: 'msg-1',
        author: 'alice',
        at: T0 + 60_000,
        body: 'message number 1 about the weekly deploy',
        metadata: {},
        recordedAt: expect.any(Number),
      });
      expect(a!.recordedAt).toBeGreaterThanOrEqual(before);
      expect(b!.seq).toBeGreaterThan(a!.seq);
      expect(b!.metadata).toStrictEqual({ thread: 't1', n: [1] });
      expect(await store.getEvent(b!.id)).toStrictEqual(b);
      expect(await store.getEvent('nope')).toBeUndefined();
    });

    it('a redelivered event is the stored one, however its metadata keys are ordered', async () => {
      const [first] = await store.addEvents([event(1, { metadata: { a: 1, b: { c: 2, d: 3 } } })]);
      const again = await store.addEvents([
        event(1, { metadata: { b: { d: 3, c: 2 }, a: 1 } }),
        event(1, { metadata: { b: { d: 3, c: 2 }, a: 1 } }),
      ]);
      expect(again).toStrictEqual([first, first]);
      expect(await store.listEvents()).toStrictEqual([first]);
    });

    it('refuses the same key with other content, and writes nothing of that batch', async () => {
      await store.addEvents([event(1)]);
      const error = await store.addEvents([event(2), event(1, { body: 'edited' })]).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DuplicateEventError);
      expect(String(error)).toMatch(/"msg-1" of channel "imessage" is already in the ledger/);
      expect((await store.listEvents()).map((e) => e.externalId)).toStrictEqual(['msg-1']);
      await expect(store.addEvents([event(3), event(3, { at: 5 })])).rejects.toBeInstanceOf(
        DuplicateEventError,
      );
      expect(await store.listEvents()).toHaveLength(1);
    });

    it('refuses a malformed event naming its index and field, writing nothing', async () => {
      const bad = [event(1), { ...event(2), at: 'yesterday' }] as unknown as ChannelEvent[];
      const error = await store.addEvents(bad).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InputError);
      expect(String(error)).toMatch(/field events\[1\]\.at/);
      await expect(store.addEvents([{ ...event(3), channel: '' }])).rejects.toThrow(/events\[0\]\.channel/);
      await expect(store.addEvents([{ ...event(3), colour: 'red' } as ChannelEvent])).rejects.toThrow(
        InputError,
      );
      expect(await store.listEvents()).toStrictEqual([]);
    });

    it('lists in time order, by channel, author and time range, up to a limit', async () => {
      // Recorded out of time order: the listing follows `at`, not arrival.
      await store.addEvents([event(5), event(1), event(4), event(2), event(3), event(6)]);
      const ids = async (filter = {}) => (await store.listEvents(filter)).map((e) => e.externalId);
      expect(await ids()).toStrictEqual(['msg-1', 'msg-2', 'msg-3', 'msg-4', 'msg-5', 'msg-6']);
      expect(await ids({ channel: 'discord' })).toStrictEqual(['msg-2', 'msg-4', 'msg-6']);
      expect(await ids({ author: 'carol' })).toStrictEqual(['msg-3', 'msg-6']);
      expect(await ids({ since: T0 + 2 * 60_000, until: T0 + 5 * 60_000 })).toStrictEqual([
        'msg-2',
        'msg-3',
        'msg-4',
      ]);
      expect(await ids({ limit: 2 })).toStrictEqual(['msg-1', 'msg-2']);
      await expect(store.listEvents({ limit: 0 })).rejects.toThrow(/limit/);
    });

    it('searches author and body, best first then newest, within the filters', async () => {
      await store.addEvents([
        event(1, { body: 'the staging deploy failed at 3am' }),
        event(2, { body: 'deploy deploy: rollback done' }),
        event(3, { body: 'lunch?' }),
        event(4, { body: 'deploy again tomorrow' }),
      ]);
      const found = async (q: string, filter = {}) =>
        (await store.searchEvents(q, filter)).map((h) => h.event.externalId);
      expect(await found('deploy')).toStrictEqual(['msg-2', 'msg-4', 'msg-1']);
      expect(await found('carol')).toStrictEqual(['msg-3']);
      expect(await found('deploy', { channel: 'discord' })).toStrictEqual(['msg-2', 'msg-4']);
      expect(await found('deploy', { until: T0 + 3 * 60_000 })).toStrictEqual(['msg-2', 'msg-1']);
      expect(await found('"staging deploy" 3am')).toStrictEqual(['msg-1']);
      const [hit] = await store.searchEvents('rollback');
      expect(hit!.snippet).toBe('deploy deploy: «rollback» done');
      expect(hit!.event).toStrictEqual(await store.getEvent(hit!.event.id));
      await expect(store.searchEvents(' ?! ')).rejects.toBeInstanceOf(InputError);
    });

    it('is never compacted, pruned or deleted with the sessions that quoted it', async () => {
      const session = await openSession(store, 's', {
        model: 'm',
        limits: { contextWindow: 20_000, maxOutput: 2_000 },
        compaction: { plan: { keepNone: true } },
      });
      const { events, entry } = await session.quoteEvents([event(1), event(2)]);
      await session.append({ role: 'assistant', parts: [{ type: 'text', text: 'Noted. '.repeat(1_500) }] });
      expect(entry.message.metadata?.events).toStrictEqual(
        events.map((e) => ({ id: e.id, channel: e.channel, externalId: e.externalId })),
      );
      expect((await session.compact()).status).toBe('compacted');
      await store.deleteSession('s');
      expect(await store.listEvents()).toStrictEqual(events);
      expect((await store.searchEvents('weekly')).map((h) => h.event.id)).toStrictEqual([
        events[1]!.id,
        events[0]!.id,
      ]);
    });
  });
}
