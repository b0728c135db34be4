// What the modules handlers share: who is looking (a manager or a student, with progress), the
// presenters of modules and items, and the reading of their parameters.
import type { Module, ModuleItem, ModuleItemType, RequirementType } from '../../../spec/types/modules.js';
import { APPLICABLE, MODULE_ITEM_TYPES, REQUIREMENT_TYPES } from '../../../spec/types/modules.js';
import type { ParamsObject } from '../../decode.js';
import { text, textFault } from '../../fields.js';
import { bool, HttpError, list, notFound, numericId, obj, once, rejected, str, type MockCtx } from '../../kit.js';
import { canManageContent, permit } from '../access.js';
import { assignmentById } from '../assignments/repo.js';
import type { CourseRow } from '../../school/courses/repo.js';
import { topicById } from '../discussions/repo.js';
import { attachmentById } from '../files/repo.js';
import { quizById } from '../quizzes/repo.js';
import { findUser } from '../lookup.js';
import { mayReadProgressOf, participatesAsStudent } from './policy.js';
import { contentVisible, holdUnlocksOf, type ModuleProgress } from './progress.js';
import {
  itemById,
  itemsOfModule,
  moduleById,
  modulesOfCourse,
  pageByUrl,
  pageUrlOf,
  prerequisitesOf,
  type ItemRow,
  type ItemValues,
  type ModuleRow,
  type ModuleValues,
} from './repo.js';

export const NAME = text({ required: true });
export const TITLE = text();
/** Items shown inline (include[]=items) up to this many; a larger module's are listed through its items. */
const INLINE_ITEMS = 50;

// ---- whose view -----------------------------------------------------------------------------------

export interface Viewer {
  course: CourseRow;
  /** Sees unpublished modules and items (and their `published`). */
  manager: boolean;
  /** The student whose progress the answers carry, if any. */
  student?: number;
}

export function viewerOf(ctx: MockCtx, course: CourseRow): Viewer {
  return once(ctx, `modules:viewer:${course.id}`, () => {
    const manager = canManageContent(ctx, course);
    const raw = str(ctx.params, 'student_id');
    if (raw !== undefined && raw !== '') {
      const student = findUserOr401(ctx, raw);
      permit(mayReadProgressOf(ctx, course, student));
      // As the student sees it: their published modules and items only.
      return { course, manager: false, student };
    }
    return { course, manager, student: participatesAsStudent(ctx, course) ? ctx.caller.id : undefined };
  });
}

function findUserOr401(ctx: MockCtx, raw: string): number {
  try {
    return findUser(ctx, raw).id;
  } catch (e) {
    // Canvas answers a student_id that is no student of the course as unauthorized, never as missing.
    if (e instanceof HttpError && e.status === 404) permit(false);
    throw e;
  }
}

export function progressOf(ctx: MockCtx, v: Viewer): Map<number, ModuleProgress> | undefined {
  const student = v.student;
  if (student === undefined) return undefined;
  // Evaluated as Canvas evaluates a progression when it is shown, and kept: a module unlocked once
  // stays so for this student until it is relocked, whatever prerequisite is added later.
  return once(ctx, `modules:progress:${v.course.id}:${student}`, () =>
    holdUnlocksOf(ctx.db, v.course.id, student, ctx.now()),
  );
}

export const visibleItem = (ctx: MockCtx, v: Viewer, item: ItemRow) => v.manager || contentVisible(ctx.db, item);

export function moduleIn(ctx: MockCtx, v: Viewer, raw: string | undefined): ModuleRow {
  const id = raw === undefined ? undefined : numericId(raw);
  const m = id === undefined ? undefined : moduleById(ctx.db, id);
  if (!m || m.course_id !== v.course.id || (m.workflow_state !== 'active' && !v.manager)) throw notFound();
  return m;
}

export function itemIn(ctx: MockCtx, v: Viewer, m: ModuleRow): ItemRow {
  const id = numericId(ctx.path.id);
  const item = id === undefined ? undefined : itemById(ctx.db, id);
  if (!item || item.module_id !== m.id || !visibleItem(ctx, v, item)) throw notFound();
  return item;
}

// ---- presenting -----------------------------------------------------------------------------------

