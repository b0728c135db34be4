// Who may reach a stored file, as data. The handlers ask a row through access.ts (`allows`,
// `demand`); none of them writes the rule for itself.
import type { Rule } from '../permissions.js';

export const filesPolicy = {
  /**
   * A user's personal file (by id): its owner, or whoever manages logins on the root account (the
   * helpdesk's right; a course's staff does not reach a student's personal files).
   */
  personal: { anyOf: ['manage_user_logins'], self: true },
} as const satisfies Record<string, Rule>;
