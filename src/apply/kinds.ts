// The kinds of object an apply file describes, once: where a course lists them, which noun of the
// command tree writes them, what names one across runs, how the API lists the ones a course has, and
// which of those the file manages. The reader, the plan and the apply read this; so can an exporter,
// which writes each kind's fields (fields.ts) from the objects these listings return.
import type { ApiClient } from '../client/client.js';
import type { ApiObject } from '../spec/types/common.js';
import { listPages } from './pages.js';
import { listRubrics } from './rubrics.js';

export type KindName =
  | 'sections'
  | 'enrollments'
  | 'assignment_groups'
  | 'assignments'
  | 'topics'
  | 'announcements'
  | 'quizzes'
  | 'rubrics'
  | 'pages'
  | 'modules'
  | 'outcomes';

export interface Kind {
  /** The key of a course that lists them, and their plural in messages. */
  name: KindName;
  /** One of them, in messages and in plan output: `section`. */
  one: string;
  /** The noun whose verbs write them. */
  noun: string;
  /**
   * The field that names one across runs when the API keeps one for us (a SIS id). Without it an
   * object is matched by the `key` the file gives it (remembered locally, see state.ts), else by its
   * title within the course.
   */
  natural?: string;
  /** The field that names one for people, and matches it when nothing else does. */
  title?: string;
  /** Fields of the file that name another object of the course by its key, and the field they set. */
  refs?: Record<string, { kind: KindName; field: string }>;
  /** Verbs by name, for a noun whose verbs do not declare what they write. */
  verbs?: { create?: string; remove?: string };
  /** What `--prune` does to one the file no longer lists; undefined: nothing can. */
  prune?: 'delete' | 'conclude';
}

/** The course itself: found by its SIS id, or created in its account. */
export const COURSE = {
  one: 'course',
  noun: 'courses',
  natural: 'sis_course_id',
  title: 'name',
  context: 'account',
} as const;

const gradedBy = { assignment: { kind: 'assignments', field: 'assignment_id' } } as const;
const inGroup = { group: { kind: 'assignment_groups', field: 'assignment_group_id' } } as const;

export const KINDS: Record<KindName, Kind> = {
  sections: {
    name: 'sections',
    one: 'section',
    noun: 'sections',
    natural: 'sis_section_id',
    title: 'name',
    prune: 'delete',
  },
  enrollments: {
    name: 'enrollments',
    one: 'enrollment',
    noun: 'enrollments',
    verbs: { create: 'add', remove: 'conclude' },
    prune: 'conclude',
  },
  // Before the assignments they hold, which name their group by its key.
  assignment_groups: {
    name: 'assignment_groups',
    one: 'assignment group',
    noun: 'assignment-groups',
    title: 'name',
    prune: 'delete',
  },
  assignments: {
    name: 'assignments',
    one: 'assignment',
    noun: 'assignments',
    title: 'name',
    refs: inGroup,
    prune: 'delete',
  },
  topics: { name: 'topics', one: 'topic', noun: 'topics', title: 'title', refs: gradedBy, prune: 'delete' },
  announcements: {
    name: 'announcements',
    one: 'announcement',
    noun: 'announcements',
    title: 'title',
    refs: gradedBy,
    prune: 'delete',
  },
  // A graded quiz is in a group, as an assignment is.
  quizzes: { name: 'quizzes', one: 'quiz', noun: 'quizzes', title: 'title', refs: inGroup, prune: 'delete' },
  // After the assignments they grade (rubrics.ts: criteria are one field, the association three).
  rubrics: { name: 'rubrics', one: 'rubric', noun: 'rubrics', title: 'title', refs: gradedBy, prune: 'delete' },
  // Read with their bodies, and named by page_id:N, since a page's url slug changes with its title (pages.ts).
  pages: { name: 'pages', one: 'page', noun: 'pages', title: 'title', prune: 'delete' },
  // After every kind their items show, which an item names by its key (modules.ts).
  modules: { name: 'modules', one: 'module', noun: 'modules', title: 'name', prune: 'delete' },
  outcomes: { name: 'outcomes', one: 'outcome', noun: 'outcomes' },
};

