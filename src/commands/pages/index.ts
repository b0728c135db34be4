// `lms pages`: a course's pages — list, read (by url slug or page_id:N), create, change, delete, the
// front page, and each page's revisions (read one, revert to one). Bodies are HTML, sent and shown
// as they are.
import { item, list, type Verbs } from '../../model/command.js';
import type { Context } from '../../model/context.js';
import { command, contextFlags, type OptionsOf } from '../../model/define.js';
import { EDITING_ROLES, type PageFields } from '../../spec/types/pages.js';
import { UsageError } from '../../errors.js';

const COLUMNS = ['page_id', 'url', 'title', 'published', 'front_page', 'updated_at'];
const REVISION_COLUMNS = ['revision_id', 'updated_at', 'latest', 'edited_by.display_name', 'title'];
const course = { ...contextFlags.course, required: true } as const;
const page = { name: 'page' } as const;

/** The flags of create and update, named after `wiki_page[...]` in kebab case. */
const fieldFlags = {
  title: {
    long: 'title',
    value: 'title',
    description: 'the title (the url slug is made from it, and changes with it)',
    field: { name: 'title' },
  },
  body: { long: 'body', value: 'html', description: 'the content (HTML)', field: { name: 'body' } },
  bodyFile: {
    long: 'body-file',
    value: 'path',
    file: 'read',
    description: 'the content (HTML), read from a file (- for stdin)',
  },
  editingRoles: {
    long: 'editing-roles',
    value: 'list',
    description: `who may edit it besides the course's staff: comma-separated of ${EDITING_ROLES.join(', ')}`,
    field: { name: 'editing_roles' },
  },
  frontPage: {
    long: 'front-page',
    description: "make it the course's front page (it must be published)",
    field: { name: 'front_page' },
  },
  publishAt: {
    long: 'publish-at',
    value: 'time',
    description: 'publish it then (ISO 8601), if unpublished',
    field: { name: 'publish_at', type: 'time' },
  },
  // Sent with a write, never answered: no field of the page, so no apply file can hold it (it would
  // differ from every answer, and be sent again on every run).
  notify: {
    long: 'notify',
    description: 'notify the course of the change',
  },
} as const;

type FieldOpts = Partial<OptionsOf<typeof fieldFlags>> & { publish?: boolean; unpublish?: boolean };

function checkRoles(roles: string | undefined): void {
  if (roles === undefined) return;
  const bad = roles
    .split(',')
    .map((r) => r.trim())
    .filter((r) => r && !(EDITING_ROLES as readonly string[]).includes(r));
  if (bad.length) throw new UsageError(`--editing-roles: ${bad.join(', ')} is not one of ${EDITING_ROLES.join(', ')}`);
}

