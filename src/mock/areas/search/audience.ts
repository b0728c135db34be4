// Who a user may message, as real instances reckon it: in each course they are in (or administer)
// everyone, the people of their own sections, or only the instructors and the students they
// observe; those courses' sections and groups (a group's members as the course is seen) and the
// groups they belong to; and recipient lists (`7`, `course_1`, `course_1_students`, `section_2`,
// `group_1`) resolved to the people within it.
import type { Db } from '../../db/open.js';
import { once, type MockCtx } from '../../kit.js';
import { canAny, grantsAny } from '../permissions.js';
import { searchPolicy } from './policy.js';
import { courseById } from '../../school/courses/repo.js';
import { activeCourseRoles, observeesIn } from '../../school/enrollments/repo.js';
import { sectionById } from '../../school/sections/repo.js';
import {
  audienceIn,
  candidateCourses,
  groupExists,
  groupsOfCourses,
  groupsOfMember,
  groupsWithMembersIn,
  NO_AUDIENCE,
  NO_GROUPS,
  observersOf,
  peopleAmong,
  peopleOf,
  sectionsOfCourses,
  type Audience,
  type PeopleSource,
  type ScopeCourse,
  type ScopeGroup,
} from './repo.js';

export interface MessagingScope {
  userId: number;
  /** Courses the user may address, whole or in part. */
  courses: ScopeCourse[];
  sections: { id: number; course_id: number; name: string }[];
  /** Groups the user may address; `sections` when only members enrolled in those sections are in reach. */
  groups: (ScopeGroup & { sections?: readonly number[] })[];
  /** Everyone the user may message. */
  people: PeopleSource;
}

type Reach = { level: 'full' } | { level: 'sections'; sections: number[] } | { level: 'restricted'; users: number[] };
type CourseRoles = ReturnType<typeof activeCourseRoles>;

/**
 * How much of a course the user may message. An admin whose role sends messages there, or an
 * enrollment whose role does: the whole course, or only its section when every such enrollment is
 * limited to one. Anyone else enrolled (an observer, whose enrollment grants no messaging of its
 * own on real instances, or a role without the right): its teachers and TAs, and the students they
 * observe.
 */
function messagingReach(
  db: Db,
  userId: number,
  course: ScopeCourse,
  roles: CourseRoles,
  adminSends: boolean,
): Reach | undefined {
  if (adminSends) return { level: 'full' };
  if (roles.length === 0) return undefined;
  const sending = roles.filter((r) => grantsAny(r.permissions, searchPolicy.send));
  if (sending.some((r) => !r.limited)) return { level: 'full' };
  if (sending.length) return { level: 'sections', sections: [...new Set(sending.map((r) => r.sectionId))] };
  return { level: 'restricted', users: [userId, ...observeesIn(db, userId, course.id)] };
}

function messagingScope(db: Db, userId: number): MessagingScope {
  const courses: ScopeCourse[] = [];
  const audience = {
    full: [] as number[],
    sections: [] as Audience['sections'][number][],
    restricted: [] as Audience['restricted'][number][],
  };
  const sectionReach = new Map<number, number[]>();
  const studentIn: number[] = [];
  // An admin's reach is the same for every course of an account.
  const adminSends = new Map<number, boolean>();
  for (const c of candidateCourses(db, userId)) {
    if (!adminSends.has(c.account_id))
      adminSends.set(c.account_id, canAny(db, userId, searchPolicy.send, { account: { id: c.account_id } }));
    const roles = activeCourseRoles(db, userId, c.id);
    const reach = messagingReach(db, userId, c, roles, adminSends.get(c.account_id)!);
    if (!reach) continue;
    courses.push(c);
    if (roles.some((r) => r.type === 'StudentEnrollment')) studentIn.push(c.id);
    if (reach.level === 'full') audience.full.push(c.id);
    else if (reach.level === 'sections') {
      audience.sections.push({ course: c.id, sections: reach.sections });
      sectionReach.set(c.id, reach.sections);
    } else audience.restricted.push({ course: c.id, users: reach.users });
  }
  const full = new Set(audience.full);
  // A course's groups are in reach where the course is seen whole; one's own groups also where it is
  // seen by section (never where the user may not send messages at all).
  const groups = new Map<number, MessagingScope['groups'][number]>();
  for (const g of groupsOfCourses(db, audience.full)) groups.set(g.id, g);
  for (const g of groupsOfMember(db, userId)) if (sectionReach.has(g.course_id)) groups.set(g.id, g);
  for (const [courseId, sections] of sectionReach) {
    for (const g of groupsWithMembersIn(db, courseId, sections))
      if (!groups.has(g.id)) groups.set(g.id, { ...g, sections });
  }
  const groupList = [...groups.values()].sort((a, b) => a.id - b.id);
  const sections = sectionsOfCourses(db, [...full, ...sectionReach.keys()]).filter(
    (s) => full.has(s.course_id) || sectionReach.get(s.course_id)!.includes(s.id),
  );
  return {
    userId,
    courses,
    sections,
    groups: groupList,
    people: {
      audience: { ...audience, studentIn, observers: studentIn.length ? observersOf(db, userId) : [] },
      groups: {
        full: groupList.filter((g) => !g.sections).map((g) => g.id),
        sections: groupList
          .filter((g) => g.sections)
          .map((g) => ({ group: g.id, course: g.course_id, sections: g.sections! })),
      },
    },
  };
}

