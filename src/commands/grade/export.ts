// `lms grade export`: the grades of a course (or section) in the layouts `lms grade --csv` reads —
// one assignment's (`user,name,section,grade,comment`) or the whole gradebook (`user,name,section`
// and a column per assignment) — so a gradebook can be exported, edited and graded back. A cell
// holds a value the import reads as the grade the server holds now, so a file graded back unedited
// changes nothing. `name` and `section` are for the person editing the file: the import checks a
// name against the student the row names, and reads no section.
import type { CommandResult } from '../../model/command.js';
import type { Context } from '../../model/context.js';
import { command, contextFlags } from '../../model/define.js';
import type { ApiClient } from '../../client/client.js';
import type { GradedAssignment, Submission, SubmissionContext } from '../../spec/types/submissions.js';
import { interpretGrade } from '../../spec/grading.js';
import { submissionContext } from '../submissions/index.js';
import { personRef } from '../../client/user-ref.js';
import { exportRows } from '../users/export.js';
import { textOf } from '../../output/text.js';
import { ApiError } from '../../errors.js';
import type { AssignmentGroup } from '../../spec/types/pages.js';
import {
  courseScores,
  groupTotals,
  percentOf,
  type GradedWork,
  type GroupForGrades,
  type GroupTotal,
} from '../../spec/course-grades.js';

/**
 * The columns beside the grades that say who a row is, for a person: the import checks `name` and ignores `section`.
 */
export const WHO_COLUMNS = ['name', 'section'] as const;
const ONE_COLUMNS = ['user', ...WHO_COLUMNS, 'grade', 'comment'];

/**
 * The cell for a submission: its grade when the import reads that back as the same score and grade,
 * else its score (a letter stands for the top of its range, so "B+" reads as 89 where 88 was given),
 * else empty — "no change" on import: no grade, an excused submission, one no value reproduces, or a
 * grade of an attempt the student has since replaced (the import would grade the new attempt with it).
 */
export function gradeCell(
  a: GradedAssignment,
  s: Pick<Submission, 'grade' | 'score' | 'excused'> & Partial<Pick<Submission, 'grade_matches_current_submission'>>,
): string {
  // Read as instances send them: either may be missing, and a score may come as a string.
  const grade: unknown = s.grade;
  const given: unknown = s.score;
  const held = grade === null || grade === undefined ? null : textOf(grade);
  const score =
    typeof given === 'number'
      ? given
      : typeof given === 'string' && given.trim() !== '' && Number.isFinite(Number(given))
        ? Number(given)
        : null;
  if (s.excused === true || (held === null && score === null) || s.grade_matches_current_submission === false)
    return '';
  for (const candidate of [held, score === null ? null : String(score)]) {
    if (candidate === null) continue;
    const read = interpretGrade(a, candidate);
    if (!('error' in read) && read.score === score && read.grade === held) return candidate;
  }
  return '';
}

/**
 * The header naming each assignment as the import finds it (the lower-cased header against each id
 * and each lower-cased name): the name when it finds that assignment alone, else the id. One that
 * neither finds alone cannot be graded from a file, and is left out.
 */
export function assignmentHeaders(all: GradedAssignment[]): {
  headers: Map<number, string>;
  unnamed: GradedAssignment[];
} {
  const reserved = new Set<string>(['user', 'error', ...WHO_COLUMNS]);
  const finds = (header: string) => {
    const h = header.trim().toLowerCase();
    return reserved.has(h) ? [] : all.filter((a) => String(a.id) === h || textOf(a.name).toLowerCase() === h);
  };
  const headers = new Map<number, string>();
  const unnamed: GradedAssignment[] = [];
  for (const a of all) {
    const header = [textOf(a.name), String(a.id)].find(
      (h) => h === h.trim() && h !== '' && finds(h).length === 1 && finds(h)[0] === a,
    );
    if (header === undefined) unnamed.push(a);
    else headers.set(a.id, header);
  }
  return { headers, unnamed };
}

function submissionsOf(client: ApiClient, sctx: SubmissionContext, assignmentId: number): AsyncIterable<Submission> {
  return client.ops.submissions.list({ ...sctx, assignment_id: assignmentId, include: ['user'] });
}

/** The course of the grades: the --course given, or the --section's course. */
export async function courseOf(client: ApiClient, sctx: SubmissionContext): Promise<string | number> {
  return sctx.course_id !== undefined
    ? sctx.course_id
    : (await client.ops.sections.get({ id: sctx.section_id })).course_id;
}

/**
 * The names of each student's sections in the course, by user id, as its sections list their
 * students; none (and a warning) when the caller may not list them: the column is left empty.
 */
