// Modules of a course, their items, and what students did that only modules remember (viewed,
// marked done, unlocked). The facts a requirement is judged by that other areas keep (a
// submission, a quiz score, a topic entry) are read here too, so the area's SQL stays in one file.
import type { Db } from '../../db/open.js';
import { all, insert, one, run } from '../../db/statements.js';
import type { KeysetQuery } from '../../kit.js';
import { containsLike } from '../../db/contains.js';

export interface ModuleRow {
  id: number;
  course_id: number;
  name: string;
  position: number;
  unlock_at: string | null;
  require_sequential_progress: number;
  /** JSON array of module ids. */
  prerequisites: string;
  publish_final_grade: number;
  workflow_state: 'unpublished' | 'active' | 'deleted';
  created_at: string;
  updated_at: string;
}

export interface ItemRow {
  id: number;
  module_id: number;
  course_id: number;
  position: number;
  title: string;
  indent: number;
  type: string;
  content_id: number | null;
  page_url: string | null;
  external_url: string | null;
  new_tab: number;
  requirement: string | null;
  min_score: number | null;
  published: number;
  workflow_state: string;
  created_at: string;
  updated_at: string;
}

export type ModuleValues = Pick<
  ModuleRow,
  'name' | 'unlock_at' | 'require_sequential_progress' | 'publish_final_grade' | 'prerequisites'
>;

export const prerequisitesOf = (m: Pick<ModuleRow, 'prerequisites'>): number[] =>
  JSON.parse(m.prerequisites) as number[];

export function moduleById(db: Db, id: number): ModuleRow | undefined {
  return one<ModuleRow>(db, `SELECT * FROM context_modules WHERE id = ? AND workflow_state <> 'deleted'`, id);
}

/** A course's live modules in position order (published ones only unless asked). */
export function modulesOfCourse(db: Db, courseId: number, withUnpublished: boolean): ModuleRow[] {
  return all<ModuleRow>(
    db,
    'SELECT * FROM context_modules WHERE course_id = ? AND workflow_state ' +
      `${withUnpublished ? "<> 'deleted'" : "= 'active'"} ORDER BY position, id`,
    courseId,
  );
}

export function modulesQuery(courseId: number, o: { withUnpublished: boolean; term?: string }): KeysetQuery {
  const where = [`course_id = ?`, o.withUnpublished ? `workflow_state <> 'deleted'` : `workflow_state = 'active'`];
  const args: unknown[] = [courseId];
  if (o.term) {
    const { operator, pattern } = containsLike(o.term);
    where.push(`name ${operator}`);
    args.push(pattern);
  }
  return { sql: `SELECT * FROM context_modules WHERE ${where.join(' AND ')}`, args, key: ['position', 'id'] };
}

export function createModule(db: Db, course: number, v: ModuleValues, now: string, id?: number): number {
  const position =
    (one<{ p: number | null }>(
      db,
      `SELECT max(position) AS p FROM context_modules WHERE course_id = ? AND workflow_state <> 'deleted'`,
      course,
    )?.p ?? 0) + 1;
  return insert(
    db,
    'INSERT INTO context_modules (id, course_id, name, position, unlock_at, require_sequential_progress, ' +
      `prerequisites, publish_final_grade, workflow_state, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'unpublished', ?, ?)`,
    id ?? null,
    course,
    v.name,
    position,
    v.unlock_at,
    v.require_sequential_progress,
    v.prerequisites,
    v.publish_final_grade,
    now,
    now,
  );
}

export function updateModule(db: Db, id: number, v: ModuleValues, now: string): void {
  run(
    db,
    'UPDATE context_modules SET name = ?, unlock_at = ?, require_sequential_progress = ?, prerequisites = ?, ' +
      'publish_final_grade = ?, updated_at = ? WHERE id = ?',
    v.name,
    v.unlock_at,
    v.require_sequential_progress,
    v.prerequisites,
    v.publish_final_grade,
    now,
    id,
  );
}

export function setModuleState(db: Db, id: number, state: ModuleRow['workflow_state'], now: string): void {
  run(db, `UPDATE context_modules SET workflow_state = ?, updated_at = ? WHERE id = ?`, state, now, id);
}

