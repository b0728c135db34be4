// `lms grade --csv FILE --assignment A` with rubric columns: a column named by a criterion of the
// assignment's rubric (its id or description) holds that criterion's points, and one named
// `<criterion> comments` its comment. Every cell is checked against its criterion's range before
// anything is sent; each student's assessment then goes as the submissions API's
// rubric_assessment (one PUT a student, with the row's grade and comment if it has them), and the
// assessments are read back through include[]=rubric_assessment: a row counts as graded only when
// the server holds its points. A row whose points the server already holds is unchanged and not sent.
import { item, list, withFailure, type CommandResult } from '../../model/command.js';
import type { Context } from '../../model/context.js';
import type { ApiClient } from '../../client/client.js';
import { courseScope, resolveUserPath } from '../../client/user-ref.js';
import { ERROR_COLUMN, formatProblems, parseCsv, type Problem } from '../../bulk/csv-input.js';
import { unguardCell } from '../../output/csv-guard.js';
import type { SubmissionContext } from '../../spec/types/submissions.js';
import { problemCount } from '../../bulk/problems.js';
import { reporting, unpaged } from '../../bulk/report.js';
import { LmsError, UsageError } from '../../errors.js';
import { interpretGrade } from '../../spec/grading.js';
import type { RubricCriterion } from '../../spec/types/rubrics.js';
import type { GradedAssignment, Submission } from '../../spec/types/submissions.js';
import { WHO_COLUMNS } from './export.js';
import { criterionNamed, pointsFor, type RubricAssessmentParam } from './rubric.js';
import { dialectOf, dialectWords, readInput, type InputEncoding } from '../../bulk/csv-input.js';
import { delimiterOf } from '../../bulk/delimiter.js';
import { err } from '../../io/streams.js';
import { pool } from '../../pool.js';
import { courseOf } from './export.js';

/** What of `grade --csv`'s options a rubric file reads. */
interface GradeCsvOptions {
  sctx: SubmissionContext;
  assignment?: string;
  dryRun?: boolean;
  concurrency: number;
}

/** The header of the file, lower-cased as the CSV reader reads it (empty when it cannot be read). */
async function headerOf(bytes: Buffer): Promise<string[]> {
  const { parse } = await import('csv-parse/sync');
  try {
    const rows = parse(bytes, {
      bom: true,
      delimiter: delimiterOf(bytes),
      to_line: 1,
      relax_column_count: true,
    }) as string[][];
    return (rows[0] ?? []).map((h) => unguardCell(h).trim().toLowerCase());
  } catch {
    return [];
  }
}

const PLAIN = ['user', ...WHO_COLUMNS, 'grade', 'comment', ERROR_COLUMN];
const COMMENTS = / comments?$/;

/** The rubric columns of a header: each column's criterion, and whether it holds points or a comment. */
type RubricColumns = Map<string, { criterion: RubricCriterion; part: 'points' | 'comments' }>;

/**
 * The hook of the column recognition: the header's columns that name criteria of the assignment's
 * rubric, or undefined when it has none (the file is then an ordinary one, read as before).
 */
export function rubricColumnsOf(header: readonly string[], a: GradedAssignment): RubricColumns | undefined {
  if (!a.rubric?.length) return undefined;
  const out: RubricColumns = new Map();
  for (const column of header) {
    if (PLAIN.includes(column)) continue;
    const found = criterionNamed(a.rubric, column);
    if (typeof found !== 'string') {
      out.set(column, { criterion: found, part: 'points' });
      continue;
    }
    const base = column.replace(COMMENTS, '');
    const commented = base !== column ? criterionNamed(a.rubric, base) : found;
    if (typeof commented !== 'string') out.set(column, { criterion: commented, part: 'comments' });
  }
  return out.size ? out : undefined;
}

interface Row {
  line: number;
  user: string;
  userId: number;
  assessment: RubricAssessmentParam;
  grade?: string;
  comment?: string;
  current: Submission;
}

const sameAssessment = (held: Submission['rubric_assessment'], wanted: RubricAssessmentParam) =>
  Object.entries(wanted).every(([id, r]) => {
    const h = held?.[id];
    return (
      (r.points === undefined || h?.points === r.points) &&
      (r.comments === undefined || (h?.comments ?? '') === r.comments)
    );
  });

