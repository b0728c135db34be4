import type { Db } from '../../db/open.js';
import { SEED_ROLES } from '../accounts/seed.js';
import type { SeedOptions } from '../../area.js';
import { addAdmin } from './repo.js';

export function seedAdmins(db: Db, { minimal, now }: SeedOptions): void {
  addAdmin(db, { account: 1, user: 1, role: 1, now });
  if (minimal) return;
  addAdmin(db, { account: 1, user: 2, role: SEED_ROLES.helpdesk.id, now });
}