async function sectionsOfStudents(
  ctx: Context,
  client: ApiClient,
  course: string | number,
): Promise<Map<number, string[]>> {
  const of = new Map<number, string[]>();
  try {
    for await (const section of client.ops.sections.list({ course_id: course, include: ['students'] })) {
      for (const student of section.students ?? []) {
        const id = Number(student?.id);
        if (Number.isSafeInteger(id)) of.set(id, [...(of.get(id) ?? []), textOf(section.name)]);
      }
    }
  } catch (e) {
    if (!(e instanceof ApiError && (e.status === 401 || e.status === 403) && !e.throttled && !e.tokenRefused)) throw e;
    ctx.warn(`the section column is left empty: ${e.message}`);
    of.clear();
  }
  return of;
}

/** The name and sections of a submission's student, as the row shows them. */
function whoCells(s: Submission, sections: Map<number, string[]>): Record<(typeof WHO_COLUMNS)[number], string> {
  return { name: textOf(s.user?.name), section: (sections.get(s.user_id) ?? []).join(', ') };
}

/**
 * A row of grade export as data: the student, and a cell a column (one assignment's grade, or each
 * assignment's in the gradebook; --format canvas has the gradebook's own headers).
 */
export interface GradeExportRow {
  user?: string;
  name?: string;
  section?: string;
  grade?: string;
  comment?: string;
  [column: string]: string | undefined;
}

async function oneAssignment(
  ctx: Context,
  client: ApiClient,
  sctx: SubmissionContext,
  assignment: string,
): Promise<CommandResult> {
  const course = await courseOf(client, sctx);
  const a = (await client.ops.assignments.get({ course_id: course, id: assignment })) as GradedAssignment;
  const sections = await sectionsOfStudents(ctx, client, course);
  const subs = submissionsOf(client, sctx, a.id);
  return exportRows(
    ctx,
    (async function* () {
      for await (const s of subs)
        yield {
          user: personRef(s.user ?? { id: s.user_id }),
          ...whoCells(s, sections),
          grade: gradeCell(a, s),
          comment: '',
        };
    })(),
    ONE_COLUMNS,
  );
}

async function gradebook(ctx: Context, client: ApiClient, sctx: SubmissionContext): Promise<CommandResult> {
  const course = await courseOf(client, sctx);
  const sections = await sectionsOfStudents(ctx, client, course);
  const all: GradedAssignment[] = [];
  for await (const a of client.ops.assignments.list({ course_id: course })) all.push(a as GradedAssignment);
  // An ungraded assignment takes no grade: a column for it could only ever be empty.
  const { headers, unnamed } = assignmentHeaders(all.filter((a) => a.grading_type !== 'not_graded'));
  if (unnamed.length)
    ctx.warn(
      `left out ${unnamed.map((a) => `assignment ${a.id}`).join(', ')}: neither its name nor its id names it alone, ` +
        'so no file can grade it',
    );
  const students = new Map<number, Record<string, string>>();
  for (const [id, header] of headers) {
    const a = all.find((x) => x.id === id)!;
    for await (const s of submissionsOf(client, sctx, id)) {
      let row = students.get(s.user_id);
      if (!row) {
        row = { user: personRef(s.user ?? { id: s.user_id }), ...whoCells(s, sections) };
        students.set(s.user_id, row);
      }
      row[header] = gradeCell(a, s);
    }
  }
  const columns = ['user', ...WHO_COLUMNS, ...headers.values()];
  // Built with fromEntries, so a header such as "__proto__" stays a plain key.
  const rows = [...students.values()].map((r) => Object.fromEntries(columns.map((c) => [c, r[c] ?? ''])));
  return exportRows(ctx, rows, columns);
}

// ---- Canvas's own Gradebook export ---------------------------------------------------------------
// As canvas-lms lib/gradebook_exporter.rb writes it: Student (the sortable name), ID, SIS User ID,
// SIS Login ID, Section (a student's sections as a sentence), a column per assignment headed
// `Name (id)`, then the totals: each assignment group's, then the course's; a `Manual Posting` row
// when an assignment is posted by hand, then the `Points Possible` row (the totals marked read-only);
// a score to two decimals, `EX` for excused, a letter for a gpa_scale assignment. A course that
// weighs its groups has no points columns, as in Canvas: a point total means nothing there. The totals
// are worked out from the submissions, assignments and groups the API gives, as Canvas's grade
// calculator works them out (spec/course-grades.ts); the unposted columns are the same as the posted
// ones, since a grader's answers hold every grade.

/** The point totals, and the scores, of a group (named before them) or of the course. */
const POINT_COLUMNS = ['Current Points', 'Final Points'] as const;
const SCORE_COLUMNS = ['Current Score', 'Unposted Current Score', 'Final Score', 'Unposted Final Score'] as const;

const CANVAS_WHO = ['Student', 'ID', 'SIS User ID', 'SIS Login ID', 'Section'] as const;