function contentUrl(ctx: MockCtx, item: ItemRow, pageUrl: string | null): string | undefined {
  const api = `${ctx.origin}/api/v1/courses/${item.course_id}`;
  switch (item.type) {
    case 'Assignment':
      return `${api}/assignments/${item.content_id}`;
    case 'Quiz':
      return `${api}/quizzes/${item.content_id}`;
    case 'Discussion':
      return `${api}/discussion_topics/${item.content_id}`;
    case 'File':
      return `${ctx.origin}/api/v1/files/${item.content_id}`;
    case 'Page':
      return `${api}/pages/${encodeURIComponent(pageUrl ?? '')}`;
    case 'ExternalTool':
      return `${api}/external_tools/sessionless_launch?launch_type=module_item&module_item_id=${item.id}`;
    default:
      return undefined;
  }
}

function contentDetails(ctx: MockCtx, item: ItemRow, locked: boolean, v: Viewer): Record<string, unknown> {
  const details: Record<string, unknown> = {};
  const content =
    item.content_id === null
      ? undefined
      : item.type === 'Assignment'
        ? assignmentById(ctx.db, item.content_id)
        : item.type === 'Quiz'
          ? quizById(ctx.db, item.content_id)
          : undefined;
  if (content) {
    details.points_possible = content.points_possible;
    details.due_at = content.due_at;
    details.unlock_at = content.unlock_at;
    details.lock_at = content.lock_at;
  }
  if (v.student !== undefined || !v.manager) {
    details.locked_for_user = locked;
    if (locked) {
      details.lock_explanation = 'This item is part of a module that is not available yet.';
      details.lock_info = { asset_string: `content_tag_${item.id}`, context_module: { id: item.module_id } };
    }
  }
  return details;
}

export function itemJson(ctx: MockCtx, v: Viewer, item: ItemRow, progress?: ModuleProgress): ModuleItem {
  const json: ModuleItem = {
    id: item.id,
    module_id: item.module_id,
    position: item.position,
    title: item.title,
    indent: item.indent,
    type: item.type as ModuleItem['type'],
    html_url: `${ctx.origin}/courses/${item.course_id}/modules/items/${item.id}`,
  };
  if (item.content_id !== null && item.type !== 'Page') json.content_id = item.content_id;
  const pageUrl = pageUrlOf(ctx.db, item);
  const url = contentUrl(ctx, item, pageUrl);
  if (url) json.url = url;
  if (item.type === 'Page' && pageUrl !== null) json.page_url = pageUrl;
  if ((item.type === 'ExternalUrl' || item.type === 'ExternalTool') && item.external_url !== null)
    json.external_url = item.external_url;
  if (item.type === 'ExternalTool') json.new_tab = item.new_tab === 1;
  const mine = progress?.items.get(item.id);
  if (item.requirement) {
    json.completion_requirement = {
      type: item.requirement as RequirementType,
      ...(item.requirement === 'min_score' ? { min_score: item.min_score ?? 0 } : {}),
      ...(progress ? { completed: mine?.completed ?? false } : {}),
    };
  }
  if (list(ctx.params, 'include').includes('content_details'))
    json.content_details = contentDetails(ctx, item, mine?.locked ?? false, v);
  if (v.manager) json.published = item.published === 1;
  return json;
}

export function moduleJson(ctx: MockCtx, v: Viewer, m: ModuleRow, o: { items?: ItemRow[] } = {}): Module {
  const progress = progressOf(ctx, v);
  const mine = progress?.get(m.id);
  const items = itemsOfModule(ctx.db, m.id).filter((i) => visibleItem(ctx, v, i));
  const positions = new Map(modulesOfCourse(ctx.db, m.course_id, true).map((x) => [x.id, x.position]));
  const json: Module = {
    id: m.id,
    workflow_state: m.workflow_state === 'deleted' ? 'deleted' : 'active',
    position: m.position,
    name: m.name,
    unlock_at: m.unlock_at,
    require_sequential_progress: m.require_sequential_progress === 1,
    requirement_type: 'all',
    prerequisite_module_ids: prerequisitesOf(m).filter((id) => (positions.get(id) ?? Infinity) < m.position),
    items_count: items.length,
    items_url: `${ctx.origin}/api/v1/courses/${m.course_id}/modules/${m.id}/items`,
    publish_final_grade: m.publish_final_grade === 1,
  };
  const shown = o.items ?? items;
  if (list(ctx.params, 'include').includes('items') && shown.length <= INLINE_ITEMS)
    json.items = shown.map((i) => itemJson(ctx, v, i, mine));
  if (v.student !== undefined) {
    json.state = mine?.state ?? 'locked';
    json.completed_at = mine?.completed_at ?? null;
  }
  if (v.manager) json.published = m.workflow_state === 'active';
  return json;
}

