// Module hooks (node:module register) for import-graph.test.ts: every module the child process
// loads through the ESM loader is appended to the log file, one URL a line.
import { appendFileSync } from 'node:fs';

let log;

export function initialize(data) {
  log = data.log;
}

export async function load(url, context, nextLoad) {
  appendFileSync(log, `${url}\n`);
  return nextLoad(url, context);
}
