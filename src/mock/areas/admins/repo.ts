// Account admins: a user holding a role (AccountAdmin or a custom account role) on an account.
import type { Db } from '../../db/open.js';
import type { KeysetQuery } from '../../kit.js';
import { all, insert, one, placeholders, run } from '../../db/statements.js';
import { rolePermissions } from '../../school/accounts/repo.js';

export interface AdminRow {
  id: number;
  account_id: number;
  user_id: number;
  role_id: number;
  workflow_state: string;
  created_at: string;
}

/**
 * The active admin roles a user holds, each with its account and permissions: on any of these
 * accounts, or on every account when none are named.
 */
export function activeAdminRoles(
  db: Db,
  userId: number,
  accountIds?: readonly number[],
): { roleId: number; accountId: number; permissions: string[] }[] {
  if (accountIds?.length === 0) return [];
  const onAccounts = accountIds ? ` AND au.account_id IN (${placeholders(accountIds.length)})` : '';
  return all<{ role_id: number; account_id: number; permissions: string }>(
    db,
    `SELECT r.id AS role_id, au.account_id, r.permissions FROM account_users au JOIN roles r ON r.id = au.role_id
     WHERE au.user_id = ? AND au.workflow_state = 'active' AND r.workflow_state = 'active'${onAccounts}`,
    userId,
    ...(accountIds ?? []),
  ).map((r) => ({ roleId: r.role_id, accountId: r.account_id, permissions: rolePermissions(r) }));
}

export function findAdmin(db: Db, accountId: number, userId: number, roleId: number): AdminRow | undefined {
  return one<AdminRow>(
    db,
    `SELECT * FROM account_users WHERE account_id = ? AND user_id = ? AND role_id = ? AND workflow_state = 'active'`,
    accountId,
    userId,
    roleId,
  );
}

export function addAdmin(db: Db, a: { account: number; user: number; role: number; now: string }): AdminRow {
  const existing = findAdmin(db, a.account, a.user, a.role);
  if (existing) return existing;
  const id = insert(
    db,
    `INSERT INTO account_users (account_id, user_id, role_id, created_at) VALUES (?, ?, ?, ?)`,
    a.account,
    a.user,
    a.role,
    a.now,
  );
  return one<AdminRow>(db, `SELECT * FROM account_users WHERE id = ?`, id)!;
}

export function removeAdmin(db: Db, id: number): void {
  run(db, `UPDATE account_users SET workflow_state = 'deleted' WHERE id = ?`, id);
}

export function removeAllAdminRolesOf(db: Db, userId: number): void {
  run(db, `UPDATE account_users SET workflow_state = 'deleted' WHERE user_id = ?`, userId);
}

/** `SELECT` for an account's active admins in id order, and its arguments (for paging). */
export function adminsOfAccountQuery(accountId: number, userIds: number[]): KeysetQuery {
  const where = [`account_id = ?`, `workflow_state = 'active'`];
  const args: unknown[] = [accountId];
  if (userIds.length) {
    where.push(`user_id IN (${placeholders(userIds.length)})`);
    args.push(...userIds);
  }
  return { sql: `SELECT * FROM account_users WHERE ${where.join(' AND ')}`, args, key: ['id'] };
}

/**
 * The roles seen from an account: the built-in ones (when active roles are asked for), and the custom
 * roles of `accounts` in the states asked for.
 */
export function rolesQuery(accounts: number[], states: string[]): KeysetQuery {
  return {
    sql:
      `SELECT * FROM roles WHERE (account_id IS NULL AND workflow_state = 'active' AND ?)
          OR (account_id IN (${placeholders(accounts.length)}) AND workflow_state IN ` +
      `(${placeholders(states.length)}))`,
    args: [states.includes('active') ? 1 : 0, ...accounts, ...states],
    key: ['id'],
  };
}

/** Accounts where a user holds any active admin role. */
export function accountsAdministeredQuery(userId: number): KeysetQuery {
  return {
    sql:
      `SELECT a.* FROM accounts a WHERE a.workflow_state <> 'deleted'
          AND EXISTS (SELECT 1 FROM account_users au WHERE au.account_id = a.id AND au.user_id = ? AND ` +
      `au.workflow_state = 'active')`,
    args: [userId],
    key: ['id'],
  };
}
