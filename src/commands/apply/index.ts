// `lms apply -f FILE` and `lms diff -f FILE`: courses described in YAML or JSON files — sections,
// enrollments, assignments, topics, announcements, quizzes, rubrics, pages, modules, outcomes — made
// so on an instance, with a plan first. Always registered, so this stays small: the work is in
// src/apply, loaded when it runs, and so is YAML.
import type { CommandModel, CommandResult } from '../../model/command.js';
import type { Context } from '../../model/context.js';
import { command } from '../../model/define.js';
import { route } from '../../spec/routes.js';
import type { ApplyOptions } from '../../apply/run.js';
import { CONCURRENCY } from '../../bulk/options.js';

const options = {
  file: {
    file: 'read',
    short: 'f',
    long: 'file',
    value: 'path',
    description: 'a YAML or JSON file of courses, a folder of them, or - for stdin (repeatable)',
    repeatable: true,
  },
  exitCode: {
    long: 'exit-code',
    description: 'with --plan: exit 1 when something would change, 0 when nothing would (like git diff --exit-code)',
  },
  prune: {
    destroys: true,
    asksItself: true,
    long: 'prune',
    description:
      'also remove what the file no longer lists, of the kinds each course lists: delete sections, assignment ' +
      'groups, assignments, topics, announcements, rubrics, pages, modules; conclude enrollments',
  },
  concurrency: {
    long: 'concurrency',
    value: 'n',
    description: 'changes in flight at once (the server may slow this further)',
    ...CONCURRENCY,
  },
} as const;

/**
 * Reads, plans and applies, with the verbs of the command model; the imports it shares a file format
 * with hand theirs over here.
 */
async function apply(ctx: Context, opts: ApplyOptions, model: CommandModel): Promise<CommandResult> {
  const [{ runApply }, roster, trees, outcomes] = await Promise.all([
    import('../../apply/run.js'),
    import('../enrollments/import.js'),
    import('../outcomes/tree-file.js'),
    import('../outcomes/import.js'),
  ]);
  return runApply(ctx, opts, model, {
    roster: { columns: roster.COLUMNS, key: roster.rowKey, check: roster.checkRow, parse: roster.parseRoster },
    outcomes: { parse: trees.parseTreeFile, toRow: outcomes.toTreeRow, task: outcomes.treeTask },
  });
}

const ROUTES = [
  'users.get',
  'users.list',
  'accounts.get',
  'terms.get',
  'courses.get',
  'courses.create',
  'sections.list',
  'sections.get',
  'sections.create',
  'sections.update',
  'sections.delete',
  'sections.crosslist',
  'sections.uncrosslist',
  'enrollments.listCourse',
  'enrollments.listSection',
  'enrollments.enrollCourse',
  'enrollments.enrollSection',
  'enrollments.end',
  'assignmentGroups.list',
  'assignmentGroups.create',
  'assignmentGroups.update',
  'assignmentGroups.delete',
  'assignments.list',
  'assignments.create',
  'discussions.listTopics',
  'discussions.createTopic@courses',
  'discussions.updateTopic@courses',
  'discussions.deleteTopic@courses',
  'quizzes.list',
  'quizzes.create',
  'quizzes.update',
  'rubrics.list',
  'rubrics.get',
  'rubrics.create',
  'rubrics.update',
  'rubrics.delete',
  'pages.list',
  'pages.get',
  'pages.create',
  'pages.update',
  'pages.delete',
  'modules.list',
  'modules.listItems',
  'modules.create',
  'modules.update',
  'modules.delete',
  'modules.createItem',
  'modules.updateItem',
  'modules.deleteItem',
  'outcomes.rootGroup@courses',
  'outcomes.getGroup@courses',
  'outcomes.listLinks@courses',
  'outcomes.listSubgroups@courses',
  'outcomes.createSubgroup@courses',
  'outcomes.createOutcome@courses',
  'outcomes.linkOutcome@courses',
  'outcomes.updateGroup@courses',
] as const;

/** `lms apply`, writing through the verbs of `model` (the registry hands it the one it is part of). */
export const applyCommand = (model: CommandModel) =>
  command({
    name: 'apply',
    summary: 'Make courses what YAML or JSON files describe: a plan, a confirmation, then only the changes',
    routes: [...ROUTES],
    options: {
      ...options,
      plan: { long: 'plan', description: 'show what would change, and change nothing (as lms diff)' },
      lockTimeout: {
        long: 'lock-timeout',
        value: 'seconds',
        description:
          'how long to wait while another lms apply on this machine applies one of the courses (0: do not wait); ' +
          'then exit 6',
        type: 'number',
        min: 0,
        unit: 'seconds',
        default: '300',
      },
    },
    examples: [
      'lms apply -f course.yaml --plan',
      'lms apply -f course.yaml --yes',
      'lms apply -f course.yaml --prune --yes -o json',
    ],
    run: ({ opts, ctx }) => apply(ctx, { ...opts, file: opts.file ?? [] }, model),
  });

export const diffCommand = (model: CommandModel) =>
  command({
    name: 'diff',
    summary: 'Show what lms apply would change (lms apply --plan)',
    // Its reads: it writes nothing, so it has no --dry-run and no surface counts it among the writers.
    routes: ROUTES.filter((id) => route(id).method === 'GET'),
    options,
    examples: ['lms diff -f course.yaml', 'lms diff -f course.yaml --prune -o json'],
    run: ({ opts, ctx }) => apply(ctx, { ...opts, file: opts.file ?? [], plan: true }, model),
  });
