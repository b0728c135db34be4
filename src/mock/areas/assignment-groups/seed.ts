import type { Db } from '../../db/open.js';
import type { SeedOptions } from '../../area.js';
import { createGroup } from './repo.js';

/**
 * Every seeded course's first group is "Assignments" (what real instances make with a course),
 * which the seeded assignments land in; BIO-101 also has an empty "Exams" group (6). No course weighs
 * its groups, so the seeded totals are points over points.
 */
export function seedAssignmentGroups(db: Db, { minimal, now }: SeedOptions): void {
  if (minimal) return;
  // Numbered after their courses, as the seed's graded quizzes name them.
  for (const course of [1, 2, 3, 4, 5])
    createGroup(db, { id: course, courseId: course, name: 'Assignments', weight: 0, rules: {}, now });
  createGroup(db, { id: 6, courseId: 1, name: 'Exams', weight: 0, rules: {}, now });
}
