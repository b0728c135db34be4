// `lms outcomes`: outcome groups, their subgroups and outcome links in one context each
// (`--global`, `--account A` or `--course C`), a context's whole tree, and imports — a file of groups
// and outcomes (YAML, JSON or CSV) or the API's deep import of another group — with the export that
// writes such a file.
import { shownFormat, item, list, text, type CommandResult, type Verbs } from '../../model/command.js';
import type { Context } from '../../model/context.js';
import { command, contextFlags, oneContext, type OptionsOf } from '../../model/define.js';
import type { ApiClient } from '../../client/client.js';
import {
  CALCULATION_METHODS,
  type CalculationMethod,
  type Outcome,
  type OutcomeContext,
  type GroupFields,
} from '../../spec/types/outcomes.js';
import { bulkFlags, resultColumns } from '../../bulk/options.js';
import { UsageError } from '../../errors.js';
import { TREE_COLUMNS } from './tree-file.js';
import { oneLine, textOf } from '../../output/text.js';

const where = { global: contextFlags.global, account: contextFlags.account, course: contextFlags.course } as const;
const GROUP_COLUMNS = [
  'id',
  'title',
  'vendor_guid',
  'context_type',
  'context_id',
  'parent_outcome_group.id',
  'can_edit',
];
const SUBGROUP_COLUMNS = ['id', 'title', 'vendor_guid', 'can_edit'];
const LINK_COLUMNS = [
  'outcome.id',
  'outcome.title',
  'outcome.vendor_guid',
  'outcome.context_type',
  'outcome.context_id',
  'outcome_group.id',
  'can_unlink',
];

/** The one context the flags name, as the client takes it. */
export function contextOf(opts: { global?: boolean; account?: string; course?: string }): OutcomeContext {
  const c = oneContext(opts, ['global', 'account', 'course']);
  return c.type === 'global' ? { global: true } : c.type === 'account' ? { account_id: c.id } : { course_id: c.id };
}

const groupId = (raw: string, flag = 'group id'): number => {
  if (!/^\d{1,18}$/.test(raw)) throw new UsageError(`${flag} must be a numeric id, got "${raw}"`);
  return Number(raw);
};

// ---- groups -----------------------------------------------------------------------------------

const root = command({
  name: 'root',
  summary: "Show a context's root outcome group (made on first need)",
  // The redirect is followed to the group itself.
  routes: [
    'outcomes.rootGroup@global',
    'outcomes.rootGroup@accounts',
    'outcomes.rootGroup@courses',
    'outcomes.getGroup@global',
    'outcomes.getGroup@accounts',
    'outcomes.getGroup@courses',
  ],
  options: where,
  examples: ['lms outcomes root --account 1', 'lms outcomes root --course sis_course_id:BIO-101 -o json'],
  async run({ opts, ctx }) {
    return item(await (await ctx.client()).ops.outcomes.rootGroup(contextOf(opts)));
  },
});

const getGroup = command({
  name: 'get',
  args: [{ name: 'id' }],
  summary: 'Show an outcome group',
  routes: ['outcomes.getGroup@global', 'outcomes.getGroup@accounts', 'outcomes.getGroup@courses'],
  options: where,
  examples: ['lms outcomes groups get 2 --account 1'],
  async run({ args, opts, ctx }) {
    return item(await (await ctx.client()).ops.outcomes.getGroup({ ...contextOf(opts), id: args[0] }));
  },
});

const groupFlags = {
  title: { long: 'title', value: 'title', description: 'group title' },
  description: { long: 'description', value: 'text', description: 'description' },
  vendorGuid: { long: 'vendor-guid', value: 'guid', description: "the learning standard's GUID" },
} as const;

function groupFields(opts: { title?: string; description?: string; vendorGuid?: string }): GroupFields {
  return Object.fromEntries(
    Object.entries({ title: opts.title, description: opts.description, vendor_guid: opts.vendorGuid }).filter(
      ([, v]) => v !== undefined,
    ),
  );
}

