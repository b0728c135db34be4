// Progress of a bulk job on stderr (see io/status-line.ts): rows done, failed, rate and ETA.
import { bar, statusLine } from '../io/status-line.js';
import type { IOStreams } from '../io/streams.js';
import type { Progress } from './job.js';

export function progressReporter(io: IOStreams, options: { verbose: boolean; label: string; now?: () => number }) {
  const now = options.now ?? (() => performance.now());
  const started = now();
  const line = statusLine(io, { verbose: options.verbose, ttyIntervalMs: 100, now });
  if (!line) return { update: (_p: Progress) => {}, finish: () => {} };

  const describe = (p: Progress) => {
    const seconds = Math.max((now() - started) / 1000, 0.001);
    const rate = p.done / seconds;
    const eta = rate > 0 ? Math.ceil((p.total - p.done) / rate) : undefined;
    return (
      `${options.label} ${bar(io, p.total ? p.done / p.total : 1)}${p.done}/${p.total} rows, ${p.failed} ` +
      `failed, ${rate.toFixed(1)}/s${eta !== undefined && p.done < p.total ? `, ETA ${eta}s` : ''}`
    );
  };

  return {
    update: (p: Progress) => line.show(() => describe(p), p.done >= p.total),
    finish: () => line.clear(),
  };
}
