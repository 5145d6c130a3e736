import type { KeyValue, KeyValueKind } from './types.js';

/** Text a pattern cannot match without: most outputs hold none of it, and the pattern is not run. */
const HTTP = (t: string) => t.includes('http');
const PORT_WORD = /port/i;

/**
 * Identifiers a tool printed that an agent needs again and cannot guess: the URL of a pull
 * request it opened, the hash of a commit it made, an issue or job id, the port a server
 * listens on. Only successful outputs count, and only the parts where tools print such values
 * (the start and the end of an output). The third element, when there is one, is what a text must
 * contain for the pattern to match at all.
 */
const PATTERNS: Array<[KeyValueKind, RegExp, ((text: string) => boolean)?]> = [
  ['pr', /https?:\/\/[^\s"'<>)\]]+\/(?:pull|merge_requests|pulls)\/\d+/g, HTTP],
  ['issue', /https?:\/\/[^\s"'<>)\]]+\/issues\/\d+/g, HTTP],
  ['url', /https?:\/\/[^\s"'<>)\]`{}]+/g, HTTP],
  // `[main 3f9c2ab] message` (git commit), `3f9c2ab..8e1d04f  main -> main` (git push).
  ['commit', /^\[[\w./-]+(?: \(root-commit\))? ([0-9a-f]{7,40})\]/gm, (t) => t.includes('[')],
  [
    'commit',
    /\b([0-9a-f]{7,40})\.\.\.?([0-9a-f]{7,40})\s+\S+\s+->/g,
    (t) => t.includes('->') && t.includes('..'),
  ],
  [
    'commit',
    /\b(?:commit|Commit|HEAD is now at|revision)[: ]+([0-9a-f]{7,40})\b/g,
    // A rarer part of each word is looked for first: the search stops at every place its first letter is.
    (t) =>
      (t.includes('mmit') && t.includes('ommit')) ||
      t.includes('HEAD is now at') ||
      (t.includes('vision') && t.includes('revision')),
  ],
  [
    'port',
    /\b(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::\]):(\d{2,5})\b/g,
    (t) => t.includes('localhost') || t.includes('127.0.0.1') || t.includes('0.0.0.0') || t.includes('[::]'),
  ],
  [
    'port',
    /\b(?:listening|running|started|serving|available)\b[^\n]{0,40}?\bport\s+(\d{2,5})\b/gi,
    (t) => PORT_WORD.test(t),
  ],
  [
    'issue',
    /\b(?:Created|Updated|Closed|Opened)\s+(?:issue|task|ticket|bug|epic)[: ]+#?([\w.-]*\d[\w.-]*)/gi,
  ],
  ['pr', /\b(?:pull request|PR)\s+#(\d+)/gi, (t) => t.includes('#')],
  [
    'id',
    /\b(?:id|ID|Id|_id|uuid|job|run|session|deployment|build)["']?\s*[:=]\s*["']?([A-Za-z0-9][\w-]{5,})/g,
    (t) => t.includes(':') || t.includes('='),
  ],
  ['id', /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g, (t) => t.includes('-')],
];

/** Where in an output values are looked for: its start and its end. */
const HEAD = 2_000;
const TAIL = 1_000;
/** The length up to which a reading call's output is a result rather than data. */
const SHORT = 1_200;
/** Values one output may give: a dump of many ids is data, not a result. */
const PER_OUTPUT = 3;

/** URLs that name no result of the session's work: schemas, licences, package registries. */
const NOISE_URL =
  /^https?:\/\/(?:(?:www\.)?w3\.org|json-schema\.org|(?:www\.)?apache\.org\/licenses|opensource\.org|registry\.npmjs\.org|example\.(?:com|org))\b/;

/** Lines exec wrappers print around a command's output (Codex, Claude Code): their ids are the wrapper's. */
const WRAPPER =
  /^(?:Chunk ID:|Wall time:|Process exited with code|Process running with session ID|Original token count:|Output:|Exit code:?\s*-?\d+|Total output lines:).*$/gm;

function scanned(output: string): string {
  const text = output.length <= HEAD + TAIL ? output : `${output.slice(0, HEAD)}\n${output.slice(-TAIL)}`;
  // Every wrapper line holds a colon or one of these words: without them there is none to remove.
  const wrapped = text.includes(':') || text.includes('Process ') || text.includes('Exit code');
  return wrapped ? text.replace(WRAPPER, '') : text;
}

/** A value an output holds; the caller names its source (most outputs hold none). */
export type FoundValue = Omit<KeyValue, 'source'>;

/**
 * The values an output holds, strongest kinds first, at most a few. A call that changed or ran
 * something (`significant`) is read at its start and end whatever its length; a reading call
 * (a file's content, a search, a listing) only when its output is short: a long one is data.
 */
export function valuesIn(output: string, significant: boolean): FoundValue[] {
  if (!significant && output.length > SHORT) return [];
  const text = scanned(output);
  const found = new Map<string, FoundValue>();
  for (const [kind, re, needs] of PATTERNS) {
    if (needs !== undefined && !needs(text)) continue;
    re.lastIndex = 0;
    // exec on the shared pattern rather than matchAll, which copies it for every output.
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      if (m[0] === '') re.lastIndex++;
      const groups = m.slice(1).filter((g): g is string => g !== undefined);
      for (const raw of groups.length > 0 ? groups : [m[0]]) {
        const value = raw.replace(/[.,;:!?'"]+$/, '');
        if (value.length < 2 || found.has(value) || (kind === 'url' && NOISE_URL.test(value))) continue;
        // A URL already kept as a PR or an issue is not a plain URL again.
        if (kind === 'url' && [...found.keys()].some((v) => v.startsWith(value))) continue;
        found.set(value, { value, kind });
      }
      if (found.size >= PER_OUTPUT * 2) break;
    }
  }
  return [...found.values()].slice(0, PER_OUTPUT);
}

const KIND_RANK: Record<KeyValueKind, number> = { pr: 0, issue: 1, commit: 2, port: 3, url: 4, id: 5 };

/**
 * Values of earlier summaries and of this span, one entry per value (the newest source wins),
 * at most `max`: the strongest kinds and the newest are kept when there are more.
 */
export function mergeValues(older: readonly KeyValue[], newer: readonly KeyValue[], max: number): KeyValue[] {
  const all = new Map<string, KeyValue>();
  for (const v of [...older, ...newer]) {
    all.delete(v.value);
    all.set(v.value, v);
  }
  const list = [...all.values()];
  if (list.length <= max) return list;
  const keep = new Set(
    list
      .map((v, i) => ({ v, i }))
      .sort((a, b) => KIND_RANK[a.v.kind] - KIND_RANK[b.v.kind] || b.i - a.i)
      .slice(0, max)
      .map((x) => x.v),
  );
  return list.filter((v) => keep.has(v));
}
