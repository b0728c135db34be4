// Finds the records path ids name: numeric ids, `self`, and SIS forms. Missing records are a 404.
import type { Db } from './db/open.js';
import { badRequest, notFound, numericId, sisForm, type MockCtx, type UserRow } from './kit.js';

export interface AccountRow {
  id: number;
  name: string;
  parent_account_id: number | null;
  root_account_id: number | null;
  sis_account_id: string | null;
  workflow_state: string;
}

export interface CourseRow {
  id: number;
  account_id: number;
  root_account_id: number;
  name: string;
  course_code: string;
  sis_course_id: string | null;
  workflow_state: string;
  start_at: string | null;
  end_at: string | null;
  created_at: string;
}

export function activeUser(db: Db, id: number): UserRow | undefined {
  return db.prepare(`SELECT * FROM users WHERE id = ? AND workflow_state <> 'deleted'`).get(id) as UserRow | undefined;
}

export function findUser(ctx: MockCtx, raw: string): UserRow {
  if (raw === 'self') return ctx.caller;
  const id = numericId(raw);
  let user: UserRow | undefined;
  if (id !== undefined) user = activeUser(ctx.db, id);
  else {
    const sis = sisForm(raw);
    if (!sis) throw notFound();
    const column = sis[0] === 'sis_user_id' ? 'sis_user_id' : sis[0] === 'sis_login_id' ? 'unique_id' : undefined;
    if (!column) throw badRequest(`unsupported id form ${sis[0]} for a user`);
    const row = ctx.db
      .prepare(`SELECT user_id FROM pseudonyms WHERE ${column === 'unique_id' ? 'lower(unique_id) = lower(?)' : 'sis_user_id = ?'} AND workflow_state <> 'deleted'`)
      .get(sis[1]) as { user_id: number } | undefined;
    if (row) user = activeUser(ctx.db, row.user_id);
  }
  if (!user) throw notFound();
  return user;
}

export function findAccount(ctx: MockCtx, raw: string): AccountRow {
  let account: AccountRow | undefined;
  if (raw === 'self') account = ctx.db.prepare(`SELECT * FROM accounts WHERE id = ?`).get(domainRootAccountId(ctx.db)) as AccountRow;
  else if (numericId(raw) !== undefined) account = ctx.db.prepare(`SELECT * FROM accounts WHERE id = ?`).get(Number(raw)) as AccountRow | undefined;
  else {
    const sis = sisForm(raw);
    if (sis?.[0] === 'sis_account_id') account = ctx.db.prepare(`SELECT * FROM accounts WHERE sis_account_id = ?`).get(sis[1]) as AccountRow | undefined;
  }
  if (!account || account.workflow_state === 'deleted') throw notFound();
  return account;
}

export function findCourse(ctx: MockCtx, raw: string): CourseRow {
  let course: CourseRow | undefined;
  if (numericId(raw) !== undefined) course = ctx.db.prepare(`SELECT * FROM courses WHERE id = ?`).get(Number(raw)) as CourseRow | undefined;
  else {
    const sis = sisForm(raw);
    if (sis?.[0] === 'sis_course_id') course = ctx.db.prepare(`SELECT * FROM courses WHERE sis_course_id = ?`).get(sis[1]) as CourseRow | undefined;
  }
  if (!course || course.workflow_state === 'deleted') throw notFound();
  return course;
}

/** The root account above an account (itself when it is a root). */
export function rootOf(account: AccountRow): number {
  return account.root_account_id ?? account.id;
}

/** The login and SIS id a user has in a root account (first active pseudonym). */
export function loginOf(db: Db, userId: number): { unique_id: string; sis_user_id: string | null; account_id: number } | undefined {
  return db
    .prepare(`SELECT unique_id, sis_user_id, account_id FROM pseudonyms WHERE user_id = ? AND workflow_state <> 'deleted' ORDER BY id LIMIT 1`)
    .get(userId) as { unique_id: string; sis_user_id: string | null; account_id: number } | undefined;
}

export function primaryEmail(db: Db, userId: number): string | undefined {
  const row = db
    .prepare(`SELECT address FROM communication_channels WHERE user_id = ? AND type = 'email' AND workflow_state <> 'retired' ORDER BY position LIMIT 1`)
    .get(userId) as { address: string } | undefined;
  return row?.address;
}

/** The instance's own root account: what `self` and instance-wide rights refer to. */
export function domainRootAccountId(db: Db): number {
  return (db.prepare(`SELECT id FROM accounts WHERE parent_account_id IS NULL ORDER BY id LIMIT 1`).get() as { id: number }).id;
}
