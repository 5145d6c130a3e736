/** Kill-point names for SQL statements, shared by the SQLite and Postgres driver patches. */

/**
 * A writing statement's kill-point name from its leading verb: `INSERT entries`, `UPDATE sessions`
 * (also after a WITH clause), `CREATE` for schema changes; undefined for a read.
 */
export function statementName(source: string): string | undefined {
  const verb = /^\s*(\w+)/.exec(source)?.[1]?.toUpperCase();
  if (verb === 'CREATE' || verb === 'ALTER' || verb === 'DROP') return verb;
  if (verb !== 'INSERT' && verb !== 'UPDATE' && verb !== 'DELETE' && verb !== 'WITH') return undefined;
  const found = /\b(INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+([\w."]+)/i.exec(source);
  if (!found) return undefined;
  const table = found[2]!.split('.').at(-1)!.replaceAll('"', '');
  return `${found[1]!.split(/\s/)[0]!.toUpperCase()} ${table}`;
}