/** Puts a module at a 1-based position among its course's live modules, renumbering the others. */
export function moveModule(db: Db, m: ModuleRow, position: number): void {
  const ids = modulesOfCourse(db, m.course_id, true)
    .map((x) => x.id)
    .filter((x) => x !== m.id);
  ids.splice(Math.min(Math.max(position, 1), ids.length + 1) - 1, 0, m.id);
  for (const [i, id] of ids.entries()) run(db, `UPDATE context_modules SET position = ? WHERE id = ?`, i + 1, id);
}

/** Deleting a module deletes its items; prerequisites naming it lose it. */
export function deleteModule(db: Db, m: ModuleRow, now: string): void {
  setModuleState(db, m.id, 'deleted', now);
  run(db, `UPDATE module_items SET workflow_state = 'deleted', updated_at = ? WHERE module_id = ?`, now, m.id);
  for (const other of modulesOfCourse(db, m.course_id, true)) {
    const pre = prerequisitesOf(other);
    if (pre.includes(m.id))
      run(
        db,
        `UPDATE context_modules SET prerequisites = ? WHERE id = ?`,
        JSON.stringify(pre.filter((p) => p !== m.id)),
        other.id,
      );
  }
  for (const [i, x] of modulesOfCourse(db, m.course_id, true).entries())
    run(db, `UPDATE context_modules SET position = ? WHERE id = ?`, i + 1, x.id);
}

// ---- items ------------------------------------------------------------------------------------

export function itemById(db: Db, id: number): ItemRow | undefined {
  return one<ItemRow>(db, `SELECT * FROM module_items WHERE id = ? AND workflow_state <> 'deleted'`, id);
}

export function itemsOfModule(db: Db, moduleId: number): ItemRow[] {
  return all<ItemRow>(
    db,
    `SELECT * FROM module_items WHERE module_id = ? AND workflow_state <> 'deleted' ORDER BY position, id`,
    moduleId,
  );
}

export type ItemValues = Pick<
  ItemRow,
  | 'title'
  | 'indent'
  | 'type'
  | 'content_id'
  | 'page_url'
  | 'external_url'
  | 'new_tab'
  | 'requirement'
  | 'min_score'
  | 'published'
>;

