import type { Db } from '../../db/open.js';
import type { SeedOptions } from '../../area.js';
import { createSection, moveSection } from '../../school/sections/repo.js';

/**
 * Two sections in BIO-101 and a third cross-listed into it from the lab course; one default section in each other
 * course.
 */
export const SEED_SECTIONS = [
  {
    id: 1,
    course: 1,
    root: 1,
    name: 'BIO-101 Section A',
    sis: 'BIO-101-A',
    isDefault: true,
    crosslistTo: undefined as number | undefined,
  },
  { id: 2, course: 1, root: 1, name: 'BIO-101 Section B', sis: 'BIO-101-B', isDefault: false },
  { id: 3, course: 2, root: 1, name: 'CHEM-201', sis: 'CHEM-201-01', isDefault: true },
  { id: 4, course: 3, root: 1, name: 'HIST-110', sis: 'HIST-110-01', isDefault: true },
  { id: 5, course: 4, root: 4, name: 'ENG-100', sis: 'RCC-ENG-100-01', isDefault: true },
  { id: 6, course: 5, root: 1, name: 'BIO-101L', sis: 'BIO-101L-01', isDefault: true },
  // The online lab runs for part of the term only: the seeded example of section dates.
  {
    id: 7,
    course: 5,
    root: 1,
    name: 'BIO-101 Lab Online',
    sis: 'BIO-101L-ONL',
    isDefault: false,
    crosslistTo: 1,
    startAt: '2026-09-07T00:00:00Z',
    endAt: '2026-11-27T00:00:00Z',
  },
];

export function seedSections(db: Db, { minimal, now }: SeedOptions): void {
  if (minimal) return;
  for (const s of SEED_SECTIONS) {
    createSection(db, { ...s, now });
    if (s.crosslistTo) moveSection(db, s.id, s.crosslistTo, s.course);
  }
}
