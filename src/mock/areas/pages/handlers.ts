// Pages of a course (wiki_pages_api_controller.rb): list, read by slug or `page_id:N`, create,
// change (or create at a slug), delete, the front page, revisions and reverting to one. A slug is
// made from the title (slug.ts) and kept unique in the course; a renamed page answers to its old
// slugs too. Bodies are kept as given.
import type { ParamsObject } from '../../decode.js';
import { checkText, text } from '../../fields.js';
import {
  bool,
  HttpError,
  invalid,
  keysetSource,
  notFound,
  numericId,
  obj,
  paginate,
  str,
  timestamp,
  type Handler,
  type MockCtx,
} from '../../kit.js';
import type { CourseRow } from '../lookup.js';
import { canManageContent, permit, readableCourse } from '../access.js';
import { userById } from '../../school/users/repo.js';
import { EDITING_ROLES, type Page, type PageRevision } from '../../../spec/types/pages.js';
import { editsThroughRoles, readsPage } from './policy.js';
import {
  changePage,
  createPage,
  deletePage,
  freeSlug,
  frontPageOf,
  latestRevisionOf,
  pageById,
  pageBySlug,
  pagesQuery,
  publishDuePages,
  revisionOf,
  revisionsQuery,
  setFrontPage,
  type PageChange,
  type PageRow,
  type RevisionRow,
} from './repo.js';
import { slugOf } from './slug.js';

const TITLE = text({ required: true });

function editor(ctx: MockCtx, userId: number | null) {
  const u = userId === null ? undefined : userById(ctx.db, userId);
  if (!u) return null;
  return {
    id: u.id,
    display_name: u.short_name || u.name,
    avatar_image_url: u.avatar_url ?? `${ctx.origin}/images/messages/avatar-50.png`,
    html_url: `${ctx.origin}/users/${u.id}`,
  };
}

export function pageJson(ctx: MockCtx, p: PageRow, withBody: boolean): Page {
  return {
    page_id: p.id,
    url: p.url,
    title: p.title,
    created_at: p.created_at,
    updated_at: p.updated_at,
    hide_from_students: p.workflow_state !== 'active',
    editing_roles: p.editing_roles,
    last_edited_by: editor(ctx, p.user_id),
    ...(withBody ? { body: p.body } : {}),
    published: p.workflow_state === 'active',
    front_page: p.front_page === 1,
    publish_at: p.publish_at,
    todo_date: null,
    locked_for_user: false,
    html_url: `${ctx.origin}/courses/${p.course_id}/pages/${p.url}`,
  };
}

function revisionJson(ctx: MockCtx, r: RevisionRow, latest: number, withContent: boolean): PageRevision {
  return {
    revision_id: r.number,
    updated_at: r.created_at,
    latest: r.number === latest,
    edited_by: editor(ctx, r.user_id),
    ...(withContent ? { url: r.url, title: r.title, body: r.body } : {}),
  };
}

/** The course, read by the caller, with its due pages published first. */
function courseOf(ctx: MockCtx): CourseRow {
  const course = readableCourse(ctx, ctx.path.course_id);
  publishDuePages(ctx.db, course.id, ctx.now());
  return course;
}

/** What a path names: a slug first, then `page_id:N` or a bare id, as real instances read it. */
function named(ctx: MockCtx, course: CourseRow, raw: string): PageRow | undefined {
  const bySlug = pageBySlug(ctx.db, course.id, raw);
  if (bySlug) return bySlug;
  const id = numericId(raw.startsWith('page_id:') ? raw.slice('page_id:'.length) : raw);
  return id === undefined ? undefined : pageById(ctx.db, course.id, id);
}

const pageNotFound = () => new HttpError(404, { message: 'page not found' });

/** A page the caller may read: one not there is a 404, one the caller may not read a 401. */
function readablePage(ctx: MockCtx, course: CourseRow, raw: string): PageRow {
  const page = named(ctx, course, raw);
  if (!page) throw pageNotFound();
  permit(readsPage(page, canManageContent(ctx, course)));
  return page;
}

/** May the caller change the page's content (a manager, or an editor its editing roles name)? */
function mayEdit(ctx: MockCtx, course: CourseRow, page: PageRow): boolean {
  if (canManageContent(ctx, course)) return true;
  return page.workflow_state === 'active' && editsThroughRoles(ctx.db, ctx.caller.id, course.id, page.editing_roles);
}

const list: Handler = (ctx) => {
  const course = courseOf(ctx);
  const manager = canManageContent(ctx, course);
  const published = bool(ctx.params, 'published');
  const states: ('active' | 'unpublished')[] = !manager
    ? published === false
      ? []
      : ['active']
    : published === undefined
      ? ['active', 'unpublished']
      : published
        ? ['active']
        : ['unpublished'];
  const sortRaw = str(ctx.params, 'sort');
  const sort = sortRaw === 'title' || sortRaw === 'created_at' || sortRaw === 'updated_at' ? sortRaw : undefined;
  const query = pagesQuery(course.id, {
    states: states.length ? states : ['deleted' as 'active'],
    term: str(ctx.params, 'search_term') || undefined,
    sort,
    descending: str(ctx.params, 'order') === 'desc',
  });
  return paginate(ctx, keysetSource<PageRow>(ctx.db, query), (p) => pageJson(ctx, p, false));
};

