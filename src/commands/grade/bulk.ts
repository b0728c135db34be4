// `lms grade --csv FILE`: a whole gradebook file, checked before anything is sent, then applied
// through the batch endpoint (update_grades, a Progress per batch followed to its end) or, with
// --per-row, one PUT a row through the bulk engine (concurrency, journal, resume). Either way every
// row is read back afterwards: a row counts as graded only when the server holds its grade.
//
// The server is the memory of a run: a row whose grade the server already holds is unchanged and
// skipped, so re-running a file after a crash or a kill sends only what is left, and a grade sent
// twice adds no second version to the history.
import { item, list, withFailure, type CommandResult } from '../../model/command.js';
import type { Context } from '../../model/context.js';
import type { ApiClient } from '../../client/client.js';
import type { Progress } from '../../spec/types/progress.js';
import type { GradeDataEntry, GradedAssignment, Submission, SubmissionContext } from '../../spec/types/submissions.js';
import { journalDir } from '../../config/paths.js';
import { ApiError, ExitCode, type LmsError, NetworkError, UsageError } from '../../errors.js';
import { interpretGrade } from '../../spec/grading.js';
import { problemCount } from '../../bulk/problems.js';
import {
  controlCharacters,
  csvHeader,
  dialectOf,
  dialectWords,
  ERROR_COLUMN,
  formatProblems,
  parseCsv,
  readCsvRecords,
  readInput,
  type CsvDialect,
  type CsvRow,
  type Delimiter,
  type InputEncoding,
  type Problem,
} from '../../bulk/csv-input.js';
import {
  columnsOf,
  isBlankRow,
  isCanvasGradebook,
  isPointsPossibleRow,
  isPostingRow,
  READ_ONLY_MARK,
  type Column,
  type ColumnKind,
} from './columns.js';
import { err } from '../../io/streams.js';
import { failedFileNote, writeFailedRows } from '../../bulk/failed.js';
import { reporting, unpaged, type BulkReport } from '../../bulk/report.js';
import {
  courseScope,
  parseUserRef,
  resolveAddresses,
  searchedFor,
  userRefKey,
  type UserRef,
} from '../../client/user-ref.js';
import type { BatchCell, BatchJournal } from '../../bulk/batches.js';
import { progressWaitBound } from '../../model/watch-progress.js';
import { aboveMaximum } from './over.js';
import { WHO_COLUMNS } from './export.js';
import { textOf } from '../../output/text.js';
import { commentsLike, postedEarlier, readBackUntilSettled, settleEarlier } from './settle.js';

export interface GradeCsvOptions {
  sctx: SubmissionContext;
  /** The course, for the assignments routes (a section's course when --section). */
  assignment?: string;
  dryRun?: boolean;
  perRow?: boolean;
  batchSize: number;
  concurrency: number;
  failedOut?: string;
  restart?: boolean;
  /** The file's separator, as --delimiter gave it; read off the header otherwise. */
  delimiter?: Delimiter;
}

/** What grade --csv (and grade set) answers with as data: its counts and a row a grade. */
export interface GradeRunSummary {
  updated: number;
  unchanged: number;
  failed: number;
  rows: { status: string; error?: string }[];
  dry_run?: true;
}

/** One grade of the file: a row, or one cell of a row when the file has a column per assignment. */
interface Cell {
  line: number;
  user: string;
  assignment: GradedAssignment;
  grade: string;
  comment?: string;
  /** Found while checking the file. */
  userId: number;
  current: Submission;
  target: Target;
  /** From Canvas's export, which writes scores to two decimals: a cell that rounds to the score held is no change. */
  canvas?: true;
}

/** What the server holds once a cell is graded: a score and grade, or (Canvas's `EX`) the student excused. */
interface Target {
  score: number | null;
  grade: string | null;
  excused?: boolean;
}

interface CellResult {
  line: number;
  user: string;
  user_id: number;
  assignment_id: number;
  old_grade: string | null;
  new_grade: string | null;
  /** The old grade was an earlier attempt's: the student has resubmitted since. */
  new_attempt?: true;
  comment?: string;
  status: 'updated' | 'unchanged' | 'failed';
  error?: string;
}

const MAX_ROUNDS = 3;
/** Encoded grade data per update_grades request, at most. */
const MAX_BATCH_BYTES = 512 * 1024;

/**
 * The server holds this grade for the student's current attempt. After a resubmission the grade
 * stays but no longer matches (grade_matches_current_submission false): the same grade posted again
 * grades the new attempt, so the row is sent, not skipped as unchanged.
 */
const same = (
  s: Pick<Submission, 'score' | 'grade'> & Partial<Pick<Submission, 'grade_matches_current_submission' | 'excused'>>,
  t: Target,
) =>
  t.excused
    ? s.excused === true
    : s.excused !== true &&
      (s.score ?? null) === t.score &&
      (s.grade ?? null) === t.grade &&
      s.grade_matches_current_submission !== false;

/** Two decimals, as Canvas's export writes a score and its import compares one. */
const hundredths = (n: number) => Math.round(n * 100);

/**
 * The cell changes nothing: the server holds its grade; or, for a cell of Canvas's export, the score
 * it gives rounds to the score held (the export wrote it to two decimals), or it is the letter held,
 * whether or not the student has resubmitted since (Canvas's export writes that score, and its
 * import takes it back as no change).
 */
function noChange(c: Cell, s: Submission): boolean {
  if (same(s, c.target)) return true;
  // As Canvas's import compares them: the score alone, an attempt made since the grade aside.
  if (!c.canvas || c.target.excused || s.excused === true) return false;
  if (/^[+-]?\d*\.?\d+$/.test(c.grade) && typeof s.score === 'number')
    return hundredths(Number(c.grade)) === hundredths(s.score);
  return typeof s.grade === 'string' && s.grade.toLowerCase() === c.grade.toLowerCase();
}

