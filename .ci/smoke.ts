// The packed package as a user installs it: .ci/pack-smoke typechecks this file against the
// installed type declarations, compiles it and runs it in a fresh project.
import { type Message, memoryStore, openSession, type Prepared, validate } from 'condense-context';
import { fromAiSdkResponse } from 'condense-context/ai-sdk';
import { sqliteStore } from 'condense-context/sqlite';

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`smoke: ${what}`);
}

// The memory store: no native module, nothing on disk.
const memory = await openSession(memoryStore(), 'm', { model: 'claude-opus-4-6' });
await memory.append({ role: 'user', content: 'hello' });
const inMemory = await memory.prepare();
check(inMemory.messages.length === 1 && inMemory.decision.contextWindow === 1_000_000, 'memory store, catalog window');

const store = sqliteStore({ path: 'smoke/condense.db' });
const session = await openSession(store, 'smoke', { model: 'gpt-4o', system: 'You are terse.' });
const ask: Message = { role: 'user', parts: [{ type: 'text', text: 'What is in the folder?' }] };
await session.append(ask);
await session.recordStep({
  message: fromAiSdkResponse([
    { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'ls', input: {} }] },
    {
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'ls', output: { type: 'text', value: 'a.ts' } }],
    },
  ]),
  usage: { inputTokens: 30, outputTokens: 4 },
});
const prepared: Prepared<'ai-sdk'> = await session.prepare({ format: 'ai-sdk' });
check(prepared.system === 'You are terse.', 'the system prompt is returned apart');
check(prepared.messages.length === 3, `3 messages (user, assistant call, tool result), got ${prepared.messages.length}`);
check(validate(prepared.messages, 'ai-sdk').length === 0, 'the payload is valid');
await store.close();

const reader = sqliteStore({ path: 'smoke/condense.db', readonly: true });
const [row] = await reader.listSessions();
check(row?.id === 'smoke' && row.entryCount === 2, 'the session is on disk with its 2 entries');
await reader.close();
console.log('smoke: session written, prepared and read back');
