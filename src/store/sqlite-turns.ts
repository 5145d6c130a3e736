/**
 * The agent_turns view (turns-view.ts) in SQLite's dialect. A message's parts are inside its body;
 * `IS` / `IS NOT` compare NULL-safely; integers and EXISTS need no cast.
 */
import { agentTurnsView, col } from './turns-view.js';

export const AGENT_TURNS_VIEW = agentTurnsView({
  view: 'agent_turns',
  entries: 'entries',
  sessions: 'sessions',
  is: 'IS',
  isNot: 'IS NOT',
  carry: '',
  parts: (e) => `${col(e, 'body')}, '$.parts'`,
  each: 'json_each',
  partType: `json_extract(value, '$.type')`,
  notTrue: (e, path) => `json_type(${e}.body, '$.${path}') IS NOT 'true'`,
  isString: (column, path) => `json_type(${column}, '$.${path}') = 'text'`,
  text: (column, path) => `json_extract(${column}, '$.${path}')`,
  idArray: (filter) => `json_group_array(id) FILTER (
      WHERE ${filter}
    ) OVER t`,
  int: (sum) => sum,
  flag: (condition) => condition,
});
