import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { realCounter } from '../../src/eval/real-count.js';
import { loadSessions, type RealSession } from '../../src/eval/sessions.js';
import { sessionOf, shippedContext } from '../../src/eval/shipped.js';
import type { PivotDetails } from '../../src/model/entry.js';
import { DATA_DIR, HAS_DATA, NO_DATA } from '../cli/support.js';

const sessions: RealSession[] = HAS_DATA ? loadSessions(`${DATA_DIR}/agent-sessions`) : [];

/** Where a path points, whatever its spelling: absolute, with `~` and the working directory resolved. */
function target(path: string, cwd: string | undefined): string {
  const home = cwd ? /^\/(?:Users|home)\/[^/]+/.exec(cwd)?.[0] : undefined;
  const p = home && path.startsWith('~/') ? `${home}${path.slice(1)}` : path;
  return posix.normalize(p.startsWith('/') || !cwd ? p : `${cwd}/${p}`).replace(/\/$/, '');
}

/**
 * Not a file: a git range, a jq filter or dotted module name (`ash.codegen`), a glob, a flag.
 * Checked independently of src/compact's own rules.
 */
function notAFile(p: string): string | undefined {
  if (/[^/.]\.\.\.?[^/.]/.test(p)) return 'git range';
  if (/^\.[a-z_]+$/i.test(p) && !/^\.(env|gitignore|npmrc|nvmrc|claude|codex|codemie|config)$/.test(p))
    return 'filter';
  if (/[*?{}$|<>]/.test(p) || p.startsWith('-')) return 'pattern';
  if (
    !p.includes('/') &&
    /\.[a-z]+$/i.test(p) &&
    !/\.(ts|js|json|jsonl|md|txt|py|yaml|yml|toml|sh|vtt)$/i.test(p)
  )
    return 'module name';
  return undefined;
}

function check(s: RealSession, details: PivotDetails | undefined): void {
  const cwd = s.truth.cwd;
  const paths = [...new Set([...(details?.filesRead ?? []), ...(details?.filesModified ?? [])])];
  const inputs = JSON.stringify(
    s.messages.map((m) => m.message.parts.map((p) => (p.type === 'tool' ? p.input : null))),
  );
  const seen = new Map<string, string>();
  for (const p of paths) {
    const t = target(p, cwd);
    expect(seen.get(t), `${p} and ${seen.get(t)} name the same file`).toBeUndefined();
    seen.set(t, p);
    expect(notAFile(p), p).toBeUndefined();
    if (cwd) expect(p.startsWith(`${cwd}/`), `${p} is not relative to ${cwd}`).toBe(false);
    // Real: some tool call named it, in one spelling or another.
    const spelled = [p, t, cwd && t.startsWith(`${cwd}/`) ? t.slice(cwd.length + 1) : p];
    const home = cwd ? /^\/(?:Users|home)\/[^/]+/.exec(cwd)?.[0] : undefined;
    if (home && t.startsWith(`${home}/`)) spelled.push(`~${t.slice(home.length)}`);
    expect(
      spelled.some((x) => inputs.includes(x)),
      `${p} is in no tool call`,
    ).toBe(true);
  }
}

describe.skipIf(!HAS_DATA)(
  'summaries of the real coding sessions name each file once, and only files',
  () => {
    if (!HAS_DATA) console.warn(NO_DATA);
    it.each(sessions.map((s) => [s.name, s] as const))('%s', async (_name, s) => {
      const count = realCounter();
      const total = s.messages.reduce((a, m) => a + count(JSON.stringify(m.message)), 0);
      const once = await shippedContext(s.messages, Math.min(4_000, Math.floor(total / 4)), count);
      check(s, once.details);
      // After repeated compactions too: carried lists merge without a second spelling.
      const session = await sessionOf([]);
      let last: PivotDetails | undefined;
      let compactions = 0;
      for (const m of s.messages) {
        await session.append(m.message);
        if (session.estimate().tokens > Math.max(3_000, Math.floor(total / 8))) {
          const outcome = await session.compact();
          if (outcome.status === 'compacted') {
            compactions++;
            last = outcome.pivot.pivot.details;
          }
        }
      }
      expect(compactions).toBeGreaterThan(0);
      check(s, last);
    });
  },
);
