// Before a grade file sends anything, the batches earlier runs left unfinished are brought to their
// end (bulk/batches.ts): a batch whose Progress was recorded is followed until that Progress ends;
// one in doubt (the run was killed between sending it and reading its answer) is waited out until
// its request could no longer be answered, then read back until what the server holds for it stops
// changing, since its job may be running. Only then is the server read for what is left to send, so
// nothing a queued job is about to write is sent again.
import type { Context } from '../../model/context.js';
import type { ApiClient } from '../../client/client.js';
import type { BatchCell, BatchJournal, EarlierBatch } from '../../bulk/batches.js';
import type { Submission, SubmissionContext } from '../../spec/types/submissions.js';
import { ApiError } from '../../errors.js';

/**
 * Comments on a submission with this text, by this author when known (the text compared trimmed, as servers keep it).
 */
export function commentsLike(
  s: Pick<Submission, 'submission_comments'> | undefined,
  text: string,
  author: number | undefined,
): number {
  const want = text.trim();
  return (s?.submission_comments ?? []).filter(
    (c) => c.comment.trim() === want && (author === undefined || c.author_id === author),
  ).length;
}

/** The server holds what the cell set: its grade, or (a server that applies them apart) its comment. */
function applied(
  s: Submission | undefined,
  cell: BatchCell,
  author: number | undefined,
): { grade: boolean; comment: boolean } {
  const grade =
    s !== undefined &&
    (cell.excused === true) === (s.excused === true) &&
    (s.score ?? null) === cell.score &&
    (s.grade ?? null) === cell.grade &&
    s.grade_matches_current_submission !== false;
  const comment = cell.comment !== undefined && commentsLike(s, cell.comment, author) > (cell.had ?? 0);
  return { grade, comment };
}

/** One assignment's submissions, with their comments. */
async function readBack(
  client: ApiClient,
  sctx: SubmissionContext,
  assignment: number,
): Promise<Map<number, Submission>> {
  const out = new Map<number, Submission>();
  for await (const s of client.ops.submissions.list({
    ...sctx,
    assignment_id: assignment,
    include: ['submission_comments'],
  }))
    out.set(s.user_id, s);
  return out;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Reads an assignment back until its cells' state stops moving: everything in place, or nothing more
 * arriving over the last pauses (doubling to a second), so a job the server is still working through
 * is seen to its end. Bounded by `bound` milliseconds in all.
 */
export async function readBackUntilSettled(
  client: ApiClient,
  sctx: SubmissionContext,
  assignment: number,
  cells: BatchCell[],
  author: number | undefined,
  bound: number,
): Promise<Map<number, Submission>> {
  const until = Date.now() + bound;
  let pause = 100;
  let last = -1;
  for (;;) {
    const now = await readBack(client, sctx, assignment);
    const n = cells.filter((c) => {
      const a = applied(now.get(c.user_id), c, author);
      return a.grade || a.comment;
    }).length;
    if (n === cells.length || (n === last && pause >= 1000) || Date.now() >= until) return now;
    if (n !== last) pause = 100;
    last = n;
    await sleep(pause);
    pause = Math.min(1000, pause * 2);
  }
}

/** Follows every batch earlier runs left unfinished to its end. */
export async function settleEarlier(
  ctx: Context,
  client: ApiClient,
  sctx: SubmissionContext,
  journal: BatchJournal,
  author: number | undefined,
): Promise<void> {
  const unfinished = journal.unfinished;
  if (!unfinished.length) return;
  const { progressWaitBound } = await import('../../model/watch-progress.js');
  const { waitForProgress } = await import('../../client/poll.js');
  const followed = unfinished.filter((b) => b.progress !== undefined);
  const doubt = unfinished.filter((b) => b.progress === undefined);
  const rows = (bs: EarlierBatch[]) => bs.reduce((n, b) => n + b.cells.length, 0);
  ctx.warn(
    `an earlier run stopped with ${unfinished.length} batch${unfinished.length === 1 ? '' : 'es'} of grades ` +
      `unfinished (${rows(unfinished)} rows); ` +
      'following them to their end before sending anything',
  );
  await Promise.all(
    followed.map(async (b) => {
      try {
        await waitForProgress((id) => client.ops.progress.get({ id }), b.progress!, {
          intervalMs: 100,
          maxIntervalMs: 1000,
          ...progressWaitBound(ctx, b.progress!),
        });
      } catch (e) {
        // A Progress the instance no longer has is over: what it did is read back below.
        if (!(e instanceof ApiError && e.status === 404)) throw e;
      }
      journal.settled(b);
    }),
  );
  if (!doubt.length) return;
  // A request in doubt could still be answered, and its job started, until its deadline.
  const wait = Math.max(...doubt.map((b) => b.deadline)) - Date.now();
  if (wait > 0) {
    ctx.warn(
      `${rows(doubt)} rows were sent with no answer seen; waiting up to ${Math.ceil(wait / 1000)} s for the server ` +
        'to finish with them',
    );
    await sleep(wait);
  }
  const byAssignment = new Map<number, BatchCell[]>();
  for (const b of doubt) byAssignment.set(b.assignment, [...(byAssignment.get(b.assignment) ?? []), ...b.cells]);
  const bound = progressWaitBound(ctx, 0).timeoutMs ?? Infinity;
  for (const [assignment, cells] of byAssignment)
    await readBackUntilSettled(client, sctx, assignment, cells, author, bound);
  for (const b of doubt) journal.settled(b);
}

/**
 * Whether an earlier batch posted this comment already: it carried the same text to the same
 * student, and the submission holds more such comments than it did before that batch went out.
 */
export function postedEarlier(
  journal: BatchJournal,
  assignment: number,
  userId: number,
  comment: string,
  now: Submission | undefined,
  author: number | undefined,
): boolean {
  return journal.earlier.some(
    (b) =>
      b.assignment === assignment &&
      b.cells.some(
        (c) =>
          c.user_id === userId &&
          c.comment !== undefined &&
          c.comment.trim() === comment.trim() &&
          applied(now, c, author).comment,
      ),
  );
}
