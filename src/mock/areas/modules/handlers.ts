import { textFault } from '../../fields.js';
import {
  HttpError,
  keysetSource,
  list,
  numericId,
  obj,
  paginate,
  rejected,
  Reply,
  str,
  type Handler,
  type MockCtx,
} from '../../kit.js';
import { canManageContent, permit, readableCourse } from '../access.js';
import { participatesAsStudent } from './policy.js';
import { holdUnlocksOf } from './progress.js';
import {
  createItem,
  createModule,
  deleteItem,
  deleteModule,
  forgetAction,
  itemById,
  itemsOfModule,
  moduleById,
  modulesQuery,
  moveItem,
  moveModule,
  publishItemsOf,
  recordAction,
  relockModule,
  setModuleState,
  updateItem,
  updateModule,
  type ItemRow,
  type ItemValues,
  type ModuleRow,
} from './repo.js';

import {
  NAME,
  TITLE,
  viewerOf,
  progressOf,
  visibleItem,
  moduleIn,
  itemIn,
  itemJson,
  moduleJson,
  given,
  wrong,
  boolParam,
  intParam,
  moduleValues,
  requirementOf,
  isWebUrl,
  newItemValues,
  searchTerm,
  type Viewer,
} from './shared.js';

const listModules: Handler = (ctx) => {
  const course = readableCourse(ctx, ctx.path.course_id);
  const v = viewerOf(ctx, course);
  const term = searchTerm(ctx);
  const withItems = list(ctx.params, 'include').includes('items');
  // With items, a module matches by its name or by the items that match (only those are shown).
  const query = modulesQuery(course.id, { withUnpublished: v.manager, term: withItems ? undefined : term });
  const page = paginate(ctx, keysetSource<ModuleRow>(ctx.db, query), (m) => {
    if (!withItems || term === undefined || m.name.toLowerCase().includes(term)) return moduleJson(ctx, v, m);
    const items = itemsOfModule(ctx.db, m.id).filter(
      (i) => visibleItem(ctx, v, i) && i.title.toLowerCase().includes(term),
    );
    return items.length ? moduleJson(ctx, v, m, { items }) : undefined;
  });
  return Array.isArray(page.body)
    ? new Reply(
        page.status,
        page.body.filter((m) => m !== undefined),
        page.headers,
      )
    : page;
};

const getModule: Handler = (ctx) => {
  const course = readableCourse(ctx, ctx.path.course_id);
  const v = viewerOf(ctx, course);
  return moduleJson(ctx, v, moduleIn(ctx, v, ctx.path.id));
};

function managing(ctx: MockCtx): Viewer {
  const course = readableCourse(ctx, ctx.path.course_id);
  permit(canManageContent(ctx, course));
  return { course, manager: true };
}

const create: Handler = (ctx) => {
  const v = managing(ctx);
  if (!given(ctx.params, 'module')) throw rejected('missing module parameter');
  const q = obj(ctx.params, 'module');
  if ((str(q, 'name')?.trim() ?? '') === '') throw rejected('missing module name');
  const now = ctx.now();
  const values = moduleValues(
    ctx,
    v.course,
    { name: '', unlock_at: null, require_sequential_progress: 0, publish_final_grade: 0, prerequisites: '[]' },
    q,
  );
  const position = intParam(q, 'position', 1);
  const id = createModule(ctx.db, v.course.id, values, now);
  if (position !== undefined) moveModule(ctx.db, moduleById(ctx.db, id)!, position);
  return moduleJson(ctx, v, moduleById(ctx.db, id)!);
};

