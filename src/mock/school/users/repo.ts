// Users with their logins (pseudonyms), communication channels, tokens, follows and page views.
import type { Findable } from '../../db/find.js';
import type { Db } from '../../db/open.js';
import { all, insert, one, run } from '../../db/statements.js';
import type { KeysetQuery, UserRow } from '../../kit.js';

export type { UserRow };

export const users: Findable<UserRow> = {
  label: 'user',
  table: 'users',
  sis: {
    sis_user_id:
      `SELECT user_id AS id FROM pseudonyms WHERE sis_user_id = ? AND workflow_state <> 'deleted' ORDER ` +
      'BY id LIMIT 1',
    sis_login_id:
      'SELECT user_id AS id FROM pseudonyms WHERE lower(unique_id) = lower(?) AND workflow_state <> ' +
      `'deleted' ORDER BY id LIMIT 1`,
  },
  deleted: (u) => u.workflow_state === 'deleted',
};

export function userById(db: Db, id: number): UserRow | undefined {
  return one<UserRow>(db, `SELECT * FROM users WHERE id = ?`, id);
}

export function activeUser(db: Db, id: number): UserRow | undefined {
  return one<UserRow>(db, `SELECT * FROM users WHERE id = ? AND workflow_state <> 'deleted'`, id);
}

/** "Jane Q Doe" → "Doe, Jane Q": what a user's sortable name is when none is given. */
function sortableFrom(name: string): string {
  const parts = name.trim().split(/\s+/);
  return parts.length > 1 ? `${parts.at(-1)}, ${parts.slice(0, -1).join(' ')}` : name.trim();
}

export interface NewUser {
  id?: number;
  name: string;
  shortName?: string;
  sortableName?: string;
  timeZone?: string | null;
  locale?: string | null;
  birthdate?: string | null;
  publicProfile?: boolean;
  registered: boolean;
  now: string;
}