/** Marks a row whose old grade is an earlier attempt's: `20 → 20` then grades the new attempt. */
const newAttempt = (c: Cell): { new_attempt?: true } =>
  c.current.grade_matches_current_submission === false ? { new_attempt: true } : {};

/**
 * Students of an assignment by the keys their references take (user-ref.ts): id, SIS id, login —
 * the latter two where the listing shows them.
 */
function studentIndex(subs: Submission[]): Map<string, Submission> {
  const by = new Map<string, Submission>();
  for (const s of subs) {
    by.set(String(s.user_id), s);
    const u = s.user;
    if (u?.sis_user_id) by.set(`sis_user_id:${u.sis_user_id}`, s);
    if (u?.login_id) by.set(`sis_login_id:${u.login_id.toLowerCase()}`, s);
  }
  return by;
}

/**
 * The assignment's submissions; with their students' logins and SIS ids when the file names students
 * by them, and their comments when the file has comments (what a batch in doubt is checked against).
 */
async function currentSubmissions(
  client: ApiClient,
  sctx: SubmissionContext,
  assignmentId: number,
  withUsers: boolean,
  withComments = false,
): Promise<Submission[]> {
  const include = [
    ...(withUsers ? (['user'] as const) : []),
    ...(withComments ? (['submission_comments'] as const) : []),
  ];
  const out: Submission[] = [];
  for await (const s of client.ops.submissions.list({
    ...sctx,
    assignment_id: assignmentId,
    ...(include.length ? { include } : {}),
  }))
    out.push(s);
  return out;
}

/** What a file says before its students and assignments are looked up: its rows, by the column kinds of columns.ts. */
interface ReadFile {
  /** Each row: its line, the student's reference (`user`) and its grade cells by column key. */
  rows: CsvRow[];
  /**
   * The columns of grades: key (the header in lms's layout, `#index` in Canvas's), the header as written, the id it
   * names.
   */
  gradeColumns: { key: string; column: Column }[];
  /** The header the failed rows are written with, and each row's cells by it. */
  out: {
    header: string[];
    values: Map<number, Record<string, string>>;
    lead?: { line: number; values: Record<string, string> };
  };
  /** Canvas's layout: the cells of each row's SIS User ID, checked against the student its ID names. */
  sisIds?: Map<number, string>;
  problems: Problem[];
}

/** lms's own layout: `user` (and `name`, `section`), then `grade` and `comment`, or a column per assignment. */
function readLmsFile(bytes: Buffer, o: GradeCsvOptions, fileHeader: string[]): ReadFile {
  const perAssignment = !o.assignment;
  const lower = fileHeader.map((h) => h.trim().toLowerCase());
  // A failed-rows file's error column is no assignment: it is left out, so that file grades as it is.
  const columns = perAssignment
    ? lower.includes('user')
      ? lower.filter((h) => h !== ERROR_COLUMN)
      : ['user']
    : ['user', ...WHO_COLUMNS, 'grade', 'comment'];
  // An empty grade cell changes nothing (a gradebook export leaves ungraded cells empty), so only the
  // user must be filled in; the grade column itself is still required.
  const { rows, header, problems } = parseCsv(bytes, { columns, required: ['user'] }, { delimiter: o.delimiter });
  if (!perAssignment && header.length && !header.includes('grade'))
    problems.push({ line: 1, message: 'missing required column grade' });
  const kinds = columnsOf(header, 'lms');
  const gradeColumns = perAssignment
    ? kinds
        .filter((c) => !['user', 'name', 'info', 'error'].includes(c.kind))
        .map((c) => ({ key: c.header, column: c }))
    : kinds.filter((c) => c.kind === 'grade').map((c) => ({ key: c.header, column: c }));
  if (perAssignment)
    for (const c of gradeColumns)
      if (c.column.kind !== 'assignment')
        problems.push({
          line: 1,
          message: `a ${c.column.header} column goes with --assignment; a gradebook has a column per assignment`,
        });
  return { rows, gradeColumns, out: { header, values: new Map(rows.map((r) => [r.line, r.values])) }, problems };
}

/**
 * Canvas's Gradebook export: the student by `ID` (else `SIS User ID`, else `SIS Login ID`), a column
 * per assignment, the rows of points possible and of posting skipped, the totals ignored. A column
 * whose points possible say `(read only)` is ignored too, as Canvas's import ignores it.
 */