/** A number as Canvas's export writes it: two decimals, no thousands separator; empty for none. */
const twoDecimals = (n: number | null | undefined) => (typeof n === 'number' && Number.isFinite(n) ? n.toFixed(2) : '');

/** Names as a sentence, as Rails's to_sentence joins them: `A`, `A and B`, `A, B, and C`. */
function sentence(names: string[]): string {
  if (names.length <= 2) return names.join(' and ');
  return `${names.slice(0, -1).join(', ')}, and ${names.at(-1)}`;
}

/** A score as a number, however the instance sent it. */
function scoreOf(s: Submission): number | null {
  const given: unknown = s.score;
  if (typeof given === 'number') return given;
  return typeof given === 'string' && given.trim() !== '' && Number.isFinite(Number(given)) ? Number(given) : null;
}

/** A submission's cell in Canvas's export: `EX`, a gpa_scale assignment's letter, else the score to two decimals. */
function canvasCell(a: GradedAssignment, s: Submission | undefined): string {
  if (!s) return 'N/A';
  if (s.excused === true) return 'EX';
  const score = scoreOf(s);
  if (score === null) return '';
  if (a.grading_type === 'gpa_scale' && typeof s.grade === 'string') return s.grade;
  return twoDecimals(score);
}

/** What the totals are computed over: the course's groups with their rules, and whether it weighs them. */
interface Grading {
  groups: GroupForGrades[];
  names: Map<number, string>;
  weighted: boolean;
}

async function gradingOf(client: ApiClient, course: string | number): Promise<Grading> {
  const [found, listed] = await Promise.all([
    client.ops.courses.get({ id: course }),
    (async () => {
      const all: AssignmentGroup[] = [];
      for await (const g of client.ops.assignmentGroups.list({ course_id: course })) all.push(g);
      return all;
    })(),
  ]);
  const groups = [...listed].sort((x, y) => (x.position ?? 0) - (y.position ?? 0) || x.id - y.id);
  return {
    groups: groups.map((g) => ({ id: g.id, group_weight: g.group_weight ?? 0, rules: g.rules ?? {} })),
    names: new Map(groups.map((g) => [g.id, textOf(g.name)])),
    weighted: found.apply_assignment_group_weights === true,
  };
}

/** The totals' headers: each group's, then the course's. */
function totalHeaders(grading: Grading): string[] {
  const of = (prefix: string) => [
    ...(grading.weighted ? [] : POINT_COLUMNS.map((c) => `${prefix}${c}`)),
    ...SCORE_COLUMNS.map((c) => `${prefix}${c}`),
  ];
  return [...grading.groups.flatMap((g) => of(`${grading.names.get(g.id)} `)), ...of('')];
}

/** A student's totals, in the order of totalHeaders. */
function totalsOf(grading: Grading, assignments: GradedAssignment[], subs: (Submission | undefined)[]): string[] {
  const work: GradedWork[] = assignments.flatMap((a, i) => {
    const s = subs[i];
    if (!s || a.omit_from_final_grade === true || typeof a.assignment_group_id !== 'number') return [];
    return [
      {
        assignment_id: a.id,
        group_id: a.assignment_group_id,
        points: typeof a.points_possible === 'number' ? a.points_possible : 0,
        score: scoreOf(s),
        excused: s.excused === true,
      },
    ];
  });
  const cells = (
    current: GroupTotal | undefined,
    final: GroupTotal | undefined,
    scores: [number | null, number | null],
  ) => [
    ...(grading.weighted ? [] : [twoDecimals(current?.score ?? 0), twoDecimals(final?.score ?? 0)]),
    twoDecimals(scores[0]),
    twoDecimals(scores[0]),
    twoDecimals(scores[1]),
    twoDecimals(scores[1]),
  ];
  const byGroup = groupTotals(work, grading.groups);
  const course = courseScores(work, grading.groups, grading.weighted);
  const sum = (which: 'current' | 'final') => {
    const counted = [...byGroup.values()].flatMap((t) => (t[which] ? [t[which]] : []));
    return counted.length
      ? { score: counted.reduce((n, t) => n + t.score, 0), possible: counted.reduce((n, t) => n + t.possible, 0) }
      : undefined;
  };
  return [
    ...grading.groups.flatMap((g) => {
      const t = byGroup.get(g.id);
      return cells(t?.current, t?.final, [percentOf(t?.current), percentOf(t?.final)]);
    }),
    ...cells(sum('current'), sum('final'), [course.current_score, course.final_score]),
  ];
}