// ---- parameters -----------------------------------------------------------------------------------

export const given = (q: ParamsObject, name: string) => Object.hasOwn(q, name);

export function wrong(field: string, message: string): HttpError {
  return new HttpError(400, { errors: { [field]: [{ attribute: field, type: 'invalid', message }] } });
}

export function boolParam(q: ParamsObject, name: string): boolean {
  const v = q[name];
  if (typeof v === 'boolean') return v;
  const s = str(q, name)?.toLowerCase();
  if (s === undefined || !['true', 'false', '1', '0', 't', 'f', 'on', 'off', 'yes', 'no', ''].includes(s))
    throw wrong(name, `${name} must be true or false`);
  return bool(q, name) ?? false;
}

export function intParam(q: ParamsObject, name: string, min: number): number | undefined {
  const v = str(q, name);
  if (v === undefined || v === '') return undefined;
  const n = /^-?\d+$/.test(v.trim()) ? Number(v) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min) throw wrong(name, `${name} must be an integer of at least ${min}`);
  return n;
}

function timeParam(q: ParamsObject, name: string, current: string | null): string | null {
  if (!given(q, name)) return current;
  const v = str(q, name);
  if (v === undefined || v === '') return null;
  const t = Date.parse(v);
  if (Number.isNaN(t)) throw wrong(name, `${name} is not a valid timestamp: ${v}`);
  return new Date(t).toISOString();
}

export function moduleValues(
  ctx: MockCtx,
  course: CourseRow,
  current: ModuleValues,
  q: ParamsObject,
  self?: ModuleRow,
): ModuleValues {
  const v = { ...current };
  if (given(q, 'name') || !self) {
    const name = str(q, 'name')?.trim() ?? '';
    const fault = textFault(NAME, name);
    if (fault) throw wrong('name', `name ${fault.message}`);
    v.name = name;
  }
  v.unlock_at = timeParam(q, 'unlock_at', v.unlock_at);
  if (given(q, 'require_sequential_progress'))
    v.require_sequential_progress = boolParam(q, 'require_sequential_progress') ? 1 : 0;
  if (given(q, 'publish_final_grade')) v.publish_final_grade = boolParam(q, 'publish_final_grade') ? 1 : 0;
  if (given(q, 'prerequisite_module_ids')) {
    const ids: number[] = [];
    for (const raw of list(q, 'prerequisite_module_ids')) {
      const text = typeof raw === 'string' || typeof raw === 'number' ? String(raw) : '';
      if (text === '') continue;
      const id = numericId(text.replace(/^module_/, ''));
      const m = id === undefined ? undefined : moduleById(ctx.db, id);
      if (!m || m.course_id !== course.id)
        throw wrong('prerequisite_module_ids', `${text} is not a module of course ${course.id}`);
      if (self && m.id === self.id) throw wrong('prerequisite_module_ids', 'a module cannot be its own prerequisite');
      if (!ids.includes(m.id)) ids.push(m.id);
    }
    v.prerequisites = JSON.stringify(ids);
  }
  return v;
}

export function requirementOf(q: ParamsObject, type: string, current: Pick<ItemValues, 'requirement' | 'min_score'>) {
  if (!given(q, 'completion_requirement')) return { requirement: current.requirement, min_score: current.min_score };
  const r = obj(q, 'completion_requirement');
  const kind = str(r, 'type') ?? '';
  if (kind === '') return { requirement: null, min_score: null };
  if (!(REQUIREMENT_TYPES as readonly string[]).includes(kind))
    throw wrong(
      'completion_requirement',
      `completion_requirement[type] must be one of ${REQUIREMENT_TYPES.join(', ')}`,
    );
  // As Canvas does, a requirement the item's type cannot have is ignored.
  if (!(APPLICABLE[type as ModuleItemType] ?? []).includes(kind as RequirementType))
    return { requirement: null, min_score: null };
  let min: number | null = null;
  if (kind === 'min_score') {
    const raw = str(r, 'min_score');
    const n = raw === undefined || raw.trim() === '' ? Number.NaN : Number(raw);
    if (!Number.isFinite(n) || n < 0)
      throw wrong('completion_requirement', 'completion_requirement[min_score] must be a number of at least 0');
    min = n;
  }
  return { requirement: kind, min_score: min };
}

const API_TYPES: Record<string, string> = {
  WikiPage: 'Page',
  DiscussionTopic: 'Discussion',
  Attachment: 'File',
};
const NEEDS_CONTENT = new Set(['File', 'Discussion', 'Assignment', 'Quiz']);

