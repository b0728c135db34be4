// A roster of many people new to a course is resolved from the account's list of users, a page at a
// time, rather than one lookup a person: on a throttled instance the plan's reads would otherwise
// double the time of the apply. Whoever the list does not show is still looked up, and a person who
// does not exist is still a problem with its line.
import { describe, expect, it } from 'vitest';
import { counted } from './helpers.js';

const PEOPLE = 80;

function roster(extra: string[] = []): string {
  const rows = Array.from(
    { length: PEOPLE },
    (_, i) => `${i % 2 ? `crowd-${i + 1}` : `sis_user_id:CROWD-${i + 1}`},student,,active`,
  );
  return ['user,type,section,state', ...rows, ...extra, ''].join('\n');
}

describe('the people a large roster names', () => {
  it('are found in the account list, a page at a time; the rest looked up; the missing reported', async () => {
    const s = counted();
    const users = s.file(
      'users.csv',
      [
        'name,login_id,sis_user_id',
        ...Array.from({ length: PEOPLE }, (_, i) => `Crowd ${i + 1},crowd-${i + 1},CROWD-${i + 1}`),
        '',
      ].join('\n'),
    );
    expect((await s.run(['users', 'import', '--account', '1', users])).exitCode).toBe(0);
    const course = s.file(
      'course.yaml',
      'courses:\n  - sis_course_id: CROWD-1\n    name: Crowd\n    account: sis_account_id:MSU\n    enrollments:\n' +
        '      - { csv: roster.csv }\n',
    );

    // sam is seeded, but by a login the list shows; 12 is an id; nobody-here does not exist.
    s.file('roster.csv', roster(['sam,teacher,,active', '12,ta,,active', 'nobody-here,student,,active']));
    const before = s.requests.length;
    const bad = await s.run(['diff', '-f', course]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(
      /roster\.csv has 1 problem on this instance; nothing was changed:\n.*roster\.csv:84: user "nobody-here" not found/,
    );
    const paths = s.requests.slice(before).map((q) => `${q.method} ${new URL(q.url).pathname}`);
    expect(paths.filter((p) => p.startsWith('GET /api/v1/accounts/1/users'))).toHaveLength(1);
    // Only the one the list could not show is looked up by itself.
    expect(paths.filter((p) => p.startsWith('GET /api/v1/users/'))).toEqual([
      'GET /api/v1/users/self',
      'GET /api/v1/users/sis_login_id:nobody-here',
    ]);

    s.file('roster.csv', roster(['sam,teacher,,active', '12,ta,,active']));
    const applied = await s.run(['apply', '-f', course, '--yes', '-o', 'json']);
    expect(applied.exitCode, applied.stderr).toBe(0);
    expect(JSON.parse(applied.stdout).summary).toMatchObject({ create: PEOPLE + 3 });
    const again = await s.run(['diff', '-f', course, '--exit-code']);
    expect(again.exitCode, again.stdout).toBe(0);
  });
});
