// Who may see an account, as data. The handlers ask a row through access.ts (`allows`, `demand`);
// none of them writes the rule for itself. Listing needs no row: it lists only what the caller
// administers.
import type { Rule } from '../../areas/permissions.js';

export const accountsPolicy = {
  /** One account: anyone holding an admin role on it or above it, whatever the role grants. */
  get: { anyOf: [], admin: true },
} as const satisfies Record<string, Rule>;
