// A roster of many people new to a course is resolved from the account's list of users, a page at a
// time, rather than one lookup a person: on a throttled instance the plan's reads would otherwise
// double the time of the apply. Whoever the list does not show is still looked up, and a person who
// does not exist is still a problem with its line.
import { describe, expect, it } from 'vitest';
import { counted, issueCourse } from './helpers.js';

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

describe("a roster file in Canvas's SIS enrollments.csv", () => {
  const SIS = 'course_id,section_id,user_id,role,status,associated_user_id\n';

  it("is read as enrollments import reads it: SIS ids, roles, the file's own sections by SIS id", async () => {
    const s = counted();
    const path = issueCourse(s);
    s.file('roster.csv', `${SIS}BIO-201,BIO-201-A,S-008,student,active,\nBIO-201,,T-003,ta,active,\n`);
    const r = await s.run(['apply', '-f', path, '--yes', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const listed = JSON.parse(
      (await s.run('enrollments list --course sis_course_id:BIO-201 --fields user_id,role,course_section_id -o json'))
        .stdout,
    ) as { user_id: number; role: string; course_section_id: number }[];
    const sections = JSON.parse((await s.run('sections list --course sis_course_id:BIO-201 -o json')).stdout) as {
      id: number;
      sis_section_id: string;
    }[];
    const labA = sections.find((x) => x.sis_section_id === 'BIO-201-A')!.id;
    expect(listed).toEqual(
      expect.arrayContaining([
        { user_id: 8, role: 'StudentEnrollment', course_section_id: labA },
        expect.objectContaining({ user_id: 3, role: 'TaEnrollment' }),
      ]),
    );
    const again = await s.run(['diff', '-f', path, '--exit-code']);
    expect(again.exitCode, again.stdout).toBe(0);
  });

  it('lists a roster file in Latin-1 as one problem of its line, with the command that converts it', async () => {
    const s = counted();
    const path = issueCourse(s);
    const rows = `${SIS}BIO-201,,S-008,student,active,\nBIO-201,,S-\xe9,student,active,\n`;
    s.file('roster.csv', Buffer.from(rows, 'latin1'));
    const r = await s.run(['diff', '-f', path]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/roster\.csv:3: not valid UTF-8: it looks like Latin-1 .*iconv -f ISO-8859-1 -t UTF-8 /);
    expect(r.stderr).not.toContain('\\u000a');
    expect(s.writes()).toEqual([]);
  });

  it('refuses, with their lines, rows a roster cannot hold, and sends nothing', async () => {
    const s = counted();
    const path = issueCourse(s);
    s.file(
      'roster.csv',
      `${SIS}BIO-201,,S-008,student,active,\nCHEM-201,,S-008,student,active,\n` +
        'BIO-201,,O-013,observer,active,S-008\nBIO-201,,S-007,student,deleted,\nBIO-201,,S-007,student,retired,\n',
    );
    const r = await s.run(['diff', '-f', path]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('roster.csv:3: course_id "CHEM-201" is not the course BIO-201');
    expect(r.stderr).toContain('roster.csv:4: associated_user_id "S-008": an apply file\'s roster cannot set it');
    expect(r.stderr).toContain('roster.csv:5: status "deleted": a roster lists who is enrolled');
    expect(r.stderr).toContain('roster.csv:6: status "retired" is not one of');
    expect(r.stderr).not.toContain('roster.csv:2');
    expect(s.writes()).toEqual([]);
  });
});
