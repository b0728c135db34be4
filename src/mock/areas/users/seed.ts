// The seeded school's people, each with a login, an email and a known token.
import type { Db } from '../../db/open.js';
import type { SeedOptions } from '../../area.js';
import { addChannel, addLogin, addToken, createUser } from '../../school/users/repo.js';

export interface SeedUser {
  id: number;
  name: string;
  login: string;
  role: string;
  sis?: string;
  publicProfile?: boolean;
  timeZone?: string;
}

export const seedUsers: SeedUser[] = [
  { id: 1, name: 'Ada Admin', login: 'admin', role: 'admin', sis: 'ADM-001', timeZone: 'America/Denver' },
  { id: 2, name: 'Hal Helpdesk', login: 'helpdesk', role: 'helpdesk', sis: 'ADM-002' },
  { id: 3, name: 'Tess Teacher', login: 'tteacher', role: 'teacher', sis: 'T-003', timeZone: 'America/New_York' },
  { id: 4, name: 'Theo Teacher', login: 'theo', role: 'teacher', sis: 'T-004' },
  { id: 5, name: 'Tara Assistant', login: 'tara', role: 'ta', sis: 'T-005' },
  { id: 6, name: 'Dev Designer', login: 'designer', role: 'designer', sis: 'D-006' },
  { id: 7, name: 'Sam Student', login: 'sam', role: 'student', sis: 'S-007' },
  { id: 8, name: 'Sofia Student', login: 'sofia', role: 'student', sis: 'S-008' },
  { id: 9, name: 'Ravi Patel', login: 'ravi', role: 'student', sis: 'S-009' },
  { id: 10, name: 'Mina Okafor', login: 'mina', role: 'student', sis: 'S-010', publicProfile: false },
  { id: 11, name: 'Lucas Moreau', login: 'lucas', role: 'student', sis: 'S-011' },
  { id: 12, name: 'Hana Sato', login: 'hana', role: 'student', sis: 'S-012' },
  { id: 13, name: 'Olive Observer', login: 'olive', role: 'observer', sis: 'O-013' },
];

/** The token of a seeded user: `<id>~mock-<login>`. */
export const seedToken = (u: { id: number; login: string }) => `${u.id}~mock-${u.login}`;

export function seedPeople(db: Db, { minimal, now }: SeedOptions): void {
  for (const u of minimal ? seedUsers.slice(0, 1) : seedUsers) {
    createUser(db, {
      id: u.id,
      name: u.name,
      shortName: u.name.split(' ')[0],
      timeZone: u.timeZone ?? 'America/Chicago',
      locale: 'en',
      publicProfile: u.publicProfile !== false,
      registered: true,
      now,
    });
    addLogin(db, { user: u.id, account: 1, uniqueId: u.login, sis: u.sis ?? null, password: 'password', now });
    addChannel(db, { user: u.id, type: 'email', address: `${u.login}@example.edu`, confirmed: true });
    addToken(db, { token: seedToken(u), user: u.id, purpose: u.role, now });
  }
}