function readCanvasFile(bytes: Buffer, o: GradeCsvOptions, name: string): ReadFile {
  const read = readCsvRecords(bytes, { columns: ['Student', 'ID', 'SIS Login ID', 'Section'], delimiter: o.delimiter });
  const out: ReadFile['out'] = { header: [], values: new Map() };
  if ('problem' in read) return { rows: [], gradeColumns: [], out, problems: [read.problem] };
  const header = csvHeader(bytes, o.delimiter).map((h) => h.trim());
  out.header = header;
  const columns = columnsOf(header, 'canvas');
  const problems: Problem[] = [];
  const dupes = header.filter((h, i) => h !== '' && header.indexOf(h) !== i);
  if (dupes.length) problems.push({ line: 1, message: `column "${dupes[0]}" appears twice` });
  const at = (kind: ColumnKind) => columns.find((c) => c.kind === kind)?.index;
  const [idAt, sisAt, loginAt] = [at('student_id'), at('sis_user_id'), at('sis_login_id')];
  const readOnly = new Set<number>();
  const rows: CsvRow[] = [];
  const sisIds = new Map<number, string>();
  for (const { line, cells: raw } of read.records) {
    const cells = raw.map((c) => c.trim());
    if (isBlankRow(cells) || isPostingRow(cells)) continue;
    if (isPointsPossibleRow(cells)) {
      cells.forEach((c, i) => {
        if (READ_ONLY_MARK.test(c)) readOnly.add(i);
      });
      // Written again at the head of the failed rows: it says which columns are read-only.
      out.lead ??= { line, values: Object.fromEntries(header.map((h, i) => [h, raw[i] ?? ''])) };
      continue;
    }
    out.values.set(line, Object.fromEntries(header.map((h, i) => [h, raw[i] ?? ''])));
    const [id, sis, login] = [idAt, sisAt, loginAt].map((i) => (i === undefined ? '' : (cells[i] ?? '')));
    const user = id !== '' ? id : sis !== '' ? `sis_user_id:${sis}` : login !== '' ? `sis_login_id:${login}` : '';
    if (user === '') {
      problems.push({ line, message: 'names no student: ID, SIS User ID and SIS Login ID are all empty' });
      continue;
    }
    if (id !== '' && !/^\d+$/.test(id)) problems.push({ line, message: `ID "${id}" is not a Canvas user id` });
    if (id !== '' && sis !== '') sisIds.set(line, sis);
    const values: Record<string, string> = { user };
    for (const c of columns) if (c.kind === 'assignment') values[`#${c.index}`] = canvasCell(cells[c.index] ?? '');
    for (const message of controlCharacters(values, [])) problems.push({ line, message });
    rows.push({ line, values });
  }
  if (problems.length === 0 && rows.length === 0 && read.records.length === 0)
    problems.push({ line: 1, message: `${name} has a header and no students` });
  const gradeColumns = columns
    .filter((c) => c.kind === 'assignment' && !readOnly.has(c.index))
    .map((c) => ({ key: `#${c.index}`, column: c }));
  return { rows, gradeColumns, out, sisIds, problems };
}

/**
 * A grade cell of Canvas's export as the import reads it: `EX` excused (in any case); `N/A` (a
 * student the assignment is not assigned to) and `-` no grade, so no change; a number with a
 * decimal comma (`8,50`, a European locale's export) with a point, as Canvas's import reads it.
 */
function canvasCell(cell: string): string {
  if (/^ex$/i.test(cell)) return EXCUSED;
  if (cell === '-' || /^n\/a$/i.test(cell)) return '';
  if (/^-?[0-9.,]+%?$/.test(cell)) {
    const parts = cell.split(/[,.]/);
    const last = parts.pop()!;
    return parts.length ? `${parts.join('')}.${last}` : last;
  }
  return cell;
}

/** A Canvas cell that excuses the student. */
const EXCUSED = 'EX';

