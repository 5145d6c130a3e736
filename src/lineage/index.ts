// Nexus's turn view of a session's log and its traversal (pure: no store, no session).
export { deriveTurns, startsTurn, type TurnIndex } from './derive.js';
export { type Coverage, Lineage } from './lineage.js';
export {
  COMPACTION_REQUEST,
  type CompactionTurn,
  type NormalTurn,
  NotACompactionError,
  type Turn,
  UnknownTurnError,
} from './turn.js';
