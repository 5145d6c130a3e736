import type { SummaryJob } from '../../src/session/index.js';

/** A summary job with nothing to summarize: what a queue test submits when the summary is not the point. */
export const EMPTY_JOB: SummaryJob = {
  sessionId: 'x',
  basis: { pivotId: null, activeFromSeq: 0, throughSeq: 0, count: 0, digest: '' },
  plan: {
    toSummarize: [],
    toKeep: [],
    previousPivot: null,
    summarizedThroughId: 'e0',
    firstKeptId: null,
    tokensBefore: 0,
    predictedTailTokens: 0,
    requestInTail: false,
  },
};
