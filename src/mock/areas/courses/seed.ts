import type { Db } from '../../db/open.js';
import type { SeedOptions } from '../../area.js';
import { createCourse } from '../../school/courses/repo.js';

export const SEED_COURSES = [
  { id: 1, account: 2, root: 1, name: 'Introduction to Biology', code: 'BIO-101', sis: 'BIO-101' },
  { id: 2, account: 2, root: 1, name: 'Organic Chemistry', code: 'CHEM-201', sis: 'CHEM-201' },
  { id: 3, account: 3, root: 1, name: 'World History', code: 'HIST-110', sis: 'HIST-110' },
  { id: 4, account: 4, root: 4, name: 'College Writing', code: 'ENG-100', sis: 'RCC-ENG-100' },
  // Its online lab section is cross-listed into BIO-101; run from the field station, it keeps its own time zone.
  { id: 5, account: 2, root: 1, name: 'Biology Lab', code: 'BIO-101L', sis: 'BIO-101L', timeZone: 'America/Denver' },
];

export function seedCourses(db: Db, { minimal, now }: SeedOptions): void {
  if (minimal) return;
  for (const c of SEED_COURSES) {
    createCourse(db, { ...c, state: 'available', startAt: '2026-08-24T00:00:00Z', endAt: '2026-12-18T00:00:00Z', now });
  }
}
