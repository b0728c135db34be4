// Following background work to its end: a redrawn bar on a terminal, periodic lines with -v
// elsewhere, nothing otherwise. Two things are followed the same way and drawn by the same meter: a
// Progress (GET /progress/:id) and a conversation batch (GET /conversations/batches).
import type { ApiClient } from '../client/client.js';
import { pollUntil, waitForProgress, type PollOptions } from '../client/poll.js';
import type { ConversationBatch } from '../spec/types/conversations.js';
import type { Progress } from '../spec/types/progress.js';
import { bar, statusLine } from '../io/status-line.js';
import { FailureError, UsageError } from '../errors.js';
import type { Context } from './context.js';

/** How long any wait for background work lasts: LMS_WAIT_TIMEOUT seconds, 30 minutes by default. */
const DEFAULT_WAIT_SECONDS = 1800;

function waitBound(ctx: Pick<Context, 'env'>): number {
  const raw = ctx.env.LMS_WAIT_TIMEOUT;
  if (raw === undefined || raw === '') return DEFAULT_WAIT_SECONDS * 1000;
  if (!/^\d{1,7}$/.test(raw.trim()))
    throw new UsageError(`LMS_WAIT_TIMEOUT must be a whole number of seconds, not ${JSON.stringify(raw)}`);
  return Number(raw.trim()) * 1000;
}

/** The error of a wait that ran out: exit 1, with the work's last state, which may still change. */
function waitedTooLong(ctx: Pick<Context, 'env'>, what: string, lastState: string): FailureError {
  return new FailureError(`${what} did not finish within ${waitBound(ctx) / 1000} s; last seen ${lastState}`, {
    hint: 'it may still be running: look again later, or wait longer with LMS_WAIT_TIMEOUT=SECONDS',
  });
}

/** The bound of a wait for a Progress, for waitForProgress: past it, exit 1 with its last state. */
export function progressWaitBound(
  ctx: Pick<Context, 'env'>,
  id: number | string,
): Pick<PollOptions<Progress>, 'timeoutMs' | 'onTimeout'> {
  return {
    timeoutMs: waitBound(ctx),
    onTimeout: (p) =>
      waitedTooLong(
        ctx,
        `progress ${id}`,
        `${p.workflow_state}, ${Math.round(p.completion ?? 0)}% done${p.message ? `: ${p.message}` : ''}`,
      ),
  };
}

export interface WatchOptions {
  label: string;
  /** Extra words after the percentage (e.g. "120/500 sent"). */
  describe?(p: Progress): string;
  /** Clock for the rate and ETA (tests pass a fake). */
  now?(): number;
}

/** One reading of the work being followed. */
interface Reading {
  /** 0–100. */
  percent: number;
  state: string;
  done: boolean;
  /** Items done out of a total, for "120/500 sent, 40/s". */
  count?: { done: number; total: number; noun: string };
  extra?: string;
}

/** The bar (or line) of one piece of work: `label [####----] 42% sending, 210/500 sent, 35/s, ETA 8s`. */
interface Meter {
  update(r: Reading): void;
  close(): void;
}

function createMeter(ctx: Context, label: string, now: () => number = () => performance.now()): Meter {
  const started = now();
  const status = statusLine(ctx.io, { verbose: ctx.globals.verbose, ttyIntervalMs: 0, now });
  const resume = status ? ctx.activity.pause() : undefined;
  const line = (r: Reading) => {
    const pct = Math.max(0, Math.min(100, r.percent));
    const seconds = (now() - started) / 1000;
    const eta = pct > 0 && pct < 100 ? Math.ceil((seconds * (100 - pct)) / pct) : undefined;
    const parts = [`${label} ${bar(ctx.io, pct / 100)}${pct.toFixed(0)}% ${r.state}`];
    if (r.count) {
      parts.push(`${r.count.done}/${r.count.total} ${r.count.noun}`);
      if (seconds > 0 && r.count.done > 0)
        parts.push(`${(r.count.done / seconds).toFixed(r.count.done / seconds < 10 ? 1 : 0)}/s`);
    }
    if (r.extra) parts.push(r.extra);
    if (eta !== undefined) parts.push(`ETA ${eta}s`);
    return parts.join(', ');
  };
  return {
    update: (r) => status?.show(() => line(r), r.done),
    close() {
      status?.clear();
      resume?.();
    },
  };
}

