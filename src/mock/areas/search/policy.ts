// Who may message whom, as data: the permission that opens a course's people to a sender, held
// through an admin role over the course's account or through an enrollment (limited to its section
// when the enrollment is). audience.ts asks it of every course a sender is in; what it does not
// open (instructors, observees) is audience.ts's.
import type { Permission } from '../permissions.js';

export const searchPolicy = {
  /** Messaging everyone in a course (or in one's own section). */
  send: ['send_messages'],
} as const satisfies Record<string, readonly Permission[]>;