const createGroup = command({
  name: 'create',
  summary: 'Create a subgroup',
  routes: ['outcomes.createSubgroup@global', 'outcomes.createSubgroup@accounts', 'outcomes.createSubgroup@courses'],
  columns: GROUP_COLUMNS,
  options: {
    ...where,
    parent: { long: 'parent', value: 'id', description: 'the group to create it in', required: true },
    ...groupFlags,
    title: { ...groupFlags.title, required: true },
  },
  examples: ['lms outcomes groups create --account 1 --parent 2 --title "Field Work" --vendor-guid msu-field'],
  async run({ opts, ctx }) {
    const client = await ctx.client();
    return item(
      await client.ops.outcomes.createSubgroup({
        ...contextOf(opts),
        id: groupId(opts.parent, '--parent'),
        ...groupFields(opts),
      }),
    );
  },
});

const updateGroup = command({
  name: 'update',
  args: [{ name: 'id' }],
  summary: "Change a group's title, description or GUID, or move it (--parent) within its context",
  routes: ['outcomes.updateGroup@global', 'outcomes.updateGroup@accounts', 'outcomes.updateGroup@courses'],
  columns: GROUP_COLUMNS,
  options: {
    ...where,
    ...groupFlags,
    parent: { long: 'parent', value: 'id', description: 'move it into this group (same context; not below itself)' },
  },
  examples: [
    'lms outcomes groups update 3 --account 1 --parent 4',
    'lms outcomes groups update 2 --account 1 --title "Scientific Reasoning"',
  ],
  async run({ args, opts, ctx }) {
    const fields = {
      ...groupFields(opts),
      ...(opts.parent !== undefined ? { parent_outcome_group_id: groupId(opts.parent, '--parent') } : {}),
    };
    if (Object.keys(fields).length === 0)
      throw new UsageError('nothing to change: give --title, --description, --vendor-guid or --parent');
    return item(await (await ctx.client()).ops.outcomes.updateGroup({ ...contextOf(opts), id: args[0], ...fields }));
  },
});

const deleteGroup = command({
  name: 'delete',
  args: [{ name: 'id' }],
  summary: 'Delete a group with its subgroups and links (outcomes go with their last link; refused for an aligned one)',
  routes: ['outcomes.deleteGroup@global', 'outcomes.deleteGroup@accounts', 'outcomes.deleteGroup@courses'],
  columns: GROUP_COLUMNS,
  options: where,
  examples: ['lms outcomes groups delete 4 --account 1 --yes'],
  async run({ args, opts, ctx }) {
    const c = contextOf(opts);
    await ctx.confirm(`Delete outcome group ${args[0]}, its subgroups and links`);
    return item(await (await ctx.client()).ops.outcomes.deleteGroup({ ...c, id: args[0] }));
  },
});

const subgroups = command({
  name: 'subgroups',
  args: [{ name: 'id' }],
  summary: "List a group's subgroups",
  routes: ['outcomes.listSubgroups@global', 'outcomes.listSubgroups@accounts', 'outcomes.listSubgroups@courses'],
  columns: SUBGROUP_COLUMNS,
  options: where,
  examples: ['lms outcomes groups subgroups 1 --account 1'],
  async run({ args, opts, ctx }) {
    return list(
      (await ctx.client()).ops.outcomes.listSubgroups({ ...contextOf(opts), id: args[0] }, { limit: ctx.pageLimit() }),
    );
  },
});

// ---- links and outcomes -----------------------------------------------------------------------

const listLinks = command({
  name: 'list',
  args: [{ name: 'group' }],
  summary: "List a group's outcome links (--full for mastery points, ratings and calculation)",
  aliases: ['ls'],
  routes: ['outcomes.listLinks@global', 'outcomes.listLinks@accounts', 'outcomes.listLinks@courses'],
  columns: LINK_COLUMNS,
  options: { ...where, full: { long: 'full', description: 'the outcomes in full' } },
  examples: ['lms outcomes links list 6 --course 1', 'lms outcomes links list 2 --account 1 --full -o json'],
  async run({ args, opts, ctx }) {
    const client = await ctx.client();
    return list(
      client.ops.outcomes.listLinks(
        { ...contextOf(opts), id: args[0], outcome_style: opts.full ? 'full' : undefined },
        { limit: ctx.pageLimit() },
      ),
    );
  },
});

