// Who a user may message: the courses where they may send messages (enrolled, or administered),
// those courses' sections and groups, and the groups they belong to; and recipient lists
// (`7`, `course_1`, `course_1_students`, `section_2`, `group_1`) resolved to people within it.
import type { Db } from '../../db/open.js';
import { can } from '../../permissions.js';
import { courseById } from '../courses/repo.js';
import { sectionById } from '../sections/repo.js';
import {
  candidateCourses,
  groupExists,
  groupsOfCourses,
  groupsOfMember,
  peopleAmong,
  peopleOf,
  sectionsOfCourses,
  type PeopleSource,
  type ScopeCourse,
  type ScopeGroup,
} from './repo.js';

export interface MessagingScope {
  userId: number;
  courses: ScopeCourse[];
  sections: { id: number; course_id: number; name: string }[];
  groups: ScopeGroup[];
  /** Everyone the user may message. */
  people: PeopleSource;
}

export function messagingScope(db: Db, userId: number): MessagingScope {
  const courses = candidateCourses(db, userId).filter((c) => can(db, userId, 'send_messages', { course: c }));
  const courseIds = courses.map((c) => c.id);
  const groups = new Map<number, ScopeGroup>();
  for (const g of [...groupsOfMember(db, userId), ...groupsOfCourses(db, courseIds)]) groups.set(g.id, g);
  const groupList = [...groups.values()].sort((a, b) => a.id - b.id);
  return {
    userId,
    courses,
    sections: sectionsOfCourses(db, courseIds),
    groups: groupList,
    people: { courses: courseIds, groups: groupList.map((g) => g.id) },
  };
}

export const SYNTHETIC_TYPES: Record<string, string> = {
  students: 'StudentEnrollment',
  teachers: 'TeacherEnrollment',
  tas: 'TaEnrollment',
  observers: 'ObserverEnrollment',
};

/** `course_1`, `course_1_students`, `section_2_tas`, `group_3`. */
export const CONTEXT_TOKEN = /^(course|section|group)_(\d{1,18})(?:_(students|teachers|tas|observers))?$/;

export type ContextRef = { kind: 'course' | 'section' | 'group'; id: number; type?: string };

export function parseContextToken(token: string): ContextRef | undefined {
  const m = CONTEXT_TOKEN.exec(token);
  if (!m) return undefined;
  if (m[1] === 'group' && m[3]) return undefined;
  return { kind: m[1] as ContextRef['kind'], id: Number(m[2]), type: m[3] ? SYNTHETIC_TYPES[m[3]] : undefined };
}

/** The people a context holds, when it lies in the scope; undefined when it does not. */
export function peopleSourceOf(scope: MessagingScope, ref: ContextRef): { source: PeopleSource; tag: string } | undefined {
  switch (ref.kind) {
    case 'course':
      if (!scope.courses.some((c) => c.id === ref.id)) return undefined;
      return { source: { courses: [ref.id], groups: [], types: ref.type ? [ref.type] : undefined }, tag: `course_${ref.id}` };
    case 'section': {
      const s = scope.sections.find((x) => x.id === ref.id);
      if (!s) return undefined;
      return { source: { courses: [s.course_id], sections: [s.id], groups: [], types: ref.type ? [ref.type] : undefined }, tag: `course_${s.course_id}` };
    }
    case 'group':
      if (!scope.groups.some((g) => g.id === ref.id)) return undefined;
      return { source: { courses: [], groups: [ref.id] }, tag: `group_${ref.id}` };
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
    if (!seen.has(id)) (seen.add(id), users.push(id));
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
