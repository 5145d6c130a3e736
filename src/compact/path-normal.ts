import { posix } from 'node:path';

/** Where a session's relative paths start, and the user's home for `~`. */
export interface PathBase {
  cwd?: string;
  home?: string;
}

/** The home folder a working directory lies in (/Users/name, /home/name), if it is one. */
export function homeOf(cwd: string | undefined): string | undefined {
  return cwd === undefined ? undefined : /^\/(?:Users|home)\/[^/]+/.exec(cwd)?.[0];
}

/**
 * One spelling per file: paths inside the working directory relative to it, paths in the home
 * folder as `~/…`, everything normalized (`./`, `//`, trailing `/` removed). A path is never
 * rewritten into something it does not name.
 */
export function normalizePath(path: string, base: PathBase = {}): string {
  let p = posix.normalize(path.trim());
  if (p.length > 1 && p.endsWith('/')) p = p.slice(0, -1);
  const { cwd, home } = base;
  if (home && p.startsWith('~/')) p = `${home}${p.slice(1)}`;
  if (cwd && p.startsWith('/')) {
    if (p === cwd) return '.';
    if (p.startsWith(`${cwd}/`)) return p.slice(cwd.length + 1);
  }
  if (home && p.startsWith(`${home}/`)) return `~${p.slice(home.length)}`;
  return p;
}

/**
 * The working directory a span's paths imply when no one recorded it: the folder that most
 * absolute paths share with a relative path that names the same file (`/r/src/a.ts` and
 * `src/a.ts` → `/r`). Undefined when no pair agrees.
 */
export function inferCwd(paths: Iterable<string>): string | undefined {
  const all = [...new Set(paths)];
  const relative = new Set(
    all.filter((p) => !p.startsWith('/') && !p.startsWith('~')).map((p) => posix.normalize(p)),
  );
  if (relative.size === 0) return undefined;
  const votes = new Map<string, number>();
  for (const abs of all) {
    if (!abs.startsWith('/')) continue;
    const parts = posix.normalize(abs).split('/');
    for (let i = parts.length - 1; i > 1; i--) {
      if (relative.has(parts.slice(i).join('/'))) {
        const root = parts.slice(0, i).join('/');
        votes.set(root, (votes.get(root) ?? 0) + 1);
        break;
      }
    }
  }
  let best: string | undefined;
  for (const [root, n] of votes) if (best === undefined || n > votes.get(best)!) best = root;
  return best;
}