async function assessments(client: ApiClient, o: GradeCsvOptions, withUsers: boolean): Promise<Submission[]> {
  const out: Submission[] = [];
  for await (const s of client.ops.submissions.list({
    ...o.sctx,
    assignment_id: o.assignment!,
    include: withUsers ? ['rubric_assessment', 'user'] : ['rubric_assessment'],
  }))
    out.push(s);
  return out;
}

export function gradeRubricCsv(
  ctx: Context,
  client: ApiClient,
  input: { bytes: Buffer; name: string },
  a: GradedAssignment,
  columns: RubricColumns,
  o: GradeCsvOptions,
): Promise<CommandResult> {
  return reporting(ctx, async (report) => {
    const { bytes, name } = input;
    const { rows, problems } = parseCsv(bytes, {
      columns: ['user', ...WHO_COLUMNS, 'grade', 'comment', ...columns.keys()],
      required: ['user'],
    });
    const fail = (list: Problem[]) =>
      new UsageError(`${name} has ${problemCount(list.length)}; nothing was sent:\n${formatProblems(list, name)}`);
    if (problems.length) throw fail(problems);
    const subs = await assessments(client, o, true);
    const byKey = new Map<string, Submission>();
    for (const s of subs) {
      byKey.set(String(s.user_id), s);
      if (s.user?.sis_user_id) byKey.set(`sis_user_id:${s.user.sis_user_id}`, s);
      if (s.user?.login_id) byKey.set(s.user.login_id.toLowerCase(), s);
    }
    const bad: Problem[] = [];
    const out: Row[] = [];
    const seen = new Map<number, number>();
    for (const r of rows) {
      const assessment: RubricAssessmentParam = {};
      for (const [column, { criterion, part }] of columns) {
        const cell = r.values[column] ?? '';
        if (cell === '') continue;
        if (part === 'comments') {
          assessment[criterion.id] = { ...assessment[criterion.id], comments: cell };
          continue;
        }
        const points = pointsFor(criterion, cell);
        if (typeof points === 'string') bad.push({ line: r.line, message: `${points} (${column})` });
        else assessment[criterion.id] = { ...assessment[criterion.id], points };
      }
      const grade = r.values.grade || undefined;
      if (grade !== undefined) {
        const target = interpretGrade(a, grade);
        if ('error' in target) bad.push({ line: r.line, message: target.error });
      }
      if (!Object.keys(assessment).length && grade === undefined) continue;
      let current = byKey.get(r.values.user) ?? byKey.get(r.values.user.toLowerCase());
      if (!current) {
        try {
          const path = await resolveUserPath(client, r.values.user, courseScope(client, o.sctx));
          current = byKey.get(path) ?? subs.find((s) => String(s.user_id) === path);
        } catch (e) {
          if (!(e instanceof LmsError)) throw e;
        }
      }
      if (!current) {
        bad.push({ line: r.line, message: `user "${r.values.user}" is not a student here` });
        continue;
      }
      const first = seen.get(current.user_id);
      if (first !== undefined) {
        bad.push({ line: r.line, message: `user "${r.values.user}" is graded on line ${first} already` });
        continue;
      }
      seen.set(current.user_id, r.line);
      out.push({
        line: r.line,
        user: r.values.user,
        userId: current.user_id,
        assessment,
        grade,
        comment: r.values.comment || undefined,
        current,
      });
    }
    if (bad.length) throw fail(bad);

    const unchangedRow = (row: Row) =>
      sameAssessment(row.current.rubric_assessment, row.assessment) && row.grade === undefined && !row.comment;
    const changed = out.filter((row) => !unchangedRow(row));
    const base = (row: Row) => ({
      line: row.line,
      user: row.user,
      user_id: row.userId,
      assignment_id: a.id,
      old_score: row.current.score,
      rubric: Object.fromEntries(Object.entries(row.assessment).map(([id, r]) => [id, r.points ?? null])),
    });
    const tableColumns = ['line', 'user', 'assignment_id', 'old_score', 'new_score', 'status', 'error'];
    if (o.dryRun) {
      report.summary(
        `Dry run: ${changed.length} rubric assessment${changed.length === 1 ? '' : 's'} to send, ` +
          `${out.length - changed.length} unchanged. Nothing was sent.`,
      );
      report.finish();
      const dry = out.map((row) => ({ ...base(row), status: unchangedRow(row) ? 'unchanged' : 'updated' }));
      return unpaged(
        ctx.globals.output === 'csv' || ctx.globals.output === 'table'
          ? list(dry, tableColumns)
          : item({
              updated: changed.length,
              unchanged: out.length - changed.length,
              failed: 0,
              rows: dry,
              dry_run: true,
            }),
      );
    }
    const errors = new Map<Row, string>();
    await pool(changed, o.concurrency, async (row) => {
      try {
        await client.ops.submissions.grade({
          ...o.sctx,
          assignment_id: a.id,
          user_id: row.userId,
          rubric_assessment: row.assessment,
          ...(row.grade !== undefined ? { submission: { posted_grade: row.grade } } : {}),
          ...(row.comment ? { comment: { text_comment: row.comment } } : {}),
        });
      } catch (e) {
        if (!(e instanceof LmsError)) throw e;
        errors.set(row, e.message);
      }
    });
    // Read back: the server holds each row's points, or the row failed.
    const held = new Map((await assessments(client, o, false)).map((s) => [s.user_id, s]));
    const results = out.map((row) => {
      const now = held.get(row.userId);
      const status = unchangedRow(row)
        ? 'unchanged'
        : now && sameAssessment(now.rubric_assessment, row.assessment)
          ? 'updated'
          : 'failed';
      return {
        ...base(row),
        new_score: now?.score ?? null,
        status,
        ...(status === 'failed' ? { error: errors.get(row) ?? 'the server does not hold these points' } : {}),
      };
    });
    const counts = {
      updated: results.filter((r) => r.status === 'updated').length,
      unchanged: results.filter((r) => r.status === 'unchanged').length,
      failed: results.filter((r) => r.status === 'failed').length,
    };
    report.summary(
      `Assessed ${out.length} student${out.length === 1 ? '' : 's'} by rubric: ${counts.updated} updated, ` +
        `${counts.unchanged} unchanged, ${counts.failed} failed.`,
    );
    const failed = results.filter((r) => r.status === 'failed');
    report.attention(
      failed.map((f) => ({ line: f.line, user: f.user, status: f.status, error: f.error })),
      failed.slice(0, 20).map((f) => `  ${name}:${f.line} (user ${f.user}): ${f.error}`),
    );
    const format = ctx.globals.output;
    const output =
      format === 'csv' || format === 'table'
        ? list(results, tableColumns)
        : format === undefined && ctx.io.stdoutIsTTY
          ? undefined
          : item({ ...counts, rows: results });
    const failure = report.finish(
      failed.length ? `${failed.length} of ${out.length} rubric assessments failed` : undefined,
    );
    return failure ? withFailure(unpaged(output), failure) : unpaged(output);
  });
}

/**
 * Reads the file once and looks at its header: with columns beside the usual ones, the assignment's
 * rubric is read, and a header naming its criteria is graded here. Otherwise the input goes on to
 * the ordinary reader (stdin cannot be read twice).
 */
export async function rubricCsv(
  ctx: Context,
  file: string,
  o: GradeCsvOptions,
): Promise<{ result: CommandResult } | { input: { bytes: Buffer; name: string; encoding: InputEncoding } }> {
  const input = await readInput(ctx.input(file), ctx.io.stdin);
  if (ctx.globals.verbose)
    err(ctx.io, `${input.name}: ${dialectWords(dialectOf(input.bytes, { encoding: input.encoding }))}\n`);
  const header = await headerOf(input.bytes);
  if (header.every((h) => PLAIN.includes(h))) return { input };
  const client = await ctx.client();
  const a = (await client.ops.assignments.get({
    course_id: await courseOf(client, o.sctx),
    id: o.assignment!,
  })) as GradedAssignment;
  const columns = rubricColumnsOf(header, a);
  if (!columns) return { input };
  ctx.longJob();
  return { result: await gradeRubricCsv(ctx, client, input, a, columns, o) };
}