/** Reads and checks the whole file: every problem with its line, and nothing sent when there is one. */
async function readCells(
  ctx: Context,
  client: ApiClient,
  file: string,
  o: GradeCsvOptions,
  input?: { bytes: Buffer; name: string; encoding: InputEncoding },
): Promise<{
  cells: Cell[];
  header: string[];
  values: Map<number, Record<string, string>>;
  lead?: { line: number; values: Record<string, string> };
  name: string;
  bytes: Buffer;
  dialect: CsvDialect;
  encoding: InputEncoding;
}> {
  // Read again after earlier batches were settled, the input is the one already read (stdin cannot be read twice).
  const { bytes, name, encoding } = input ?? (await readInput(ctx.input(file), ctx.io.stdin));
  const dialect = dialectOf(bytes, { delimiter: o.delimiter, encoding });
  // Said once, when the file is first read: which separator a file was taken to use is what a
  // spreadsheet's export leaves a person guessing.
  if (!input && ctx.globals.verbose) err(ctx.io, `${name}: ${dialectWords(dialect)}\n`);
  const fileHeader = csvHeader(bytes, o.delimiter);
  const canvas = isCanvasGradebook(fileHeader);
  if (canvas && o.assignment)
    throw new UsageError(
      `${name} is a Canvas gradebook export, with a column per assignment: give it without --assignment`,
    );
  if (canvas && ctx.globals.verbose && !input) err(ctx.io, `${name}: read as a Canvas gradebook export\n`);
  const perAssignment = !o.assignment;
  const file0 = canvas ? readCanvasFile(bytes, o, name) : readLmsFile(bytes, o, fileHeader);
  const { rows, gradeColumns, out, sisIds } = file0;
  const problems = [...file0.problems].sort((a, b) => a.line - b.line);
  if (problems.length)
    throw new UsageError(
      `${name} has ${problemCount(problems.length)}; nothing was sent:\n${formatProblems(problems, name)}`,
    );

  const courseId =
    'course_id' in o.sctx && o.sctx.course_id !== undefined
      ? o.sctx.course_id
      : (await client.ops.sections.get({ id: o.sctx.section_id! })).course_id;
  // Which assignment each grade column is.
  const byColumn = new Map<string, GradedAssignment>();
  if (!perAssignment)
    byColumn.set(
      'grade',
      (await client.ops.assignments.get({ course_id: courseId, id: o.assignment! })) as GradedAssignment,
    );
  else {
    const all: GradedAssignment[] = [];
    for await (const a of client.ops.assignments.list({ course_id: courseId })) all.push(a as GradedAssignment);
    const unknown: string[] = [];
    // Canvas's custom columns (notes and the like) stand between Section and the first assignment: ignored, as said.
    const firstWithId = Math.min(...gradeColumns.filter((c) => c.column.id !== undefined).map((c) => c.column.index));
    const custom: string[] = [];
    for (const { key, column } of gradeColumns) {
      const title = (column.title ?? column.header).toLowerCase();
      const found =
        column.id !== undefined
          ? all.filter((a) => String(a.id) === column.id)
          : all.filter((a) => (!canvas && String(a.id) === title) || textOf(a.name).toLowerCase() === title);
      if (found.length === 1) byColumn.set(key, found[0]);
      else if (canvas && column.id === undefined && found.length === 0 && column.index < firstWithId)
        custom.push(column.header);
      else
        unknown.push(
          found.length
            ? `"${column.header}" names ${found.length} assignments (use its id)`
            : column.id !== undefined
              ? `"${column.header}": assignment ${column.id} is not an assignment of course ${courseId}`
              : `"${column.header}" is not an assignment of course ${courseId} (by ${canvas ? 'name' : 'id or name'})`,
        );
    }
    if (custom.length)
      ctx.warn(
        `${name}: ${custom.map((c) => `"${c}"`).join(', ')} ${custom.length === 1 ? 'is' : 'are'} no assignment (a ` +
          `custom column?) and left as ${custom.length === 1 ? 'it is' : 'they are'}`,
      );
    if (unknown.length || byColumn.size === 0) {
      const why = unknown.length
        ? unknown.join('; ')
        : canvas
          ? 'the file has no assignment columns (headed "Name (id)")'
          : 'the file has no assignment columns beside ' +
            `${['user', ...WHO_COLUMNS].filter((c) => out.header.includes(c)).join(', ')}`;
      throw new UsageError(
        `${name} has 1 problem; nothing was sent:\n${formatProblems([{ line: 1, message: why }], name)}`,
      );
    }
  }

  const found = new Map<number, Map<string, Submission>>();
  // An address (email:X, or a login that is one) is looked up among the course's people first: the
  // row then names whom it found, by id, or has the problem of naming no one or several.
  const given = new Map(rows.map((r) => [r.line, parseUserRef(r.values.user)]));
  const addressed = await resolveAddresses(
    client,
    [...given.values()].filter((ref): ref is UserRef => !('problem' in ref)),
    courseScope(client, o.sctx),
    o.concurrency,
  );
  const refs = new Map(
    [...given].map(([line, ref]) => [
      line,
      'problem' in ref || !searchedFor(ref) ? ref : foundRef(ref, addressed.get(userRefKey(ref))!),
    ]),
  );
  // The students' records come with the listing when the file names them by login or SIS id, or gives their names to
  // check.
  const byName =
    [...refs.values()].some((ref) => !('problem' in ref) && ref.kind !== 'id') ||
    rows.some((r) => r.values.name) ||
    (sisIds?.size ?? 0) > 0;
  const withComments = rows.some((r) => r.values.comment);
  for (const a of byColumn.values())
    if (!found.has(a.id))
      found.set(a.id, studentIndex(await currentSubmissions(client, o.sctx, a.id, byName, withComments)));
  // A reference no listing matches is asked about by itself, as `lms grade --user` would send it: a
  // student whose login the listing does not show is still found, and one who does not exist is
  // told apart from one who is not a student here.
  const listed = (key: string) => [...found.values()].some((index) => index.has(key));
  const unmatched = [...refs.values()].flatMap((ref) =>
    'problem' in ref || listed(userRefKey(ref)) ? [] : [ref.path],
  );
  const { lookupEach } = await import('../../bulk/resolve.js');
  const asked = await lookupEach(unmatched, (path) => lookUser(client, path), o.concurrency);

  const bad: Problem[] = [];
  const cells: Cell[] = [];
  const seen = new Map<string, number>();
  const headerOf = new Map(gradeColumns.map((c) => [c.key, c.column.header]));
  for (const r of rows) {
    // A name given is checked against the student the row names, whatever its grades: a row that
    // names one student and another's name is a file out of step (a column sorted on its own).
    const ref = refs.get(r.line)!;
    if (r.values.name && !('problem' in ref)) {
      const user = asked.get(ref.path);
      const record = [...found.values()]
        .map((index) => index.get(userRefKey(ref)) ?? (typeof user === 'number' ? index.get(String(user)) : undefined))
        .find((sub) => sub?.user)?.user;
      if (record && !namesUser(r.values.name, record))
        bad.push({
          line: r.line,
          message: `name "${r.values.name}" is not the name of user "${r.values.user}" (${textOf(record.name)})`,
        });
    }
    let sisChecked = false;
    for (const [column, a] of byColumn) {
      const grade = r.values[column] ?? '';
      if (grade === '') continue;
      const where = perAssignment ? ` (${headerOf.get(column) ?? column})` : '';
      const excuse = canvas && grade === EXCUSED;
      const target = excuse ? { score: null, grade: null, excused: true } : interpretGrade(a, grade);
      if ('error' in target) {
        bad.push({ line: r.line, message: `${target.error}${where}` });
        continue;
      }
      if ('problem' in ref) {
        bad.push({ line: r.line, message: `user ${ref.problem}` });
        break;
      }
      const index = found.get(a.id)!;
      const user = asked.get(ref.path);
      const sub = index.get(userRefKey(ref)) ?? (typeof user === 'number' ? index.get(String(user)) : undefined);
      if (!sub) {
        bad.push({
          line: r.line,
          message:
            user === 'missing'
              ? `user "${r.values.user}" not found`
              : `user "${r.values.user}" is not a student here${where}`,
        });
        continue;
      }
      // Canvas's export names the student twice (ID and SIS User ID): a row whose two disagree is a file out of step.
      const sis = sisIds?.get(r.line);
      if (sis !== undefined && !sisChecked) {
        sisChecked = true;
        const held = sub.user?.sis_user_id;
        if (typeof held === 'string' && held !== sis) {
          bad.push({
            line: r.line,
            message: `SIS User ID "${sis}" is not the SIS id of user ${r.values.user} (${held})`,
          });
          break;
        }
      }
      const key = `${a.id}|${sub.user_id}`;
      const first = seen.get(key);
      if (first !== undefined) {
        bad.push({ line: r.line, message: `user "${r.values.user}" is graded on line ${first} already${where}` });
        continue;
      }
      seen.set(key, r.line);
      cells.push({
        line: r.line,
        user: r.values.user,
        assignment: a,
        grade,
        comment: r.values.comment || undefined,
        userId: sub.user_id,
        current: sub,
        target,
        ...(canvas ? { canvas: true as const } : {}),
      });
    }
  }
  if (bad.length)
    throw new UsageError(`${name} has ${problemCount(bad.length)}; nothing was sent:\n${formatProblems(bad, name)}`);
  return { cells, header: out.header, values: out.values, lead: out.lead, name, bytes, dialect, encoding };
}

