// A generated large school goes through the repositories: what it adds is what the API then shows.
import { describe, expect, it } from 'vitest';
import { generateSchool } from '../../src/mock/generate.js';
import { collect, TOKENS, clientFor, freshMock } from '../helpers/mock-client.js';
import { value } from '../helpers/sql.js';

describe('generateSchool', () => {
  it(
    'adds users with logins and emails, courses with two ' + 'sections, a teacher each and students spread over them',
    async () => {
      const mock = freshMock();
      const made = generateSchool(mock.db, { users: 300, courses: 4, now: '2026-11-02T12:00:00Z' });
      expect(made).toEqual({ users: 300, courses: 4, enrollments: 4 + 100 + 200 * 2 });
      const client = clientFor(mock, TOKENS.admin);
      const users = await collect(client.ops.users.list({ account_id: 1 }));
      expect(users).toHaveLength(13 + 300);
      const sam = await client.ops.users.get({ id: 'sis_login_id:gen42' });
      expect(sam).toMatchObject({ login_id: 'gen42', sis_user_id: 'GEN-42', email: 'gen42@example.edu' });
      const course = (await collect(client.ops.courses.listAccount({ account_id: 1, search_term: 'GEN-1' })))[0];
      expect((await collect(client.ops.sections.list({ course_id: course.id }))).map((s) => s.sis_section_id)).toEqual([
        'GEN-C1-A',
        'GEN-C1-B',
      ]);
      const roster = await collect(client.ops.enrollments.listCourse({ course_id: course.id }));
      expect(roster.filter((e) => e.type === 'TeacherEnrollment')).toHaveLength(1);
      expect(roster.filter((e) => e.type === 'StudentEnrollment').length).toBeGreaterThan(100);
      expect(new Set(roster.map((e) => e.course_section_id)).size).toBe(2);
    },
  );

  it('indexes the generated users for search once, and leaves the index kept current afterwards', async () => {
    const mock = freshMock();
    generateSchool(mock.db, { users: 50, courses: 0, now: '2026-11-02T12:00:00Z' });
    const client = clientFor(mock, TOKENS.admin);
    const search = async (term: string) =>
      (await collect(client.ops.users.list({ account_id: 1, search_term: term }))).map((u) => u.login_id);
    expect(await search('gen37@example')).toEqual(['gen37']);
    expect(await search('GEN-41')).toEqual(['gen41']);
    // and in the recipient-name index, with the rows the triggers would have written
    const last = value(mock.db, `SELECT max(id) FROM users`) as number;
    const names = mock.db.prepare(`SELECT rowid, name FROM recipient_names WHERE rowid = ? * 4`).all(last);
    expect(names).toEqual([{ rowid: last * 4, name: expect.stringMatching(/ 50$/) }]);
    // The per-row triggers are back: a later change is searchable at once.
    const created = await client.ops.users.create({
      account_id: 1,
      user: { name: 'Zed Quimby' },
      pseudonym: { unique_id: 'zquimby' },
    });
    expect(await search('Quimby')).toEqual(['zquimby']);
    await client.ops.users.update({ id: created.id, user: { name: 'Zed Xylander' } });
    expect(await search('Xylander')).toEqual(['zquimby']);
  });
});