export function createItem(db: Db, m: Pick<ModuleRow, 'id' | 'course_id'>, v: ItemValues, now: string): number {
  const position =
    (one<{ p: number | null }>(
      db,
      `SELECT max(position) AS p FROM module_items WHERE module_id = ? AND workflow_state <> 'deleted'`,
      m.id,
    )?.p ?? 0) + 1;
  return insert(
    db,
    'INSERT INTO module_items (module_id, course_id, position, title, indent, type, content_id, page_url, ' +
      `external_url, new_tab, requirement, min_score, published, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    m.id,
    m.course_id,
    position,
    v.title,
    v.indent,
    v.type,
    v.content_id,
    v.page_url,
    v.external_url,
    v.new_tab,
    v.requirement,
    v.min_score,
    v.published,
    now,
    now,
  );
}

export function updateItem(db: Db, id: number, v: ItemValues & { module_id: number }, now: string): void {
  run(
    db,
    'UPDATE module_items SET module_id = ?, title = ?, indent = ?, external_url = ?, new_tab = ?, requirement = ?, ' +
      'min_score = ?, published = ?, updated_at = ? WHERE id = ?',
    v.module_id,
    v.title,
    v.indent,
    v.external_url,
    v.new_tab,
    v.requirement,
    v.min_score,
    v.published,
    now,
    id,
  );
}

/** Puts an item at a 1-based position in its module, renumbering the others (null: renumber only). */
export function moveItem(db: Db, moduleId: number, itemId: number, position: number | null): void {
  const ids = itemsOfModule(db, moduleId)
    .map((x) => x.id)
    .filter((x) => x !== itemId);
  const at = position === null ? ids.length + 1 : Math.min(Math.max(position, 1), ids.length + 1);
  if (position !== null || itemById(db, itemId)?.module_id === moduleId) ids.splice(at - 1, 0, itemId);
  for (const [i, id] of ids.entries()) run(db, `UPDATE module_items SET position = ? WHERE id = ?`, i + 1, id);
}

export function deleteItem(db: Db, item: ItemRow, now: string): void {
  run(db, `UPDATE module_items SET workflow_state = 'deleted', updated_at = ? WHERE id = ?`, now, item.id);
  moveItem(db, item.module_id, -1, null);
}

export function publishItemsOf(db: Db, moduleId: number, published: boolean, now: string): void {
  run(
    db,
    `UPDATE module_items SET published = ?, updated_at = ? WHERE module_id = ? AND workflow_state <> 'deleted'`,
    published ? 1 : 0,
    now,
    moduleId,
  );
}

// ---- what students did ------------------------------------------------------------------------

export type ItemAction = 'read' | 'done';

export function actionAt(db: Db, itemId: number, userId: number, action: ItemAction): string | undefined {
  return one<{ at: string }>(
    db,
    `SELECT at FROM module_item_actions WHERE item_id = ? AND user_id = ? AND action = ?`,
    itemId,
    userId,
    action,
  )?.at;
}

export function recordAction(db: Db, itemId: number, userId: number, action: ItemAction, now: string): void {
  run(
    db,
    `INSERT OR IGNORE INTO module_item_actions (item_id, user_id, action, at) VALUES (?, ?, ?, ?)`,
    itemId,
    userId,
    action,
    now,
  );
}

export function forgetAction(db: Db, itemId: number, userId: number, action: ItemAction): void {
  run(db, `DELETE FROM module_item_actions WHERE item_id = ? AND user_id = ? AND action = ?`, itemId, userId, action);
}

export function unlockedFor(db: Db, moduleId: number, userId: number): boolean {
  return one(db, `SELECT 1 FROM module_unlocks WHERE module_id = ? AND user_id = ?`, moduleId, userId) !== undefined;
}

export function keepUnlocked(db: Db, moduleId: number, userId: number): void {
  run(db, `INSERT OR IGNORE INTO module_unlocks (module_id, user_id) VALUES (?, ?)`, moduleId, userId);
}

export function relockModule(db: Db, moduleId: number): void {
  run(db, `DELETE FROM module_unlocks WHERE module_id = ?`, moduleId);
}

// ---- facts kept by other areas ------------------------------------------------------------------

/** The first entry the user posted in a topic that is still there. */
export function firstEntryAt(db: Db, topicId: number, userId: number): string | undefined {
  return (
    one<{ at: string | null }>(
      db,
      'SELECT min(created_at) AS at FROM discussion_entries WHERE topic_id = ? AND user_id = ? AND workflow_state = ' +
        `'active'`,
      topicId,
      userId,
    )?.at ?? undefined
  );
}

/** The user's finished quiz attempt with the kept score (the best one), if any. */
export function finishedQuizOf(
  db: Db,
  quizId: number,
  userId: number,
): { score: number | null; at: string } | undefined {
  const row = one<{ score: number | null; at: string | null; started: string }>(
    db,
    'SELECT score, finished_at AS at, started_at AS started FROM quiz_submissions WHERE quiz_id = ? AND user_id = ? ' +
      `AND workflow_state = 'complete' ORDER BY score IS NULL, score DESC LIMIT 1`,
    quizId,
    userId,
  );
  return row ? { score: row.score, at: row.at ?? row.started } : undefined;
}

/** Whether the pages area's table is there (a database made before it, or without it, has none). */
const hasPages = (db: Db) => one(db, `SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'wiki_pages'`);

/**
 * The course's live page of a url slug: null when the course has no such page, undefined when this
 * database keeps no pages at all (a page item then keeps its url as given).
 */
export function pageByUrl(
  db: Db,
  courseId: number,
  url: string,
): { id: number; url: string; title: string; published: boolean } | null | undefined {
  if (!hasPages(db)) return undefined;
  const row = one<{ id: number; url: string; title: string; workflow_state: string }>(
    db,
    `SELECT id, url, title, workflow_state FROM wiki_pages WHERE course_id = ? AND url = ? AND ` +
      `workflow_state <> 'deleted'`,
    courseId,
    url,
  );
  return row ? { id: row.id, url: row.url, title: row.title, published: row.workflow_state === 'active' } : null;
}

/**
 * The slug a Page item shows: its page's as it is now, as real instances answer it (the item holds
 * the page, and a page's slug moves with its title); the one it was added with where none is known.
 */
export function pageUrlOf(db: Db, item: Pick<ItemRow, 'type' | 'content_id' | 'page_url'>): string | null {
  if (item.type !== 'Page' || item.content_id === null) return item.page_url;
  if (!hasPages(db)) return item.page_url;
  const row = one<{ url: string }>(
    db,
    `SELECT url FROM wiki_pages WHERE id = ? AND workflow_state <> 'deleted'`,
    item.content_id,
  );
  return row?.url ?? item.page_url;
}