async function canvasGradebook(
  ctx: Context,
  client: ApiClient,
  sctx: SubmissionContext,
  assignment: string | undefined,
): Promise<CommandResult> {
  const course = await courseOf(client, sctx);
  const sections = await sectionsOfStudents(ctx, client, course);
  const all: GradedAssignment[] = [];
  if (assignment !== undefined)
    all.push((await client.ops.assignments.get({ course_id: course, id: assignment })) as GradedAssignment);
  else for await (const a of client.ops.assignments.list({ course_id: course })) all.push(a as GradedAssignment);
  // Canvas exports the assignments that take a grade and are published.
  const graded = all.filter((a) => a.grading_type !== 'not_graded' && a.published !== false);
  const grading = await gradingOf(client, course);
  const students = new Map<number, { user: Submission['user']; subs: (Submission | undefined)[] }>();
  for (const [i, a] of graded.entries()) {
    for await (const s of submissionsOf(client, sctx, a.id)) {
      let row = students.get(s.user_id);
      if (!row) {
        row = { user: s.user, subs: [] };
        students.set(s.user_id, row);
      }
      row.subs[i] = s;
    }
  }
  const totals = totalHeaders(grading);
  const header = [...CANVAS_WHO, ...graded.map((a) => `${textOf(a.name)} (${a.id})`), ...totals];
  const blank = (n: number) => Array<string>(n).fill('');
  const rows: string[][] = [];
  if (graded.some((a) => a.post_manually === true))
    rows.push([
      ...blank(CANVAS_WHO.length),
      ...graded.map((a) => (a.post_manually === true ? 'Manual Posting' : '')),
      ...blank(totals.length),
    ]);
  rows.push([
    '    Points Possible',
    ...blank(CANVAS_WHO.length - 1),
    ...graded.map((a) => twoDecimals(a.points_possible)),
    ...totals.map(() => '(read only)'),
  ]);
  const byName = [...students].sort(([ia, a], [ib, b]) => {
    const [na, nb] = [textOf(a.user?.sortable_name ?? a.user?.name), textOf(b.user?.sortable_name ?? b.user?.name)];
    return na < nb ? -1 : na > nb ? 1 : ia - ib;
  });
  for (const [id, { user, subs }] of byName)
    rows.push([
      textOf(user?.sortable_name ?? user?.name),
      String(id),
      textOf(user?.sis_user_id),
      textOf(user?.login_id),
      sentence([...(sections.get(id) ?? [])].sort()),
      ...graded.map((a, i) => canvasCell(a, subs[i])),
      ...totalsOf(grading, graded, subs),
    ]);
  // Built with fromEntries, so a header such as "__proto__" stays a plain key.
  return exportRows(
    ctx,
    rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? '']))),
    header,
  );
}

export const exportGrades = command({
  name: 'export',
  summary:
    'Write grades as `lms grade --csv` reads them back: CSV whatever stdout is (-o json for JSON), students as ' +
    'sis_user_id:X (else sis_login_id:X, else the id) with their name and sections, an empty cell for no grade ' +
    '(no change on import)',
  routes: [
    'submissions.list@courses',
    'submissions.list@sections',
    'assignments.get',
    'assignments.list',
    'assignmentGroups.list',
    'courses.get',
    'sections.get',
    'sections.list',
  ],
  options: {
    course: contextFlags.course,
    section: { ...contextFlags.section, description: 'section id or sis_section_id:X (its students only)' },
    format: {
      long: 'format',
      value: 'layout',
      choices: ['lms', 'canvas'],
      default: 'lms',
      description:
        "lms: lms's own columns; canvas: Canvas's Gradebook export (Student, ID, SIS User ID, SIS Login ID, " +
        "Section, `Name (id)` per assignment, Points Possible row, totals), which `lms grade --csv` and Canvas's " +
        'own import read back',
    },
    assignment: {
      long: 'assignment',
      value: 'id',
      ids: 'assignment',
      description:
        'one assignment: columns user, name, section, grade, comment (left empty, for a comment to send with a ' +
        'changed grade). Without it, the gradebook: user, name, section and a column per graded assignment, ' +
        'headed by its name (its id where names clash)',
    },
  },
  examples: [
    'lms grade export --course 1 --assignment 1 > grades.csv && lms grade --course 1 --assignment 1 --csv ' +
      'grades.csv --dry-run',
    'lms grade export --course 1 > gradebook.csv && lms grade --course 1 --csv gradebook.csv --dry-run',
    'lms grade export --section sis_section_id:BIO-101-B --assignment 3 -o json',
    'lms grade export --course 1 --format canvas > canvas.csv && lms grade --course 1 --csv canvas.csv --dry-run',
  ],
  async run({ opts, ctx }) {
    const sctx = submissionContext(opts);
    const client = await ctx.client();
    if (opts.format === 'canvas') return canvasGradebook(ctx, client, sctx, opts.assignment);
    return opts.assignment !== undefined
      ? oneAssignment(ctx, client, sctx, opts.assignment)
      : gradebook(ctx, client, sctx);
  },
});