const link = command({
  name: 'link',
  args: [{ name: 'group' }, { name: 'outcome' }],
  summary: 'Link an existing outcome into a group (one of this context, an account above it, or global)',
  routes: ['outcomes.linkOutcome@global', 'outcomes.linkOutcome@accounts', 'outcomes.linkOutcome@courses'],
  columns: LINK_COLUMNS,
  options: where,
  examples: ['lms outcomes link 6 4 --course 1'],
  async run({ args, opts, ctx }) {
    return item(
      await (await ctx.client()).ops.outcomes.linkOutcome({ ...contextOf(opts), id: args[0], outcome_id: args[1] }),
    );
  },
});

const unlink = command({
  name: 'unlink',
  args: [{ name: 'group' }, { name: 'outcome' }],
  summary: 'Unlink an outcome from a group (deleted with its last link; refused for an aligned one)',
  routes: ['outcomes.unlinkOutcome@global', 'outcomes.unlinkOutcome@accounts', 'outcomes.unlinkOutcome@courses'],
  columns: LINK_COLUMNS,
  options: where,
  examples: ['lms outcomes unlink 6 2 --course 1 --yes'],
  async run({ args, opts, ctx }) {
    const c = contextOf(opts);
    // Whether this is the outcome's last link anywhere (and so deletes it) no read of the API can tell
    // before the unlink: every unlink asks.
    await ctx.confirm(
      `Unlink outcome ${args[1]} from outcome group ${args[0]} (the outcome is deleted if this is its last link)`,
    );
    return item(await (await ctx.client()).ops.outcomes.unlinkOutcome({ ...c, id: args[0], outcome_id: args[1] }));
  },
});

/** `4:Exceeds` → a rating; a description may hold colons. */
function rating(raw: string): { points: number; description: string } {
  const m = /^\s*(\d+(?:\.\d+)?)\s*:(.*)$/s.exec(raw);
  if (!m) throw new UsageError(`--rating must be POINTS:DESCRIPTION, e.g. "4:Exceeds Mastery", got "${raw}"`);
  return { points: Number(m[1]), description: m[2].trim() };
}

const createOutcome = command({
  name: 'create',
  args: [{ name: 'group' }],
  summary: "Create an outcome in the group's context and link it there",
  routes: ['outcomes.createOutcome@global', 'outcomes.createOutcome@accounts', 'outcomes.createOutcome@courses'],
  columns: LINK_COLUMNS,
  options: {
    ...where,
    title: { long: 'title', value: 'title', description: 'outcome title', required: true },
    description: { long: 'description', value: 'html', description: 'description' },
    displayName: { long: 'display-name', value: 'name', description: 'a friendly name' },
    vendorGuid: { long: 'vendor-guid', value: 'guid', description: "the learning standard's GUID" },
    masteryPoints: {
      long: 'mastery-points',
      value: 'n',
      description: 'points for mastery (default: the top rating; ignored without ratings)',
      type: 'number',
      min: 0,
    },
    rating: {
      long: 'rating',
      value: 'points:description',
      description: 'a rating, e.g. "4:Exceeds Mastery" (repeatable)',
      repeatable: true,
    },
    calculationMethod: {
      long: 'calculation-method',
      value: 'method',
      description: 'how mastery is calculated',
      choices: CALCULATION_METHODS,
    },
    calculationInt: {
      long: 'calculation-int',
      value: 'n',
      description: 'the calculation parameter (decaying_average, weighted_average: 1-99; n_mastery: 1-10)',
      type: 'number',
      min: 0,
    },
  },
  examples: [
    'lms outcomes create 6 --course 1 --title "Uses a microscope" --rating "3:Independently" --rating "2:With help" ' +
      '--rating "1:Not yet" --mastery-points 2',
  ],
  async run({ args, opts, ctx }) {
    const outcome = {
      title: opts.title,
      description: opts.description,
      display_name: opts.displayName,
      vendor_guid: opts.vendorGuid,
      mastery_points: opts.masteryPoints,
      ratings: opts.rating?.map(rating),
      calculation_method: opts.calculationMethod as CalculationMethod | undefined,
      calculation_int: opts.calculationInt,
    };
    const client = await ctx.client();
    return item(await client.ops.outcomes.createOutcome({ ...contextOf(opts), id: args[0], ...outcome }));
  },
});

