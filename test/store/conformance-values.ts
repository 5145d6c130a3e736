import { describe, expect, it } from 'vitest';
import type { Entry } from '../../src/model/entry.js';
import type { SessionRecord } from '../../src/model/session.js';
import type { StoreHandle } from './conformance.js';
import { BIG_OUTPUT, commitAfter, richEntries, sessionRecord, textEntries } from './fixtures.js';

/** Values come back exactly as stored, and what callers hold is never the stored state itself. */
export function valueConformance(h: StoreHandle): void {
  async function storeRich(): Promise<{ record: SessionRecord; entries: Entry[] }> {
    const base = sessionRecord('s1');
    await h.store().createSession(base);
    const entries = richEntries('s1');
    const record = await h.store().append(entries, commitAfter(base, entries));
    return { record, entries };
  }

  describe('round trip', () => {
    it('returns signatures, unicode, big tool outputs and nested JSON byte-identically', async () => {
      const { entries } = await storeRich();
      const loaded = await h.store().loadFrom('s1', 0);
      expect(loaded).toStrictEqual(entries);
      expect(JSON.stringify(loaded)).toBe(JSON.stringify(entries));
      const assistant = loaded[1];
      if (assistant?.kind !== 'message') throw new Error('expected the assistant message entry');
      const [reasoning, tool] = assistant.message.parts;
      const sent = entries[1]?.kind === 'message' ? entries[1].message.parts[0] : undefined;
      expect(reasoning?.type === 'reasoning' && reasoning.providerMetadata).toStrictEqual(
        sent?.type === 'reasoning' && sent.providerMetadata,
      );
      expect(tool?.type === 'tool' && tool.state === 'completed' && tool.output).toBe(BIG_OUTPUT);
      expect(BIG_OUTPUT.length).toBeGreaterThan(1_500_000);
      for (const entry of entries) expect(await h.store().getEntry('s1', entry.id)).toStrictEqual(entry);
    });

    it('returns the session metadata and state as stored, nested values included', async () => {
      const record: SessionRecord = {
        ...sessionRecord('s1'),
        headId: 'h',
        version: 41,
        nextSeq: 1234,
        metadata: { title: 'ünï 🚀', owner: { tags: ['x', { y: [null, false, 0.125] }] } },
        state: {
          ...sessionRecord('s1').state,
          activeFromSeq: 17,
          pivotId: 'p1',
          lastUsage: {
            usage: { inputTotal: 1000, cacheRead: 400, cacheWrite: 10, output: 50, reasoning: 5 },
            model: 'openai/gpt-x',
            afterSeq: 16,
          },
          calibration: { 'openai/gpt-x': { ratio: 1.0625, overheadRaw: 300, residual: -12, samples: 3 } },
          pendingMarkerId: 'm9',
        },
      };
      await h.store().createSession(record);
      expect(await h.store().getSession('s1')).toStrictEqual(record);
      const after = await h.store().append([], { ...commitAfter(record), state: record.state });
      expect(after.state).toStrictEqual(record.state);
      expect(after.version).toBe(42);
    });
  });

  describe('returned objects are copies', () => {
    it('mutating what was passed to a write does not change the store', async () => {
      const base = sessionRecord('s1');
      await h.store().createSession(base);
      base.metadata.title = 'mutated';
      base.state.entryCount = 99;
      const entries = textEntries('s1', 2);
      const commit = commitAfter(base, entries);
      commit.state.entryCount = 2;
      const record = await h.store().append(entries, commit);
      const part = entries[0]!.message.parts[0]!;
      if (part.type === 'text') part.text = 'mutated';
      entries[1]!.partTokens.push(1000);
      commit.state.totalTokens = -1;
      expect(await h.store().loadFrom('s1', 0)).toStrictEqual(textEntries('s1', 2));
      expect(await h.store().getSession('s1')).toStrictEqual(record);
      expect(record.metadata.title).toBe('session s1');
    });

    it('mutating what a read returned does not change the store', async () => {
      const { record, entries } = await storeRich();
      const loaded = await h.store().loadFrom('s1', 0);
      const first = loaded[0]!;
      first.partTokens[0] = 12345;
      if (first.kind === 'message') first.message.parts.length = 0;
      const single = await h.store().getEntry('s1', entries[2]!.id);
      if (single?.kind === 'compaction') single.pivot.details.filesRead.push('evil.ts');
      const session = await h.store().getSession('s1');
      session!.state.calibration.x = { ratio: 9, overheadRaw: 9, residual: 9, samples: 9 };
      const [summary] = await h.store().listSessions();
      summary!.metadata.title = 'changed';
      record.metadata.title = 'changed too';
      expect(await h.store().loadFrom('s1', 0)).toStrictEqual(richEntries('s1'));
      expect((await h.store().getSession('s1'))?.state.calibration).toStrictEqual({});
      expect((await h.store().listSessions())[0]?.metadata).toStrictEqual({ title: 'session s1' });
    });

    it('mutating the parts given to updateParts afterwards does not change the store', async () => {
      const base = sessionRecord('s1');
      await h.store().createSession(base);
      const entries = textEntries('s1', 1);
      const record = await h.store().append(entries, commitAfter(base, entries));
      const parts = [{ type: 'text' as const, text: 'pruned' }];
      await h
        .store()
        .updateParts([{ entryId: 's1-e0', parts, partTokens: [2], tokens: 6 }], commitAfter(record));
      parts[0]!.text = 'mutated';
      const loaded = await h.store().getEntry('s1', 's1-e0');
      expect(loaded?.kind === 'message' && loaded.message.parts).toStrictEqual([
        { type: 'text', text: 'pruned' },
      ]);
    });
  });

  describe('close', () => {
    it('rejects every call after close, and closing twice is harmless', async () => {
      await h.store().createSession(sessionRecord('s1'));
      await h.store().close();
      await h.store().close();
      await expect(h.store().getSession('s1')).rejects.toThrow(/closed/);
      await expect(h.store().loadFrom('s1', 0)).rejects.toThrow(/closed/);
      await expect(h.store().createSession(sessionRecord('s2'))).rejects.toThrow(/closed/);
    });
  });
}
