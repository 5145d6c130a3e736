import { fail, joinField, needArray, needRecord } from './fields.js';
import { parseOpenAIChat } from './openai-chat.js';
import type { ImportedSession, ImportWhere } from './types.js';

/**
 * A tau-bench results file: an array of runs `{task_id, trial, reward, info, traj}` whose `traj` is
 * an OpenAI Chat conversation. One session per run, named `task-<id>-trial-<n>`.
 */
export function parseTauBench(value: unknown, where: ImportWhere = {}): ImportedSession[] {
  const runs = needArray(value, where, '');
  return runs.map((raw, i) => {
    const field = joinField(where.at, i);
    const run = needRecord(raw, { ...where, at: undefined }, field);
    if (!('traj' in run))
      fail('missing traj (the run has no conversation)', { ...where, at: undefined }, field);
    const session = parseOpenAIChat(run.traj, { ...where, at: joinField(field, 'traj') });
    const task = typeof run.task_id === 'number' || typeof run.task_id === 'string' ? run.task_id : i;
    const trial = typeof run.trial === 'number' ? run.trial : 0;
    return { ...session, format: 'tau-bench', sessionId: `task-${task}-trial-${trial}` };
  });
}
