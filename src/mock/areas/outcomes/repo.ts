// Outcome groups, outcomes, their links and alignments. A context is (context_type, context_id):
// ('Account', id), ('Course', id), or (NULL, NULL) for global.
import type { Db } from '../../db/open.js';
import type { KeysetQuery } from '../../kit.js';
import { all, insert, one, placeholders, run } from '../../db/statements.js';

type ContextType = 'Account' | 'Course' | null;

export interface OutcomeContextRef {
  type: ContextType;
  id: number | null;
}

export interface GroupRow {
  id: number;
  context_type: ContextType;
  context_id: number | null;
  parent_id: number | null;
  title: string;
  description: string | null;
  vendor_guid: string | null;
  workflow_state: string;
  created_at: string;
  updated_at: string;
}

export interface OutcomeRow {
  id: number;
  context_type: ContextType;
  context_id: number | null;
  title: string;
  display_name: string | null;
  description: string | null;
  vendor_guid: string | null;
  mastery_points: number | null;
  points_possible: number | null;
  /** JSON: [{description, points}], or null without a rubric criterion. */
  ratings: string | null;
  calculation_method: string;
  calculation_int: number | null;
  workflow_state: string;
  created_at: string;
  updated_at: string;
}

export interface LinkRow {
  id: number;
  group_id: number;
  outcome_id: number;
  outcome_title: string;
  workflow_state: string;
  created_at: string;
}

// ---- groups -----------------------------------------------------------------------------------

export function groupById(db: Db, id: number): GroupRow | undefined {
  return one<GroupRow>(db, `SELECT * FROM outcome_groups WHERE id = ? AND workflow_state = 'active'`, id);
}

export function rootGroupOf(db: Db, c: OutcomeContextRef): GroupRow | undefined {
  return one<GroupRow>(
    db,
    `SELECT * FROM outcome_groups WHERE parent_id IS NULL AND workflow_state = 'active' AND coalesce(context_type, ` +
      `'') = ? AND coalesce(context_id, 0) = ?`,
    c.type ?? '',
    c.id ?? 0,
  );
}

/**
 * The context's root group, made if it has none. Two requests may both find none (two processes
 * on one mock database): the second insert is ignored, and both read the one root.
 */
export function ensureRootGroup(db: Db, c: OutcomeContextRef, title: string, now: string): GroupRow {
  run(
    db,
    'INSERT INTO outcome_groups (context_type, context_id, parent_id, title, created_at, updated_at) VALUES (?, ?, ' +
      'NULL, ?, ?, ?) ON CONFLICT DO NOTHING',
    c.type,
    c.id,
    title,
    now,
    now,
  );
  return rootGroupOf(db, c)!;
}

export interface NewGroup {
  id?: number;
  context: OutcomeContextRef;
  parent: number | null;
  title: string;
  description?: string | null;
  vendorGuid?: string | null;
  now: string;
}

export function createGroup(db: Db, g: NewGroup): number {
  return insert(
    db,
    'INSERT INTO outcome_groups (id, context_type, context_id, parent_id, title, description, vendor_guid, ' +
      'created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    g.id ?? null,
    g.context.type,
    g.context.id,
    g.parent,
    g.title,
    g.description ?? null,
    g.vendorGuid ?? null,
    g.now,
    g.now,
  );
}

export function updateGroup(
  db: Db,
  id: number,
  g: Pick<GroupRow, 'title' | 'description' | 'vendor_guid' | 'parent_id'>,
  now: string,
): void {
  run(
    db,
    `UPDATE outcome_groups SET title = ?, description = ?, vendor_guid = ?, parent_id = ?, updated_at = ? WHERE id = ?`,
    g.title,
    g.description,
    g.vendor_guid,
    g.parent_id,
    now,
    id,
  );
}

/** The group and every active group below it. */
export function subtreeOf(db: Db, groupId: number): number[] {
  return all<{ id: number }>(
    db,
    'WITH RECURSIVE sub(id) AS (SELECT ? UNION SELECT g.id FROM outcome_groups g JOIN sub ON g.parent_id = sub.id ' +
      `WHERE g.workflow_state = 'active')
     SELECT id FROM sub`,
    groupId,
  ).map((r) => r.id);
}

/** Immediate active subgroups, in title order. */
export function subgroupsOf(db: Db, groupId: number): GroupRow[] {
  return all<GroupRow>(
    db,
    `SELECT * FROM outcome_groups WHERE parent_id = ? AND workflow_state = 'active' ORDER BY title, id`,
    groupId,
  );
}

export function subgroupsQuery(groupId: number): KeysetQuery {
  return {
    sql: `SELECT * FROM outcome_groups WHERE parent_id = ? AND workflow_state = 'active'`,
    args: [groupId],
    key: ['title', 'id'],
  };
}

// ---- outcomes and links -----------------------------------------------------------------------

export function outcomeById(db: Db, id: number): OutcomeRow | undefined {
  return one<OutcomeRow>(db, `SELECT * FROM outcomes WHERE id = ? AND workflow_state = 'active'`, id);
}

