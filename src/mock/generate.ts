// A large school on demand (`lms mock seed --users N --courses M`), for people load-testing their
// scripts against the mock and for the benchmark: users with logins and emails, courses in the
// seeded sub-accounts with two sections each, a teacher per course and students spread over them.
// Everything goes through the areas' repositories in one transaction, so it obeys their rules.
import { builtInRole } from './school/accounts/repo.js';
import { createCourse } from './school/courses/repo.js';
import { createEnrollment } from './school/enrollments/repo.js';
import { bulkIndexes } from './areas/index.js';
import { createSection } from './school/sections/repo.js';
import { addChannel, addLogin, createUser } from './school/users/repo.js';
import { withIndexesDeferred } from './db/bulk.js';
import type { Db } from './db/open.js';

const FIRST = [
  'Ada',
  'Ben',
  'Chloe',
  'Dev',
  'Elif',
  'Femi',
  'Gus',
  'Hana',
  'Ines',
  'Jon',
  'Kira',
  'Luis',
  'Mei',
  'Nils',
  'Oona',
  'Priya',
];
const LAST = [
  'Adams',
  'Baker',
  'Chen',
  'Diaz',
  'Eze',
  'Fischer',
  'Garcia',
  'Haddad',
  'Ito',
  'Jensen',
  'Kowalski',
  'Lopez',
  'Moreau',
  'Novak',
  'Okafor',
  'Patel',
];

export interface Generated {
  users: number;
  courses: number;
  enrollments: number;
}

/** Adds `users` users and `courses` courses to a seeded school (ids continue after the seed's). */
export function generateSchool(db: Db, options: { users: number; courses: number; now: string }): Generated {
  const { now } = options;
  let enrollments = 0;
  db.transaction(
    () =>
      withIndexesDeferred(db, bulkIndexes, () => {
        const userIds: number[] = [];
        for (let n = 1; n <= options.users; n++) {
          const name = `${FIRST[n % FIRST.length]} ${LAST[Math.floor(n / FIRST.length) % LAST.length]} ${n}`;
          const id = createUser(db, { name, registered: true, now, locale: 'en', timeZone: 'America/Chicago' });
          addLogin(db, { user: id, account: 1, uniqueId: `gen${n}`, sis: `GEN-${n}`, now });
          addChannel(db, { user: id, type: 'email', address: `gen${n}@example.edu`, confirmed: true });
          userIds.push(id);
        }
        const student = builtInRole(db, 'StudentEnrollment').id;
        const teacher = builtInRole(db, 'TeacherEnrollment').id;
        const courses: { id: number; sections: number[] }[] = [];
        for (let c = 1; c <= options.courses; c++) {
          const id = createCourse(db, {
            account: c % 2 ? 2 : 3,
            root: 1,
            name: `Generated Course ${c}`,
            code: `GEN-${c}`,
            sis: `GEN-C${c}`,
            state: 'available',
            now,
          });
          const sections = ['A', 'B'].map((s, i) =>
            createSection(db, {
              course: id,
              root: 1,
              name: `GEN-${c} Section ${s}`,
              sis: `GEN-C${c}-${s}`,
              isDefault: i === 0,
              now,
            }),
          );
          courses.push({ id, sections });
          if (userIds.length) {
            createEnrollment(db, {
              user: userIds[(c - 1) % userIds.length],
              course: id,
              section: sections[0],
              root: 1,
              type: 'TeacherEnrollment',
              roleId: teacher,
              state: 'active',
              now,
            });
            enrollments++;
          }
        }
        // Each user is a student in one or two courses, round robin, alternating sections.
        if (courses.length) {
          userIds.forEach((user, i) => {
            for (const k of i % 3 === 0 ? [0] : [0, 1]) {
              const course = courses[(i + k) % courses.length];
              createEnrollment(db, {
                user,
                course: course.id,
                section: course.sections[i % 2],
                root: 1,
                type: 'StudentEnrollment',
                roleId: student,
                state: 'active',
                now,
              });
              enrollments++;
            }
          });
        }
      }),
    'immediate',
  );
  return { users: options.users, courses: options.courses, enrollments };
}