/** A name as it is compared: its letters in one case and normal form, its spaces single. */
const nameKey = (name: unknown) => textOf(name).normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();

/** Whether `name` is what the user is called: their name, sortable name ("Student, Sam") or short name. */
function namesUser(name: string, user: { name?: unknown; sortable_name?: unknown; short_name?: unknown }): boolean {
  const given = nameKey(name);
  return [user.name, user.sortable_name, user.short_name].some(
    (n) => n !== undefined && n !== null && nameKey(n) === given,
  );
}

/**
 * The reference an address stands for, as its search found it: the one user, by id (or, for a bare
 * address no search shows, the login); a problem naming the address when it names no one or
 * several. A search the caller may not make stops the check (it is the run's, not a row's).
 */
function foundRef(ref: UserRef, outcome: { path: string } | { error: LmsError }): UserRef | { problem: string } {
  if ('error' in outcome) {
    if (outcome.error.exitCode === ExitCode.auth) throw outcome.error;
    return { problem: `"${ref.kind === 'email' ? ref.path : ref.value}": ${outcome.error.message}` };
  }
  const found = parseUserRef(outcome.path) as UserRef;
  return { kind: found.kind, value: found.value, path: found.path };
}

/**
 * A user's id; `missing` when there is none; `unknown` when the caller may not look (then only the listing can tell).
 */
async function lookUser(client: ApiClient, path: string): Promise<number | 'missing' | 'unknown'> {
  try {
    return (await client.ops.users.get({ id: path })).id;
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return 'missing';
    if (e instanceof ApiError && (e.status === 401 || e.status === 403) && !e.throttled) return 'unknown';
    throw e;
  }
}

/** `"<reason>: '7', '8'"` lines of a finished Progress: why each user's grade was refused. */
function refusals(p: Progress): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of (p.message ?? '').split('\n').slice(1)) {
    const m = /^(.*): ((?:'[^']*'(?:, )?)+)$/.exec(line);
    if (!m) continue;
    for (const id of m[2].matchAll(/'([^']*)'/g)) out.set(id[1], m[1]);
  }
  return out;
}

interface Sent {
  /** The server answered this cell's item with a refusal. */
  refused?: string;
  /** The batch never reached a finished Progress: unknown whether it applied. */
  lost?: string;
}

/**
 * What the batch path keeps across its rounds: the journal of its batches, and what each comment is checked against.
 */
interface Batching {
  journal: BatchJournal;
  /** The caller, whose comments a batch posts. */
  author?: number;
  /** Cells whose comment the server holds already (posted by an earlier batch): sent without it. */
  posted: Set<Cell>;
  /** Comments like each cell's the submission held when last read (the baseline its batch is checked against). */
  had: Map<Cell, number>;
  /** This round's batches that got no answer: read back before any of their cells is sent again. */
  inDoubt: { name: string; assignment: number; cells: BatchCell[] }[];
}

/** A cell as its batch is journalled: what the server holds once the batch is applied. */
function batchCell(c: Cell, b: Batching): BatchCell {
  const comment = c.comment && !b.posted.has(c) ? { comment: c.comment, had: b.had.get(c) ?? 0 } : {};
  return {
    user_id: c.userId,
    score: c.target.score,
    grade: c.target.grade,
    ...(c.target.excused ? { excused: true } : {}),
    ...comment,
  };
}

