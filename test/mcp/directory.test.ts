// Who the pseudonymising server takes for staff, asked of a fake instance: an admin's result that
// concerns no course asks a bounded number of courses, never every course of the account.
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/client/client.js';
import { instanceDirectory } from '../../src/mcp/directory.js';

async function* items<T>(list: T[]): AsyncIterable<T> {
  yield* list;
}

/** An account of 500 courses, each taught by teacher 1000+n; user 7 studies. */
function instance(asked: string[]) {
  const courses = Array.from({ length: 500 }, (_, n) => ({ id: n + 1 }));
  const ops = {
    accounts: { list: () => items([{ id: 1 }]) },
    admins: { list: () => items([{ user: { id: 1, name: 'Ada Admin' } }]) },
    courses: { list: () => items([]), listAccount: () => items(courses) },
    enrollments: {
      listCourse: ({ course_id }: { course_id: string }) => {
        asked.push(course_id);
        return items([
          {
            user_id: 1000 + Number(course_id),
            type: 'TeacherEnrollment',
            user: { id: 1000 + Number(course_id), name: `Teacher ${course_id}` },
          },
        ]);
      },
      listUser: () => items([]),
    },
    users: { get: async () => undefined },
  };
  return async () => ({ ops }) as unknown as ApiClient;
}

describe('the staff directory', () => {
  it(
    'asks at most 50 courses for their staff when a result ' + 'concerns none; staff beyond them count as students',
    async () => {
      const asked: string[] = [];
      const roles = await instanceDirectory(instance(asked)).rolesOf(['1', '1001', '1400', '7'], []);
      expect(asked.length).toBe(50);
      expect(roles.get('1')?.staff).toBe(true);
      expect(roles.get('1001')?.staff).toBe(true);
      expect(roles.get('1400')?.staff).toBe(false);
      expect(roles.get('7')?.staff).toBe(false);
    },
  );

  it('asks the course a result concerns, however many the account holds', async () => {
    const asked: string[] = [];
    const roles = await instanceDirectory(instance(asked)).rolesOf(['1400'], ['400']);
    expect(asked).toEqual(['400']);
    expect(roles.get('1400')?.staff).toBe(true);
  });
});
