// `lms modules`: a course's modules and their items; a student's progress through them (the state
// of each module, whether each requirement is met); marking an item done, not done or read.
import { defineNoun, item, list, type Verbs } from '../../model/command.js';
import { command, contextFlags, type OptionsOf, trueOrFalse } from '../../model/define.js';
import {
  APPLICABLE,
  MODULE_ITEM_TYPES,
  REQUIREMENT_TYPES,
  type ModuleFields,
  type ModuleItemFields,
  type ModuleItemType,
  type RequirementType,
} from '../../spec/types/modules.js';
import { UsageError } from '../../errors.js';

const COLUMNS = ['id', 'position', 'name', 'published', 'state', 'items_count', 'unlock_at', 'prerequisite_module_ids'];
const ITEM_COLUMNS = ['id', 'position', 'type', 'title', 'indent', 'content_id', 'page_url', 'completion_requirement'];
const course = { ...contextFlags.course, required: true } as const;
const student = {
  long: 'student',
  value: 'id',
  ids: 'user',
  description: "that student's progress: each module's state and each requirement's completed",
} as const;

const moduleFlags = {
  name: { long: 'name', value: 'name', description: 'module name', field: { name: 'name' } },
  position: {
    long: 'position',
    value: 'n',
    description: 'its place in the course, from 1',
    type: 'integer',
    min: 1,
    field: { name: 'position', type: 'integer' },
  },
  unlockAt: {
    long: 'unlock-at',
    value: 'time',
    description: 'when it unlocks (ISO 8601; "" for no date)',
    field: { name: 'unlock_at', type: 'time', clears: true },
  },
  sequential: {
    long: 'sequential',
    value: 'bool',
    description: 'items must be completed in order (true or false)',
    choices: ['true', 'false'],
    field: { name: 'require_sequential_progress' },
  },
  prerequisites: {
    long: 'prerequisites',
    value: 'ids',
    description: 'comma-separated ids of earlier modules to complete first ("" for none)',
    field: { name: 'prerequisite_module_ids', type: 'list', clears: true },
  },
  publishFinalGrade: {
    long: 'publish-final-grade',
    value: 'bool',
    description: "send the student's final grade to the SIS on completing it (true or false)",
    choices: ['true', 'false'],
    field: { name: 'publish_final_grade' },
  },
} as const;

type ModuleOpts = Partial<OptionsOf<typeof moduleFlags>>;

function checkTime(flag: string, v: string | undefined): string | null | undefined {
  if (v === undefined) return undefined;
  if (v === '') return null;
  if (Number.isNaN(Date.parse(v))) throw new UsageError(`${flag} is not a date or time: "${v}"`);
  return v;
}

function idList(flag: string, v: string | undefined): string[] | undefined {
  if (v === undefined) return undefined;
  const ids = v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const id of ids) if (!/^\d+$/.test(id)) throw new UsageError(`${flag} takes module ids, not "${id}"`);
  return ids;
}

