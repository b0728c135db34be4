// `lms export course C`: a course written as the file `lms apply` reads, so it can be kept in a
// repository, edited and applied again, or applied under another SIS id to make its copy. The work
// is in src/apply; the commands that own a format it shares (a roster row, an outcome tree) hand
// theirs over here, as they do to apply.
import type { CommandModel, Verbs } from '../../model/command.js';
import { command } from '../../model/define.js';
import { KIND_ORDER } from '../../apply/kinds.js';

const exportCourse = (model: CommandModel) =>
  command({
    name: 'course',
    args: [{ name: 'course' }],
    summary:
      'Write a course as the file lms apply reads: YAML whatever stdout is (-o json for JSON), with its sections, ' +
      'roster, assignment groups, assignments, topics, announcements, quizzes, rubrics, pages, modules and outcome ' +
      'tree',
    routes: [
      'users.get',
      'courses.get',
      'accounts.get',
      'terms.get',
      'sections.list',
      'enrollments.listCourse',
      'assignmentGroups.list',
      'assignments.list',
      'discussions.listTopics',
      'quizzes.list',
      'rubrics.list',
      'rubrics.get',
      'pages.list',
      'pages.get',
      'modules.list',
      'modules.listItems',
      'outcomes.rootGroup@courses',
      'outcomes.getGroup@courses',
      'outcomes.listSubgroups@courses',
      'outcomes.listLinks@courses',
    ],
    options: {
      include: {
        long: 'include',
        value: 'kinds',
        description:
          `what the file lists besides the course, comma-separated: ${KIND_ORDER.join(', ')} (default: ` +
          'all of them)',
      },
      out: {
        file: 'written',
        long: 'out',
        value: 'file',
        description:
          'write the course file here rather than to stdout; an outcome tree goes beside it (course.yaml: ' +
          'course.outcomes.yaml)',
      },
      outcomesFile: {
        file: 'written',
        long: 'outcomes-file',
        value: 'file',
        description:
          'write the outcome tree here; the course file names it from its own folder (the current one, on stdout)',
      },
    },
    examples: [
      'lms export course sis_course_id:BIO-101 --out bio-101.yaml && lms diff -f bio-101.yaml --exit-code',
      'lms export course sis_course_id:BIO-101 --include sections,enrollments > roster.yaml',
      'lms export course 1 --include topics,announcements -o json',
    ],
    async run({ args, opts, ctx }) {
      const [{ runExport }, roster, rosterExport, trees, treeFile, outcomes] = await Promise.all([
        import('../../apply/export-run.js'),
        import('../enrollments/import.js'),
        import('../enrollments/export.js'),
        import('../outcomes/tree-export.js'),
        import('../outcomes/tree-file.js'),
        import('../outcomes/import.js'),
      ]);
      return runExport(
        ctx,
        args[0],
        opts,
        model,
        {
          roster: { columns: roster.COLUMNS, key: roster.rowKey, check: roster.checkRow, parse: roster.parseRoster },
          outcomes: { parse: treeFile.parseTreeFile, toRow: outcomes.toTreeRow, task: outcomes.treeTask },
        },
        {
          rosterRow: (e) => rosterExport.enrollmentRow(e as Parameters<typeof rosterExport.enrollmentRow>[0]),
          readOutcomes: (client, course) => trees.readTreeForExport(client, { course_id: course }),
        },
      );
    },
  });

/** The export verbs, reading the verbs of `model` (the registry hands it the one it is part of). */
export const exportVerbs = (model: CommandModel): Verbs => [exportCourse(model)];
