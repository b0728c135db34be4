// `lms grade`: one grade (`lms grade --course C --assignment A --user U GRADE`), or a whole file
// (`--csv FILE`: one assignment with --assignment, or a column per assignment without), and
// `lms grade export`, which writes either file.
import { answerRow, type Verbs } from '../../model/command.js';
import { command, contextFlags } from '../../model/define.js';
import { CONCURRENCY, DELIMITER_FLAG } from '../../bulk/options.js';
import { courseScope, resolveUserPath } from '../../client/user-ref.js';
import { UsageError } from '../../errors.js';
import { submissionContext } from '../submissions/index.js';
import { courseOf, exportGrades } from './export.js';
import { aboveMaximum } from './over.js';
import type { GradedAssignment } from '../../spec/types/submissions.js';
import { rubricFromFlags, type RubricAssessmentParam } from './rubric.js';

const COLUMNS = ['user_id', 'assignment_id', 'grade', 'score', 'workflow_state', 'graded_at', 'grader_id'];

const grade = command({
  name: 'set',
  args: [{ name: 'grade', optional: true }],
  summary: 'Grade one submission, or a CSV of thousands (validated first, sent in batches, read back)',
  isDefault: true,
  routes: [
    'submissions.grade@courses',
    'submissions.grade@sections',
    'grading.updateGrades@courses',
    'grading.updateGrades@sections',
    'submissions.list@courses',
    'submissions.list@sections',
    'submissions.get@courses',
    'submissions.get@sections',
    'assignments.get',
    'assignments.list',
    'sections.get',
    'progress.get',
    'users.get',
  ],
  lookups: ['courses.users'],
  columns: COLUMNS,
  options: {
    course: contextFlags.course,
    section: contextFlags.section,
    assignment: {
      long: 'assignment',
      value: 'id',
      ids: 'assignment',
      description: 'assignment id (with --csv: omit it for a file with a column per assignment)',
    },
    user: {
      long: 'user',
      value: 'id',
      ids: 'user',
      description: 'the student: id, sis_user_id:X, sis_login_id:X, email:X or a login',
    },
    comment: { long: 'comment', value: 'text', description: 'a comment to go with the grade' },
    rubric: {
      long: 'rubric',
      value: 'criterion=points[,comment]',
      description:
        "assess by the assignment's rubric: a criterion (its id or description), its points (0 to the criterion's) " +
        'and a comment (repeatable); a rubric used for grading sets the score',
      repeatable: true,
    },
    csv: {
      file: 'read',
      long: 'csv',
      value: 'file',
      description:
        'grade from a CSV (`lms grade export` writes one): columns user and grade (optional comment), or user and ' +
        "one column per assignment, or Canvas's own Gradebook export (EX excuses; totals ignored); UTF-8 or " +
        'UTF-16, separated by , ; or tab; an empty grade changes nothing; - for stdin',
    },
    dryRun: {
      long: 'dry-run',
      description:
        'with --csv: show each change (old grade → new grade); for one grade: show the request; send nothing',
    },
    batchSize: {
      long: 'batch-size',
      value: 'n',
      description: 'with --csv: grades per update_grades request',
      type: 'integer',
      min: 1,
      max: 10_000,
      default: '1000',
    },
    perRow: {
      long: 'per-row',
      description: 'with --csv: one PUT a row (instances without the batch endpoint), with a journal to resume from',
    },
    concurrency: {
      long: 'concurrency',
      value: 'n',
      description: 'with --csv: batches (or rows, with --per-row) in flight at once',
      ...CONCURRENCY,
    },
    failedOut: {
      file: 'written',
      long: 'failed-out',
      value: 'file',
      description: 'with --csv: write failed rows here, with an error column, ready to re-run',
    },
    restart: { long: 'restart', description: 'with --per-row: ignore what earlier runs of this file recorded' },
    delimiter: { ...DELIMITER_FLAG, description: `with --csv: ${DELIMITER_FLAG.description}` },
  },
  examples: [
    'lms grade --course 1 --assignment 1 --user 9 17 --comment "Solid method section"',
    'lms grade --course 1 --assignment 3 --user sis_user_id:S-009 B+',
    'lms grade --course 1 --assignment 1 --user sam 18',
    'lms grade --course 1 --assignment 1 --user email:ravi@example.edu 16',
    'lms grade --course 1 --assignment 1 --user 9 --rubric "hypothesis=4,Name the variables" --rubric Method=5 ' +
      '--rubric Analysis=8',
    'lms grade --course 1 --assignment 1 --csv grades.csv --dry-run',
    'lms grade --course 1 --assignment 1 --csv grades.csv --failed-out failed.csv',
    'lms grade --course 1 --csv gradebook.csv --per-row',
  ],
  async run({ args, opts, ctx }) {
    const sctx = submissionContext(opts);
    if (opts.csv !== undefined) {
      if (args[0] !== undefined || opts.user || opts.comment || opts.rubric?.length)
        throw new UsageError(
          '--csv takes the grades (and comments, and rubric points) from the file: give no GRADE, --user, --comment ' +
            'or --rubric with it',
        );
      const [{ gradeCsv }, { delimiterFlag }] = await Promise.all([
        import('./bulk.js'),
        import('../../bulk/csv-input.js'),
      ]);
      return gradeCsv(ctx, opts.csv, {
        sctx,
        assignment: opts.assignment,
        dryRun: opts.dryRun,
        perRow: opts.perRow,
        batchSize: opts.batchSize,
        concurrency: opts.concurrency,
        failedOut: opts.failedOut,
        restart: opts.restart,
        delimiter: delimiterFlag(opts.delimiter),
      });
    }
    // One grade's --dry-run is the generic one: the request is shown instead of sent.
    for (const flag of ['perRow', 'failedOut', 'restart', 'delimiter'] as const) {
      if (opts[flag]) throw new UsageError(`--${flag.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} goes with --csv`);
    }
    if (!opts.assignment || !opts.user)
      throw new UsageError('give --assignment and --user (and the grade), or --csv FILE');
    const rubricSpecs = opts.rubric ?? [];
    if (args[0] === undefined && !opts.comment && !rubricSpecs.length)
      throw new UsageError(
        'give the grade (points, a percentage, a letter, pass/complete or fail/incomplete), --rubric and/or --comment',
      );
    const client = await ctx.client();
    let rubricAssessment: RubricAssessmentParam | undefined;
    if (args[0] !== undefined || rubricSpecs.length) {
      const assignment = (await client.ops.assignments.get({
        course_id: await courseOf(client, sctx),
        id: opts.assignment,
      })) as GradedAssignment;
      // Canvas takes a score above points possible (extra credit): said, not refused.
      const over = args[0] === undefined ? undefined : aboveMaximum(assignment, args[0]);
      if (over) ctx.warn(`${over} (Canvas keeps it, as extra credit)`);
      if (rubricSpecs.length) rubricAssessment = rubricFromFlags(assignment, rubricSpecs);
    }
    return answerRow(
      ctx,
      await client.ops.submissions.grade({
        ...sctx,
        assignment_id: opts.assignment,
        // As a CSV row names a student: `sam` is a login, here as there; an address is looked up in the course.
        user_id: await resolveUserPath(client, opts.user, courseScope(client, sctx)),
        ...(args[0] !== undefined ? { submission: { posted_grade: args[0] } } : {}),
        ...(opts.comment ? { comment: { text_comment: opts.comment } } : {}),
        ...(rubricAssessment ? { rubric_assessment: rubricAssessment, include: ['rubric_assessment' as const] } : {}),
      }),
      COLUMNS,
    );
  },
});

export const gradeVerbs: Verbs = [grade, exportGrades] as Verbs;