export function isWebUrl(v: string): boolean {
  try {
    const u = new URL(v);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/** What a new item shows, checked against the course: its content (and that content's title and state). */
export function newItemValues(ctx: MockCtx, course: CourseRow, q: ParamsObject): ItemValues {
  const rawType = str(q, 'type') ?? '';
  const type = API_TYPES[rawType] ?? rawType;
  if (!(MODULE_ITEM_TYPES as readonly string[]).includes(type))
    throw rejected(`module_item[type] must be one of ${MODULE_ITEM_TYPES.join(', ')}`);
  let title: string | undefined;
  let contentId: number | null = null;
  let pageUrl: string | null = null;
  let externalUrl: string | null = null;
  let published = 0;
  if (NEEDS_CONTENT.has(type) || (type === 'ExternalTool' && given(q, 'content_id'))) {
    const raw = str(q, 'content_id') ?? '';
    const id = numericId(raw);
    if (raw === '' || id === undefined) throw rejected('missing content_id parameter');
    contentId = id;
    const found = contentOf(ctx, course, type, id);
    if (!found) throw rejected('Could not find content');
    title = found.title;
    published = found.published ? 1 : 0;
  }
  if (type === 'Page') {
    const url = str(q, 'page_url')?.trim() ?? '';
    if (url === '') throw rejected('missing page_url parameter');
    const page = pageByUrl(ctx.db, course.id, url);
    if (page === null) throw rejected('invalid page_url parameter');
    pageUrl = page?.url ?? url;
    // The page itself, as real instances keep it: its slug is read from it when the item is shown.
    contentId = page?.id ?? null;
    title = page?.title ?? url;
    published = page ? (page.published ? 1 : 0) : 0;
  }
  if (type === 'ExternalUrl' || type === 'ExternalTool') {
    const url = str(q, 'external_url')?.trim() ?? '';
    if (!isWebUrl(url)) throw rejected('module_item[external_url] must be an http or https URL');
    externalUrl = url;
  }
  const given_ = str(q, 'title');
  if (given_ !== undefined && given_.trim() !== '') title = given_.trim();
  if (title === undefined) {
    if (type === 'SubHeader' || type === 'ExternalUrl' || type === 'ExternalTool')
      throw wrong('title', "title can't be blank");
    title = '';
  }
  const fault = textFault(TITLE, title);
  if (fault) throw wrong('title', `title ${fault.message}`);
  return {
    title,
    type,
    indent: intParam(q, 'indent', 0) ?? 0,
    content_id: contentId,
    page_url: pageUrl,
    external_url: externalUrl,
    new_tab: type === 'ExternalTool' && given(q, 'new_tab') && boolParam(q, 'new_tab') ? 1 : 0,
    ...requirementOf(q, type, { requirement: null, min_score: null }),
    published,
  };
}

function contentOf(
  ctx: MockCtx,
  course: CourseRow,
  type: string,
  id: number,
): { title: string; published: boolean } | undefined {
  switch (type) {
    case 'Assignment': {
      const a = assignmentById(ctx.db, id);
      return a && a.course_id === course.id ? { title: a.name, published: a.published === 1 } : undefined;
    }
    case 'Quiz': {
      const x = quizById(ctx.db, id);
      return x && x.course_id === course.id ? { title: x.title, published: x.published === 1 } : undefined;
    }
    case 'Discussion': {
      const t = topicById(ctx.db, id);
      return t && t.context_type === 'Course' && t.context_id === course.id && t.workflow_state !== 'deleted'
        ? { title: t.title, published: t.workflow_state === 'active' }
        : undefined;
    }
    case 'File': {
      // ContextModule#add_item finds the attachment among the course's own: a user's or a group's
      // file is no content of the course, however readable it is.
      const f = attachmentById(ctx.db, id);
      return f && f.workflow_state !== 'deleted' && f.context_type === 'Course' && f.context_id === course.id
        ? { title: f.display_name, published: true }
        : undefined;
    }
    default:
      // An external tool's id is kept as given: the mock has no tools to check it against.
      return { title: '', published: false };
  }
}

// ---- modules --------------------------------------------------------------------------------------

export function searchTerm(ctx: MockCtx): string | undefined {
  const term = str(ctx.params, 'search_term')?.trim();
  if (term === undefined || term === '') return undefined;
  if (Array.from(term).length < 2) throw rejected('search_term of 2 or more characters is required');
  return term.toLowerCase();
}
