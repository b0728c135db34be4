// Pages of a course, the slugs they are known by, and their revisions. The only SQL of the area.
import { containsLike } from '../../db/contains.js';
import type { Db } from '../../db/open.js';
import { insert, one, run } from '../../db/statements.js';
import type { KeysetQuery } from '../../kit.js';

export interface PageRow {
  id: number;
  course_id: number;
  url: string;
  title: string;
  body: string | null;
  editing_roles: string;
  workflow_state: 'active' | 'unpublished' | 'deleted';
  front_page: number;
  publish_at: string | null;
  user_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface RevisionRow {
  page_id: number;
  number: number;
  url: string;
  title: string;
  body: string | null;
  user_id: number | null;
  created_at: string;
}

/**
 * Publishes the course's pages whose `publish_at` has come (real instances run a job at that time;
 * the mock does it before anyone reads them).
 */
export function publishDuePages(db: Db, courseId: number, now: string): void {
  run(
    db,
    `UPDATE wiki_pages SET workflow_state = 'active', publish_at = NULL, updated_at = publish_at
       WHERE course_id = ? AND workflow_state = 'unpublished' AND publish_at IS NOT NULL AND publish_at <= ?`,
    courseId,
    now,
  );
}

export function pageById(db: Db, courseId: number, id: number): PageRow | undefined {
  return one<PageRow>(
    db,
    `SELECT * FROM wiki_pages WHERE id = ? AND course_id = ? AND workflow_state <> 'deleted'`,
    id,
    courseId,
  );
}

/** The live page a slug names now or named before (a renamed page keeps its old links). */
export function pageBySlug(db: Db, courseId: number, slug: string): PageRow | undefined {
  return (
    one<PageRow>(
      db,
      `SELECT * FROM wiki_pages WHERE course_id = ? AND url = ? AND workflow_state <> 'deleted'`,
      courseId,
      slug,
    ) ??
    one<PageRow>(
      db,
      `SELECT p.* FROM wiki_page_lookups l JOIN wiki_pages p ON p.id = l.page_id
         WHERE l.course_id = ? AND l.slug = ? AND p.workflow_state <> 'deleted'`,
      courseId,
      slug,
    )
  );
}

export function frontPageOf(db: Db, courseId: number): PageRow | undefined {
  return one<PageRow>(
    db,
    `SELECT * FROM wiki_pages WHERE course_id = ? AND front_page = 1 AND workflow_state <> 'deleted'`,
    courseId,
  );
}

/** A slug made unique among the course's live pages and the old slugs of its other pages. */
export function freeSlug(db: Db, courseId: number, base: string, except?: number): string {
  return uniqueSlug(
    base,
    (slug) =>
      one(
        db,
        `SELECT 1 FROM wiki_pages WHERE course_id = ? AND url = ? AND workflow_state <> 'deleted' AND id <> ?
         UNION ALL SELECT 1 FROM wiki_page_lookups l JOIN wiki_pages p ON p.id = l.page_id
           WHERE l.course_id = ? AND l.slug = ? AND l.page_id <> ? AND p.workflow_state <> 'deleted'
         LIMIT 1`,
        courseId,
        slug,
        except ?? -1,
        courseId,
        slug,
        except ?? -1,
      ) !== undefined,
  );
}

export interface PageChange {
  url: string;
  title: string;
  body: string | null;
  editing_roles: string;
  workflow_state: 'active' | 'unpublished';
  publish_at: string | null;
}

export function createPage(db: Db, p: PageChange & { courseId: number; userId: number | null; now: string }): number {
  const id = insert(
    db,
    'INSERT INTO wiki_pages (course_id, url, title, body, editing_roles, workflow_state, publish_at, user_id, ' +
      `created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    p.courseId,
    p.url,
    p.title,
    p.body,
    p.editing_roles,
    p.workflow_state,
    p.publish_at,
    p.userId,
    p.now,
    p.now,
  );
  remember(db, p.courseId, p.url, id);
  addRevision(db, id, p, p.userId, p.now);
  return id;
}

/** Saves a change; a new revision when the title, body or slug changed (the fields revisions keep). */
export function changePage(db: Db, page: PageRow, next: PageChange, userId: number | null, now: string): void {
  const revised = next.title !== page.title || next.body !== page.body || next.url !== page.url;
  run(
    db,
    'UPDATE wiki_pages SET url = ?, title = ?, body = ?, editing_roles = ?, workflow_state = ?, publish_at = ?, ' +
      'user_id = ?, updated_at = ? WHERE id = ?',
    next.url,
    next.title,
    next.body,
    next.editing_roles,
    next.workflow_state,
    next.publish_at,
    userId ?? page.user_id,
    now,
    page.id,
  );
  if (next.url !== page.url) remember(db, page.course_id, next.url, page.id);
  if (revised) addRevision(db, page.id, next, userId, now);
}

function remember(db: Db, courseId: number, slug: string, pageId: number): void {
  run(
    db,
    `INSERT INTO wiki_page_lookups (course_id, slug, page_id) VALUES (?, ?, ?)
       ON CONFLICT (course_id, slug) DO UPDATE SET page_id = excluded.page_id`,
    courseId,
    slug,
    pageId,
  );
}

function addRevision(
  db: Db,
  pageId: number,
  p: Pick<PageChange, 'url' | 'title' | 'body'>,
  userId: number | null,
  now: string,
): void {
  run(
    db,
    `INSERT INTO wiki_page_revisions (page_id, number, url, title, body, user_id, created_at)
     VALUES (?, (SELECT coalesce(max(number), 0) + 1 FROM wiki_page_revisions WHERE page_id = ?), ?, ?, ?, ?, ?)`,
    pageId,
    pageId,
    p.url,
    p.title,
    p.body,
    userId,
    now,
  );
}

/** The course's one front page (or none). */
export function setFrontPage(db: Db, courseId: number, pageId: number | null): void {
  run(
    db,
    `UPDATE wiki_pages SET front_page = CASE WHEN id = ? THEN 1 ELSE 0 END WHERE course_id = ?`,
    pageId ?? -1,
    courseId,
  );
}

/** Deletes softly, as real instances do; its slugs are freed for other pages. */
export function deletePage(db: Db, pageId: number, now: string): void {
  run(db, `UPDATE wiki_pages SET workflow_state = 'deleted', front_page = 0, updated_at = ? WHERE id = ?`, now, pageId);
  run(db, `DELETE FROM wiki_page_lookups WHERE page_id = ?`, pageId);
}

export function pagesQuery(
  courseId: number,
  o: {
    /** Only these states (published: active; unpublished; both). */
    states: readonly ('active' | 'unpublished')[];
    term?: string;
    sort?: 'title' | 'created_at' | 'updated_at';
    descending: boolean;
  },
): KeysetQuery {
  const where = [`course_id = ?`, `workflow_state IN (${o.states.map(() => '?').join(', ')})`];
  const args: unknown[] = [courseId, ...o.states];
  if (o.term) {
    const { operator, pattern } = containsLike(o.term);
    where.push(`title ${operator}`);
    args.push(pattern);
  }
  const sortColumn = o.sort === 'title' ? 'lower(title)' : o.sort;
  return {
    sql: `SELECT *${sortColumn ? `, ${sortColumn} AS sort_key` : ''} FROM wiki_pages WHERE ${where.join(' AND ')}`,
    args,
    key: sortColumn ? ['sort_key', 'id'] : ['id'],
    descending: o.descending,
  };
}

export function revisionsQuery(pageId: number): KeysetQuery {
  return {
    sql: `SELECT * FROM wiki_page_revisions WHERE page_id = ?`,
    args: [pageId],
    key: ['number'],
    descending: true,
  };
}

export function revisionOf(db: Db, pageId: number, number: number): RevisionRow | undefined {
  return one<RevisionRow>(db, `SELECT * FROM wiki_page_revisions WHERE page_id = ? AND number = ?`, pageId, number);
}

export function latestRevisionOf(db: Db, pageId: number): RevisionRow | undefined {
  return one<RevisionRow>(
    db,
    `SELECT * FROM wiki_page_revisions WHERE page_id = ? ORDER BY number DESC LIMIT 1`,
    pageId,
  );
}

/** The slug unique in the course: the first of `base`, `base-2`, `base-3`… that `taken` refuses. */
function uniqueSlug(base: string, taken: (slug: string) => boolean): string {
  if (!taken(base)) return base;
  let n = 2;
  while (taken(`${base}-${n}`)) n++;
  return `${base}-${n}`;
}