/** `wiki_page[...]` over the page as it is (or a new one), checked as real instances check it. */
function pageFields(
  ctx: MockCtx,
  course: CourseRow,
  w: ParamsObject,
  base: PageChange & { front: boolean },
  page: PageRow | undefined,
): PageChange & { front: boolean } {
  const next = { ...base };
  const manager = canManageContent(ctx, course);
  const title = str(w, 'title');
  if (title !== undefined) {
    next.title = checkText(TITLE, title.trim(), undefined, 'title');
    if (!slugOf(next.title))
      throw invalid(undefined, 'title', 'invalid', 'Title must contain at least one letter or number');
  }
  const body = str(w, 'body');
  if (body !== undefined) next.body = body;
  const roles = str(w, 'editing_roles');
  if (roles !== undefined) {
    const given = roles
      .split(',')
      .map((r) => r.trim())
      .filter(Boolean);
    if (given.some((r) => !(EDITING_ROLES as readonly string[]).includes(r)))
      throw invalid(undefined, 'editing_roles', 'invalid', 'The provided editing roles are invalid');
    next.editing_roles = given.join(',');
  }
  const published = str(w, 'published');
  if (published !== undefined && published !== '')
    next.workflow_state = bool(w, 'published') ? 'active' : 'unpublished';
  const front = bool(w, 'front_page');
  if (front !== undefined) next.front = front;
  if (str(w, 'publish_at') === '') next.publish_at = null;
  else next.publish_at = timestamp(w, 'publish_at') ?? next.publish_at;
  if (next.workflow_state === 'active') next.publish_at = null;
  // What only a manager may change: the page's state, who edits it, the front page.
  if (!manager) {
    const refused: [string, string][] = [];
    if (next.workflow_state !== base.workflow_state)
      refused.push(['published', 'You are not allowed to update the published state of this wiki page']);
    if (next.editing_roles !== base.editing_roles)
      refused.push(['editing_roles', 'You are not allowed to update the editing roles of this wiki page']);
    if (next.front !== base.front) refused.push(['front_page', 'You are not allowed to change the wiki front page']);
    if (next.publish_at !== base.publish_at)
      refused.push(['publish_at', 'You are not allowed to update the published state of this wiki page']);
    if (refused.length)
      throw new HttpError(401, {
        errors: Object.fromEntries(
          refused.map(([f, message]) => [f, [{ attribute: f, type: 'unauthorized', message }]]),
        ),
      });
  }
  if (next.front && next.workflow_state !== 'active') {
    const message = 'The front page cannot be unpublished';
    throw invalid(undefined, front !== undefined ? 'front_page' : 'published', 'invalid', message);
  }
  next.url = next.title === page?.title && page ? page.url : freeSlug(ctx.db, course.id, slugOf(next.title), page?.id);
  return next;
}

/** Saves a new page from `wiki_page[...]`: unpublished unless told, as real instances make one for a manager. */
function makePage(ctx: MockCtx, course: CourseRow, w: ParamsObject, defaults: { title?: string; front?: boolean }) {
  const now = ctx.now();
  if (str(w, 'title') === undefined && defaults.title === undefined)
    throw invalid(undefined, 'title', 'blank', "Title can't be blank");
  const next = pageFields(
    ctx,
    course,
    { ...w, ...(str(w, 'title') === undefined ? { title: defaults.title } : {}) },
    {
      url: '',
      title: '',
      body: null,
      editing_roles: 'teachers',
      workflow_state: defaults.front ? 'active' : 'unpublished',
      publish_at: null,
      front: defaults.front ?? false,
    },
    undefined,
  );
  const id = createPage(ctx.db, { ...next, courseId: course.id, userId: ctx.caller.id, now });
  if (next.front) setFrontPage(ctx.db, course.id, id);
  return pageJson(ctx, pageById(ctx.db, course.id, id)!, true);
}

const create: Handler = (ctx) => {
  const course = courseOf(ctx);
  permit(canManageContent(ctx, course));
  return makePage(ctx, course, obj(ctx.params, 'wiki_page'), {});
};

const get: Handler = (ctx) => {
  const course = courseOf(ctx);
  return pageJson(ctx, readablePage(ctx, course, ctx.path.url_or_id), true);
};

function changeOne(ctx: MockCtx, course: CourseRow, page: PageRow) {
  permit(mayEdit(ctx, course, page));
  const w = obj(ctx.params, 'wiki_page');
  const base = {
    url: page.url,
    title: page.title,
    body: page.body,
    editing_roles: page.editing_roles,
    workflow_state: page.workflow_state as 'active' | 'unpublished',
    publish_at: page.publish_at,
    front: page.front_page === 1,
  };
  const next = pageFields(ctx, course, w, base, page);
  changePage(ctx.db, page, next, ctx.caller.id, ctx.now());
  if (next.front !== base.front) setFrontPage(ctx.db, course.id, next.front ? page.id : null);
  return pageJson(ctx, pageById(ctx.db, course.id, page.id)!, true);
}

