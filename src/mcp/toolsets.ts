// Toolsets: the tools of `lms mcp` in groups an assistant is offered whole, one group per area of
// nouns. The one table of the groups is NOUN_TOOLSET, keyed by noun (or top-level command) name; a
// noun that lands without a row fails test/mcp/toolsets.test.ts. Names of nouns still being written
// have their rows already, so they fall into their group when they land.
import { UsageError } from '../errors.js';
import { closest } from '../closest.js';

export const TOOLSETS = {
  courses: 'Courses, assignments, files; course files (apply, diff, export); background jobs',
  'course-content': 'Modules, pages, assignment groups, rubrics',
  roster: 'Users, accounts, enrollments, sections, groups',
  school: "The school's administration: SIS imports, enrollment terms, account admins",
  grading: 'Submissions, grades (one or a CSV), gradebook history',
  discussions: 'Discussion topics, entries and announcements',
  conversations: 'Conversations (the inbox) and finding recipients',
  quizzes: 'Quizzes',
  outcomes: 'Outcome groups, links and trees',
  planner: 'Activity stream, to-do list, upcoming events, calendar',
} as const satisfies Record<string, string>;

export type ToolsetName = keyof typeof TOOLSETS;

/** Each noun's toolset, by the noun's name (the first word of its tools' command lines). */
export const NOUN_TOOLSET: Readonly<Record<string, ToolsetName>> = {
  courses: 'courses',
  assignments: 'courses',
  files: 'courses',
  export: 'courses',
  apply: 'courses',
  diff: 'courses',
  progress: 'courses',
  modules: 'course-content',
  pages: 'course-content',
  'assignment-groups': 'course-content',
  rubrics: 'course-content',
  users: 'roster',
  accounts: 'roster',
  enrollments: 'roster',
  sections: 'roster',
  groups: 'roster',
  admins: 'school',
  sis: 'school',
  terms: 'school',
  submissions: 'grading',
  grade: 'grading',
  history: 'grading',
  topics: 'discussions',
  announcements: 'discussions',
  conv: 'conversations',
  recipients: 'conversations',
  quizzes: 'quizzes',
  outcomes: 'outcomes',
  activity: 'planner',
  todo: 'planner',
  upcoming: 'planner',
  calendar: 'planner',
};

/** What a server offers when no toolset is named: the jobs most sessions are about. */
export const DEFAULT_TOOLSETS: readonly ToolsetName[] = ['courses', 'roster', 'grading'];

export const toolsetOf = (noun: string): ToolsetName | undefined =>
  Object.hasOwn(NOUN_TOOLSET, noun) ? NOUN_TOOLSET[noun] : undefined;

export const isToolset = (name: string): name is ToolsetName => Object.hasOwn(TOOLSETS, name);

/**
 * The toolsets a list names (`roster,grading`, `all`, `default`), as given by --toolsets or
 * LMS_MCP_TOOLSETS; an unknown name is a usage error that names the known ones.
 */
export function parseToolsets(given: string, from: string): Set<ToolsetName> {
  const chosen = new Set<ToolsetName>();
  for (const word of given
    .split(',')
    .map((w) => w.trim())
    .filter(Boolean)) {
    if (word === 'all') for (const name of Object.keys(TOOLSETS) as ToolsetName[]) chosen.add(name);
    else if (word === 'default') for (const name of DEFAULT_TOOLSETS) chosen.add(name);
    else if (isToolset(word)) chosen.add(word);
    else {
      const near = closest(word, Object.keys(TOOLSETS));
      throw new UsageError(`${from}: no toolset named "${word}"`, {
        hint:
          `${near ? `did you mean ${near}? ` : ''}the toolsets are ${Object.keys(TOOLSETS).join(', ')}, all and ` +
          'default',
      });
    }
  }
  if (!chosen.size) throw new UsageError(`${from}: names no toolset`, { hint: 'name one, or all' });
  return chosen;
}
