// What the throughput benchmarks against a throttling `lms mock serve` share: the bucket's flags
// (and the sustainable rate they give), and a scratch environment that ignores the caller's lms setup.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startMockServer } from './mock-server.mjs';

/** Parses the bucket's flags (rate, cost, capacity, concurrency) with the benchmark's own. */
export function throttledFlags(own) {
  const { values: flags } = parseArgs({
    options: {
      rate: { type: 'string', default: '1000' },
      cost: { type: 'string', default: '10' },
      capacity: { type: 'string', default: '700' },
      concurrency: { type: 'string', default: '4' },
      ...own,
    },
  });
  const rate = Number(flags.rate);
  const cost = Number(flags.cost);
  return { flags, rows: Number(flags.rows), rate, cost, capacity: Number(flags.capacity), sustainable: rate / cost };
}

/** A scratch directory and an environment of its own: mock database, state and profiles in it. */
export function scratchEnv(name) {
  const scratch = mkdtempSync(join(tmpdir(), `lms-bench-${name}-`));
  const env = {
    ...process.env,
    LMS_MOCK_DB: join(scratch, 'mock.db'),
    LMS_STATE_DIR: join(scratch, 'state'),
    LMS_CONFIG_DIR: join(scratch, 'config'),
    NO_COLOR: '1',
  };
  for (const key of ['LMS_PROFILE', 'LMS_BASE_URL', 'LMS_TOKEN', 'LMS_MOCK', 'LMS_OUTPUT', 'LMS_MOCK_FAULTS'])
    delete env[key];
  return { scratch, env };
}

/** `lms mock serve --throttle` with this bucket, its request log kept. */
export function startThrottledServer(lms, env, { rate, cost, capacity }) {
  return startMockServer(lms, env, {
    quiet: false,
    flags: [
      '--throttle',
      '--throttle-rate',
      String(rate),
      '--throttle-cost',
      String(cost),
      '--throttle-capacity',
      String(capacity),
    ],
  });
}

/** The throttled answers among request log lines. */
export const throttledAmong = (lines) => lines.filter((l) => / 403 \d+ms$/.test(l)).length;
