// Every noun of the command tree, in help order: its name, its summary, and how to load its verbs.
// A run loads only the noun it names, so start-up does not pay for the whole tree.
// A new noun adds its folder and a line here.
import { loadModel, type CommandModel, type CommandSpec, type LazyNoun, type Verbs } from '../model/command.js';
import { applyCommand, diffCommand } from './apply/index.js';
import { completionCommand } from './completion/index.js';
import { mcpCommand } from './mcp/index.js';
import { versionCommand } from './version/index.js';

export const lazyNouns: LazyNoun[] = [
  {
    name: 'users',
    summary: 'Users, profiles, settings, follows, page views, personal files, bulk import',
    load: async () => (await import('./users/index.js')).usersVerbs,
  },
  {
    name: 'accounts',
    summary: 'Accounts you administer',
    load: async () => (await import('./accounts/index.js')).accountsVerbs,
  },
  {
    name: 'courses',
    summary: 'Courses: find them, create them',
    load: async () => (await import('./courses/index.js')).coursesVerbs,
  },
  {
    name: 'assignments',
    summary: 'Assignments of a course',
    load: async () => (await import('./assignments/index.js')).assignmentsVerbs,
  },
  {
    name: 'rubrics',
    summary:
      'Rubrics of a course: criteria, ratings, the assignment each grades (grade by one with lms grade --rubric)',
    load: async () => (await import('./rubrics/index.js')).rubricsVerbs,
  },
  {
    name: 'assignment-groups',
    summary: 'Assignment groups of a course: order, weights in the final grade, drop rules',
    load: async () => (await import('./assignment-groups/index.js')).assignmentGroupsVerbs,
  },
  {
    name: 'pages',
    summary: 'Pages of a course: the front page, bodies, revisions',
    load: async () => (await import('./pages/index.js')).pagesVerbs,
  },
  { name: 'groups', summary: 'Groups of a course', load: async () => (await import('./groups/index.js')).groupsVerbs },
  {
    name: 'enrollments',
    summary: "Who is in a course, section or user's courses; enrol, conclude, deactivate, delete; roster import",
    load: async () => (await import('./enrollments/index.js')).enrollmentsVerbs,
  },
  {
    name: 'sis',
    summary: "Canvas's SIS import: a school's CSVs or a zip of them, run by the instance's job",
    load: async () => (await import('./sis/index.js')).sisVerbs,
  },
  {
    name: 'terms',
    summary: "A root account's enrollment terms, which courses and SIS files name",
    load: async () => (await import('./terms/index.js')).termsVerbs,
  },
  {
    name: 'sections',
    summary: 'Sections of a course, and cross-listing',
    load: async () => (await import('./sections/index.js')).sectionsVerbs,
  },
  {
    name: 'admins',
    summary: 'Account admins and their roles',
    load: async () => (await import('./admins/index.js')).adminsVerbs,
  },
  {
    name: 'topics',
    summary: 'Discussion topics of courses, groups and collection items: entries, replies, read state, subscriptions',
    load: async () => (await import('./topics/index.js')).topicsVerbs,
  },
  {
    name: 'announcements',
    summary: 'Announcements: the topics verbs with announcements fixed on',
    load: async () => (await import('./announcements/index.js')).announcementsVerbs,
  },
  {
    name: 'outcomes',
    summary: 'Outcome groups and links (global, account, course); import a whole tree from a file; print a tree',
    load: async () => (await import('./outcomes/index.js')).outcomesVerbs,
  },
  {
    name: 'quizzes',
    summary: 'Quizzes of a course: list, create, change, publish and unpublish',
    load: async () => (await import('./quizzes/index.js')).quizzesVerbs,
  },
  {
    name: 'modules',
    summary: "Modules of a course and their items; a student's progress through them",
    load: async () => (await import('./modules/index.js')).modulesVerbs,
  },
  { name: 'files', summary: 'Uploaded files', load: async () => (await import('./files/index.js')).filesVerbs },
  {
    name: 'submissions',
    summary: 'Submissions of an assignment or a student: list, read, submit, comment',
    load: async () => (await import('./submissions/index.js')).submissionsVerbs,
  },
  {
    name: 'grade',
    summary: 'Grade one submission, or a whole CSV gradebook (validated first, batched, read back)',
    load: async () => (await import('./grade/index.js')).gradeVerbs,
  },
  {
    name: 'history',
    summary: 'Gradebook history: days, graders, each change of a grade, the feed',
    load: async () => (await import('./history/index.js')).historyVerbs,
  },
  {
    name: 'activity',
    summary: 'Your activity stream: what changed in your courses and groups; --summary, --watch',
    load: async () => (await import('./activity/index.js')).activityVerbs,
  },
  {
    name: 'todo',
    summary: 'Your to-do list: assignments to grade and to turn in; set items aside',
    load: async () => (await import('./todo/index.js')).todoVerbs,
  },
  {
    name: 'upcoming',
    summary: 'Your calendar events and assignments due in the coming week',
    load: async () => (await import('./upcoming/index.js')).upcomingVerbs,
  },
  {
    name: 'calendar',
    summary: 'Calendar events: add one to a course, group or your own calendar',
    load: async () => (await import('./calendar/index.js')).calendarVerbs,
  },
  {
    name: 'conv',
    summary: 'Conversations: your inbox, sending to people or whole courses (async, followed live), batch updates',
    load: async () => (await import('./conv/index.js')).convVerbs,
  },
  {
    name: 'recipients',
    summary: 'Find the people and contexts you may message',
    load: async () => (await import('./recipients/index.js')).recipientsVerbs,
  },
  {
    name: 'progress',
    summary: 'Background jobs the API started: their progress, followed to the end',
    load: async () => (await import('./progress/index.js')).progressVerbs,
  },
  {
    name: 'export',
    summary: 'Write a course as the file lms apply reads (YAML or JSON)',
    load: async () => (await import('./export/index.js')).exportVerbs(commandModel),
  },
  {
    name: 'profile',
    summary: 'Named instances: base URL and token of each',
    load: async () => (await import('./profile/index.js')).profileVerbs,
  },
  {
    name: 'auth',
    summary: 'Log in through the browser (OAuth2), see who you are, log out; tokens kept in the OS keychain',
    load: async () => (await import('./auth/index.js')).authVerbs,
  },
  {
    name: 'api',
    summary: 'Raw API access, and the route table',
    load: async () => (await import('./api/index.js')).apiVerbs,
  },
  {
    name: 'log',
    summary: 'The audit log: every write lms sent from this machine, through any surface; --follow',
    load: async () => (await import('./log/index.js')).logVerbs,
  },
  {
    name: 'doctor',
    summary: 'Check the setup: Node, SQLite, the instance and its token, the clock, the files lms keeps',
    load: async () => (await import('./doctor/index.js')).doctorVerbs,
  },
  {
    name: 'mock',
    summary: 'The built-in mock instance: seed it, list its tokens, serve it over HTTP',
    load: async () => (await import('./mock/index.js')).mockVerbs,
  },
];

/**
 * Every command as data: what apply, export and MCP read verbs from, and completions describe,
 * handed to them here since they cannot import this registry that imports them. The top-level commands are read when
 * asked for, as they are made from this model.
 */
export const commandModel: CommandModel = {
  nouns: lazyNouns,
  get topLevel() {
    return topLevelCommands();
  },
};

/** The words of the top-level commands: what finding a run's noun, and the launcher, need of them. */
export const topLevelNames: readonly string[] = ['apply', 'diff', 'mcp', 'completion', 'version'];

let topLevel: readonly CommandSpec<never>[] | undefined;

/**
 * Top-level commands that are not nouns, in the order of topLevelNames; made when first asked for,
 * by a run that does not name a noun (diff's declaration looks up its routes' methods).
 */
export function topLevelCommands(): readonly CommandSpec<never>[] {
  topLevel ??= [
    applyCommand(commandModel),
    diffCommand(commandModel),
    mcpCommand(commandModel),
    completionCommand(commandModel),
    versionCommand,
  ].map((c) => c as CommandSpec<never>);
  return topLevel;
}

/** The whole tree, for the coverage test. */
export const loadAllNouns = (): Promise<Verbs> => loadModel(commandModel);
