/**
 * A status line for long work (an import of a large transcript, the first compaction of a huge
 * session), redrawn in place on a terminal, at most ten times a second. Nothing at all when the
 * stream is not a terminal: piped or redirected output stays exactly what the command prints.
 */
export interface Progress {
  update(text: string): void;
  /** Clears the line (a finished task leaves no trace above the command's own output). */
  done(): void;
}

export interface ProgressStream {
  isTTY?: boolean;
  write(text: string): unknown;
}

export function progress(stream: ProgressStream = process.stderr, now: () => number = Date.now): Progress {
  if (!stream.isTTY) return { update() {}, done() {} };
  let last = Number.NEGATIVE_INFINITY;
  let shown = false;
  return {
    update(text) {
      if (now() - last < 100) return;
      last = now();
      shown = true;
      stream.write(`\r\x1b[K${text}`);
    },
    done() {
      if (shown) stream.write('\r\x1b[K');
      shown = false;
    },
  };
}

/** `label 45% (450,000 of 1,000,000 entries)`. */
export function progressText(label: string, done: number, total: number, unit = 'entries'): string {
  const n = (v: number) => v.toLocaleString('en-US');
  const share = total > 0 ? `${Math.min(100, Math.floor((done / total) * 100))}% ` : '';
  return `${label} ${share}(${n(done)}${total > 0 ? ` of ${n(total)}` : ''} ${unit})`;
}
