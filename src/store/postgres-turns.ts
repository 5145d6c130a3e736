/**
 * The agent_turns view (turns-view.ts) in Postgres's dialect, for a migration step (`$S` is the
 * schema). A message's parts are in their own column (postgres-rows.ts), not in its body; NULL-safe
 * comparison is IS [NOT] DISTINCT FROM. The columns keep SQLite's types, which are the seed's: a
 * BIGINT sum instead of NUMERIC, has_children 0 or 1 instead of a boolean, and ids as a JSON
 * array written like JSON.stringify (json_agg would put spaces after the commas).
 */
import { agentTurnsView, col } from './turns-view.js';

const path = (dotted: string) => `'{${dotted.replaceAll('.', ',')}}'`;

export const PG_AGENT_TURNS_VIEW = agentTurnsView({
  view: '$S.agent_turns',
  entries: '$S.entries',
  sessions: '$S.sessions',
  is: 'IS NOT DISTINCT FROM',
  isNot: 'IS DISTINCT FROM',
  carry: ', e.parts',
  parts: (e) => col(e, 'parts'),
  each: 'json_array_elements',
  partType: `value ->> 'type'`,
  // The JSON value's own text: `true`, not the string "true".
  notTrue: (e, dotted) => `(${e}.body #> ${path(dotted)})::text IS DISTINCT FROM 'true'`,
  isString: (column, dotted) => `json_typeof(${column} #> ${path(dotted)}) = 'string'`,
  text: (column, dotted) => `${column} #>> ${path(dotted)}`,
  idArray: (filter) => `COALESCE('[' || string_agg(to_json(id)::text, ',') FILTER (
      WHERE ${filter}
    ) OVER t || ']', '[]')`,
  int: (sum) => `CAST(${sum} AS BIGINT)`,
  flag: (condition) => `CAST(${condition} AS INTEGER)`,
});
