import type { Db } from '../../db/open.js';
import type { SeedOptions } from '../../area.js';
import { createAssignment } from './repo.js';

const SEED_ASSIGNMENTS = [
  {
    course: 1,
    name: 'Cell Structure Lab Report',
    points: 20,
    type: 'points',
    sub: ['online_upload', 'online_text_entry'],
    due: '2026-09-14T23:59:00Z',
  },
  {
    course: 1,
    name: 'Microscope Safety Quiz',
    points: 10,
    type: 'pass_fail',
    sub: ['online_text_entry'],
    due: '2026-09-07T23:59:00Z',
  },
  {
    course: 1,
    name: 'Genetics Essay',
    points: 100,
    type: 'letter_grade',
    sub: ['online_text_entry', 'online_url'],
    due: '2026-10-19T23:59:00Z',
  },
  {
    course: 2,
    name: 'Reaction Mechanisms Problem Set',
    points: 50,
    type: 'points',
    sub: ['online_upload'],
    due: '2026-09-21T23:59:00Z',
  },
  {
    course: 3,
    name: 'Primary Source Analysis',
    points: 100,
    type: 'percent',
    sub: ['online_text_entry'],
    due: '2026-09-28T23:59:00Z',
  },
];

export function seedAssignments(db: Db, { minimal, now }: SeedOptions): void {
  if (minimal) return;
  SEED_ASSIGNMENTS.forEach((a, i) => {
    createAssignment(db, {
      id: i + 1,
      course: a.course,
      name: a.name,
      description: `<p>${a.name}</p>`,
      points: a.points,
      gradingType: a.type,
      submissionTypes: a.sub,
      dueAt: a.due,
      published: true,
      now,
    });
  });
}
