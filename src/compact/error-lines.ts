/** Lines an exec wrapper adds around a command's output (Codex exec sessions, Claude Code). */
const WRAPPER =
  /^(?:Chunk ID:|Wall time:|Process exited with code|Process running with session ID|Original token count:|Output:$|Exit code:? -?\d+$)/;
/** An error stated: exception and error names, tracebacks, panics. */
const STATED = /\b\w*(?:Error|Exception)\b|Traceback|\bpanic(?:ked)?\b|\bfatal\b|\berror(?:\[\w+\])?:/i;
/** A failure reported: failed tests, "not found", refused, denied. */
const REPORTED =
  /^\s*(?:[×✗✖]|FAIL\b|not ok\b)|\bfail(?:ed|ure|s)?\b|\bnot found\b|\bno such\b|\bno matches\b|\bdenied\b|\brefused\b|\bcannot\b|\bcan't\b|\bunable to\b|\binvalid\b|\bexpected\b|\breceived\b/i;
/** Setup noise: warnings, deprecations, stack frames, progress. */
const NOISE = /\bwarn(?:ing)?s?\b|\bdeprecat|\bnotice\b|^\s*at\s|\(Use `node --trace/i;
const MAX_LINE = 200;
const SCANNED = 60_000;

/** A line cut at a word boundary to at most `max` characters, "…" marking the cut. */
export function clipLine(line: string, max = MAX_LINE): string {
  const flat = line.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.lastIndexOf(' ', max - 1);
  return `${flat.slice(0, cut > max / 2 ? cut : max - 1)}…`;
}

/**
 * The lines of a failed command's output that say why it failed: stated errors first, then
 * reported failures, in their order; setup noise (warnings, deprecations, stack frames) skipped.
 * With neither, the last lines, where tools print their error.
 */
export function errorLines(output: string, max = 3): string[] {
  const text = output.length > SCANNED ? output.slice(-SCANNED) : output;
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !WRAPPER.test(l) && !/^[⎯─━=\-_ ]+$/.test(l));
  const useful = lines.filter((l) => !NOISE.test(l));
  const stated = useful.filter((l) => STATED.test(l));
  const reported = useful.filter((l) => !STATED.test(l) && REPORTED.test(l));
  const picked = [...new Set([...stated, ...reported])].slice(0, max);
  const chosen = picked.length > 0 ? picked : useful.slice(-Math.min(2, max));
  return chosen.map((l) => clipLine(l));
}
