// Progress of a bulk job on stderr: a redrawn line on a terminal; plain periodic lines elsewhere,
// only when asked (--verbose), so logs of scripted runs stay quiet.
import type { IOStreams } from '../io/streams.js';
import type { Progress } from './job.js';

export function progressReporter(io: IOStreams, options: { verbose: boolean; label: string; now?: () => number }) {
  const now = options.now ?? (() => performance.now());
  const started = now();
  let lastDraw = -Infinity;
  const tty = io.stderrIsTTY;
  if (!tty && !options.verbose) return { update: (_p: Progress) => {}, finish: () => {} };

  const describe = (p: Progress) => {
    const seconds = Math.max((now() - started) / 1000, 0.001);
    const rate = p.done / seconds;
    const eta = rate > 0 ? Math.ceil((p.total - p.done) / rate) : undefined;
    const width = 24;
    const filled = p.total ? Math.round((p.done / p.total) * width) : width;
    const bar = tty ? `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ` : '';
    return `${options.label} ${bar}${p.done}/${p.total} rows, ${p.failed} failed, ${rate.toFixed(1)}/s${eta !== undefined && p.done < p.total ? `, ETA ${eta}s` : ''}`;
  };

  return {
    update(p: Progress) {
      const t = now();
      const interval = tty ? 100 : 2000;
      if (t - lastDraw < interval && p.done < p.total) return;
      lastDraw = t;
      io.stderr.write(tty ? `\r\x1b[K${describe(p)}` : `${describe(p)}\n`);
    },
    finish() {
      if (tty) io.stderr.write('\r\x1b[K');
    },
  };
}
