import { it } from 'vitest';
import { openSession } from '../../src/session/index.js';
import { memoryStore } from '../../src/store/index.js';
import { say, user } from './helpers.js';

it('dbg', async () => {
  const s = await openSession(memoryStore(), 's', {
    model: 'm',
    limits: { contextWindow: 10_000, maxOutput: 1_000 },
    prune: false,
    compaction: { plan: { keepNone: true }, summaryAs: 'question+assistant', continueMessage: true },
  });
  await s.append(user('Please migrate src/db.ts to the new driver'));
  await s.recordStep({ message: say('working'), usage: { prompt_tokens: 9_500, completion_tokens: 10 } });
  const p1 = await s.prepare({ format: 'openai' });
  console.log(p1.compaction?.status, JSON.stringify(p1.messages).slice(-300));
  await s.recordStep({
    message: say('still working'),
    usage: { prompt_tokens: 9_500, completion_tokens: 10 },
  });
  const p2 = await s.prepare({ format: 'openai' });
  console.log(
    p2.compaction?.status,
    p2.compaction?.status === 'compacted' && p2.compaction.pivot.pivot.details.lastUserRequest,
  );
  console.log(JSON.stringify(p2.messages).includes('Please migrate src/db.ts to the new driver'));
  console.log(JSON.stringify(p2.messages, null, 1).slice(0, 3000));
});