export const SYNTHETIC_TYPES: Record<string, string> = {
  students: 'StudentEnrollment',
  teachers: 'TeacherEnrollment',
  tas: 'TaEnrollment',
  observers: 'ObserverEnrollment',
};

/** `course_1`, `course_1_students`, `section_2_tas`, `group_3`. */
const CONTEXT_TOKEN = /^(course|section|group)_(\d{1,18})(?:_(students|teachers|tas|observers))?$/;

export type ContextRef = { kind: 'course' | 'section' | 'group'; id: number; type?: string };

export function parseContextToken(token: string): ContextRef | undefined {
  const m = CONTEXT_TOKEN.exec(token);
  if (!m) return undefined;
  if (m[1] === 'group' && m[3]) return undefined;
  return { kind: m[1] as ContextRef['kind'], id: Number(m[2]), type: m[3] ? SYNTHETIC_TYPES[m[3]] : undefined };
}

/** The people a context holds as the user sees them, when it lies in the scope; undefined when it does not. */
export function peopleSourceOf(
  scope: MessagingScope,
  ref: ContextRef,
): { source: PeopleSource; tag: string } | undefined {
  const types = ref.type ? [ref.type] : undefined;
  switch (ref.kind) {
    case 'course':
      if (!scope.courses.some((c) => c.id === ref.id)) return undefined;
      return {
        source: { audience: audienceIn(scope.people.audience, ref.id), groups: NO_GROUPS, types },
        tag: `course_${ref.id}`,
      };
    case 'section': {
      const s = scope.sections.find((x) => x.id === ref.id);
      if (!s) return undefined;
      return {
        source: {
          audience: audienceIn(scope.people.audience, s.course_id),
          sections: [s.id],
          groups: NO_GROUPS,
          types,
        },
        tag: `course_${s.course_id}`,
      };
    }
    case 'group': {
      const g = scope.groups.find((x) => x.id === ref.id);
      if (!g) return undefined;
      const groups = g.sections
        ? { full: [], sections: [{ group: g.id, course: g.course_id, sections: g.sections }] }
        : { full: [g.id], sections: [] };
      return { source: { audience: NO_AUDIENCE, groups }, tag: `group_${g.id}` };
    }
  }
}

function contextExists(db: Db, ref: ContextRef): boolean {
  switch (ref.kind) {
    case 'course':
      return courseById(db, ref.id) !== undefined;
    case 'section':
      return sectionById(db, ref.id) !== undefined;
    case 'group':
      return groupExists(db, ref.id);
  }
}

export interface Resolved {
  /** Recipients in the order first named, the sender left out unless alone. */
  users: number[];
  /** The contexts the recipients were named through (course_N, group_N). */
  tags: string[];
  /** Some context named exists but the sender may not message it. */
  restricted: boolean;
}

/** Resolves recipients to the people the sender may message; unknown ones are dropped, as real instances do. */
export function resolveRecipients(db: Db, scope: MessagingScope, tokens: readonly string[]): Resolved {
  const users: number[] = [];
  const seen = new Set<number>();
  const tags = new Set<string>();
  let restricted = false;
  const add = (id: number) => {
    if (!seen.has(id)) {
      seen.add(id);
      users.push(id);
    }
  };
  const ids = tokens.filter((t) => /^\d{1,18}$/.test(t)).map(Number);
  const reachable = peopleAmong(db, scope.people, ids);
  for (const token of tokens) {
    if (/^\d{1,18}$/.test(token)) {
      const id = Number(token);
      if (reachable.has(id) || id === scope.userId) add(id);
      continue;
    }
    const ref = parseContextToken(token);
    if (!ref) continue;
    const found = peopleSourceOf(scope, ref);
    if (!found) {
      if (contextExists(db, ref)) restricted = true;
      continue;
    }
    tags.add(found.tag);
    for (const id of peopleOf(db, found.source)) add(id);
  }
  const others = users.filter((u) => u !== scope.userId);
  return { users: others.length ? others : users, tags: [...tags], restricted };
}

export const AVATAR = '/images/messages/avatar-50.png';

export function scopeOf(ctx: MockCtx): MessagingScope {
  return once(ctx, 'messaging-scope', () => messagingScope(ctx.db, ctx.caller.id));
}
