// `lms courses import FILE`: Canvas's SIS courses.csv (canvas-lms doc/api/sis_csv.md) through the
// API, one row a course: found by its SIS id and changed where it differs, else created in the
// account its account_id names; its status publishes, concludes or deletes it (the last two asked
// first), as the instance's own SIS import would.
import { command, contextFlags } from '../../model/define.js';
import type { BulkRow, BulkTask, Difference } from '../../bulk/job.js';
import { bulkFlags, resultColumns } from '../../bulk/options.js';
import type { ApiClient } from '../../client/client.js';
import type { Course, CourseFields } from '../../spec/types/school.js';
import type { Problem } from '../../bulk/csv-input.js';
import { SIS_FILES } from '../../spec/sis-csv.js';
import { changedDates, sisChecks, sisParser, unsupportedCells } from '../../bulk/sis-rows.js';

/** What `PUT /api/v1/courses/:id` changes here: the names, the dates, and its state by an event. */
const UPDATABLE = [
  'name',
  'course_code',
  'start_at',
  'end_at',
  'enrollment_term_id',
  'integration_id',
  'workflow_state',
] as const;

/** Columns of a courses.csv the course API of lms does not set: a row filling one is refused. */
const UNSUPPORTED = [
  'course_format',
  'blueprint_course_id',
  'grade_passback_setting',
  'homeroom_course',
  'friendly_name',
] as const;

interface CourseRow extends BulkRow {
  sis: string;
  name: string;
  code: string;
  /** The row's account as the API's path reads it (sis_account_id:X), when it names one. */
  account?: string;
  status: 'active' | 'published' | 'completed' | 'deleted';
  start_at?: string;
  end_at?: string;
  /** The row's term as the API reads it (sis_term_id:X), when it names one. */
  term?: string;
  integration_id?: string;
}

/** The state each status asks for; `active` keeps a live course as it is and reopens a concluded one. */
function wantedState(status: CourseRow['status'], current: string | undefined): string {
  if (status === 'published') return 'available';
  if (status === 'completed' || status === 'deleted') return status;
  return current === undefined || current === 'completed' ? 'unpublished' : current;
}

/** The `course[event]` that moves a course into each state. */
const EVENT_TO: Record<string, NonNullable<CourseFields['event']>> = {
  available: 'offer',
  unpublished: 'claim',
  completed: 'conclude',
  deleted: 'delete',
};

/** What a row that changes its course's state into this one destroys. */
const DESTROYING: Record<string, string> = { completed: 'conclude', deleted: 'delete' };

const SCHEMA = {
  columns: SIS_FILES.course.columns,
  required: SIS_FILES.course.required,
  check: sisChecks('course', (v) => unsupportedCells(v, UNSUPPORTED, 'courses')),
};

function toRow(line: number, v: Record<string, string>): CourseRow {
  return {
    line,
    key: v.course_id,
    sis: v.course_id,
    name: v.long_name,
    code: v.short_name,
    ...(v.account_id ? { account: `sis_account_id:${v.account_id}` } : {}),
    status: v.status.toLowerCase() as CourseRow['status'],
    ...(v.start_date ? { start_at: v.start_date } : {}),
    ...(v.end_date ? { end_at: v.end_date } : {}),
    ...(v.term_id ? { term: `sis_term_id:${v.term_id}` } : {}),
    ...(v.integration_id ? { integration_id: v.integration_id } : {}),
  };
}

function compareCourse(
  row: CourseRow,
  course: Course,
  accountId: number | undefined,
  termId: number | undefined,
): Difference[] {
  const state = wantedState(row.status, course.workflow_state);
  const move =
    state === course.workflow_state
      ? []
      : [{ field: 'workflow_state', from: course.workflow_state, to: state, applicable: true }];
  // A course being deleted is not renamed first.
  if (row.status === 'deleted') return move;
  const changes: Difference[] = [];
  if (row.name !== course.name) changes.push({ field: 'name', from: course.name, to: row.name, applicable: true });
  if (row.code !== course.course_code)
    changes.push({ field: 'course_code', from: course.course_code, to: row.code, applicable: true });
  changes.push(...changedDates(row, course));
  if (row.term !== undefined && termId !== course.enrollment_term_id)
    changes.push({
      field: 'enrollment_term_id',
      from: String(course.enrollment_term_id ?? ''),
      to: row.term!,
      applicable: true,
    });
  if (row.integration_id !== undefined && row.integration_id !== course.integration_id)
    changes.push({
      field: 'integration_id',
      from: course.integration_id ?? '',
      to: row.integration_id,
      applicable: true,
    });
  if (accountId !== undefined && accountId !== course.account_id)
    changes.push({ field: 'account_id', from: String(course.account_id), to: row.account!, applicable: false });
  return [...changes, ...move];
}

/**
 * A row's term is named by its SIS id, which the root account's terms turn into the term's id before
 * any row is sent: a row naming a term that is not there is a problem of the file.
 *
 * `states`: each row's course's state as last looked up, by key, so that only a row that moves its
 * course into a concluded or deleted state counts as destroying.
 */