/** The flags given, as `wiki_page[...]`. */
async function pageFields(opts: FieldOpts, ctx: Context): Promise<PageFields> {
  if (opts.body !== undefined && opts.bodyFile !== undefined)
    throw new UsageError('give --body or --body-file, not both');
  if (opts.publish && opts.unpublish) throw new UsageError('--publish and --unpublish go one at a time');
  checkRoles(opts.editingRoles);
  if (opts.publishAt !== undefined && opts.publishAt !== '' && Number.isNaN(Date.parse(opts.publishAt)))
    throw new UsageError(`--publish-at is not a date or time: "${opts.publishAt}"`);
  let body = opts.body;
  if (opts.bodyFile !== undefined) {
    const { readInput } = await import('../../bulk/csv-input.js');
    body = (await readInput(ctx.input(opts.bodyFile), ctx.io.stdin)).bytes.toString('utf8');
  }
  const fields: PageFields = {
    title: opts.title,
    body,
    editing_roles: opts.editingRoles,
    published: opts.publish ? true : opts.unpublish ? false : undefined,
    front_page: opts.frontPage || undefined,
    publish_at: opts.publishAt === '' ? null : opts.publishAt,
    notify_of_update: opts.notify || undefined,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as PageFields;
}

const listPages = command({
  name: 'list',
  summary: "List a course's pages (students see the published ones)",
  aliases: ['ls'],
  routes: ['pages.list'],
  columns: COLUMNS,
  options: {
    course,
    sort: { long: 'sort', value: 'field', description: 'sort by', choices: ['title', 'created_at', 'updated_at'] },
    order: { long: 'order', value: 'order', description: 'sort order', choices: ['asc', 'desc'] },
    search: { long: 'search', value: 'term', description: 'partial title' },
    published: { long: 'published', description: 'only the published ones' },
    unpublished: { long: 'unpublished', description: 'only the unpublished ones' },
  },
  examples: ['lms pages list --course 1 --sort title', 'lms pages list --course sis_course_id:BIO-101 --unpublished'],
  async run({ opts, ctx }) {
    if (opts.published && opts.unpublished) throw new UsageError('--published and --unpublished go one at a time');
    return list(
      (await ctx.client()).ops.pages.list(
        {
          course_id: opts.course,
          sort: opts.sort as 'title' | 'created_at' | 'updated_at' | undefined,
          order: opts.order as 'asc' | 'desc' | undefined,
          search_term: opts.search,
          published: opts.published ? true : opts.unpublished ? false : undefined,
        },
        { limit: ctx.pageLimit() },
      ),
    );
  },
});

const getPage = command({
  name: 'get',
  args: [page],
  summary: 'Show a page and its body (name it by its url slug, or page_id:N)',
  routes: ['pages.get'],
  options: { course },
  examples: ['lms pages get week-1-notes --course 1', 'lms pages get page_id:2 --course 1 -o json'],
  async run({ args, opts, ctx }) {
    return item(await (await ctx.client()).ops.pages.get({ course_id: opts.course, url_or_id: args[0] }));
  },
});

const createPage = command({
  name: 'create',
  summary: 'Create a page (unpublished unless --publish; its url slug is made from the title)',
  routes: ['pages.create'],
  writes: 'create',
  columns: COLUMNS,
  options: {
    course,
    ...fieldFlags,
    title: { ...fieldFlags.title, required: true },
    publish: { long: 'publish', description: 'publish it', field: { name: 'published' } },
  },
  examples: [
    'lms pages create --course 1 --title "Week 2 Notes" --body "<p>Mitosis</p>" --publish',
    'lms pages create --course 1 --title "Exam Review" --body-file review.html --publish-at 2026-12-01T08:00:00Z',
  ],
  async run({ opts, ctx }) {
    const fields = await pageFields(opts, ctx);
    return item(
      await (await ctx.client()).ops.pages.create({
        course_id: opts.course,
        wiki_page: { ...fields, title: opts.title },
      }),
    );
  },
});

const updateFlags = {
  course,
  ...fieldFlags,
  publishAt: {
    ...fieldFlags.publishAt,
    description: 'publish it then (ISO 8601; "" for no such time)',
    field: { ...fieldFlags.publishAt.field, clears: true },
  },
  publish: { long: 'publish', description: 'publish it', field: { name: 'published' } },
  unpublish: {
    long: 'unpublish',
    description: 'unpublish it (not the front page)',
    field: { name: 'published', value: false },
  },
} as const;

const updatePage = command({
  name: 'update',
  args: [page],
  summary: 'Change a page (a slug that names none creates the page there)',
  routes: ['pages.update'],
  writes: 'update',
  columns: COLUMNS,
  options: updateFlags,
  examples: [
    'lms pages update week-1-notes --course 1 --title "Week One" --editing-roles teachers,students',
    'lms pages update page_id:3 --course 1 --publish --front-page',
  ],
  async run({ args, opts, ctx }) {
    const wiki_page = await pageFields(opts, ctx);
    if (Object.keys(wiki_page).length === 0)
      throw new UsageError('nothing to change: give at least one flag (see --help)');
    return item(await (await ctx.client()).ops.pages.update({ course_id: opts.course, url_or_id: args[0], wiki_page }));
  },
});

const deletePage = command({
  name: 'delete',
  args: [page],
  summary: 'Delete a page (the front page cannot be: make another page the front page first)',
  routes: ['pages.delete'],
  writes: 'delete',
  columns: COLUMNS,
  options: { course },
  examples: ['lms pages delete lab-safety-draft --course 1 --yes'],
  async run({ args, opts, ctx }) {
    await ctx.confirm(`Delete page ${args[0]} of course ${opts.course}`);
    return item(await (await ctx.client()).ops.pages.delete({ course_id: opts.course, url_or_id: args[0] }));
  },
});

const frontPage = command({
  name: 'front',
  summary: "Show the course's front page",
  routes: ['pages.getFront'],
  options: { course },
  examples: ['lms pages front --course 1'],
  async run({ opts, ctx }) {
    return item(await (await ctx.client()).ops.pages.getFront({ course_id: opts.course }));
  },
});

const { frontPage: _front, ...frontFlags } = updateFlags;
const updateFront = command({
  name: 'update-front',
  summary: "Change the course's front page (where none is set, make one, published)",
  routes: ['pages.updateFront'],
  writes: 'update',
  columns: COLUMNS,
  options: frontFlags,
  examples: ['lms pages update-front --course 1 --body-file syllabus.html'],
  async run({ opts, ctx }) {
    const wiki_page = await pageFields(opts, ctx);
    if (Object.keys(wiki_page).length === 0)
      throw new UsageError('nothing to change: give at least one flag (see --help)');
    return item(await (await ctx.client()).ops.pages.updateFront({ course_id: opts.course, wiki_page }));
  },
});

const revisions = command({
  name: 'revisions',
  args: [page],
  summary: "List a page's revisions, newest first (who may edit the page)",
  routes: ['pages.revisions'],
  columns: REVISION_COLUMNS,
  options: { course },
  examples: ['lms pages revisions week-1-notes --course 1'],
  async run({ args, opts, ctx }) {
    return list(
      (await ctx.client()).ops.pages.revisions(
        { course_id: opts.course, url_or_id: args[0] },
        { limit: ctx.pageLimit() },
      ),
    );
  },
});

const revision = command({
  name: 'revision',
  args: [page, { name: 'revision' }],
  summary: 'Show one revision of a page (a number, or latest) with its title and body',
  routes: ['pages.getRevision'],
  columns: REVISION_COLUMNS,
  options: {
    course,
    summary: { long: 'summary', description: 'leave out its url, title and body' },
  },
  examples: ['lms pages revision week-1-notes 1 --course 1', 'lms pages revision week-1-notes latest --course 1'],
  async run({ args, opts, ctx }) {
    return item(
      await (await ctx.client()).ops.pages.getRevision({
        course_id: opts.course,
        url_or_id: args[0],
        revision_id: args[1],
        summary: opts.summary || undefined,
      }),
    );
  },
});

const revert = command({
  name: 'revert',
  args: [page, { name: 'revision' }],
  summary: "Put a revision's title, body and slug back (as a new revision; the history stays)",
  routes: ['pages.revert'],
  writes: 'update',
  columns: REVISION_COLUMNS,
  options: { course },
  examples: ['lms pages revert week-1-notes 1 --course 1'],
  async run({ args, opts, ctx }) {
    if (!/^\d+$/.test(args[1])) throw new UsageError(`the revision to revert to is a number, got "${args[1]}"`);
    return item(
      await (await ctx.client()).ops.pages.revert({ course_id: opts.course, url_or_id: args[0], revision_id: args[1] }),
    );
  },
});

export const pagesVerbs: Verbs = [
  listPages,
  getPage,
  createPage,
  updatePage,
  deletePage,
  frontPage,
  updateFront,
  revisions,
  revision,
  revert,
];
