import type { Db } from '../../db/open.js';
import type { SeedOptions } from '../../area.js';
import { invitedEnrollments } from '../../school/enrollments/repo.js';
import { enrollmentInvitation } from './notifications.js';

/** The seed's pending invitations were sent: each invitee has its message. */
export function seedActivity(db: Db, { minimal, now }: SeedOptions): void {
  if (minimal) return;
  for (const e of invitedEnrollments(db)) enrollmentInvitation(db, e, now);
}
