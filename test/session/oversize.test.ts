/**
 * Requests that really fit (hardening item 4): a part counts what it holds, a byte budget stands
 * beside the token budget, and one message larger than the window is named in a clear error or,
 * when asked, sent truncated with a visible marker while the history keeps it whole.
 */
import { describe, expect, it } from 'vitest';
import { validate } from '../../src/context/index.js';
import { FloorTooLargeError, RequestTooLargeError } from '../../src/index.js';
import type { UserMessage } from '../../src/model/index.js';
import { openSession, presetOptions, type SessionOptions } from '../../src/session/index.js';
import { memoryStore } from '../../src/store/index.js';
import { sqliteStore } from '../../src/store/sqlite.js';

const MB = 1024 * 1024;
const words = (chars: number, lead: string) =>
  `${lead} ${'lorem ipsum dolor sit amet '.repeat(Math.ceil(chars / 27))}`.slice(0, chars);
const userText = (text: string): UserMessage => ({ role: 'user', parts: [{ type: 'text', text }] });
const options: SessionOptions = { model: 'gpt-4o', limits: { contextWindow: 128_000, maxOutput: 16_000 } };

describe('a part counts what it holds', () => {
  it('two 5 MB messages count ~2.4M tokens, not 100k; the latest request alone is over the window and is named', async () => {
    const session = await openSession(memoryStore(), 's', options);
    await session.append(userText(words(4 * MB, 'First dump:')));
    await session.append({ role: 'assistant', parts: [{ type: 'text', text: 'Read it.' }] });
    const [latest] = await session.append(userText(words(5 * MB, 'Second dump:')));
    expect(session.estimate().tokens).toBeGreaterThan(2_300_000);
    const error = await session.prepare().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FloorTooLargeError);
    const e = error as FloorTooLargeError;
    expect(e.largest).toMatchObject({ entryId: latest!.id, seq: latest!.seq, role: 'user' });
    expect(e.message).toContain(latest!.id);
    expect(e.message).toContain("oversize: 'truncate'");
    // No summary can shrink the latest request: nothing was written.
    expect(session.activeEntries().map((x) => x.kind)).toEqual(['message', 'message', 'message']);
  });

  it("seed 000's preset keeps its 50,000-token cap on one part", async () => {
    const session = await openSession(memoryStore(), 's', { ...presetOptions('seed-000'), model: 'gpt-4o' });
    const [entry] = await session.append(userText(words(1 * MB, 'Dump:')));
    expect(entry!.partTokens).toEqual([50_000]);
  });
});

describe("oversize: 'truncate'", () => {
  it('stores the text truncated around a marker, the full text in metadata; the request fits and validates', async () => {
    const store = sqliteStore({ path: ':memory:' });
    const session = await openSession(store, 's', { ...options, oversize: 'truncate' });
    const text = words(5 * MB, 'Please review this log:');
    const [entry] = await session.append(userText(text));
    const part = entry!.message.parts[0] as { text: string };
    expect(part.text.startsWith('Please review this log:')).toBe(true);
    expect(part.text).toMatch(/\[… \d+ of 5242880 characters left out by condense/);
    expect(part.text.endsWith(text.slice(-100))).toBe(true);
    expect(entry!.message.metadata?.condenseOriginal).toEqual({ 0: text });
    const prepared = await session.prepare({ format: 'openai' });
    expect(prepared.decision.tokens).toBeLessThanOrEqual(prepared.decision.usable!);
    expect(validate(prepared.messages, 'openai')).toEqual([]);
    // The history keeps the whole text, read back from the store.
    const stored = await store.getEntry('s', entry!.id);
    expect((stored as typeof entry)!.message.metadata?.condenseOriginal).toEqual({ 0: text });
    await store.close();
  });

  it('leaves texts within the share of the budget as they are', async () => {
    const session = await openSession(memoryStore(), 's', { ...options, oversize: 'truncate' });
    const text = words(100_000, 'Short enough:');
    const [entry] = await session.append(userText(text));
    expect(entry!.message.parts[0]).toEqual({ type: 'text', text });
    expect(entry!.message.metadata).toBeUndefined();
  });
});

describe('a byte budget beside the token budget', () => {
  const image = (bytes: number) => ({
    type: 'file' as const,
    mediaType: 'image/png',
    data: 'A'.repeat(bytes),
  });

  it('an image of 40 MB is few tokens but over 32 MiB: named in an error, with its bytes', async () => {
    const session = await openSession(memoryStore(), 's', options);
    await session.append(userText('Hello'));
    const [big] = await session.append({
      role: 'user',
      parts: [{ type: 'text', text: 'Look:' }, image(40 * MB)],
    });
    expect(session.estimate().tokens).toBeLessThan(5_000);
    const error = (await session.prepare().catch((e: unknown) => e)) as RequestTooLargeError;
    expect(error).toBeInstanceOf(RequestTooLargeError);
    expect(error).toMatchObject({ limit: 32 * MB, largest: { entryId: big!.id } });
    expect(error.bytes).toBeGreaterThan(40 * MB);
    expect(error.message).toContain('maxRequestBytes');
  });

  it('images that add up past the limit are compacted away, the newest kept', async () => {
    const session = await openSession(memoryStore(), 's', options);
    for (let i = 0; i < 4; i++) {
      await session.append({
        role: 'user',
        parts: [{ type: 'text', text: `Screenshot ${i}` }, image(10 * MB)],
      });
      await session.append({ role: 'assistant', parts: [{ type: 'text', text: `Seen ${i}.` }] });
    }
    await session.append(userText('What changed between them?'));
    expect(session.requestBytes()).toBeGreaterThan(40 * MB);
    const prepared = await session.prepare();
    expect(prepared.compaction?.status).toBe('compacted');
    expect(session.requestBytes()).toBeLessThanOrEqual(32 * MB);
  });

  it('0 turns the byte limit off; a negative one is a configuration error', async () => {
    const off = await openSession(memoryStore(), 's', { ...options, budget: { maxRequestBytes: 0 } });
    await off.append({ role: 'user', parts: [{ type: 'text', text: 'Look:' }, image(40 * MB)] });
    expect((await off.prepare()).compaction).toBeNull();
    await expect(
      openSession(memoryStore(), 't', { ...options, budget: { maxRequestBytes: -1 } }),
    ).rejects.toThrow(/maxRequestBytes must be a non-negative number of bytes/);
  });
});
