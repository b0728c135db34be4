// `lms history`: the gradebook history of a course — days with grading, a day's graders, a grader's
// changes to one assignment that day, and the feed of every change (streamed, newest first).
import { list, type Verbs } from '../../model/command.js';
import { command, contextFlags } from '../../model/define.js';
import type { SubmissionVersion } from '../../spec/types/history.js';
import { UsageError } from '../../errors.js';
import { labelOf, listOf, nameOf, recordsOf } from '../../output/text.js';

const course = { ...contextFlags.course, required: true } as const;

function date(raw: string, flag = 'DATE'): string {
  const d = /^\d{4}-\d{2}-\d{2}$/.test(raw) ? new Date(`${raw}T00:00:00Z`) : undefined;
  if (!d || Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== raw)
    throw new UsageError(`${flag} must be a date as YYYY-MM-DD, got "${raw}"`);
  return raw;
}

const days = command({
  name: 'days',
  summary: 'Days with grading activity, newest first, with their graders and assignments',
  routes: ['history.days'],
  columns: ['date', 'graders'],
  options: { course },
  examples: ['lms history days --course 1'],
  async run({ opts, ctx }) {
    const result = await (await ctx.client()).ops.history.days({ course_id: opts.course });
    // One row a day and grader, which reads well as a table. A grader's assignments are objects on
    // some instances and bare ids on others; a day's graders may be null.
    const flat =
      ctx.globals.output === 'csv' ||
      ctx.globals.output === 'table' ||
      (ctx.globals.output === undefined && ctx.io.stdoutIsTTY);
    if (!flat) return list(result);
    return list(
      result.flatMap((d) =>
        recordsOf(d.graders).map((g) => ({
          date: d.date,
          grader_id: g.id,
          grader: g.name,
          assignments: listOf(g.assignments).map(nameOf).join('; '),
        })),
      ),
      ['date', 'grader_id', 'grader', 'assignments'],
    );
  },
});

const day = command({
  name: 'day',
  args: [{ name: 'date' }],
  summary: "Who graded what on one day (YYYY-MM-DD, in the course's time zone)",
  routes: ['history.day'],
  columns: ['id', 'name', 'assignments'],
  options: { course },
  examples: ['lms history day 2026-09-16 --course 1'],
  async run({ args, opts, ctx }) {
    const graders = await (await ctx.client()).ops.history.day({ course_id: opts.course, date: date(args[0]) });
    const flat =
      ctx.globals.output === 'csv' ||
      ctx.globals.output === 'table' ||
      (ctx.globals.output === undefined && ctx.io.stdoutIsTTY);
    return list(
      flat
        ? recordsOf(graders).map((g) => ({
            id: g.id,
            name: g.name,
            assignments: listOf(g.assignments).map(labelOf).join('; '),
          }))
        : graders,
    );
  },
});

const submissions = command({
  name: 'submissions',
  args: [{ name: 'date' }],
  summary: "One grader's changes to one assignment on a day: each submission's versions, newest first",
  routes: ['history.submissions'],
  columns: ['submission_id', 'user_id', 'user_name', 'previous_grade', 'new_grade', 'new_graded_at', 'new_grader'],
  options: {
    course,
    grader: {
      long: 'grader',
      value: 'id',
      description: "the grader's user id (0: graded on submission)",
      required: true,
    },
    assignment: { long: 'assignment', value: 'id', ids: 'assignment', description: 'assignment id', required: true },
  },
  examples: ['lms history submissions 2026-09-16 --course 1 --grader 3 --assignment 1'],
  async run({ args, opts, ctx }) {
    const histories = await (await ctx.client()).ops.history.submissions({
      course_id: opts.course,
      date: date(args[0]),
      grader_id: opts.grader,
      assignment_id: opts.assignment,
    });
    const flat =
      ctx.globals.output === 'csv' ||
      ctx.globals.output === 'table' ||
      (ctx.globals.output === undefined && ctx.io.stdoutIsTTY);
    if (!flat) return list(histories);
    // versions is null on some instances: the submission still gets its row.
    return list(
      recordsOf(histories).flatMap((h) => {
        const versions = recordsOf(h.versions);
        return versions.length
          ? versions.map((v) => ({ submission_id: h.submission_id, ...v }))
          : [{ submission_id: h.submission_id }];
      }),
    );
  },
});

const feed = command({
  name: 'feed',
  summary: 'Every change of a grade in the course, newest first (streams; filter by assignment, student, date)',
  routes: ['history.feed'],
  columns: ['graded_at', 'assignment_name', 'user_name', 'grade', 'score', 'grader'],
  options: {
    course,
    assignment: { long: 'assignment', value: 'id', ids: 'assignment', description: 'only this assignment' },
    user: { long: 'user', value: 'id', ids: 'user', description: 'only this student (user id)' },
    ascending: { long: 'ascending', description: 'oldest first' },
    since: {
      long: 'since',
      value: 'date',
      description: 'only changes from this date (YYYY-MM-DD, UTC) or time (ISO 8601) on',
    },
  },
  examples: ['lms history feed --course 1 --assignment 1', 'lms history feed --course 1 --since 2026-09-17 -o ndjson'],
  async run({ opts, ctx }) {
    let since: string | undefined;
    if (opts.since !== undefined) {
      const t = Date.parse(
        /^\d{4}-\d{2}-\d{2}$/.test(opts.since) ? `${date(opts.since, '--since')}T00:00:00Z` : opts.since,
      );
      if (Number.isNaN(t))
        throw new UsageError(`--since must be a date (YYYY-MM-DD) or a time (ISO 8601), got "${opts.since}"`);
      since = new Date(t).toISOString();
    }
    for (const [flag, v] of [
      ['--assignment', opts.assignment],
      ['--user', opts.user],
    ] as const) {
      if (v !== undefined && !/^\d+$/.test(v)) throw new UsageError(`${flag} must be a numeric id, got "${v}"`);
    }
    const client = await ctx.client();
    const versions = client.ops.history.feed(
      {
        course_id: opts.course,
        assignment_id: opts.assignment,
        user_id: opts.user,
        ascending: opts.ascending || undefined,
      },
      { limit: since ? undefined : ctx.pageLimit() },
    );
    if (!since) return list(versions);
    const from = since;
    const limit = ctx.pageLimit();
    // Newest first, the feed can stop at the first change before --since; oldest first, it skips to it.
    async function* filtered(): AsyncGenerator<SubmissionVersion> {
      let n = 0;
      for await (const v of versions) {
        const at = new Date(v.graded_at ?? 0).toISOString();
        if (at < from) {
          if (opts.ascending) continue;
          return;
        }
        yield v;
        if (limit !== undefined && ++n >= limit) return;
      }
    }
    return list(filtered());
  },
});

export const historyVerbs: Verbs = [days, day, submissions, feed] as Verbs;
