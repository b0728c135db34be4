// Course sections, including cross-listing: a section moved into another course remembers its
// original course in nonxlist_course_id.
import type { Findable } from '../../db/find.js';
import type { KeysetQuery } from '../../kit.js';
import type { Db } from '../../db/open.js';
import { insert, one, run } from '../../db/statements.js';

export interface SectionRow {
  id: number;
  course_id: number;
  nonxlist_course_id: number | null;
  root_account_id: number;
  name: string;
  sis_section_id: string | null;
  start_at: string | null;
  end_at: string | null;
  default_section: number;
  workflow_state: string;
  created_at: string;
}

export const sections: Findable<SectionRow> = {
  label: 'section',
  table: 'course_sections',
  sis: {
    sis_section_id:
      `SELECT id FROM course_sections WHERE sis_section_id = ? AND workflow_state <> 'deleted' ORDER ` +
      'BY id LIMIT 1',
  },
  deleted: (s) => s.workflow_state === 'deleted',
};

export function sectionById(db: Db, id: number): SectionRow | undefined {
  return one<SectionRow>(db, `SELECT * FROM course_sections WHERE id = ?`, id);
}

export function createSection(
  db: Db,
  s: {
    id?: number;
    course: number;
    root: number;
    name: string;
    sis?: string | null;
    startAt?: string | null;
    endAt?: string | null;
    isDefault?: boolean;
    now: string;
  },
): number {
  return insert(
    db,
    'INSERT INTO course_sections (id, course_id, root_account_id, name, sis_section_id, start_at, end_at, ' +
      'default_section, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    s.id ?? null,
    s.course,
    s.root,
    s.name,
    s.sis ?? null,
    s.startAt ?? null,
    s.endAt ?? null,
    s.isDefault ? 1 : 0,
    s.now,
  );
}

/** The section enrollments land in when none is named: the course's default one, made on demand. */
export function defaultSectionOf(
  db: Db,
  course: { id: number; root_account_id: number; name: string },
  now: string,
): SectionRow {
  const found = one<SectionRow>(
    db,
    `SELECT * FROM course_sections WHERE course_id = ? AND default_section = 1 AND workflow_state <> 'deleted' ` +
      'ORDER BY id LIMIT 1',
    course.id,
  );
  if (found) return found;
  return sectionById(
    db,
    createSection(db, { course: course.id, root: course.root_account_id, name: course.name, isDefault: true, now }),
  )!;
}

export function sectionSisTaken(db: Db, rootAccountId: number, sis: string, except?: number): boolean {
  return (
    one(
      db,
      'SELECT 1 FROM course_sections WHERE root_account_id = ? AND sis_section_id = ? AND workflow_state <> ' +
        `'deleted' AND id <> ?`,
      rootAccountId,
      sis,
      except ?? -1,
    ) !== undefined
  );
}

export function updateSection(
  db: Db,
  id: number,
  s: Pick<SectionRow, 'name' | 'sis_section_id' | 'start_at' | 'end_at'>,
): void {
  run(
    db,
    `UPDATE course_sections SET name = ?, sis_section_id = ?, start_at = ?, end_at = ? WHERE id = ?`,
    s.name,
    s.sis_section_id,
    s.start_at,
    s.end_at,
    id,
  );
}

/** Moves a section (and, by the caller, its enrollments) into another course. */
export function moveSection(db: Db, id: number, courseId: number, nonxlistCourseId: number | null): void {
  run(
    db,
    `UPDATE course_sections SET course_id = ?, nonxlist_course_id = ? WHERE id = ?`,
    courseId,
    nonxlistCourseId,
    id,
  );
}

export function deleteSection(db: Db, id: number): void {
  run(db, `UPDATE course_sections SET workflow_state = 'deleted' WHERE id = ?`, id);
}

export function sectionsOfCourseQuery(courseId: number): KeysetQuery {
  return {
    sql: `SELECT * FROM course_sections WHERE course_id = ? AND workflow_state <> 'deleted'`,
    args: [courseId],
    key: ['id'],
  };
}

/** Sets a section's state: `deleted`, or `active` again (an SIS import naming it once more). */
export function restoreSection(db: Db, id: number, state: 'active' | 'deleted'): void {
  run(db, `UPDATE course_sections SET workflow_state = ? WHERE id = ?`, state, id);
}