const update: Handler = (ctx) => {
  const v = managing(ctx);
  const m = moduleIn(ctx, v, ctx.path.id);
  if (!given(ctx.params, 'module')) throw rejected('missing module parameter');
  const q = obj(ctx.params, 'module');
  const values = moduleValues(ctx, v.course, m, q, m);
  const position = intParam(q, 'position', 1);
  const published = given(q, 'published') ? boolParam(q, 'published') : undefined;
  const now = ctx.now();
  updateModule(ctx.db, m.id, values, now);
  if (position !== undefined) moveModule(ctx.db, m, position);
  if (published !== undefined) {
    setModuleState(ctx.db, m.id, published ? 'active' : 'unpublished', now);
    // Publishing a module publishes its items, and unpublishing unpublishes them, as Canvas does.
    publishItemsOf(ctx.db, m.id, published, now);
  }
  return moduleJson(ctx, v, moduleById(ctx.db, m.id)!);
};

const remove: Handler = (ctx) => {
  const v = managing(ctx);
  const m = moduleIn(ctx, v, ctx.path.id);
  const now = ctx.now();
  deleteModule(ctx.db, m, now);
  return moduleJson(ctx, v, { ...m, workflow_state: 'deleted' });
};

const relock: Handler = (ctx) => {
  const v = managing(ctx);
  const m = moduleIn(ctx, v, ctx.path.id);
  relockModule(ctx.db, m.id);
  return moduleJson(ctx, v, m);
};

// ---- items ----------------------------------------------------------------------------------------

const listItems: Handler = (ctx) => {
  const course = readableCourse(ctx, ctx.path.course_id);
  const v = viewerOf(ctx, course);
  const m = moduleIn(ctx, v, ctx.path.module_id);
  const term = searchTerm(ctx);
  const progress = progressOf(ctx, v)?.get(m.id);
  const items = itemsOfModule(ctx.db, m.id).filter(
    (i) => visibleItem(ctx, v, i) && (term === undefined || i.title.toLowerCase().includes(term)),
  );
  // Paged over the visible items in order: the position and id of each is its key.
  const source = {
    after: (limit: number, key: unknown[] | undefined) =>
      (key
        ? items.filter((i) => i.position > Number(key[0]) || (i.position === Number(key[0]) && i.id > Number(key[1])))
        : items
      ).slice(0, limit),
    at: (limit: number, offset: number) => items.slice(offset, offset + limit),
    keyOf: (i: ItemRow) => [i.position, i.id],
    keyLength: 2,
  };
  return paginate(ctx, source, (i) => itemJson(ctx, v, i, progress));
};

const getItem: Handler = (ctx) => {
  const course = readableCourse(ctx, ctx.path.course_id);
  const v = viewerOf(ctx, course);
  const m = moduleIn(ctx, v, ctx.path.module_id);
  return itemJson(ctx, v, itemIn(ctx, v, m), progressOf(ctx, v)?.get(m.id));
};

const createItemHandler: Handler = (ctx) => {
  const v = managing(ctx);
  const m = moduleIn(ctx, v, ctx.path.module_id);
  if (!given(ctx.params, 'module_item')) throw rejected('missing module item parameter');
  const q = obj(ctx.params, 'module_item');
  const values = newItemValues(ctx, v.course, q);
  const position = intParam(q, 'position', 1);
  const now = ctx.now();
  const id = createItem(ctx.db, m, values, now);
  if (position !== undefined) moveItem(ctx.db, m.id, id, position);
  return itemJson(ctx, v, itemById(ctx.db, id)!);
};

