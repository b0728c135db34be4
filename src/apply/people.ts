// The people a roster names, found in bulk. Looking each one up is a request a person; a roster of
// thousands new to a course would make the plan's reads as many as the apply's writes, which on a
// throttled instance doubles the time of the whole run. The account's list of users finds them a
// page (100) at a time instead.
import type { ApiClient } from '../client/client.js';
import { ApiError } from '../errors.js';

/** People to find from which the list is read for them, and a page of it. */
const MANY = 50;
const PAGE = 100;

/**
 * Moves the people of `toFind` (by their reference's key: an id, `sis_user_id:X`, a lower-cased
 * `sis_login_id:x`) that the account's list shows into `found`. Pages are read only while they pay
 * for themselves — two people found a page, after the first few — so a roster of a few in a large
 * account is left to one lookup each, as is whoever the list does not show (a login that is not the
 * primary one, another account's person) and everyone when the caller may not list the account.
 */
export async function findListed(
  client: ApiClient,
  account: string,
  toFind: Map<string, string>,
  found: Map<string, number | undefined>,
): Promise<void> {
  if (toFind.size < MANY) return;
  let seen = 0;
  let hits = 0;
  try {
    for await (const u of client.ops.users.list({ account_id: account })) {
      seen++;
      const keys = [
        String(u.id),
        ...(typeof u.sis_user_id === 'string' ? [`sis_user_id:${u.sis_user_id}`] : []),
        ...(typeof u.login_id === 'string' ? [`sis_login_id:${u.login_id.toLowerCase()}`] : []),
      ];
      for (const key of keys) {
        if (!toFind.has(key)) continue;
        found.set(key, u.id);
        toFind.delete(key);
        hits++;
      }
      if (toFind.size === 0) return;
      const pages = seen / PAGE;
      if (seen % PAGE === 0 && pages >= 3 && hits < 2 * pages) return;
    }
  } catch (e) {
    if (!(e instanceof ApiError) || (e.status !== 401 && e.status !== 403 && e.status !== 404)) throw e;
  }
}
