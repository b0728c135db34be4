import type { Db } from '../../db/open.js';
import { createAssignment } from '../assignments/repo.js';
import type { SeedOptions } from '../../area.js';

const DAY = 24 * 3600 * 1000;

/**
 * Something due this week, by the mock's clock when seeded, so that students' to-do lists and
 * "Coming up" have an assignment in them: a worksheet in Organic Chemistry, due in three days.
 */
export function seedTodo(db: Db, { minimal, now, clock }: SeedOptions): void {
  if (minimal) return;
  const due = new Date(Date.parse(clock.slice(0, 10)) + 3 * DAY + 23 * 3600_000 + 59 * 60_000).toISOString();
  createAssignment(db, {
    course: 2,
    name: 'Stereochemistry Worksheet',
    description: '<p>Problems 1–12 of chapter 5.</p>',
    points: 15,
    gradingType: 'points',
    submissionTypes: ['online_upload', 'online_text_entry'],
    dueAt: due,
    published: true,
    now,
  });
}
