// Finds the records path ids name — numeric ids, SIS forms, `self` — with the one generic finder;
// a missing or deleted record is a 404, an id form the table does not know a 400; and whose a bearer
// token is. It reads several areas' repositories, so it sits above them, beside the areas, and below
// every handler that asks.
import { lookup, type Findable } from '../db/find.js';
import type { Db } from '../db/open.js';
import { badRequest, notFound, type MockCtx, type ResolvedContext } from '../kit.js';
import { accounts, domainRootAccountId, type AccountRow } from '../school/accounts/repo.js';
import { courses, type CourseRow } from '../school/courses/repo.js';
import { collectionItems } from './discussions/repo.js';
import { groups } from './groups/repo.js';
import { sections, type SectionRow } from '../school/sections/repo.js';
import { oauthTokenOwner } from './oauth/repo.js';
import { activeUser, tokenOwner, users, type UserRow } from '../school/users/repo.js';

export { activeUser } from '../school/users/repo.js';
export { domainRootAccountId, rootOf } from '../school/accounts/repo.js';
export type { AccountRow, CourseRow, SectionRow };

export function find<T>(
  ctx: Pick<MockCtx, 'db'>,
  spec: Findable<T>,
  raw: string,
  options: { withDeleted?: boolean } = {},
): T {
  const found = lookup(ctx.db, spec, raw, options);
  if (!('reason' in found)) return found.row;
  if (found.reason === 'unsupported') throw badRequest(`unsupported id form ${found.kind} for a ${spec.label}`);
  throw notFound();
}

/**
 * Whom a bearer token authenticates at `now`: a seeded token's user, or the user an OAuth grant was
 * approved by while its access token has not expired (nor been replaced or revoked); undefined for
 * anything else, or a user since deleted.
 */
export function tokenUser(db: Db, token: string, now: string): UserRow | undefined {
  const owner = tokenOwner(db, token) ?? oauthTokenOwner(db, token, now);
  return owner === undefined ? undefined : activeUser(db, owner);
}

export function findUser(ctx: MockCtx, raw: string): UserRow {
  return raw === 'self' ? ctx.caller : find(ctx, users, raw);
}

export function findAccount(ctx: MockCtx, raw: string): AccountRow {
  return find(ctx, accounts, raw === 'self' ? String(domainRootAccountId(ctx.db)) : raw);
}

export function findCourse(ctx: MockCtx, raw: string): CourseRow {
  return find(ctx, courses, raw);
}

export function findSection(ctx: MockCtx, raw: string): SectionRow {
  return find(ctx, sections, raw);
}

/**
 * The context of a route with context variants, from its path: the route's variant says which kind
 * (`discussions.createTopic@groups` → a group), the path says which one.
 */
export function resolveContext(ctx: Pick<MockCtx, 'db' | 'route' | 'path' | 'caller'>): ResolvedContext | undefined {
  switch (ctx.route.context) {
    case undefined:
      return undefined;
    case 'global':
      return { type: 'global', id: null, record: null };
    case 'accounts': {
      const record = findAccount(ctx as MockCtx, ctx.path.account_id);
      return { type: 'account', id: record.id, record };
    }
    case 'courses': {
      const record = findCourse(ctx as MockCtx, ctx.path.course_id);
      return { type: 'course', id: record.id, record };
    }
    case 'groups': {
      const record = find(ctx, groups, ctx.path.group_id);
      return { type: 'group', id: record.id, record };
    }
    case 'sections': {
      const record = findSection(ctx as MockCtx, ctx.path.section_id);
      return { type: 'section', id: record.id, record };
    }
    case 'collection_items': {
      const record = find(ctx, collectionItems, ctx.path.collection_item_id);
      return { type: 'collection_item', id: record.id, record };
    }
    default:
      throw notFound();
  }
}
