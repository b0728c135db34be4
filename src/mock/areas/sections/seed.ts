import type { Db } from '../../db/open.js';
import type { SeedOptions } from '../area.js';
import { createSection } from './repo.js';

/** Two sections in BIO-101, one default section in each other course. */
export const SEED_SECTIONS = [
  { id: 1, course: 1, root: 1, name: 'BIO-101 Section A', sis: 'BIO-101-A', isDefault: true },
  { id: 2, course: 1, root: 1, name: 'BIO-101 Section B', sis: 'BIO-101-B', isDefault: false },
  { id: 3, course: 2, root: 1, name: 'CHEM-201', sis: 'CHEM-201-01', isDefault: true },
  { id: 4, course: 3, root: 1, name: 'HIST-110', sis: 'HIST-110-01', isDefault: true },
  { id: 5, course: 4, root: 4, name: 'ENG-100', sis: 'RCC-ENG-100-01', isDefault: true },
];

export function seedSections(db: Db, { minimal, now }: SeedOptions): void {
  if (minimal) return;
  for (const s of SEED_SECTIONS) createSection(db, { ...s, now });
}
