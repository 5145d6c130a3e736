// `condense-context/pg-boss`: background compaction on PostgreSQL workers through pg-boss (an optional
// peer dependency). The only entry that loads pg-boss: `condense-context` itself never does.
export { type PgBossQueueOptions, pgBossQueue } from './integrations/pg-boss/queue.js';