/** Their plural in messages: `assignment groups` of the file's `assignment_groups`. */
export const many = (kind: KindName) => kind.replaceAll('_', ' ');

/** The kinds in the order a course lists them in a file, and the order their changes are made. */
export const KIND_ORDER: KindName[] = [
  'sections',
  'enrollments',
  'assignment_groups',
  'assignments',
  'topics',
  'announcements',
  'quizzes',
  'rubrics',
  'pages',
  'modules',
  'outcomes',
];

/** Kinds matched by a key of the file or their title (they have no natural key). */
export const keyed = (kind: Kind) => kind.natural === undefined && kind.title !== undefined;

/** Enrollments a roster row matches and --prune may conclude: the live ones, as `enrollments import` sees them. */
export const LIVE_ENROLLMENTS = ['active', 'invited', 'inactive'] as const;

/**
 * What the API lists for a course of each kind the file's objects are matched against; with `term`,
 * of a kind with titles, only those whose title contains it (the API's search_term: a superset of
 * the exact match the caller then picks).
 */
export function listExisting(
  client: ApiClient,
  kind: KindName,
  course: string,
  term?: string,
): AsyncIterable<ApiObject> {
  const search = term !== undefined ? { search_term: term } : {};
  switch (kind) {
    case 'sections':
      return client.ops.sections.list({ course_id: course });
    case 'enrollments':
      return client.ops.enrollments.listCourse({ course_id: course, state: [...LIVE_ENROLLMENTS] });
    case 'assignment_groups':
      // No search_term: a course has few groups, listed whole.
      return client.ops.assignmentGroups.list({ course_id: course });
    case 'assignments':
      return client.ops.assignments.list({ course_id: course, ...search });
    case 'topics':
      return client.ops.discussions.listTopics({ course_id: course, ...search });
    case 'announcements':
      return client.ops.discussions.listTopics({ course_id: course, only_announcements: true, ...search });
    case 'quizzes':
      return client.ops.quizzes.list({ course_id: course, ...search });
    case 'rubrics':
      // No search_term: every rubric, a superset of the match asked for.
      return listRubrics(client, course);
    case 'pages':
      return listPages(client, course, term);
    case 'modules':
      // No search_term: with items asked for, the API searches the items' titles too.
      return listModules(client, course);
    case 'outcomes':
      throw new Error('outcomes are read as a tree');
  }
}

/** A course's modules, each with its items (a module of many is listed without them: they are read apart). */
async function* listModules(client: ApiClient, course: string): AsyncIterable<ApiObject> {
  for await (const m of client.ops.modules.list({ course_id: course, include: ['items'] })) {
    if (Array.isArray(m.items)) yield m;
    else {
      const items: ApiObject[] = [];
      for await (const i of client.ops.modules.listItems({ course_id: course, module_id: String(m.id) })) items.push(i);
      yield { ...m, items };
    }
  }
}

/**
 * Whether the file manages an object the API lists for its course: what title matching may claim
 * and `--prune` may remove. A section cross-listed here from another course is that course's; a
 * section with no SIS id (a course's default section) no file can name. An assignment that grades a
 * quiz or a topic is managed through them.
 */
export function manages(kind: KindName, o: ApiObject): boolean {
  switch (kind) {
    case 'sections':
      return (
        typeof o.sis_section_id === 'string' &&
        o.sis_section_id !== '' &&
        (o.nonxlist_course_id === null || o.nonxlist_course_id === undefined)
      );
    case 'assignments': {
      const types = Array.isArray(o.submission_types) ? (o.submission_types as string[]) : [];
      return !types.includes('online_quiz') && !types.includes('discussion_topic');
    }
    case 'topics':
      return o.is_announcement !== true;
    case 'announcements':
      return o.is_announcement === true;
    default:
      return true;
  }
}
