// Accounts and roles: the tables every other area's permissions rest on.
import type { Findable } from '../../db/find.js';
import type { Db } from '../../db/open.js';
import { all, insert, one } from '../../db/statements.js';

export interface AccountRow {
  id: number;
  name: string;
  parent_account_id: number | null;
  root_account_id: number | null;
  sis_account_id: string | null;
  default_time_zone: string;
  workflow_state: string;
}

export const accounts: Findable<AccountRow> = {
  label: 'account',
  table: 'accounts',
  sis: { sis_account_id: `SELECT id FROM accounts WHERE sis_account_id = ?` },
  deleted: (a) => a.workflow_state === 'deleted',
};

export function accountById(db: Db, id: number): AccountRow | undefined {
  return one<AccountRow>(db, `SELECT * FROM accounts WHERE id = ?`, id);
}

export function createAccount(db: Db, a: { id?: number; name: string; parent?: number; sis?: string }): number {
  const parent = a.parent === undefined ? undefined : accountById(db, a.parent);
  const root = parent ? (parent.root_account_id ?? parent.id) : null;
  return insert(
    db,
    `INSERT INTO accounts (id, name, parent_account_id, root_account_id, sis_account_id) VALUES (?, ?, ?, ?, ?)`,
    a.id ?? null,
    a.name,
    parent?.id ?? null,
    root,
    a.sis ?? null,
  );
}

/** The account and every account above it, nearest first. */
export function accountChain(db: Db, accountId: number): number[] {
  return all<{ id: number }>(
    db,
    `WITH RECURSIVE chain(id, parent, depth) AS (
       SELECT id, parent_account_id, 0 FROM accounts WHERE id = ?
       UNION ALL SELECT a.id, a.parent_account_id, chain.depth + 1 FROM accounts a JOIN chain ON a.id = chain.parent ` +
      `WHERE chain.depth < 32)
     SELECT id FROM chain ORDER BY depth`,
    accountId,
  ).map((r) => r.id);
}

/** The instance's own root account: what `self` and instance-wide rights refer to. */
export function domainRootAccountId(db: Db): number {
  return one<{ id: number }>(db, `SELECT id FROM accounts WHERE parent_account_id IS NULL ORDER BY id LIMIT 1`)!.id;
}

/** The root account above an account (itself when it is a root). */
export function rootOf(account: Pick<AccountRow, 'id' | 'root_account_id'>): number {
  return account.root_account_id ?? account.id;
}

// ---- roles ------------------------------------------------------------------------------------

export interface RoleRow {
  id: number;
  name: string;
  label: string;
  base_role_type: string;
  account_id: number | null;
  permissions: string;
  workflow_state: string;
}

export const ACCOUNT_MEMBERSHIP = 'AccountMembership';
export { ENROLLMENT_TYPES } from '../../../spec/vocabulary.js';

export function createRole(
  db: Db,
  r: { id?: number; name: string; label?: string; base: string; account?: number; permissions: readonly string[] },
): number {
  return insert(
    db,
    `INSERT INTO roles (id, name, label, base_role_type, account_id, permissions) VALUES (?, ?, ?, ?, ?, ?)`,
    r.id ?? null,
    r.name,
    r.label ?? r.name,
    r.base,
    r.account ?? null,
    JSON.stringify(r.permissions),
  );
}

export function roleById(db: Db, id: number): RoleRow | undefined {
  return one<RoleRow>(db, `SELECT * FROM roles WHERE id = ?`, id);
}

/** A role by name as seen from an account: built-in, or custom on the account or one above it. */
export function roleByName(db: Db, name: string, accountId: number): RoleRow | undefined {
  const chain = accountChain(db, accountId);
  return all<RoleRow>(
    db,
    `SELECT * FROM roles WHERE name = ? AND workflow_state = 'active' ORDER BY account_id IS NULL, id`,
    name,
  ).find((r) => r.account_id === null || chain.includes(r.account_id));
}

/** The built-in role of a base type (each enrollment type and AccountAdmin has one). */
export function builtInRole(db: Db, name: string): RoleRow {
  const role = one<RoleRow>(db, `SELECT * FROM roles WHERE name = ? AND account_id IS NULL`, name);
  if (!role) throw new Error(`built-in role ${name} is missing from the mock database`);
  return role;
}

export function rolePermissions(role: Pick<RoleRow, 'permissions'>): string[] {
  return JSON.parse(role.permissions) as string[];
}