async function sendBatches(
  ctx: Context,
  client: ApiClient,
  o: GradeCsvOptions,
  cells: Cell[],
  batchSize: number,
  concurrency: number,
  b: Batching,
  onDone: (n: number) => void,
): Promise<Map<Cell, Sent>> {
  const { progressWaitBound, watchProgress } = await import('../../model/watch-progress.js');
  const { waitForProgress } = await import('../../client/poll.js');
  const outcome = new Map<Cell, Sent>();
  const batches: Cell[][] = [];
  const byAssignment = new Map<number, Cell[]>();
  for (const c of cells) byAssignment.set(c.assignment.id, [...(byAssignment.get(c.assignment.id) ?? []), c]);
  // A batch holds at most batchSize rows, and stays well under servers' request-size limits (1 MiB
  // on the mock) however long its comments are.
  for (const group of byAssignment.values()) {
    let batch: Cell[] = [];
    let bytes = 0;
    for (const c of group) {
      const size = 80 + encodeURIComponent(c.grade).length + encodeURIComponent(c.comment ?? '').length;
      if (batch.length && (batch.length >= batchSize || bytes + size > MAX_BATCH_BYTES)) {
        batches.push(batch);
        batch = [];
        bytes = 0;
      }
      batch.push(c);
      bytes += size;
    }
    if (batch.length) batches.push(batch);
  }
  const single = batches.length === 1;
  let next = 0;
  async function worker(): Promise<void> {
    while (next < batches.length) {
      const batch = batches[next++];
      const gradeData: Record<string, GradeDataEntry> = {};
      for (const c of batch)
        gradeData[String(c.userId)] = {
          ...(c.target.excused ? { excuse: true } : { posted_grade: c.grade }),
          ...(c.comment && !b.posted.has(c) ? { text_comment: c.comment } : {}),
        };
      // Written down before it goes out, and its Progress as soon as it is known: a kill at any
      // moment leaves the next run either a Progress to follow or a batch it knows to be in doubt.
      const journalled = batch.map((c) => batchCell(c, b));
      const name = b.journal.sending(
        batch[0].assignment.id,
        journalled,
        Date.now() + ctx.globals.timeoutSeconds * 1000,
      );
      try {
        const started = await client.ops.grading.updateGrades({
          ...o.sctx,
          assignment_id: batch[0].assignment.id,
          grade_data: gradeData,
        });
        b.journal.sent(name, started.id);
        const label = `grading ${batch.length} rows of assignment ${batch[0].assignment.id}`;
        // One batch gets the Progress's own bar; several share the rows' bar.
        const done = single
          ? await watchProgress(ctx, client, started.id, { label })
          : await waitForProgress((id) => client.ops.progress.get({ id }), started.id, {
              intervalMs: 100,
              maxIntervalMs: 250,
              ...progressWaitBound(ctx, started.id),
            });
        b.journal.ended(name, done.workflow_state);
        const refused = refusals(done);
        for (const c of batch)
          outcome.set(
            c,
            refused.has(String(c.userId))
              ? { refused: refused.get(String(c.userId)) }
              : done.workflow_state === 'failed' && !refused.size
                ? { lost: done.message ?? 'the job failed' }
                : {},
          );
      } catch (e) {
        if (!(e instanceof ApiError || e instanceof NetworkError)) throw e;
        // Refused outright (a bad assignment, no permission) is final; anything else may be retried.
        const final =
          e instanceof ApiError &&
          [400, 401, 403, 404, 422].includes(e.status) &&
          !(e.status === 403 && /rate limit/i.test(e.message));
        // A refused batch did nothing; any other stays in doubt in the journal until it is read back.
        if (final) b.journal.ended(name);
        else b.inDoubt.push({ name, assignment: batch[0].assignment.id, cells: journalled });
        for (const c of batch) outcome.set(c, final ? { refused: e.message } : { lost: e.message });
      }
      onDone(batch.length);
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, batches.length) }, worker));
  return outcome;
}

async function perRow(
  ctx: Context,
  client: ApiClient,
  o: GradeCsvOptions,
  cells: Cell[],
  bytes: Buffer,
  concurrency: number,
  onProgress: (p: { done: number; failed: number; total: number }) => void,
): Promise<Map<Cell, Sent>> {
  const { runRows } = await import('../../bulk/job.js');
  const { Journal } = await import('../../bulk/journal.js');
  const { identifyInstance } = await import('../../bulk/instance.js');
  const instance = await identifyInstance(ctx, client);
  const journal = new Journal(
    await journalDir(ctx),
    ['grade.csv', instance.where, JSON.stringify(o.sctx), o.assignment ?? '*', bytes],
    { state: instance.state, restart: o.restart },
  );
  type Row = { line: number; key: string; cell: Cell };
  const rows: Row[] = cells.map((cell) => ({ line: cell.line, key: `${cell.assignment.id}|${cell.userId}`, cell }));
  // A row is first compared with what the file check read; a second look (an uncertain row), or the
  // first of a row an earlier run was writing when it stopped (its write may have landed since the
  // file check), asks the server.
  const looked = new Set<Row>(rows.filter((row) => journal.get(row.key)?.status === 'started'));
  const results = await runRows<Row, Submission>(
    rows,
    {
      lookupFirst: true,
      // The server is the run's memory, not the journal: a row done by an earlier run whose grade has
      // been changed since is graded again, as the batch path would.
      compareDone: true,
      async find(row) {
        if (!looked.has(row)) {
          looked.add(row);
          return { id: row.cell.current.id, current: row.cell.current };
        }
        const s = await client.ops.submissions.get({
          ...o.sctx,
          assignment_id: row.cell.assignment.id,
          user_id: row.cell.userId,
        });
        return { id: s.id, current: s };
      },
      compare: (row, s) =>
        noChange(row.cell, s) ? [] : [{ field: 'grade', from: s.grade ?? '', to: row.cell.grade, applicable: true }],
      create: () => Promise.reject(new Error('a submission is never created by grading')),
      async update(row) {
        await client.ops.submissions.grade({
          ...o.sctx,
          assignment_id: row.cell.assignment.id,
          user_id: row.cell.userId,
          submission: row.cell.target.excused ? { excuse: true } : { posted_grade: row.cell.grade },
          ...(row.cell.comment ? { comment: { text_comment: row.cell.comment } } : {}),
        });
      },
    },
    {
      journal,
      concurrency,
      update: true,
      onProgress,
      requestMs: ctx.globals.timeoutSeconds * 1000,
      onWait: (ms) =>
        ctx.warn(
          `an earlier run stopped with grades on the wire; waiting up to ${Math.ceil(ms / 1000)} s for the server ` +
            'to finish with them',
        ),
    },
  );
  const out = new Map<Cell, Sent>();
  results.forEach((r, i) => {
    out.set(rows[i].cell, r.status === 'failed' ? { refused: r.error ?? 'failed' } : {});
  });
  return out;
}

