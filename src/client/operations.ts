// Every area's operations, bound to one client. A new area adds its file under areas/ and a line here.
import { bind, type Caller } from './operation.js';
import { users } from './areas/users.js';
import { accounts, assignments, courses, files, groups } from './areas/school.js';
import { admins, enrollments, sections } from './areas/roster.js';
import { discussions } from './areas/discussions.js';
import { progress } from './areas/progress.js';
import { calendar } from './areas/calendar.js';
import { conversations } from './areas/conversations.js';
import { search } from './areas/search.js';
import { quizzes } from './areas/quizzes.js';
import { outcomes } from './areas/outcomes.js';
import { grading, submissions } from './areas/submissions.js';
import { history } from './areas/history.js';
import { oauth } from './areas/oauth.js';

export const operationsByArea = { users, accounts, courses, assignments, groups, files, enrollments, sections, admins, discussions, progress, calendar, conversations, search, quizzes, outcomes, submissions, grading, history, oauth };

export function bindOperations(caller: Caller) {
  return {
    users: bind(caller, users),
    accounts: bind(caller, accounts),
    courses: bind(caller, courses),
    assignments: bind(caller, assignments),
    groups: bind(caller, groups),
    files: bind(caller, files),
    enrollments: bind(caller, enrollments),
    sections: bind(caller, sections),
    admins: bind(caller, admins),
    discussions: bind(caller, discussions),
    progress: bind(caller, progress),
    calendar: bind(caller, calendar),
    conversations: bind(caller, conversations),
    search: bind(caller, search),
    quizzes: bind(caller, quizzes),
    outcomes: bind(caller, outcomes),
    submissions: bind(caller, submissions),
    grading: bind(caller, grading),
    history: bind(caller, history),
    oauth: bind(caller, oauth),
  };
}