export interface NewOutcomeRow {
  id?: number;
  context: OutcomeContextRef;
  title: string;
  displayName?: string | null;
  description?: string | null;
  vendorGuid?: string | null;
  masteryPoints: number | null;
  pointsPossible: number | null;
  ratings: { description: string; points: number }[] | null;
  calculationMethod: string;
  calculationInt: number | null;
  now: string;
}

export function createOutcome(db: Db, o: NewOutcomeRow): number {
  return insert(
    db,
    'INSERT INTO outcomes (id, context_type, context_id, title, display_name, description, vendor_guid, ' +
      `mastery_points, points_possible, ratings, calculation_method, calculation_int, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    o.id ?? null,
    o.context.type,
    o.context.id,
    o.title,
    o.displayName ?? null,
    o.description ?? null,
    o.vendorGuid ?? null,
    o.masteryPoints,
    o.pointsPossible,
    o.ratings ? JSON.stringify(o.ratings) : null,
    o.calculationMethod,
    o.calculationInt,
    o.now,
    o.now,
  );
}

export function linkOf(db: Db, groupId: number, outcomeId: number): LinkRow | undefined {
  return one<LinkRow>(
    db,
    `SELECT * FROM outcome_links WHERE group_id = ? AND outcome_id = ? AND workflow_state = 'active'`,
    groupId,
    outcomeId,
  );
}

export function createLink(db: Db, groupId: number, outcome: Pick<OutcomeRow, 'id' | 'title'>, now: string): LinkRow {
  const id = insert(
    db,
    `INSERT INTO outcome_links (group_id, outcome_id, outcome_title, created_at) VALUES (?, ?, ?, ?)`,
    groupId,
    outcome.id,
    outcome.title,
    now,
  );
  return one<LinkRow>(db, `SELECT * FROM outcome_links WHERE id = ?`, id)!;
}

/** Active links of a group, in outcome-title order (outcome_links_group serves it). */
export function linksQuery(groupId: number): KeysetQuery {
  return {
    sql: `SELECT * FROM outcome_links WHERE group_id = ? AND workflow_state = 'active'`,
    args: [groupId],
    key: ['outcome_title', 'id'],
  };
}

export function linksOfGroup(db: Db, groupId: number): LinkRow[] {
  return all<LinkRow>(
    db,
    `SELECT * FROM outcome_links WHERE group_id = ? AND workflow_state = 'active' ORDER BY outcome_title, id`,
    groupId,
  );
}

export function activeLinkCount(db: Db, outcomeId: number): number {
  return one<{ n: number }>(
    db,
    `SELECT count(*) AS n FROM outcome_links WHERE outcome_id = ? AND workflow_state = 'active'`,
    outcomeId,
  )!.n;
}

export function isAligned(db: Db, outcomeId: number): boolean {
  return one(db, `SELECT 1 FROM outcome_alignments WHERE outcome_id = ? LIMIT 1`, outcomeId) !== undefined;
}

export function addAlignment(
  db: Db,
  a: { outcome: number; contentType: 'Rubric' | 'Assignment'; contentId: number; title: string },
): void {
  insert(
    db,
    `INSERT INTO outcome_alignments (outcome_id, content_type, content_id, title) VALUES (?, ?, ?, ?)`,
    a.outcome,
    a.contentType,
    a.contentId,
    a.title,
  );
}

/** Outcomes linked in these groups that have no active link anywhere else: they go with the groups. */
export function outcomesOnlyIn(db: Db, groupIds: number[]): OutcomeRow[] {
  const inList = placeholders(groupIds.length);
  return all<OutcomeRow>(
    db,
    `SELECT o.* FROM outcomes o WHERE o.workflow_state = 'active'
       AND o.id IN (SELECT outcome_id FROM outcome_links WHERE workflow_state = 'active' AND group_id IN (${inList}))
       AND NOT EXISTS (SELECT 1 FROM outcome_links l WHERE l.outcome_id = o.id AND l.workflow_state = 'active' AND ` +
      `l.group_id NOT IN (${inList}))
     ORDER BY o.id`,
    ...groupIds,
    ...groupIds,
  );
}

export function deleteLink(db: Db, linkId: number): void {
  run(db, `UPDATE outcome_links SET workflow_state = 'deleted' WHERE id = ?`, linkId);
}

export function deleteGroupsWithLinks(db: Db, groupIds: number[], now: string): void {
  const inList = placeholders(groupIds.length);
  run(
    db,
    `UPDATE outcome_links SET workflow_state = 'deleted' WHERE workflow_state = 'active' AND group_id IN (${inList})`,
    ...groupIds,
  );
  run(
    db,
    `UPDATE outcome_groups SET workflow_state = 'deleted', updated_at = ? WHERE id IN (${inList})`,
    now,
    ...groupIds,
  );
}

export function deleteOutcome(db: Db, outcomeId: number, now: string): void {
  run(db, `UPDATE outcomes SET workflow_state = 'deleted', updated_at = ? WHERE id = ?`, now, outcomeId);
}