/** The batch path's journal, with every batch earlier runs left unfinished brought to its end. */
async function openBatches(ctx: Context, client: ApiClient, o: GradeCsvOptions): Promise<Batching> {
  const [{ BatchJournal }, { identifyInstance }] = await Promise.all([
    import('../../bulk/batches.js'),
    import('../../bulk/instance.js'),
  ]);
  const instance = await identifyInstance(ctx, client);
  // Bound to where the grades go, not to the file: a corrected file re-run after a kill still
  // meets the batches the killed run left queued.
  const journal = new BatchJournal(await journalDir(ctx), ['grade.batches', instance.where, JSON.stringify(o.sctx)], {
    state: instance.state,
  });
  await settleEarlier(ctx, client, o.sctx, journal, instance.self);
  return { journal, author: instance.self, posted: new Set(), had: new Map(), inDoubt: [] };
}

/** The most rows warned of one by one for a score above points possible; the rest are counted. */
const MAX_OVER_WARNINGS = 50;

/**
 * A warning for each row with a grade to send that scores above its assignment's points possible (Canvas takes it:
 * extra credit).
 */
function warnAboveMaximum(ctx: Context, cells: Cell[], name: string): void {
  const byLine = new Map<number, string[]>();
  for (const c of cells) {
    const over = aboveMaximum(c.assignment, c.grade);
    if (over) byLine.set(c.line, [...(byLine.get(c.line) ?? []), over]);
  }
  const lines = [...byLine].sort(([a], [b]) => a - b);
  for (const [line, said] of lines.slice(0, MAX_OVER_WARNINGS))
    ctx.warn(`${name}:${line}: ${said.join('; ')} (Canvas keeps it, as extra credit)`);
  const more = lines.length - MAX_OVER_WARNINGS;
  if (more > 0) ctx.warn(`… and ${more} more row${more === 1 ? '' : 's'} scoring above points possible`);
}

export async function gradeCsv(ctx: Context, file: string, o: GradeCsvOptions): Promise<CommandResult> {
  // A file of one assignment whose columns name its rubric's criteria is graded by rubric (rubric-csv.ts).
  const byRubric = o.assignment ? await (await import('./rubric-csv.js')).rubricCsv(ctx, file, o) : undefined;
  if (byRubric && 'result' in byRubric) return byRubric.result;
  return reporting(ctx, (report) => grade(ctx, file, o, report, byRubric?.input));
}

