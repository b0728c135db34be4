// GET /api/v1/search/recipients (and its deprecated alias /conversations/find_recipients): the
// contexts and people the caller may message, every search term matching, contexts first.
import type { ContextRecipient, Recipient, UserRecipient } from '../../../spec/types/search.js';
import {
  bool,
  int,
  keysetSource,
  list,
  numericId,
  once,
  paginate,
  str,
  type Handler,
  type MockCtx,
} from '../../kit.js';
import { can, PERMISSIONS, type Permission } from '../permissions.js';
import { participantIn } from '../conversations/repo.js';
import { userById } from '../../school/users/repo.js';
import { parseContextToken, peopleSourceOf, SYNTHETIC_TYPES, type MessagingScope } from './audience.js';
import {
  commonContextsOf,
  countPeople,
  NO_AUDIENCE,
  NO_GROUPS,
  peopleAmong,
  recipientsQuery,
  type PeopleSource,
  type RecipientQuery,
  type RecipientRow,
} from './repo.js';
import { courseById } from '../../school/courses/repo.js';
import { AVATAR, scopeOf } from './audience.js';
const GROUP_AVATAR = '/images/messages/avatar-group-50.png';

function contextJson(
  ctx: MockCtx,
  scope: MessagingScope,
  row: RecipientRow,
  permissions: Permission[],
  withContextName: boolean,
): ContextRecipient {
  const ref = parseContextToken(row.ref)!;
  const source = peopleSourceOf(scope, ref)!.source;
  const courseId = row.kind === 'course' ? row.rid : row.course_id!;
  const course = once(ctx, `course:${courseId}`, () => courseById(ctx.db, courseId));
  const json: ContextRecipient = {
    id: row.ref,
    name: row.name,
    avatar_url: `${ctx.origin}${row.kind === 'group' ? GROUP_AVATAR : AVATAR}`,
    type: 'context',
    user_count: countPeople(ctx.db, source),
    permissions: Object.fromEntries(permissions.map((p) => [p, !!course && can(ctx.db, ctx.caller.id, p, { course })])),
  };
  if (withContextName && row.kind !== 'course' && course) json.context_name = course.name;
  return json;
}

function userJson(ctx: MockCtx, scope: MessagingScope, id: number): UserRecipient {
  const u = userById(ctx.db, id)!;
  const common = commonContextsOf(ctx.db, id, scope.people);
  const courses: Record<string, string[]> = {};
  for (const c of common.courses) {
    courses[c.course_id] ??= [];
    courses[c.course_id]!.push(c.type);
  }
  return {
    id: u.id,
    name: u.short_name,
    full_name: u.name,
    common_courses: courses,
    common_groups: Object.fromEntries(common.groups.map((g) => [String(g), ['Member']])),
    avatar_url: u.avatar_url ?? `${ctx.origin}${AVATAR}`,
    pronouns: null,
  };
}

const SYNTHETIC_NAMES: [string, string][] = [
  ['teachers', 'Teachers'],
  ['tas', 'Teaching Assistants'],
  ['students', 'Students'],
  ['observers', 'Observers'],
];

/** A course's or section's people by role, and a course's sections and groups, those not empty. */
function syntheticContexts(
  ctx: MockCtx,
  scope: MessagingScope,
  code: string,
  source: PeopleSource,
  courseId: number | undefined,
): { ref: string; name: string }[] {
  const out: { ref: string; name: string }[] = [];
  for (const [suffix, name] of SYNTHETIC_NAMES) {
    if (countPeople(ctx.db, { ...source, types: [SYNTHETIC_TYPES[suffix]] }) > 0)
      out.push({ ref: `${code}_${suffix}`, name });
  }
  if (courseId !== undefined) {
    if (scope.sections.some((s) => s.course_id === courseId))
      out.push({ ref: `${code}_sections`, name: 'Course Sections' });
    if (scope.groups.some((g) => g.course_id === courseId)) out.push({ ref: `${code}_groups`, name: 'Student Groups' });
  }
  return out;
}

