import { it } from 'vitest';
import { openSession } from '../../src/session/index.js';
import { memoryStore } from '../../src/store/index.js';
import { CONFIGS, type Op, Runner } from './ops.js';

it('dbg', async () => {
  const store = memoryStore();
  const s = await openSession(store, 's', { ...CONFIGS['default tail, user summary']!, now: () => 1 });
  const r = new Runner(s, async () => '');
  const ops: Op[] = [
    { kind: 'recordStep', tools: [], prompt: 4462, completion: 339 },
    { kind: 'user' },
    { kind: 'user' },
    { kind: 'prepare', format: 'ai-sdk' },
    { kind: 'step', tools: [{ state: 'completed', chars: 2000, name: 'read_file' }], text: false },
    { kind: 'prepare', format: 'ai-sdk' },
  ];
  s.on('compaction:end', (e) => console.log('compacted', e.tokensBefore, e.tokensAfter));
  s.on('prune', (e) => console.log('prune', e));
  for (const op of ops) {
    await r.run(op);
    const st = s.record.state;
    console.log(
      op.kind,
      st.activeTokens,
      st.activeFromSeq,
      st.pivotId,
      s
        .activeEntries()
        .map((e) => `${e.seq}:${e.kind}:${e.tokens}`)
        .join(' '),
    );
  }
});