export function createUser(db: Db, u: NewUser): number {
  return insert(
    db,
    'INSERT INTO users (id, name, short_name, sortable_name, time_zone, locale, birthdate, public_profile, ' +
      `workflow_state, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    u.id ?? null,
    u.name,
    u.shortName || u.name,
    u.sortableName || sortableFrom(u.name),
    u.timeZone ?? null,
    u.locale ?? null,
    u.birthdate ?? null,
    u.publicProfile === false ? 0 : 1,
    u.registered ? 'registered' : 'pre_registered',
    u.now,
    u.now,
  );
}

export type UserChanges = Partial<
  Pick<
    UserRow,
    'name' | 'short_name' | 'sortable_name' | 'time_zone' | 'locale' | 'avatar_url' | 'manual_mark_as_read' | 'pronouns'
  >
>;

export function updateUser(db: Db, id: number, changes: UserChanges, now: string): void {
  const current = userById(db, id);
  if (!current) return;
  const next = { ...current, ...changes };
  run(
    db,
    'UPDATE users SET name = ?, short_name = ?, sortable_name = ?, time_zone = ?, locale = ?, avatar_url = ?, ' +
      'manual_mark_as_read = ?, pronouns = ?, updated_at = ? WHERE id = ?',
    next.name,
    next.short_name,
    next.sortable_name,
    next.time_zone,
    next.locale,
    next.avatar_url,
    next.manual_mark_as_read,
    next.pronouns,
    now,
    id,
  );
}

/** Soft-deletes the user and their logins; their tokens and follows go for good. */
export function deleteUser(db: Db, id: number, now: string): void {
  run(db, `UPDATE users SET workflow_state = 'deleted', updated_at = ? WHERE id = ?`, now, id);
  run(db, `UPDATE pseudonyms SET workflow_state = 'deleted' WHERE user_id = ?`, id);
  run(db, `DELETE FROM access_tokens WHERE user_id = ?`, id);
  run(db, `DELETE FROM follows WHERE follower_id = ? OR followed_id = ?`, id, id);
}

// ---- logins -----------------------------------------------------------------------------------

export interface Login {
  unique_id: string;
  sis_user_id: string | null;
  integration_id: string | null;
  account_id: number;
}

/** Suspends a user's SIS login in an account, or makes it active again (SIS status suspended/active). */
export function setSisLoginState(db: Db, account: number, sis: string, state: 'active' | 'suspended'): boolean {
  return (
    run(
      db,
      // Said as `<> 'deleted'`, the partial index on SIS ids serves it: one row, not a scan, for each row of an import.
      `UPDATE pseudonyms SET workflow_state = ? WHERE account_id = ? AND sis_user_id = ? AND ` +
        `workflow_state <> 'deleted' AND workflow_state <> ?`,
      state,
      account,
      sis,
      state,
    ) > 0
  );
}

/** A user's live logins (every account's), oldest first: what `/users/:id/logins` pages through. */
export function loginsOfUserQuery(userId: number): KeysetQuery {
  return {
    sql: `SELECT * FROM pseudonyms WHERE user_id = ? AND workflow_state <> 'deleted'`,
    args: [userId],
    key: ['id'],
  };
}

/** Suspends every live login of a user, or makes them active again (`user[event]`); how many changed. */
export function setLoginsState(db: Db, userId: number, state: 'active' | 'suspended'): number {
  return run(
    db,
    `UPDATE pseudonyms SET workflow_state = ? WHERE user_id = ? AND workflow_state <> 'deleted' AND ` +
      'workflow_state <> ?',
    state,
    userId,
    state,
  );
}

export function addLogin(
  db: Db,
  l: {
    user: number;
    account: number;
    uniqueId: string;
    sis?: string | null;
    integration?: string | null;
    /** The authentication provider the login is for, as given: its id or its type (saml, cas, ldap, …). */
    provider?: string | null;
    password?: string | null;
    now: string;
  },
): number {
  return insert(
    db,
    'INSERT INTO pseudonyms (user_id, account_id, unique_id, sis_user_id, integration_id, ' +
      'authentication_provider_id, password, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    l.user,
    l.account,
    l.uniqueId,
    l.sis ?? null,
    l.integration ?? null,
    l.provider ?? null,
    l.password ?? null,
    l.now,
  );
}

/**
 * Changes the login name of the live login a SIS id names, and its integration id where one is given
 * (an empty cell of a users.csv leaves it as it is).
 */
export function updateSisLogin(
  db: Db,
  account: number,
  sis: string,
  l: { uniqueId: string; integrationId: string | null },
): void {
  run(
    db,
    'UPDATE pseudonyms SET unique_id = ?, integration_id = coalesce(?, integration_id) WHERE account_id = ? AND ' +
      `sis_user_id = ? AND workflow_state <> 'deleted'`,
    l.uniqueId,
    l.integrationId,
    account,
    sis,
  );
}

/** The SIS id of the live login in an account that holds an integration id, if any does. */
export function sisOfIntegrationId(db: Db, account: number, integrationId: string): string | null | undefined {
  return one<{ sis_user_id: string | null }>(
    db,
    `SELECT sis_user_id FROM pseudonyms WHERE account_id = ? AND integration_id = ? AND workflow_state <> 'deleted'`,
    account,
    integrationId,
  )?.sis_user_id;
}

/** The SIS id of the live login in an account whose name is `uniqueId` (any case), if any is. */
export function sisOfLogin(db: Db, account: number, uniqueId: string): string | null | undefined {
  return one<{ sis_user_id: string | null }>(
    db,
    `SELECT sis_user_id FROM pseudonyms WHERE account_id = ? AND lower(unique_id) = lower(?) AND ` +
      `workflow_state <> 'deleted'`,
    account,
    uniqueId,
  )?.sis_user_id;
}

/** The login and SIS id a user has (first active pseudonym). */
export function loginOf(db: Db, userId: number): Login | undefined {
  return one<Login>(
    db,
    'SELECT unique_id, sis_user_id, integration_id, account_id FROM pseudonyms WHERE user_id = ? AND ' +
      `workflow_state <> 'deleted' ` +
      'ORDER BY id LIMIT 1',
    userId,
  );
}

export function hasLoginIn(db: Db, userId: number, rootAccountId: number): boolean {
  return (
    one(
      db,
      `SELECT 1 FROM pseudonyms WHERE user_id = ? AND account_id = ? AND workflow_state <> 'deleted'`,
      userId,
      rootAccountId,
    ) !== undefined
  );
}

/**
 * Is the user within the account's reach: a login there, or an enrollment in one of its courses or
 * an admin role on it, the account's sub-accounts included? (A root account's reach is every user
 * with a login on it.)
 */
export function userWithinAccount(db: Db, userId: number, accountId: number): boolean {
  return (
    one(
      db,
      'WITH RECURSIVE tree(id) AS (SELECT ? UNION ALL SELECT a.id FROM accounts a JOIN tree ON a.parent_account_id = ' +
        `tree.id)
       SELECT 1 WHERE EXISTS (SELECT 1 FROM pseudonyms p WHERE p.user_id = ? AND p.workflow_state <> 'deleted' AND ` +
        `p.account_id IN tree)
         OR EXISTS (SELECT 1 FROM enrollments e JOIN courses c ON c.id = e.course_id WHERE e.user_id = ? AND ` +
        `e.workflow_state <> 'deleted' AND c.account_id IN tree)
         OR EXISTS (SELECT 1 FROM account_users au WHERE au.user_id = ? AND au.workflow_state = 'active' AND ` +
        'au.account_id IN tree)',
      accountId,
      userId,
      userId,
      userId,
    ) !== undefined
  );
}

export function loginTaken(db: Db, rootAccountId: number, uniqueId: string): boolean {
  return (
    one(
      db,
      `SELECT 1 FROM pseudonyms WHERE account_id = ? AND lower(unique_id) = lower(?) AND workflow_state <> 'deleted'`,
      rootAccountId,
      uniqueId,
    ) !== undefined
  );
}

export function sisUserIdTaken(db: Db, rootAccountId: number, sis: string): boolean {
  return (
    one(
      db,
      `SELECT 1 FROM pseudonyms WHERE account_id = ? AND sis_user_id = ? AND workflow_state <> 'deleted'`,
      rootAccountId,
      sis,
    ) !== undefined
  );
}

// ---- channels and tokens ----------------------------------------------------------------------

export function addChannel(db: Db, c: { user: number; type: string; address: string; confirmed?: boolean }): void {
  const position = one<{ p: number }>(
    db,
    `SELECT coalesce(max(position), 0) + 1 AS p FROM communication_channels WHERE user_id = ?`,
    c.user,
  )!.p;
  insert(
    db,
    `INSERT INTO communication_channels (user_id, type, address, position, workflow_state) VALUES (?, ?, ?, ?, ?)`,
    c.user,
    c.type,
    c.address,
    position,
    c.confirmed ? 'active' : 'unconfirmed',
  );
}

export function primaryEmail(db: Db, userId: number): string | undefined {
  return one<{ address: string }>(
    db,
    `SELECT address FROM communication_channels WHERE user_id = ? AND type = 'email' AND workflow_state <> ` +
      `'retired' ORDER BY position LIMIT 1`,
    userId,
  )?.address;
}

export function addToken(db: Db, t: { token: string; user: number; purpose: string; now: string }): void {
  insert(
    db,
    `INSERT INTO access_tokens (token, user_id, purpose, created_at) VALUES (?, ?, ?, ?)`,
    t.token,
    t.user,
    t.purpose,
    t.now,
  );
}

export function tokenOwner(db: Db, token: string): number | undefined {
  return one<{ user_id: number }>(db, `SELECT user_id FROM access_tokens WHERE token = ?`, token)?.user_id;
}

export function allTokens(db: Db): { user_id: number; name: string; role: string; token: string }[] {
  return all(
    db,
    'SELECT t.user_id, u.name, t.purpose AS role, t.token FROM access_tokens t JOIN users u ON u.id = t.user_id ' +
      'ORDER BY t.user_id, t.token',
  );
}

// ---- lists ------------------------------------------------------------------------------------

/** A user as a list reads them: with the login and email address their record shows, in the same query. */
export type ListedUser = UserRow & {
  login_unique_id: string | null;
  login_sis_user_id: string | null;
  login_integration_id: string | null;
  primary_email: string | null;
};

/** A person as a list shows them: the record, their first live login, and their first live email address. */
const PERSON_WITH_LOGIN = `SELECT u.*, l.unique_id AS login_unique_id, l.sis_user_id AS login_sis_user_id,
    l.integration_id AS login_integration_id,
    (SELECT address FROM communication_channels WHERE user_id = u.id AND type = 'email' AND workflow_state <> 'retired'
      ORDER BY position LIMIT 1) AS primary_email
  FROM users u LEFT JOIN pseudonyms l ON l.id = (SELECT id FROM pseudonyms WHERE user_id = u.id
    AND workflow_state <> 'deleted' ORDER BY id LIMIT 1)`;

/**
 * Users with a login in the account or its root, optionally matching a search term, in sortable-name
 * order: a keyset query (users_sortable serves the order), one range read a page, each row with the
 * login (loginOf) and email address (primaryEmail) it shows, rather than two more queries a user.
 */
export function usersOfAccountQuery(accountId: number, rootId: number, term?: string): KeysetQuery {
  const where = [
    `u.workflow_state <> 'deleted'`,
    `EXISTS (SELECT 1 FROM pseudonyms p WHERE p.user_id = u.id AND p.workflow_state <> 'deleted' AND p.account_id ` +
      'IN (?, ?))',
  ];
  const args: unknown[] = [accountId, rootId];
  if (term) {
    // user_search's trigram index serves the %term% match (case-insensitive); a whole id matches too.
    where.push(`(u.id IN (SELECT rowid FROM user_search WHERE text LIKE ?) OR CAST(u.id AS TEXT) = ?)`);
    args.push(`%${term}%`, term);
  }
  return { sql: `${PERSON_WITH_LOGIN} WHERE ${where.join(' AND ')}`, args, key: ['sortable_name', 'id'] };
}

/**
 * The people of a course (an active or invited enrollment there; in `sections` only, when given),
 * optionally matching a search term as an account's users do, in sortable-name order, each with
 * the login and email address their record shows.
 */
export function usersOfCourseQuery(
  courseId: number,
  options: { term?: string; sections?: number[] } = {},
): KeysetQuery {
  const enrolled = [`e.user_id = u.id`, `e.course_id = ?`, `e.workflow_state IN ('active', 'invited')`];
  const args: unknown[] = [courseId];
  if (options.sections) {
    enrolled.push(`e.course_section_id IN (${options.sections.map(() => '?').join(', ') || 'NULL'})`);
    args.push(...options.sections);
  }
  const where = [
    `u.workflow_state <> 'deleted'`,
    `EXISTS (SELECT 1 FROM enrollments e WHERE ${enrolled.join(' AND ')})`,
  ];
  if (options.term) {
    where.push(`(u.id IN (SELECT rowid FROM user_search WHERE text LIKE ?) OR CAST(u.id AS TEXT) = ?)`);
    args.push(`%${options.term}%`, options.term);
  }
  return { sql: `${PERSON_WITH_LOGIN} WHERE ${where.join(' AND ')}`, args, key: ['sortable_name', 'id'] };
}

// ---- follows and page views -------------------------------------------------------------------

export function follow(db: Db, follower: number, followed: number, now: string): string {
  run(
    db,
    `INSERT OR IGNORE INTO follows (follower_id, followed_id, created_at) VALUES (?, ?, ?)`,
    follower,
    followed,
    now,
  );
  return one<{ created_at: string }>(
    db,
    `SELECT created_at FROM follows WHERE follower_id = ? AND followed_id = ?`,
    follower,
    followed,
  )!.created_at;
}

export function unfollow(db: Db, follower: number, followed: number): void {
  run(db, `DELETE FROM follows WHERE follower_id = ? AND followed_id = ?`, follower, followed);
}

/** A user's page views, newest first (page_views_user serves the order). */
export function pageViewsQuery(userId: number, start?: string, end?: string): KeysetQuery {
  const where = ['user_id = ?'];
  const args: unknown[] = [userId];
  if (start) {
    where.push('created_at >= ?');
    args.push(start);
  }
  if (end) {
    where.push('created_at <= ?');
    args.push(end);
  }
  return {
    sql: `SELECT * FROM page_views WHERE ${where.join(' AND ')}`,
    args,
    key: ['created_at', 'id'],
    descending: true,
  };
}