// ---- the whole tree ---------------------------------------------------------------------------

export interface TreeNode {
  id: number;
  title: string;
  vendor_guid: string | null;
  outcomes: {
    id: number;
    title: string;
    vendor_guid: string | null;
    context_type: string | null;
    context_id: number | null;
    mastery_points: number | null;
    calculation_method: string;
  }[];
  groups: TreeNode[];
}

/** The tree, and the links it leaves out: the documented OutcomeLink may come without its outcome. */
async function readWholeTree(client: ApiClient, c: OutcomeContext): Promise<{ whole: TreeNode; unnamed: string[] }> {
  const o = client.ops.outcomes;
  const unnamed: string[] = [];
  const node = async (g: { id: number; title: string; vendor_guid: string | null }): Promise<TreeNode> => {
    const outcomes: TreeNode['outcomes'] = [];
    for await (const l of o.listLinks({ ...c, id: g.id, outcome_style: 'full' })) {
      const linked: unknown = l.outcome;
      if (linked === null || typeof linked !== 'object') {
        unnamed.push(textOf(l.url) || `a link in group ${g.id}`);
        continue;
      }
      const x = linked as Outcome;
      outcomes.push({
        id: x.id,
        title: x.title,
        vendor_guid: x.vendor_guid,
        context_type: x.context_type,
        context_id: x.context_id,
        mastery_points: x.mastery_points,
        calculation_method: x.calculation_method,
      });
    }
    const groups: TreeNode[] = [];
    for await (const s of o.listSubgroups({ ...c, id: g.id })) groups.push(await node(s));
    return { id: g.id, title: g.title, vendor_guid: g.vendor_guid, outcomes, groups };
  };
  const whole = await node(await o.rootGroup(c));
  return { whole, unnamed };
}

function* flatten(n: TreeNode, depth = 0, parent: number | null = null): Generator<Record<string, unknown>> {
  yield { depth, type: 'group', id: n.id, title: n.title, vendor_guid: n.vendor_guid, group_id: parent };
  for (const x of n.outcomes)
    yield { depth: depth + 1, type: 'outcome', id: x.id, title: x.title, vendor_guid: x.vendor_guid, group_id: n.id };
  for (const g of n.groups) yield* flatten(g, depth + 1, n.id);
}

function indent(n: TreeNode, depth = 0): string[] {
  const pad = '  '.repeat(depth);
  const guid = (g: string | null) => (g ? ` [${g}]` : '');
  const lines = [oneLine(`${pad}${textOf(n.title)} (group ${textOf(n.id)})${guid(n.vendor_guid)}`)];
  for (const x of n.outcomes) {
    const owner = x.context_type ? ` — ${textOf(x.context_type).toLowerCase()} ${textOf(x.context_id)}` : ' — global';
    lines.push(oneLine(`${pad}  • ${textOf(x.title)} (outcome ${textOf(x.id)})${guid(x.vendor_guid)}${owner}`));
  }
  for (const g of n.groups) lines.push(...indent(g, depth + 1));
  return lines;
}