const updateItemHandler: Handler = (ctx) => {
  const v = managing(ctx);
  const m = moduleIn(ctx, v, ctx.path.module_id);
  const item = itemIn(ctx, v, m);
  if (!given(ctx.params, 'module_item')) throw rejected('missing module item parameter');
  const q = obj(ctx.params, 'module_item');
  const values: ItemValues & { module_id: number } = { ...item };
  if (given(q, 'title')) {
    const title = str(q, 'title')?.trim() ?? '';
    const fault = textFault(item.type === 'SubHeader' ? NAME : TITLE, title);
    if (fault) throw wrong('title', `title ${fault.message}`);
    if (title !== '') values.title = title;
  }
  if (given(q, 'indent')) values.indent = intParam(q, 'indent', 0) ?? item.indent;
  if (given(q, 'external_url') && (item.type === 'ExternalUrl' || item.type === 'ExternalTool')) {
    const url = str(q, 'external_url')?.trim() ?? '';
    if (!isWebUrl(url)) throw rejected('module_item[external_url] must be an http or https URL');
    values.external_url = url;
  }
  if (given(q, 'new_tab') && item.type === 'ExternalTool') values.new_tab = boolParam(q, 'new_tab') ? 1 : 0;
  Object.assign(values, requirementOf(q, item.type, item));
  if (given(q, 'published')) values.published = boolParam(q, 'published') ? 1 : 0;
  const target = str(q, 'module_id');
  if (target !== undefined && target !== String(m.id)) {
    const id = numericId(target);
    const to = id === undefined ? undefined : moduleById(ctx.db, id);
    if (!to || to.course_id !== v.course.id) throw rejected('invalid module_id');
    values.module_id = to.id;
  }
  const position = intParam(q, 'position', 1);
  const now = ctx.now();
  updateItem(ctx.db, item.id, values, now);
  if (values.module_id !== item.module_id) {
    moveItem(ctx.db, item.module_id, item.id, null);
    moveItem(ctx.db, values.module_id, item.id, position ?? Number.MAX_SAFE_INTEGER);
  } else if (position !== undefined) moveItem(ctx.db, item.module_id, item.id, position);
  return itemJson(ctx, v, itemById(ctx.db, item.id)!);
};

const deleteItemHandler: Handler = (ctx) => {
  const v = managing(ctx);
  const m = moduleIn(ctx, v, ctx.path.module_id);
  const item = itemIn(ctx, v, m);
  const now = ctx.now();
  deleteItem(ctx.db, item, now);
  return itemJson(ctx, v, item);
};

/** The caller's own item, as they see it, and whether they can reach it yet. */
function ownItem(ctx: MockCtx): { item: ItemRow; locked: boolean } {
  const course = readableCourse(ctx, ctx.path.course_id);
  const manager = canManageContent(ctx, course);
  const self: Viewer = { course, manager, student: participatesAsStudent(ctx, course) ? ctx.caller.id : undefined };
  const m = moduleIn(ctx, self, ctx.path.module_id);
  const item = itemIn(ctx, self, m);
  const progress = self.student === undefined ? undefined : holdUnlocksOf(ctx.db, course.id, self.student, ctx.now());
  return { item, locked: progress?.get(m.id)?.items.get(item.id)?.locked ?? false };
}

const LOCKED = () => new HttpError(403, { message: 'The module item is locked.' });

const markDone: Handler = (ctx) => {
  const { item, locked } = ownItem(ctx);
  if (locked) throw LOCKED();
  recordAction(ctx.db, item.id, ctx.caller.id, 'done', ctx.now());
  return { message: 'OK' };
};

const markNotDone: Handler = (ctx) => {
  const { item } = ownItem(ctx);
  forgetAction(ctx.db, item.id, ctx.caller.id, 'done');
  return { message: 'OK' };
};

const markRead: Handler = (ctx) => {
  const { item, locked } = ownItem(ctx);
  if (locked) throw LOCKED();
  recordAction(ctx.db, item.id, ctx.caller.id, 'read', ctx.now());
  return { message: 'OK' };
};

export const modulesHandlers = {
  'modules.list': listModules,
  'modules.get': getModule,
  'modules.create': create,
  'modules.update': update,
  'modules.delete': remove,
  'modules.relock': relock,
  'modules.listItems': listItems,
  'modules.getItem': getItem,
  'modules.createItem': createItemHandler,
  'modules.updateItem': updateItemHandler,
  'modules.deleteItem': deleteItemHandler,
  'modules.markDone': markDone,
  'modules.markNotDone': markNotDone,
  'modules.markRead': markRead,
};