function coursesTask(client: ApiClient, fallback: string, states: Map<string, string>): BulkTask<CourseRow, Course> {
  const accountIds = new Map<string, number>();
  const termIds = new Map<string, number>();
  return {
    lookupFirst: true,
    async resolve(rows, { concurrency }) {
      const { lookupEach, orMissing } = await import('../../bulk/resolve.js');
      const accounts = await lookupEach(
        rows.flatMap((r) => (r.account ? [r.account] : [])),
        (raw) => orMissing(client.ops.accounts.get({ id: raw })),
        concurrency,
      );
      const problems: Problem[] = [];
      for (const row of rows) {
        if (!row.account) continue;
        const account = accounts.get(row.account);
        if (account) accountIds.set(row.account, account.id);
        else problems.push({ line: row.line, message: `account "${row.account}" not found` });
      }
      const named = rows.flatMap((r) => (r.term ? [r.term] : []));
      if (!named.length) return problems;
      // A course's term is its root account's: the one of the account rows fall back to.
      const home = await client.ops.accounts.get({ id: fallback });
      const root = String(home.root_account_id ?? home.id);
      const terms = await lookupEach(
        named,
        (raw) => orMissing(client.ops.terms.get({ account_id: root, id: raw })),
        concurrency,
      );
      for (const row of rows) {
        if (!row.term) continue;
        const term = terms.get(row.term);
        if (term && term.workflow_state !== 'deleted') termIds.set(row.term, term.id);
        else problems.push({ line: row.line, message: `term "${row.term.slice('sis_term_id:'.length)}" not found` });
      }
      return problems;
    },
    async find(row) {
      const { orMissing } = await import('../../bulk/resolve.js');
      const course = await orMissing(client.ops.courses.get({ id: `sis_course_id:${row.sis}` }));
      if (course) states.set(row.key, course.workflow_state);
      else states.delete(row.key);
      return course && { id: course.id, current: course };
    },
    // The API finds no deleted course: a deleted row finding none is done, already deleted or never
    // made, as Canvas's SIS import passes over it.
    wantsAbsent: (row) => row.status === 'deleted',
    compare: (row, course) =>
      compareCourse(
        row,
        course,
        row.account ? accountIds.get(row.account) : undefined,
        row.term ? termIds.get(row.term) : undefined,
      ),
    async create(row) {
      const made = await client.ops.courses.create({
        account_id: row.account ?? fallback,
        course: {
          name: row.name,
          course_code: row.code,
          sis_course_id: row.sis,
          start_at: row.start_at,
          end_at: row.end_at,
          term_id: row.term,
          integration_id: row.integration_id,
        },
        ...(row.status === 'published' ? { offer: true } : {}),
      });
      // Canvas's API makes a course unpublished or published; concluding it is a second request.
      if (row.status === 'completed') await client.ops.courses.update({ id: made.id, course: { event: 'conclude' } });
      return made.id;
    },
    async update(_row, found, changes) {
      const course: CourseFields = {};
      for (const c of changes) {
        if (c.field === 'workflow_state') course.event = EVENT_TO[c.to];
        else if (c.field === 'enrollment_term_id') course.term_id = c.to;
        else if (c.field === 'integration_id') course.integration_id = c.to;
        else if (c.field === 'name' || c.field === 'course_code' || c.field === 'start_at' || c.field === 'end_at')
          course[c.field] = c.to;
      }
      await client.ops.courses.update({ id: found.id, course });
    },
  };
}

/** The account of rows that name none; Canvas's SIS import puts those in its root account. */
const account = {
  ...contextFlags.account,
  default: 'self',
  description: 'the account of rows with no account_id (self: the root account)',
} as const;

export const importCourses = command({
  name: 'import',
  args: [{ name: 'file' }],
  fileArgs: { file: 'read' },
  summary:
    "Create and change courses from Canvas's SIS courses.csv by SIS id; " +
    'completed and deleted rows conclude and delete (asks first)',
  // users.get: who the caller is, which the journal is bound to; terms.get: the terms rows name.
  routes: ['courses.get', 'courses.create', 'courses.update', 'accounts.get', 'terms.get', 'users.get'],
  // Only completed and deleted rows destroy: asked about then, as the rows say.
  destroys: 'asks',
  columns: resultColumns('course_id'),
  options: { account, ...bulkFlags({ noun: 'courses', updatable: UPDATABLE }) },
  examples: [
    'lms courses import --dry-run courses.csv',
    'lms courses import --update --yes courses.csv --failed-out failed.csv',
  ],
  async run({ args, opts, ctx }) {
    const { runBulk } = await import('../../bulk/command.js');
    const csv = await import('../../bulk/csv-input.js');
    const states = new Map<string, string>();
    return runBulk(ctx, args[0], opts, {
      job: 'courses.import',
      target: opts.account,
      schema: SCHEMA,
      parse: sisParser(csv, 'course', SCHEMA),
      keyColumn: 'course_id',
      destroys: {
        noun: (n) => `course${n === 1 ? '' : 's'}`,
        verb: (row: CourseRow) => {
          const wanted = wantedState(row.status, states.get(row.key));
          return wanted !== states.get(row.key) ? DESTROYING[wanted] : undefined;
        },
      },
      describe: (v) => `course ${v.course_id ?? ''} (${v.short_name ?? ''})`,
      toRow: (r) => toRow(r.line, r.values),
      task: (client) => coursesTask(client, opts.account, states),
    });
  },
});