/** Changes the page a path names, or creates it there: a missing slug becomes the new page's title. */
const update: Handler = (ctx) => {
  const course = courseOf(ctx);
  const raw = ctx.path.url_or_id;
  const page = named(ctx, course, raw);
  if (page) {
    permit(readsPage(page, canManageContent(ctx, course)));
    return changeOne(ctx, course, page);
  }
  permit(canManageContent(ctx, course));
  // As real instances title a page made at a slug: its words, capitalised.
  const title = raw
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .replace(/\b\p{Ll}/gu, (c) => c.toUpperCase());
  return makePage(ctx, course, obj(ctx.params, 'wiki_page'), { title: title || 'Page' });
};

const remove: Handler = (ctx) => {
  const course = courseOf(ctx);
  const page = readablePage(ctx, course, ctx.path.url_or_id);
  permit(canManageContent(ctx, course));
  if (page.front_page === 1) throw invalid(undefined, 'front_page', 'invalid', 'The front page cannot be deleted');
  const now = ctx.now();
  deletePage(ctx.db, page.id, now);
  return { ...pageJson(ctx, page, true), updated_at: now, published: false, hide_from_students: true };
};

const noFrontPage = () => new HttpError(404, { message: 'No front page has been set' });

const getFront: Handler = (ctx) => {
  const course = courseOf(ctx);
  const page = frontPageOf(ctx.db, course.id);
  if (!page) throw noFrontPage();
  return pageJson(ctx, page, true);
};

/** Changes the front page, or, where none is set, makes one (published, as real instances do). */
const updateFront: Handler = (ctx) => {
  const course = courseOf(ctx);
  const page = frontPageOf(ctx.db, course.id);
  if (page) return changeOne(ctx, course, page);
  permit(canManageContent(ctx, course));
  return makePage(ctx, course, obj(ctx.params, 'wiki_page'), { title: 'Front Page', front: true });
};

/** A page whose history the caller may read: who may edit it. */
function historyOf(ctx: MockCtx): { course: CourseRow; page: PageRow } {
  const course = courseOf(ctx);
  const page = readablePage(ctx, course, ctx.path.url_or_id);
  permit(mayEdit(ctx, course, page));
  return { course, page };
}

const revisions: Handler = (ctx) => {
  const { page } = historyOf(ctx);
  const latest = latestRevisionOf(ctx.db, page.id)?.number ?? 0;
  return paginate(ctx, keysetSource<RevisionRow>(ctx.db, revisionsQuery(page.id)), (r) =>
    revisionJson(ctx, r, latest, false),
  );
};

function revisionNamed(ctx: MockCtx, page: PageRow): RevisionRow {
  const raw = ctx.path.revision_id;
  const number = raw === 'latest' ? latestRevisionOf(ctx.db, page.id)?.number : numericId(raw);
  const revision = number === undefined ? undefined : revisionOf(ctx.db, page.id, number);
  if (!revision) throw notFound();
  return revision;
}

/** One revision; `latest` is the page's current one, which every reader of the page may see. */
const getRevision: Handler = (ctx) => {
  const course = courseOf(ctx);
  const page = readablePage(ctx, course, ctx.path.url_or_id);
  if (ctx.path.revision_id !== 'latest') permit(mayEdit(ctx, course, page));
  const revision = revisionNamed(ctx, page);
  const latest = latestRevisionOf(ctx.db, page.id)!.number;
  return revisionJson(ctx, revision, latest, !bool(ctx.params, 'summary'));
};

/** Puts a revision's title, body and slug back, as a new revision. */
const revert: Handler = (ctx) => {
  const { course, page } = historyOf(ctx);
  permit(canManageContent(ctx, course) || page.workflow_state === 'active');
  const revision = revisionNamed(ctx, page);
  const url = freeSlug(ctx.db, course.id, revision.url, page.id);
  changePage(
    ctx.db,
    page,
    {
      url,
      title: revision.title,
      body: revision.body,
      editing_roles: page.editing_roles,
      workflow_state: page.workflow_state as 'active' | 'unpublished',
      publish_at: page.publish_at,
    },
    ctx.caller.id,
    ctx.now(),
  );
  const latest = latestRevisionOf(ctx.db, page.id)!;
  return revisionJson(ctx, latest, latest.number, true);
};

export const pagesHandlers = {
  'pages.list': list,
  'pages.create': create,
  'pages.get': get,
  'pages.update': update,
  'pages.delete': remove,
  'pages.getFront': getFront,
  'pages.updateFront': updateFront,
  'pages.revisions': revisions,
  'pages.getRevision': getRevision,
  'pages.revert': revert,
};