function syntheticJson(
  ctx: MockCtx,
  scope: MessagingScope,
  row: RecipientRow,
  permissions: Permission[],
): ContextRecipient {
  const m = /^(course|section)_(\d+)_(\w+)$/.exec(row.ref)!;
  const courseId = m[1] === 'course' ? Number(m[2]) : scope.sections.find((s) => s.id === Number(m[2]))!.course_id;
  const course = once(ctx, `course:${courseId}`, () => courseById(ctx.db, courseId));
  const json: ContextRecipient = {
    id: row.ref,
    name: row.name,
    avatar_url: `${ctx.origin}${GROUP_AVATAR}`,
    type: 'context',
    permissions: Object.fromEntries(permissions.map((p) => [p, !!course && can(ctx.db, ctx.caller.id, p, { course })])),
  };
  if (m[3] === 'sections') json.item_count = scope.sections.filter((s) => s.course_id === courseId).length;
  else if (m[3] === 'groups') json.item_count = scope.groups.filter((g) => g.course_id === courseId).length;
  else
    json.user_count = countPeople(ctx.db, {
      ...peopleSourceOf(scope, parseContextToken(`${m[1]}_${m[2]}`)!)!.source,
      types: [SYNTHETIC_TYPES[m[3]]],
    });
  return json;
}

const recipients: Handler = (ctx) => {
  const scope = scopeOf(ctx);
  const p = ctx.params;
  const permissions = list(p, 'permissions')
    .map(String)
    .filter((x): x is Permission => (PERMISSIONS as readonly string[]).includes(x));
  const types = new Set([str(p, 'type'), ...list(p, 'types').map(String)].filter((t): t is string => !!t));
  const wantUsers = types.size === 0 || types.has('user');
  const wantContexts =
    types.size === 0 || types.has('context') || types.has('course') || types.has('section') || types.has('group');
  const terms = (str(p, 'search') ?? '').trim().split(/\s+/).filter(Boolean);
  const contextRaw = str(p, 'context')?.trim();
  const exclude = list(p, 'exclude').map(String);
  const excludeUsers = exclude.filter((x) => /^\d{1,18}$/.test(x)).map(Number);
  const excludeContexts = exclude.filter((x) => !/^\d{1,18}$/.test(x));
  let q: RecipientQuery = { terms, excludeUsers, excludeContexts };

  const userIdRaw = str(p, 'user_id');
  if (userIdRaw !== undefined) {
    // One known user at most, the other filters ignored; a shared conversation counts as a shared context.
    const id = numericId(userIdRaw);
    const fromConversation = int(p, 'from_conversation_id');
    let reachable = false;
    if (id !== undefined) {
      reachable =
        id === ctx.caller.id ||
        peopleAmong(ctx.db, scope.people, [id]).has(id) ||
        (fromConversation !== undefined &&
          participantIn(ctx.db, fromConversation, ctx.caller.id) &&
          participantIn(ctx.db, fromConversation, id));
    }
    q = {
      terms: [],
      excludeUsers: [],
      excludeContexts: [],
      people: { audience: NO_AUDIENCE, groups: NO_GROUPS, users: reachable && id !== undefined ? [id] : [] },
    };
  } else if (contextRaw) {
    const ref = parseContextToken(contextRaw);
    const found = ref && peopleSourceOf(scope, ref);
    if (found && ref) {
      if (wantUsers) q.people = found.source;
      if (wantContexts && !ref.type && ref.kind !== 'group' && !terms.length && bool(p, 'synthetic_contexts'))
        q.synthetic = syntheticContexts(
          ctx,
          scope,
          contextRaw,
          found.source,
          ref.kind === 'course' ? ref.id : undefined,
        );
      // Within a course, its sections and groups are contexts too.
      if (wantContexts && ref.kind === 'course' && !ref.type && terms.length) {
        q.contexts = {
          courses: [],
          sections: scope.sections.filter((s) => s.course_id === ref.id).map((s) => s.id),
          groups: scope.groups.filter((g) => g.course_id === ref.id).map((g) => g.id),
        };
      }
    }
  } else if (terms.length) {
    if (wantUsers) q.people = scope.people;
    if (wantContexts)
      q.contexts = {
        courses: scope.courses.map((c) => c.id),
        sections: scope.sections.map((s) => s.id),
        groups: scope.groups.map((g) => g.id),
      };
  }
  // Without search terms and a context there is nothing to list.
  const withContextName = !contextRaw;
  return paginate(
    ctx,
    keysetSource<RecipientRow>(ctx.db, recipientsQuery(q)),
    (row): Recipient =>
      row.kind === 'user'
        ? userJson(ctx, scope, row.rid)
        : row.kind === 'synthetic'
          ? syntheticJson(ctx, scope, row, permissions)
          : contextJson(ctx, scope, row, permissions, withContextName),
  );
};

export const searchHandlers = {
  'search.recipients': recipients,
  'conversations.findRecipients': recipients,
};
