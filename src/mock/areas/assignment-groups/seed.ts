import type { Db } from '../../db/open.js';
import type { SeedOptions } from '../../area.js';
import { createGroup } from './repo.js';

/**
 * Every seeded course's first group is "Assignments" (what real instances make with a course),
 * which the seeded assignments land in; BIO-101 also has an empty "Exams" group. No course weighs
 * its groups, so the seeded totals are points over points.
 */
export function seedAssignmentGroups(db: Db, { minimal, now }: SeedOptions): void {
  if (minimal) return;
  createGroup(db, { id: 1, courseId: 1, name: 'Assignments', weight: 0, rules: {}, now });
  createGroup(db, { id: 2, courseId: 1, name: 'Exams', weight: 0, rules: {}, now });
  for (const course of [2, 3, 4, 5])
    createGroup(db, { courseId: course, name: 'Assignments', weight: 0, rules: {}, now });
}