export async function watchProgress(
  ctx: Context,
  client: ApiClient,
  id: number | string,
  options: WatchOptions,
): Promise<Progress> {
  const meter = createMeter(ctx, options.label, options.now);
  try {
    return await waitForProgress((pid) => client.ops.progress.get({ id: pid }), id, {
      ...progressWaitBound(ctx, id),
      onUpdate(p) {
        meter.update({
          percent: p.completion ?? 0,
          state: p.workflow_state,
          done: p.workflow_state === 'completed' || p.workflow_state === 'failed',
          extra: options.describe?.(p),
        });
      },
    });
  } finally {
    meter.close();
  }
}

export interface BatchOutcome {
  /** `sent`, or `error` when the batch failed. */
  state: 'sent' | 'error';
  /** The batch as last read while it ran (absent when it ended before the first read). */
  last?: ConversationBatch;
}

/**
 * Follows an async conversation batch by reading the running batches until it leaves them, or is
 * seen in `error`. Real instances (and the mock) list only batches still running, so a batch that
 * left the list is done, and the API does not say whether every delivery succeeded: `sent` means
 * that, as the batch's own last state would.
 */
export async function watchBatch(
  ctx: Context,
  client: ApiClient,
  id: number,
  options: { label: string; now?(): number; intervalMs?: number; maxIntervalMs?: number },
): Promise<BatchOutcome> {
  const meter = createMeter(ctx, options.label, options.now);
  let last: ConversationBatch | undefined;
  const reading = (b: ConversationBatch, done: boolean): Reading => ({
    percent: b.completion * 100,
    state: b.workflow_state,
    done,
    count: { done: Math.round(b.completion * b.recipient_count), total: b.recipient_count, noun: 'sent' },
  });
  try {
    const b = await pollUntil(
      async () => (await client.ops.conversations.batches({})).find((x) => x.id === id),
      (b) => !b || b.workflow_state === 'sent' || b.workflow_state === 'error',
      {
        intervalMs: options.intervalMs,
        maxIntervalMs: options.maxIntervalMs,
        timeoutMs: waitBound(ctx),
        onTimeout: (b) =>
          waitedTooLong(
            ctx,
            `conversation batch ${id}`,
            b ? `${b.workflow_state}, ${Math.round(b.completion * 100)}% sent` : 'finished',
          ),
        onUpdate(b) {
          if (!b || b.workflow_state === 'sent') return;
          last = b;
          meter.update(reading(b, b.workflow_state === 'error'));
        },
      },
    );
    if (b?.workflow_state === 'error') return { state: 'error', last: b };
    const final = last ?? b;
    if (final) meter.update(reading({ ...final, completion: 1, workflow_state: 'sent' }, true));
    return { state: 'sent', last: b ?? last };
  } finally {
    meter.close();
  }
}

/**
 * Follows an SIS import (GET /accounts/:id/sis_imports/:id) until it has ended (imported,
 * imported_with_messages, failed, failed_with_messages, aborted), drawn by the same meter.
 */
export async function watchSisImport(
  ctx: Context,
  read: () => Promise<import('../spec/types/sis.js').SisImport>,
  options: { label: string; ended: (state: string) => boolean; now?(): number },
): Promise<import('../spec/types/sis.js').SisImport> {
  const meter = createMeter(ctx, options.label, options.now);
  try {
    return await pollUntil(read, (b) => options.ended(b.workflow_state), {
      timeoutMs: waitBound(ctx),
      onTimeout: (b) => waitedTooLong(ctx, options.label, `${b.workflow_state}, ${b.progress ?? 0}% done`),
      onUpdate(b) {
        const counts = b.data?.counts ?? {};
        const extra = (['users', 'courses', 'sections', 'enrollments'] as const)
          .filter((k) => counts[k])
          .map((k) => `${counts[k]} ${k}`)
          .join(', ');
        meter.update({
          percent: Number(b.progress ?? 0) || 0,
          state: b.workflow_state,
          done: options.ended(b.workflow_state),
          extra: extra || undefined,
        });
      },
    });
  } finally {
    meter.close();
  }
}
