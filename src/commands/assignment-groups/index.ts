// `lms assignment-groups`: a course's assignment groups — their order, their weights in the final
// grade (`lms courses update --weighted`), and their drop rules.
import { item, list, type Verbs } from '../../model/command.js';
import { command, contextFlags, type OptionsOf } from '../../model/define.js';
import type { AssignmentGroupFields, GradingRules } from '../../spec/types/pages.js';
import { UsageError } from '../../errors.js';

const COLUMNS = ['id', 'name', 'position', 'group_weight', 'rules.drop_lowest', 'rules.drop_highest'];
const course = { ...contextFlags.course, required: true } as const;
const group = { name: 'id' } as const;

const fieldFlags = {
  name: { long: 'name', value: 'name', description: 'group name', field: { name: 'name' } },
  position: {
    long: 'position',
    value: 'n',
    type: 'integer',
    min: 1,
    description: 'its place among the groups (1 is first)',
    field: { name: 'position', type: 'integer' },
  },
  weight: {
    long: 'weight',
    value: 'percent',
    type: 'number',
    description: 'its percentage of the final grade, where the course weighs its groups',
    field: { name: 'group_weight', type: 'number' },
  },
  dropLowest: {
    long: 'drop-lowest',
    value: 'n',
    type: 'integer',
    min: 0,
    description: "how many of each student's lowest scores to drop",
    field: { name: 'rules.drop_lowest', type: 'integer' },
  },
  dropHighest: {
    long: 'drop-highest',
    value: 'n',
    type: 'integer',
    min: 0,
    description: "how many of each student's highest scores to drop",
    field: { name: 'rules.drop_highest', type: 'integer' },
  },
  neverDrop: {
    long: 'never-drop',
    value: 'ids',
    description: 'comma-separated assignment ids never dropped ("" for none)',
    field: { name: 'rules.never_drop', type: 'list', clears: true },
  },
} as const;

type FieldOpts = Partial<OptionsOf<typeof fieldFlags>>;

/**
 * The flags given as the API's parameters. Rules are sent whole (the API replaces them): a rule not
 * given keeps the value `current` has.
 */
function groupFields(opts: FieldOpts, current: GradingRules = {}): AssignmentGroupFields {
  const fields: AssignmentGroupFields = {};
  if (opts.name !== undefined) fields.name = opts.name;
  if (opts.position !== undefined) fields.position = opts.position;
  if (opts.weight !== undefined) fields.group_weight = opts.weight;
  if (opts.dropLowest !== undefined || opts.dropHighest !== undefined || opts.neverDrop !== undefined) {
    let never = current.never_drop;
    if (opts.neverDrop !== undefined) {
      const ids = opts.neverDrop
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const bad = ids.filter((id) => !/^\d+$/.test(id));
      if (bad.length) throw new UsageError(`--never-drop takes assignment ids, got ${bad.join(', ')}`);
      never = ids.map(Number);
    }
    fields.rules = {
      drop_lowest: opts.dropLowest ?? current.drop_lowest ?? 0,
      drop_highest: opts.dropHighest ?? current.drop_highest ?? 0,
      ...(never?.length ? { never_drop: never } : {}),
    };
  }
  return fields;
}

const listGroups = command({
  name: 'list',
  summary: "List a course's assignment groups in order, with their weights and drop rules",
  aliases: ['ls'],
  routes: ['assignmentGroups.list'],
  columns: COLUMNS,
  options: {
    course,
    withAssignments: { long: 'with-assignments', description: "include each group's assignments" },
  },
  examples: [
    'lms assignment-groups list --course 1',
    'lms assignment-groups list --course 1 --with-assignments -o json',
  ],
  async run({ opts, ctx }) {
    return list(
      (await ctx.client()).ops.assignmentGroups.list(
        { course_id: opts.course, include: opts.withAssignments ? ['assignments'] : undefined },
        { limit: ctx.pageLimit() },
      ),
    );
  },
});

const getGroup = command({
  name: 'get',
  args: [group],
  summary: 'Show one assignment group',
  routes: ['assignmentGroups.get'],
  columns: COLUMNS,
  options: {
    course,
    withAssignments: { long: 'with-assignments', description: 'include its assignments' },
  },
  examples: ['lms assignment-groups get 1 --course 1 --with-assignments'],
  async run({ args, opts, ctx }) {
    return item(
      await (await ctx.client()).ops.assignmentGroups.get({
        course_id: opts.course,
        assignment_group_id: args[0],
        include: opts.withAssignments ? ['assignments'] : undefined,
      }),
    );
  },
});

const createGroup = command({
  name: 'create',
  summary: 'Create an assignment group (last, unless --position)',
  routes: ['assignmentGroups.create'],
  writes: 'create',
  columns: COLUMNS,
  options: { course, ...fieldFlags, name: { ...fieldFlags.name, required: true } },
  examples: ['lms assignment-groups create --course 1 --name Labs --weight 40 --drop-lowest 1'],
  async run({ opts, ctx }) {
    const fields = groupFields(opts);
    return item(await (await ctx.client()).ops.assignmentGroups.create({ course_id: opts.course, ...fields }));
  },
});

const updateGroup = command({
  name: 'update',
  args: [group],
  summary: "Change a group's name, position, weight or drop rules (rules not given stay)",
  // The group is read first when a rule is changed: the API replaces the rules whole.
  routes: ['assignmentGroups.update', 'assignmentGroups.get'],
  writes: 'update',
  columns: COLUMNS,
  options: { course, ...fieldFlags },
  examples: [
    'lms assignment-groups update 1 --course 1 --weight 60',
    'lms assignment-groups update 1 --course 1 --drop-lowest 1 --never-drop 3',
  ],
  async run({ args, opts, ctx }) {
    const client = await ctx.client();
    const at = { course_id: opts.course, assignment_group_id: args[0] };
    const rulesGiven = opts.dropLowest !== undefined || opts.dropHighest !== undefined || opts.neverDrop !== undefined;
    const current = rulesGiven ? (await client.ops.assignmentGroups.get(at)).rules : {};
    const fields = groupFields(opts, current ?? {});
    if (Object.keys(fields).length === 0)
      throw new UsageError('nothing to change: give at least one flag (see --help)');
    return item(await client.ops.assignmentGroups.update({ ...at, ...fields }));
  },
});

const deleteGroup = command({
  name: 'delete',
  args: [group],
  summary: 'Delete an assignment group: its assignments go with it, unless --move-to another group',
  routes: ['assignmentGroups.delete'],
  writes: 'delete',
  columns: COLUMNS,
  options: {
    course,
    moveTo: { long: 'move-to', value: 'id', description: 'the group its assignments move to (else they are deleted)' },
  },
  examples: ['lms assignment-groups delete 6 --course 1 --move-to 1 --yes'],
  async run({ args, opts, ctx }) {
    await ctx.confirm(
      opts.moveTo
        ? `Delete assignment group ${args[0]} of course ${opts.course}, moving its assignments to group ${opts.moveTo}`
        : `Delete assignment group ${args[0]} of course ${opts.course} and every assignment in it`,
    );
    return item(
      await (await ctx.client()).ops.assignmentGroups.delete({
        course_id: opts.course,
        assignment_group_id: args[0],
        move_assignments_to: opts.moveTo,
      }),
    );
  },
});

export const assignmentGroupsVerbs: Verbs = [listGroups, getGroup, createGroup, updateGroup, deleteGroup];
