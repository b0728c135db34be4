// A line of progress on stderr: redrawn in place on a terminal, written as a new line every few
// seconds elsewhere (only with --verbose, so scripted runs stay quiet), cleared at the end. The bulk
// engine's rows and the server's background jobs are shown through it.
import type { IOStreams } from './streams.js';

/** Off a terminal, a line at most this often (the last one always). */
const PLAIN_INTERVAL_MS = 2000;
const BAR_WIDTH = 24;

export interface StatusLine {
  /** Draws `text()` unless a line was drawn too recently; a `final` one is always drawn. */
  show(text: () => string, final: boolean): void;
  clear(): void;
}

/** A status line, or undefined when there is no one to show it to (not a terminal, not --verbose). */
export function statusLine(
  io: IOStreams,
  o: { verbose: boolean; ttyIntervalMs: number; now: () => number },
): StatusLine | undefined {
  const tty = io.stderrIsTTY;
  if (!tty && !o.verbose) return undefined;
  let last = -Infinity;
  return {
    show(text, final) {
      const t = o.now();
      if (!final && t - last < (tty ? o.ttyIntervalMs : PLAIN_INTERVAL_MS)) return;
      last = t;
      io.stderr.write(tty ? `\r\x1b[K${text()}` : `${text()}\n`);
    },
    clear() {
      if (tty) io.stderr.write('\r\x1b[K');
    },
  };
}

/** `[#####-------] ` for a fraction from 0 to 1, on a terminal; nothing elsewhere. */
export function bar(io: IOStreams, fraction: number): string {
  if (!io.stderrIsTTY) return '';
  const filled = Math.round(fraction * BAR_WIDTH);
  return `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] `;
}