const tree = command({
  name: 'tree',
  summary: "Print a context's whole outcome tree (indented on a terminal, nested JSON otherwise)",
  routes: [
    'outcomes.rootGroup@global',
    'outcomes.rootGroup@accounts',
    'outcomes.rootGroup@courses',
    'outcomes.getGroup@global',
    'outcomes.getGroup@accounts',
    'outcomes.getGroup@courses',
    'outcomes.listSubgroups@global',
    'outcomes.listSubgroups@accounts',
    'outcomes.listSubgroups@courses',
    'outcomes.listLinks@global',
    'outcomes.listLinks@accounts',
    'outcomes.listLinks@courses',
  ],
  options: where,
  examples: ['lms outcomes tree --account 1', 'lms outcomes tree --course 1 -o json'],
  async run({ opts, ctx }): Promise<CommandResult> {
    const c = contextOf(opts);
    const { whole, unnamed } = await readWholeTree(await ctx.client(), c);
    if (unnamed.length)
      ctx.warn(
        `left out ${unnamed.length} outcome link${unnamed.length > 1 ? 's' : ''} the answer gave without its ` +
          `outcome: ${unnamed.join(', ')}`,
      );
    const format = shownFormat(ctx);
    if (format === 'json' || format === 'yaml') return item(whole);
    if (format === 'ndjson' || format === 'csv')
      return list([...flatten(whole)], ['depth', 'type', 'id', 'title', 'vendor_guid', 'group_id']);
    return text(`${indent(whole).join('\n')}\n`);
  },
});

// ---- export ----------------------------------------------------------------------------------

// Its own verb rather than a flag of `tree`: like every export it writes the import's format (CSV)
// whatever stdout is, with the import's keys and no ids, where `tree` is a view for reading.
const exportTree = command({
  name: 'export',
  summary:
    `Write a context's whole tree as \`outcomes import\` reads it back: CSV whatever stdout is (columns ` +
    `${TREE_COLUMNS.join(', ')}), or the nested tree with -o json or --yaml`,
  routes: [
    'outcomes.rootGroup@global',
    'outcomes.rootGroup@accounts',
    'outcomes.rootGroup@courses',
    'outcomes.getGroup@global',
    'outcomes.getGroup@accounts',
    'outcomes.getGroup@courses',
    'outcomes.listSubgroups@global',
    'outcomes.listSubgroups@accounts',
    'outcomes.listSubgroups@courses',
    'outcomes.listLinks@global',
    'outcomes.listLinks@accounts',
    'outcomes.listLinks@courses',
  ],
  columns: [...TREE_COLUMNS],
  options: {
    ...where,
    yaml: {
      long: 'yaml',
      description: 'the nested tree as YAML (groups: and outcomes:, each keyed by vendor_guid), whatever -o says',
    },
  },
  examples: [
    'lms outcomes export --account 1 > outcomes.csv && lms outcomes import --account 1 --dry-run outcomes.csv',
    'lms outcomes export --course 1 --yaml > outcomes.yaml && lms outcomes import --course 1 outcomes.yaml',
    'lms outcomes export --global -o json',
  ],
  async run({ opts, ctx }): Promise<CommandResult> {
    const c = contextOf(opts);
    const [{ readTreeForExport, treeRows }, { exportRows }] = await Promise.all([
      import('./tree-export.js'),
      import('../users/export.js'),
    ]);
    const { tree, skipped } = await readTreeForExport(await ctx.client(), c);
    if (skipped.length)
      ctx.warn(
        `left out, as an import could not find them again: ${skipped.map((s) => `${s.what} (${s.why})`).join('; ')}`,
      );
    if (opts.yaml || ctx.globals.output === 'yaml') {
      const { stringify } = await import('yaml');
      return text(stringify(tree, { lineWidth: 0 }));
    }
    if (ctx.globals.output === 'json') return item(tree);
    return exportRows(ctx, treeRows(tree), [...TREE_COLUMNS]);
  },
});

// ---- imports ----------------------------------------------------------------------------------

const { update: _update, ...importFlags } = bulkFlags({
  noun: 'groups and outcomes',
  updatable: ['title', 'description', 'parent', 'links'],
});

const importOptions = {
  ...where,
  from: {
    long: 'from',
    value: 'group',
    description: 'deep-import this group (global, this context, or an account above it) …',
  },
  into: { long: 'into', value: 'group', description: '… as a new subgroup of this group of the context' },
  ...importFlags,
} as const;

