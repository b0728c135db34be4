// Who may see and change an account's admins, as data. The handlers ask a row through access.ts
// (`allows`, `demand`); none of them writes the rule for itself.
import type { Rule } from '../permissions.js';

export const adminsPolicy = {
  /** Listing, adding and removing the account's admins, asked of the account and its chain. */
  manage: ['manage_account_memberships'],
  /** Listing the roles of the account (role_overrides_controller.rb's manage_role_overrides). */
  roles: ['manage_role_overrides'],
} as const satisfies Record<string, Rule>;
