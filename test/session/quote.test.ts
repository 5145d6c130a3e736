import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/model/errors.js';
import { openSession } from '../../src/session/index.js';
import { quotedEvents } from '../../src/session/quote.js';
import { memoryStore, type Store } from '../../src/store/index.js';

const options = { model: 'm', limits: { contextWindow: 50_000, maxOutput: 2_000 } };
const event = {
  channel: 'discord',
  externalId: '42',
  author: 'alice',
  at: Date.UTC(2026, 0, 29),
  body: 'ship it',
};

describe('session.quoteEvents', () => {
  it('appends one user message quoting the events, referencing the ledger', async () => {
    const session = await openSession(memoryStore(), 's', options);
    const { events, entry } = await session.quoteEvents(event);
    expect(entry.message).toStrictEqual({
      role: 'user',
      parts: [{ type: 'text', text: '[discord] alice (2026-01-29T00:00:00.000Z): ship it' }],
      metadata: { events: [{ id: events[0]!.id, channel: 'discord', externalId: '42' }] },
    });
    expect(quotedEvents(entry.message)).toStrictEqual([
      { id: events[0]!.id, channel: 'discord', externalId: '42' },
    ]);
    expect(quotedEvents({ role: 'user', parts: [] })).toStrictEqual([]);
    // Quoting the same delivery again records nothing new in the ledger.
    const again = await session.quoteEvents([event], { format: (e) => `${e.author}: ${e.body}` });
    expect(again.events).toStrictEqual(events);
    expect(again.entry.message.parts).toStrictEqual([{ type: 'text', text: 'alice: ship it' }]);
  });

  it('refuses an empty list, and a store without a ledger, writing nothing', async () => {
    const session = await openSession(memoryStore(), 's', options);
    await expect(session.quoteEvents([])).rejects.toBeInstanceOf(InputError);
    const { addEvents: _a, getEvent: _g, listEvents: _l, searchEvents: _s, ...plain } = memoryStore();
    const bare = await openSession(plain as Store, 's', options);
    await expect(bare.quoteEvents(event)).rejects.toThrow(/the memory store keeps no events ledger/);
    expect(await bare.history()).toStrictEqual([]);
  });
});
