// Who may run and read SIS imports, as data: an admin of the root account whose role grants
// managing SIS data (canvas-lms asks :import_sis to import and :import_sis or :manage_sis to read).
import type { Rule } from '../permissions.js';

export const sisPolicy = {
  /** Starting, listing, reading and aborting an account's imports. */
  manage: ['manage_sis'],
} as const satisfies Record<string, Rule>;
