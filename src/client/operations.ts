// Every area's operations, bound to one client. A new area adds its file under areas/ and a line here.
import { bind, type Caller } from './operation.js';
import { users } from './areas/users.js';
import { accounts, assignments, courses, files, groups } from './areas/school.js';
import { admins, enrollments, sections } from './areas/roster.js';
import { progress } from './areas/progress.js';
import { grading, submissions } from './areas/submissions.js';
import { history } from './areas/history.js';

export const operationsByArea = { users, accounts, courses, assignments, groups, files, enrollments, sections, admins, progress, submissions, grading, history };

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
    progress: bind(caller, progress),
    submissions: bind(caller, submissions),
    grading: bind(caller, grading),
    history: bind(caller, history),
  };
}
