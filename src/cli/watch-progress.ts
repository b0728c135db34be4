// Following a background job to its end: a redrawn bar on a terminal, periodic lines with -v
// elsewhere, nothing otherwise; the last Progress is the result.
import { waitForProgress } from '../client/areas/progress.js';
import type { ApiClient } from '../client/client.js';
import type { Progress } from '../client/types/progress.js';
import type { Context } from './context.js';

export interface WatchOptions {
  label: string;
  /** Extra words after the percentage (e.g. "120/500 sent"). */
  describe?(p: Progress): string;
  /** Clock for the rate and ETA (tests pass a fake). */
  now?(): number;
}

export async function watchProgress(ctx: Context, client: ApiClient, id: number | string, options: WatchOptions): Promise<Progress> {
  const tty = ctx.io.stderrIsTTY;
  const now = options.now ?? (() => performance.now());
  const started = now();
  let lastLine = -Infinity;
  const resume = tty || ctx.globals.verbose ? ctx.activity.pause() : undefined;
  const line = (p: Progress) => {
    const pct = Math.max(0, Math.min(100, p.completion ?? 0));
    const seconds = (now() - started) / 1000;
    const eta = pct > 0 && pct < 100 ? Math.ceil((seconds * (100 - pct)) / pct) : undefined;
    const width = 24;
    const filled = Math.round((pct / 100) * width);
    const bar = tty ? `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ` : '';
    const extra = options.describe ? `, ${options.describe(p)}` : '';
    return `${options.label} ${bar}${pct.toFixed(0)}% ${p.workflow_state}${extra}${eta !== undefined ? `, ETA ${eta}s` : ''}`;
  };
  try {
    return await waitForProgress((pid) => client.ops.progress.get({ id: pid }), id, {
      onUpdate(p) {
        if (!tty && !ctx.globals.verbose) return;
        const t = now();
        const done = p.workflow_state === 'completed' || p.workflow_state === 'failed';
        if (!tty && !done && t - lastLine < 2000) return;
        lastLine = t;
        ctx.io.stderr.write(tty ? `\r\x1b[K${line(p)}` : `${line(p)}\n`);
      },
    });
  } finally {
    if (tty) ctx.io.stderr.write('\r\x1b[K');
    resume?.();
  }
}