const importTree = command({
  name: 'import',
  args: [{ name: 'file', optional: true }],
  fileArgs: { file: 'read' },
  summary:
    'Build or update a tree of groups and outcomes from a YAML, JSON or CSV file (matched by vendor_guid); or ' +
    '--from GROUP --into GROUP',
  routes: [
    'outcomes.rootGroup@global',
    'outcomes.rootGroup@accounts',
    'outcomes.rootGroup@courses',
    'outcomes.getGroup@global',
    'outcomes.getGroup@accounts',
    'outcomes.getGroup@courses',
    'outcomes.listSubgroups@global',
    'outcomes.listSubgroups@accounts',
    'outcomes.listSubgroups@courses',
    'outcomes.listLinks@global',
    'outcomes.listLinks@accounts',
    'outcomes.listLinks@courses',
    'outcomes.createSubgroup@global',
    'outcomes.createSubgroup@accounts',
    'outcomes.createSubgroup@courses',
    'outcomes.updateGroup@global',
    'outcomes.updateGroup@accounts',
    'outcomes.updateGroup@courses',
    'outcomes.createOutcome@global',
    'outcomes.createOutcome@accounts',
    'outcomes.createOutcome@courses',
    'outcomes.linkOutcome@global',
    'outcomes.linkOutcome@accounts',
    'outcomes.linkOutcome@courses',
    'outcomes.importGroup@global',
    'outcomes.importGroup@accounts',
    'outcomes.importGroup@courses',
    // Who am I: the bulk engine's first request, which also names the instance's state.
    'users.get',
  ],
  columns: resultColumns('vendor_guid', true),
  options: importOptions,
  examples: [
    'lms outcomes import --account 1 --dry-run outcomes.yaml',
    'lms outcomes import --course 1 outcomes.csv',
    'lms outcomes import --course 1 --from 2 --into 6',
  ],
  async run({ args, opts, ctx }): Promise<CommandResult> {
    const c = contextOf(opts);
    if (opts.from !== undefined || opts.into !== undefined) {
      if (opts.from === undefined || opts.into === undefined) throw new UsageError('--from and --into go together');
      if (args[0] !== undefined) throw new UsageError('give a file or --from/--into, not both');
      const client = await ctx.client();
      return item(
        await client.ops.outcomes.importGroup({
          ...c,
          id: groupId(opts.into, '--into'),
          source_outcome_group_id: groupId(opts.from, '--from'),
        }),
      );
    }
    if (args[0] === undefined)
      throw new UsageError('give the file to import (- for stdin), or --from GROUP --into GROUP');
    return importFile(ctx, args[0], c, opts);
  },
});

async function importFile(
  ctx: Context,
  file: string,
  c: OutcomeContext,
  opts: OptionsOf<typeof importOptions>,
): Promise<CommandResult> {
  const [{ runBulk }, { parseTreeFile }, { toTreeRow, treeTask }] = await Promise.all([
    import('../../bulk/command.js'),
    import('./tree-file.js'),
    import('./import.js'),
  ]);
  const target = 'global' in c ? 'global' : 'account_id' in c ? `account:${c.account_id}` : `course:${c.course_id}`;
  return runBulk(
    ctx,
    file,
    { ...opts, update: true },
    {
      job: 'outcomes.import',
      target,
      schema: { columns: TREE_COLUMNS, required: ['vendor_guid', 'object_type', 'title'] },
      parse: parseTreeFile,
      keyColumn: 'vendor_guid',
      toRow: toTreeRow,
      task: (client) => treeTask(client, c, { plan: Boolean(opts.dryRun) }),
    },
  );
}

export const outcomesVerbs: Verbs = [
  root,
  {
    name: 'groups',
    summary: 'Outcome groups: get, create, update (move), delete, subgroups',
    commands: [getGroup, createGroup, updateGroup, deleteGroup, subgroups],
  },
  { name: 'links', summary: "A group's outcome links", commands: [listLinks] },
  link,
  unlink,
  createOutcome,
  importTree,
  exportTree,
  tree,
] as Verbs;