async function grade(
  ctx: Context,
  file: string,
  o: GradeCsvOptions,
  report: BulkReport,
  input?: { bytes: Buffer; name: string; encoding: InputEncoding },
): Promise<CommandResult> {
  const { batchSize, concurrency } = o;
  ctx.longJob();
  const client = await ctx.client();
  let read = await readCells(ctx, client, file, o, input);
  const batching = o.dryRun || o.perRow ? undefined : await openBatches(ctx, client, o);
  // Batches an earlier run left unfinished are brought to their end first; then the server is read
  // again, so what their jobs wrote is not sent a second time.
  if (batching?.journal.unfinished.length) read = await readCells(ctx, client, file, o, read);
  const { cells, header, values, lead, name, bytes, dialect } = read;
  if (batching) {
    for (const c of cells) {
      if (!c.comment) continue;
      if (postedEarlier(batching.journal, c.assignment.id, c.userId, c.comment, c.current, batching.author))
        batching.posted.add(c);
      batching.had.set(c, commentsLike(c.current, c.comment, batching.author));
    }
  }
  const changed = cells.filter((c) => !noChange(c, c.current));
  const unchanged = cells.length - changed.length;
  warnAboveMaximum(ctx, changed, name);

  const base = (c: Cell) => ({
    line: c.line,
    user: c.user,
    user_id: c.userId,
    assignment_id: c.assignment.id,
    old_grade: c.canvas && c.current.excused === true ? EXCUSED : c.current.grade,
    new_grade: c.target.excused ? EXCUSED : c.target.grade,
    ...newAttempt(c),
    ...(c.comment ? { comment: c.comment } : {}),
  });
  const format = ctx.globals.output;
  const columns = ['line', 'user', 'assignment_id', 'old_grade', 'new_grade', 'status', 'error'];
  if (o.dryRun) {
    // The run's object, key for key, with `dry_run: true`: `updated` counts the grades the run would change.
    report.summary(
      `Dry run: ${changed.length} grade${changed.length === 1 ? '' : 's'} to change, ${unchanged} ` +
        `unchanged${format === undefined && ctx.io.stdoutIsTTY ? ' (not shown)' : ''}. Nothing was sent.`,
    );
    report.finish();
    const rows = cells.map((c) => ({ ...base(c), status: noChange(c, c.current) ? 'unchanged' : 'updated' }));
    if (format === 'csv' || format === 'table') return unpaged(list(rows, columns));
    // On a terminal, the changes: what a dry run is run to see.
    if (format === undefined && ctx.io.stdoutIsTTY)
      return unpaged(
        list(
          rows.filter((r) => r.status === 'updated'),
          columns,
        ),
      );
    return unpaged(item({ updated: changed.length, unchanged, failed: 0, rows, dry_run: true }));
  }

  const started = performance.now();
  const { progressReporter } = await import('../../bulk/progress.js');
  const progress = progressReporter(ctx.io, { verbose: ctx.globals.verbose, label: 'grading' });
  const total = changed.length;
  let done = 0;
  const resume = ctx.activity.pause();
  const results = new Map<Cell, CellResult>();
  for (const c of cells) if (noChange(c, c.current)) results.set(c, { ...base(c), status: 'unchanged' });
  try {
    let pending = changed;
    for (let round = 1; pending.length && round <= MAX_ROUNDS; round++) {
      const sent = o.perRow
        ? await perRow(ctx, client, o, pending, bytes, concurrency, (p) =>
            progress.update({ done: p.done, failed: p.failed, total }),
          )
        : await sendBatches(ctx, client, o, pending, batchSize, concurrency, batching!, (n) => {
            done += n;
            progress.update({ done, failed: 0, total });
          });
      // Read back: a cell is graded only when the server holds its grade. A batch that got no
      // answer may have a job still at work: it is read back until that settles.
      const now = new Map<string, Submission>();
      const withComments = pending.some((c) => c.comment);
      const settled = new Map<number, Map<number, Submission>>();
      for (const lost of batching?.inDoubt ?? []) {
        const cellsOf = batching!.inDoubt.filter((d) => d.assignment === lost.assignment).flatMap((d) => d.cells);
        if (!settled.has(lost.assignment))
          settled.set(
            lost.assignment,
            await readBackUntilSettled(
              client,
              o.sctx,
              lost.assignment,
              cellsOf,
              batching!.author,
              progressWaitBound(ctx, 0).timeoutMs ?? Infinity,
            ),
          );
      }
      for (const id of new Set(pending.map((c) => c.assignment.id))) {
        const subs =
          settled.get(id) ??
          new Map((await currentSubmissions(client, o.sctx, id, false, withComments)).map((s) => [s.user_id, s]));
        for (const s of subs.values()) now.set(`${id}|${s.user_id}`, s);
      }
      const retry: Cell[] = [];
      for (const c of pending) {
        const held = now.get(`${c.assignment.id}|${c.userId}`);
        const outcome = sent.get(c) ?? {};
        if (batching && c.comment && !batching.posted.has(c)) {
          // A comment the server holds now is not sent again with a resent grade.
          if (commentsLike(held, c.comment, batching.author) > (batching.had.get(c) ?? 0)) batching.posted.add(c);
          else batching.had.set(c, commentsLike(held, c.comment, batching.author));
        }
        if (held && noChange(c, held)) results.set(c, { ...base(c), status: 'updated' });
        else if (outcome.lost && round < MAX_ROUNDS && !o.perRow) retry.push(c);
        else {
          const kept = held
            ? `the server kept ${JSON.stringify(held.grade)}` +
              `${held.score !== null && String(held.score) !== held.grade ? ` (score ${held.score})` : ''}`
            : 'the submission could not be read back';
          const why = outcome.refused ?? outcome.lost;
          results.set(c, { ...base(c), status: 'failed', error: why ? `${why}; ${kept}` : kept });
        }
      }
      for (const d of batching?.inDoubt.splice(0) ?? []) batching!.journal.ended(d.name);
      if (retry.length)
        ctx.warn(
          `${retry.length} grade${retry.length === 1 ? '' : 's'} not confirmed; sending ` +
            `${retry.length === 1 ? 'it' : 'them'} again`,
        );
      pending = retry;
    }
    // Every batch of this run and of the runs settled before it has ended or been read back.
    batching?.journal.close();
  } finally {
    progress.finish();
    resume();
  }

  const all = cells.map((c) => results.get(c)!);
  const counts = {
    updated: all.filter((r) => r.status === 'updated').length,
    unchanged: all.filter((r) => r.status === 'unchanged').length,
    failed: all.filter((r) => r.status === 'failed').length,
  };
  const seconds = (performance.now() - started) / 1000;
  report.summary(
    `Graded ${cells.length} grade${cells.length === 1 ? '' : 's'} in ${seconds.toFixed(1)} ` +
      `s${o.perRow ? ' (one request a row)' : ''}: ${counts.updated} updated, ${counts.unchanged} unchanged, ` +
      `${counts.failed} failed.`,
  );
  const failed = all.filter((r) => r.status === 'failed');
  const lines = failed
    .slice(0, 20)
    .map(
      (f) => `  ${name}:${f.line} (user ${f.user}${o.assignment ? '' : `, assignment ${f.assignment_id}`}): ${f.error}`,
    );
  if (failed.length > 20) lines.push(`  … and ${failed.length - 20} more`);
  report.attention(
    failed.map((f) => ({
      line: f.line,
      user: f.user,
      assignment_id: f.assignment_id,
      status: f.status,
      error: f.error,
    })),
    lines,
  );
  if (o.failedOut) {
    const byLine = new Map<number, string[]>();
    for (const f of failed) byLine.set(f.line, [...(byLine.get(f.line) ?? []), f.error ?? 'failed']);
    // In the file's own layout and dialect: a Canvas export's failed rows come back under its points possible.
    const failedRows = [...byLine].map(([line, errors]) => ({
      line,
      values: values.get(line) ?? {},
      error: errors.join('; '),
    }));
    const outcome = await writeFailedRows(
      o.failedOut,
      header,
      failedRows.length && lead ? [{ ...lead, error: '' }, ...failedRows] : failedRows,
      dialect,
    );
    if (outcome === 'written') report.set('failed_out', o.failedOut);
    const note = failedFileNote(o.failedOut, outcome, { rows: 'Failed rows', verb: 'grade' });
    if (note) report.note(note);
  }
  // Per-row results in a table or CSV when asked for; JSON when piped; a terminal gets the summary alone.
  const output =
    format === 'csv' || format === 'table'
      ? list(all, columns)
      : format === undefined && ctx.io.stdoutIsTTY
        ? undefined
        : item({ ...counts, rows: all });
  const failure = report.finish(failed.length ? `${failed.length} of ${cells.length} grades failed` : undefined);
  return failure ? withFailure(unpaged(output), failure) : unpaged(output);
}