/** The flags given, as `module[...]`. An empty list of prerequisites is sent as [''], as Rails clears one. */
export function moduleFields(opts: ModuleOpts): ModuleFields {
  const prerequisites = idList('--prerequisites', opts.prerequisites);
  const fields: ModuleFields = {
    name: opts.name,
    position: opts.position,
    unlock_at: checkTime('--unlock-at', opts.unlockAt),
    require_sequential_progress: trueOrFalse(opts.sequential),
    prerequisite_module_ids: prerequisites === undefined ? undefined : prerequisites.length ? prerequisites : [''],
    publish_final_grade: trueOrFalse(opts.publishFinalGrade),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as ModuleFields;
}

const listModules = command({
  name: 'list',
  summary: "List a course's modules (unpublished ones only for those who manage it)",
  aliases: ['ls'],
  routes: ['modules.list'],
  columns: COLUMNS,
  options: {
    course,
    items: { long: 'items', description: "include each module's items" },
    search: {
      long: 'search',
      value: 'term',
      description: 'partial name (of the modules, or with --items of their items)',
    },
    student,
  },
  examples: [
    'lms modules list --course 1',
    'lms modules list --course 1 --student 7',
    'lms modules list --course 1 --items --search lab -o json',
  ],
  async run({ opts, ctx }) {
    return list(
      (await ctx.client()).ops.modules.list(
        {
          course_id: opts.course,
          include: opts.items ? ['items'] : undefined,
          search_term: opts.search,
          student_id: opts.student,
        },
        { limit: ctx.pageLimit() },
      ),
    );
  },
});

const getModule = command({
  name: 'get',
  args: [{ name: 'id' }],
  summary: 'Show one module (with --items, its items)',
  routes: ['modules.get'],
  options: { course, items: { long: 'items', description: 'include its items' }, student },
  examples: ['lms modules get 1 --course 1 --items', 'lms modules get 2 --course 1 --student 7'],
  async run({ args, opts, ctx }) {
    return item(
      await (await ctx.client()).ops.modules.get({
        course_id: opts.course,
        id: args[0],
        include: opts.items ? ['items'] : undefined,
        student_id: opts.student,
      }),
    );
  },
});

const createModule = command({
  name: 'create',
  summary: 'Create a module (unpublished unless --publish)',
  routes: ['modules.create', 'modules.update'],
  writes: 'create',
  columns: COLUMNS,
  options: {
    course,
    ...moduleFlags,
    name: { ...moduleFlags.name, required: true },
    publish: { long: 'publish', description: 'publish it at once', field: { name: 'published' } },
  },
  examples: [
    'lms modules create --course 1 --name "Week 3: Evolution" --prerequisites 2 --sequential true',
    'lms modules create --course 1 --name "Orientation" --position 1 --publish',
  ],
  async run({ opts, ctx }) {
    const m = (await ctx.client()).ops.modules;
    const made = await m.create({ course_id: opts.course, module: moduleFields(opts) });
    // Canvas creates every module unpublished; publishing is a change of it.
    if (!opts.publish) return item(made);
    return item(await m.update({ course_id: opts.course, id: made.id, module: { published: true } }));
  },
});

const updateModule = command({
  name: 'update',
  args: [{ name: 'id' }],
  summary: 'Change a module',
  routes: ['modules.update'],
  writes: 'update',
  columns: COLUMNS,
  options: { course, ...moduleFlags },
  examples: [
    'lms modules update 2 --course 1 --unlock-at 2026-09-14T08:00:00Z',
    'lms modules update 3 --course 1 --prerequisites 1,2 --sequential false',
  ],
  async run({ args, opts, ctx }) {
    const fields = moduleFields(opts);
    if (Object.keys(fields).length === 0)
      throw new UsageError('nothing to change: give at least one of the module flags (see --help)');
    return item(await (await ctx.client()).ops.modules.update({ course_id: opts.course, id: args[0], module: fields }));
  },
});

function publishVerb(name: 'publish' | 'unpublish') {
  return command({
    name,
    args: [{ name: 'id' }],
    summary:
      name === 'publish'
        ? 'Publish a module and its items'
        : 'Unpublish a module and its items (students no longer see them)',
    routes: ['modules.update'],
    writes: 'update',
    sets: { published: name === 'publish' },
    columns: COLUMNS,
    options: { course },
    examples: [`lms modules ${name} 3 --course 1`],
    async run({ args, opts, ctx }) {
      const module = { published: name === 'publish' };
      return item(await (await ctx.client()).ops.modules.update({ course_id: opts.course, id: args[0], module }));
    },
  });
}

const deleteModule = command({
  name: 'delete',
  args: [{ name: 'id' }],
  summary: 'Delete a module and its items (the content they show stays in the course)',
  routes: ['modules.delete'],
  writes: 'delete',
  columns: COLUMNS,
  options: { course },
  examples: ['lms modules delete 3 --course 1 --yes'],
  async run({ args, opts, ctx }) {
    await ctx.confirm(`Delete module ${args[0]} of course ${opts.course} and its items`);
    return item(await (await ctx.client()).ops.modules.delete({ course_id: opts.course, id: args[0] }));
  },
});

const relock = command({
  name: 'relock',
  args: [{ name: 'id' }],
  summary: 'Relock a module for students who unlocked it before its prerequisites or requirements changed',
  routes: ['modules.relock'],
  // Students who have not met its prerequisites lose what they had opened: asked about as an ending.
  destroys: 'asks',
  columns: COLUMNS,
  options: { course },
  examples: ['lms modules relock 2 --course 1 --yes'],
  async run({ args, opts, ctx }) {
    await ctx.confirm(
      `Relock module ${args[0]} of course ${opts.course}: students who have not met its prerequisites lose access ` +
        'to it',
    );
    return item(await (await ctx.client()).ops.modules.relock({ course_id: opts.course, id: args[0] }));
  },
});

// ---- items ----------------------------------------------------------------------------------------

const itemFlags = {
  title: { long: 'title', value: 'title', description: 'its title (default: the content’s)', field: { name: 'title' } },
  position: {
    long: 'position',
    value: 'n',
    description: 'its place in the module, from 1',
    type: 'integer',
    min: 1,
    field: { name: 'position', type: 'integer' },
  },
  indent: {
    long: 'indent',
    value: 'n',
    description: 'indent level, from 0',
    type: 'integer',
    min: 0,
    field: { name: 'indent', type: 'integer' },
  },
  externalUrl: {
    long: 'external-url',
    value: 'url',
    description: 'the link of an ExternalUrl or ExternalTool item',
    field: { name: 'external_url' },
  },
  newTab: {
    long: 'new-tab',
    value: 'bool',
    description: 'an external tool opens in a new tab (true or false)',
    choices: ['true', 'false'],
    field: { name: 'new_tab' },
  },
  requirement: {
    long: 'requirement',
    value: 'type',
    description: 'what completes it: must_view, must_contribute, must_submit, min_score, must_mark_done ("" for none)',
    choices: [...REQUIREMENT_TYPES, ''],
    field: { name: 'completion_requirement', clears: true },
  },
  minScore: {
    long: 'min-score',
    value: 'points',
    description: 'the score a min_score requirement needs',
    type: 'number',
    min: 0,
    field: { name: 'min_score', type: 'number' },
  },
} as const;

type ItemOpts = Partial<OptionsOf<typeof itemFlags>>;

function requirementOf(opts: ItemOpts): ModuleItemFields['completion_requirement'] {
  if (opts.requirement === undefined) {
    if (opts.minScore !== undefined) throw new UsageError('--min-score goes with --requirement min_score');
    return undefined;
  }
  if (opts.requirement === 'min_score' && opts.minScore === undefined)
    throw new UsageError('--requirement min_score needs --min-score');
  if (opts.requirement !== 'min_score' && opts.minScore !== undefined)
    throw new UsageError('--min-score goes with --requirement min_score');
  return {
    type: opts.requirement as RequirementType | '',
    ...(opts.minScore !== undefined ? { min_score: opts.minScore } : {}),
  };
}

function itemFields(opts: ItemOpts): ModuleItemFields {
  const fields: ModuleItemFields = {
    title: opts.title,
    position: opts.position,
    indent: opts.indent,
    external_url: opts.externalUrl,
    new_tab: trueOrFalse(opts.newTab),
    completion_requirement: requirementOf(opts),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as ModuleItemFields;
}

const onModule = [{ name: 'module' }] as const;
const onItem = [{ name: 'module' }, { name: 'item' }] as const;

const listItems = command({
  name: 'list',
  args: onModule,
  summary: "List a module's items",
  aliases: ['ls'],
  routes: ['modules.listItems'],
  columns: ITEM_COLUMNS,
  options: {
    course,
    search: { long: 'search', value: 'term', description: 'partial title' },
    details: { long: 'details', description: "each item's points, dates and lock for you (content_details)" },
    student,
  },
  examples: ['lms modules items list 1 --course 1', 'lms modules items list 1 --course 1 --student 7 -o json'],
  async run({ args, opts, ctx }) {
    return list(
      (await ctx.client()).ops.modules.listItems(
        {
          course_id: opts.course,
          module_id: args[0],
          search_term: opts.search,
          include: opts.details ? ['content_details'] : undefined,
          student_id: opts.student,
        },
        { limit: ctx.pageLimit() },
      ),
    );
  },
});

const getItem = command({
  name: 'get',
  args: onItem,
  summary: 'Show one module item',
  routes: ['modules.getItem'],
  options: {
    course,
    details: { long: 'details', description: 'its points, dates and lock for you (content_details)' },
    student,
  },
  examples: ['lms modules items get 1 2 --course 1 --student 7'],
  async run({ args, opts, ctx }) {
    return item(
      await (await ctx.client()).ops.modules.getItem({
        course_id: opts.course,
        module_id: args[0],
        id: args[1],
        include: opts.details ? ['content_details'] : undefined,
        student_id: opts.student,
      }),
    );
  },
});

const NEEDS_CONTENT: readonly ModuleItemType[] = ['File', 'Discussion', 'Assignment', 'Quiz'];

const addItem = command({
  name: 'add',
  args: onModule,
  summary: 'Add an item to a module: content of the course, a page, a link, a tool or a header',
  routes: ['modules.createItem'],
  writes: 'create',
  columns: ITEM_COLUMNS,
  options: {
    course,
    type: {
      long: 'type',
      value: 'type',
      description: MODULE_ITEM_TYPES.join(', '),
      choices: MODULE_ITEM_TYPES,
      required: true,
      field: { name: 'type' },
    },
    contentId: {
      long: 'content-id',
      value: 'id',
      description: 'the file, topic, assignment, quiz or tool it shows',
      field: { name: 'content_id', type: 'ref' },
    },
    pageUrl: {
      long: 'page-url',
      value: 'slug',
      description: "a Page item's page (its url slug)",
      field: { name: 'page_url' },
    },
    ...itemFlags,
  },
  examples: [
    'lms modules items add 1 --course 1 --type Assignment --content-id 3 --requirement must_submit',
    'lms modules items add 1 --course 1 --type Quiz --content-id 1 --requirement min_score --min-score 4',
    'lms modules items add 1 --course 1 --type ExternalUrl --title "Cell atlas" --external-url ' +
      'https://example.edu/atlas --requirement must_view',
    'lms modules items add 1 --course 1 --type SubHeader --title "Further reading"',
  ],
  async run({ args, opts, ctx }) {
    const type = opts.type as ModuleItemType;
    if (NEEDS_CONTENT.includes(type) && opts.contentId === undefined)
      throw new UsageError(`a ${type} item needs --content-id`);
    if (type === 'Page' && opts.pageUrl === undefined) throw new UsageError('a Page item needs --page-url');
    if ((type === 'ExternalUrl' || type === 'ExternalTool') && opts.externalUrl === undefined)
      throw new UsageError(`an ${type} item needs --external-url`);
    if ((type === 'SubHeader' || type === 'ExternalUrl') && !opts.title)
      throw new UsageError(`a ${type} item needs --title`);
    const fields = itemFields(opts);
    const kind = fields.completion_requirement?.type;
    if (kind && !APPLICABLE[type].includes(kind))
      throw new UsageError(
        APPLICABLE[type].length
          ? `a ${type} item can have ${APPLICABLE[type].join(', ')}, not ${kind}`
          : `a ${type} item has no completion requirement`,
      );
    const module_item: ModuleItemFields = {
      type,
      ...(opts.contentId !== undefined ? { content_id: opts.contentId } : {}),
      ...(opts.pageUrl !== undefined ? { page_url: opts.pageUrl } : {}),
      ...fields,
    };
    return item(
      await (await ctx.client()).ops.modules.createItem({ course_id: opts.course, module_id: args[0], module_item }),
    );
  },
});

const updateItem = command({
  name: 'update',
  args: onItem,
  summary: 'Change a module item, or move it into another module',
  routes: ['modules.updateItem'],
  writes: 'update',
  columns: ITEM_COLUMNS,
  options: {
    course,
    ...itemFlags,
    published: {
      long: 'published',
      value: 'bool',
      description: 'publish or unpublish it (true or false)',
      choices: ['true', 'false'],
      field: { name: 'published' },
    },
    moveTo: {
      long: 'move-to',
      value: 'module',
      description: 'move it into this module of the course',
      field: { name: 'module_id', type: 'ref' },
    },
  },
  examples: [
    'lms modules items update 1 2 --course 1 --indent 1 --requirement must_view',
    'lms modules items update 1 2 --course 1 --move-to 2 --position 1',
  ],
  async run({ args, opts, ctx }) {
    const module_item: ModuleItemFields = {
      ...itemFields(opts),
      ...(opts.published !== undefined ? { published: opts.published === 'true' } : {}),
      ...(opts.moveTo !== undefined ? { module_id: opts.moveTo } : {}),
    };
    if (Object.keys(module_item).length === 0)
      throw new UsageError('nothing to change: give at least one of the item flags (see --help)');
    return item(
      await (await ctx.client()).ops.modules.updateItem({
        course_id: opts.course,
        module_id: args[0],
        id: args[1],
        module_item,
      }),
    );
  },
});

const removeItem = command({
  name: 'remove',
  args: onItem,
  summary: 'Remove an item from its module (what it shows stays in the course)',
  routes: ['modules.deleteItem'],
  writes: 'delete',
  columns: ITEM_COLUMNS,
  options: { course },
  examples: ['lms modules items remove 1 5 --course 1 --yes'],
  async run({ args, opts, ctx }) {
    await ctx.confirm(`Remove item ${args[1]} from module ${args[0]} of course ${opts.course}`);
    return item(
      await (await ctx.client()).ops.modules.deleteItem({ course_id: opts.course, module_id: args[0], id: args[1] }),
    );
  },
});

function markVerb(name: 'done' | 'undone' | 'read') {
  const route = name === 'done' ? 'modules.markDone' : name === 'undone' ? 'modules.markNotDone' : 'modules.markRead';
  return command({
    name,
    args: onItem,
    summary:
      name === 'done'
        ? 'Mark an item done (meets a must_mark_done requirement)'
        : name === 'undone'
          ? 'Mark an item not done again'
          : 'Mark an item viewed (meets a must_view requirement; refused while it is locked)',
    routes: [route],
    ...(name === 'undone' ? { destroys: false as const } : {}),
    options: { course },
    examples: [`lms modules items ${name} 2 6 --course 1`],
    async run({ args, opts, ctx }) {
      const on = { course_id: opts.course, module_id: args[0], id: args[1] };
      const m = (await ctx.client()).ops.modules;
      await (name === 'done' ? m.markDone(on) : name === 'undone' ? m.markNotDone(on) : m.markRead(on));
      ctx.io.stderr.write(`Marked item ${args[1]} ${name === 'undone' ? 'not done' : name}.\n`);
      return undefined;
    },
  });
}

const items = defineNoun({
  name: 'items',
  summary: "A module's items: list, add, change, move, remove; mark done, not done, read",
  commands: [
    listItems,
    getItem,
    addItem,
    updateItem,
    removeItem,
    markVerb('done'),
    markVerb('undone'),
    markVerb('read'),
  ] as Verbs,
});

export const modulesVerbs: Verbs = [
  listModules,
  getModule,
  createModule,
  updateModule,
  publishVerb('publish'),
  publishVerb('unpublish'),
  deleteModule,
  relock,
  items,
] as Verbs;
