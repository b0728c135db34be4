import type { Db } from '../../db/open.js';
import type { SeedOptions } from '../../area.js';
import { addMember, createGroup, createGroupCategory } from './repo.js';

export function seedGroups(db: Db, { minimal, now }: SeedOptions): void {
  if (minimal) return;
  createGroupCategory(db, { id: 1, course: 1, name: 'Lab Groups', now });
  createGroup(db, { id: 1, course: 1, category: 1, name: 'Lab Group 1', description: 'Bench 1 and 2', now });
  createGroup(db, { id: 2, course: 1, category: 1, name: 'Lab Group 2', description: 'Bench 3 and 4', now });
  for (const [group, user] of [
    [1, 7],
    [1, 8],
    [1, 11],
    [2, 9],
    [2, 10],
    [2, 12],
  ])
    addMember(db, group, user);
}
