// Applying: the plan, a confirmation, the changes in dependency order through the bulk engine; a
// second run that sends no write; --prune within the kinds a file lists; failures that stop only what
// depends on them; and re-runs that converge.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { NetworkError } from '../../src/errors.js';
import type { ApiRequest, ApiResponse } from '../../src/transport/types.js';
import { COURSE_YAML, counted, issueCourse, type Counted } from './helpers.js';

const json = <T = Record<string, unknown>>(s: Counted, line: string[]) =>
  s.run([...line, '-o', 'json']).then((r) => JSON.parse(r.stdout) as T);
const titles = (items: { title?: string; name?: string }[]) => items.map((i) => i.title ?? i.name).sort();

/** Replaces the mock's answer to requests `when` picks (after the counting wrapper sees them). */
function intercept(
  s: Counted,
  when: (req: ApiRequest) => boolean,
  answer: (req: ApiRequest, inner: (req: ApiRequest) => Promise<ApiResponse>) => Promise<ApiResponse>,
) {
  const inner = s.mock.handler;
  s.mock.handler = (req) => (when(req) ? answer(req, inner) : inner(req));
  return () => {
    s.mock.handler = inner;
  };
}

describe('lms apply', () => {
  it('makes the course, and a second run sends no write and says there is nothing to do', async () => {
    const s = counted();
    const path = issueCourse(s);
    const first = await s.run(['apply', '-f', path, '--yes']);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.stderr).toMatch(
      /^Applied 15 of 15 changes in [\d.]+ s: 14 created, 1 updated, 0 deleted or concluded, 0 failed, 0 not done\.\n$/,
    );
    const applied = JSON.parse(first.stdout);
    expect(applied.courses[0].actions.every((a: { status: string }) => a.status === 'done')).toBe(true);

    const course = await json(s, ['courses', 'get', 'sis_course_id:BIO-201']);
    expect(course).toMatchObject({
      name: 'Biology II',
      course_code: 'BIO-201',
      time_zone: 'America/Denver',
      account_id: 1,
    });
    const id = course.id as number;
    expect(titles(await json(s, ['sections', 'list', '--course', String(id)]))).toEqual(['Biology II', 'Lab A']);
    const b = await json(s, ['sections', 'get', 'sis_section_id:BIO-201-B']);
    expect(b).toMatchObject({ course_id: 1, nonxlist_course_id: id });
    const topics = await json<{ title: string; assignment_id: number | null; published: boolean; pinned: boolean }[]>(
      s,
      ['topics', 'list', '--course', String(id)],
    );
    const assignments = await json<{ id: number; name: string; points_possible: number }[]>(s, [
      'assignments',
      'list',
      '--course',
      String(id),
    ]);
    const lab1 = assignments.find((a) => a.name === 'Lab 1')!;
    expect(lab1.points_possible).toBe(10);
    expect(topics.find((t) => t.title === 'Lab 1 discussion')!.assignment_id).toBe(lab1.id);
    expect(topics.find((t) => t.title === 'Welcome')).toMatchObject({ published: true, pinned: true });
    const quizzes = await json<{ title: string; time_limit: number; published: boolean }[]>(s, [
      'quizzes',
      'list',
      '--course',
      String(id),
    ]);
    expect(quizzes).toMatchObject([{ title: 'Quiz 1', time_limit: 20, published: false }]);
    const roster = await json<{ user_id: number; role: string }[]>(s, [
      'enrollments',
      'list',
      '--course',
      String(id),
      '--state',
      'active',
      '--state',
      'invited',
    ]);
    expect(roster.map((e) => `${e.user_id} ${e.role}`).sort()).toEqual([
      '3 TeacherEnrollment',
      '7 StudentEnrollment',
      '8 StudentEnrollment',
      '9 StudentEnrollment',
    ]);

    const before = s.requests.length;
    const again = await s.run(['apply', '-f', path, '--yes'], { tty: true });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stdout).toContain('No changes: the instance matches the file (14 unchanged).');
    expect(s.requests.slice(before).filter((q) => q.method !== 'GET')).toEqual([]);
  });

  it('asks on a terminal and needs --yes in a script; a no changes nothing', async () => {
    const s = counted();
    const path = issueCourse(s);
    const script = await s.run(['apply', '-f', path]);
    expect(script.exitCode).toBe(2);
    expect(script.stderr).toContain('pass --yes to confirm when not running interactively');
    expect(s.writes()).toEqual([]);

    const confirm = vi.fn(async () => false);
    const no = await s.run(['apply', '-f', path], { tty: true, prompter: { secret: async () => '', confirm } });
    expect(no.exitCode).toBe(130);
    expect(confirm).toHaveBeenCalledWith(
      'Apply 15 changes to 1 course (14 to create, 1 to update, 0 to delete, 0 unchanged)?',
    );
    // The plan is shown before the question.
    expect(no.stdout).toContain('Plan: 14 to create, 1 to update, 0 to delete, 0 unchanged.');
    expect(s.writes()).toEqual([]);

    const yes = await s.run(['apply', '-f', path], {
      tty: true,
      prompter: { secret: async () => '', confirm: async () => true },
    });
    expect(yes.exitCode, yes.stderr).toBe(0);
    expect(yes.stderr).toMatch(
      /Applied 15 of 15 changes in [\d.]+ s: 14 created, 1 updated, 0 deleted or concluded, 0 failed, 0 not done\.\n$/,
    );
  });

  it('reads a folder of files (not the outcome trees they name), and stdin', async () => {
    const s = counted();
    s.file('a.yaml', 'courses:\n  - { sis_course_id: F-A, name: From a folder, outcomes: { file: outcomes.yaml } }\n');
    s.file('outcomes.yaml', 'outcomes:\n  - { title: Counts, vendor_guid: f-count }\n');
    s.file(
      'b.json',
      JSON.stringify({
        courses: [{ sis_course_id: 'F-B', name: 'From JSON', sections: [{ sis_section_id: 'F-B-1', name: 'One' }] }],
      }),
    );
    s.file('notes.txt', 'not read');
    const r = await s.run(['apply', '-f', s.dir, '--yes', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).courses.map((c: { sis_course_id: string }) => c.sis_course_id)).toEqual(['F-A', 'F-B']);
    expect(JSON.parse(r.stdout).summary).toMatchObject({ create: 4 });
    const piped = await s.run(['apply', '-f', '-', '--plan', '-o', 'json'], {
      stdin: 'courses:\n  - { sis_course_id: F-A, name: From a folder }\n',
    });
    expect(JSON.parse(piped.stdout)).toMatchObject({
      changes: false,
      courses: [{ sis_course_id: 'F-A', unchanged: { course: 1 } }],
    });
  });

  it('--prune removes only what the file dropped, of the kinds it lists, and asks first', async () => {
    const s = counted();
    const path = issueCourse(
      s,
      COURSE_YAML.replace(
        '      - { sis_section_id: BIO-201-B,',
        '      - { sis_section_id: BIO-201-C, name: Spare }\n      - { sis_section_id: BIO-201-B,',
      ),
    );
    expect((await s.run(['apply', '-f', path, '--yes'])).exitCode).toBe(0);
    // BIO-101 lists sections only: its topics, enrollments and the rest are not the file's business.
    const bio101Topics = await json<unknown[]>(s, ['topics', 'list', '--course', '1']);
    s.file('roster.csv', 'user,type,section,state\nsis_user_id:S-008,student,BIO-201-A,active\n');
    issueCourse(s, COURSE_YAML.replace(/ {6}- \{ key: welcome.*\n/, ''));
    s.file('roster.csv', 'user,type,section,state\nsis_user_id:S-008,student,BIO-201-A,active\n');

    const plan = await json<{ courses: { actions: { action: string; kind: string; key: string }[] }[] }>(s, [
      'diff',
      '-f',
      path,
      '--prune',
    ]);
    expect(plan.courses[0].actions.map((a) => `${a.action} ${a.kind} ${a.key}`)).toEqual([
      'delete section BIO-201-C',
      'conclude enrollment ravi StudentEnrollment',
      'delete topic Welcome',
    ]);
    expect((await s.run(['apply', '-f', path, '--prune'])).exitCode).toBe(2);

    const before = s.requests.length;
    const r = await s.run(['apply', '-f', path, '--prune', '--yes']);
    expect(r.exitCode, r.stderr).toBe(0);
    const writes = s.requests
      .slice(before)
      .filter((q) => q.method !== 'GET')
      .map((q) => `${q.method} ${new URL(q.url).pathname}`);
    expect(writes).toHaveLength(3);
    expect(writes.every((w) => w.startsWith('DELETE '))).toBe(true);
    const id = (await json(s, ['courses', 'get', 'sis_course_id:BIO-201'])).id as number;
    expect(titles(await json(s, ['topics', 'list', '--course', String(id)]))).toEqual(['Lab 1 discussion']);
    expect(titles(await json(s, ['sections', 'list', '--course', String(id)]))).toEqual(['Biology II', 'Lab A']);
    expect(await json<unknown[]>(s, ['topics', 'list', '--course', '1'])).toEqual(bio101Topics);
    const after = await json<{ courses: { actions: unknown[] }[] }>(s, ['diff', '-f', path, '--prune']);
    expect(after.courses[0].actions).toEqual([]);
  });

  it(
    '--prune keeps a graded topic whose assignment the ' + 'file still lists (deleting one deletes the other)',
    async () => {
      const s = counted();
      const path = issueCourse(s);
      expect((await s.run(['apply', '-f', path, '--yes'])).exitCode).toBe(0);
      issueCourse(s, COURSE_YAML.replace('      - { title: Lab 1 discussion, assignment: lab1 }\n', ''));
      const r = await s.run(['diff', '-f', path, '--prune', '-o', 'json']);
      const plan = JSON.parse(r.stdout);
      expect(plan.changes).toBe(false);
      expect(plan.courses[0].kept).toEqual([
        {
          kind: 'topics',
          count: 1,
          why: '"Lab 1 discussion" is graded by assignment lab1, which the file lists and deleting it would delete',
        },
      ]);
      expect(JSON.parse(r.stderr).warnings).toEqual([
        'course BIO-201: --prune leaves 1 topic: "Lab 1 discussion" is graded by assignment lab1, which the file ' +
          'lists and deleting it would delete',
      ]);
    },
  );

  it(
    'a failed change stops only what needs it; the ' + 'report says what was done and not; a re-run converges',
    async () => {
      const s = counted();
      const path = issueCourse(s);
      const restore = intercept(
        s,
        (q) =>
          q.method === 'POST' && /\/sections$/.test(new URL(q.url).pathname) && String(q.body).includes('BIO-201-A'),
        async () => ({
          status: 422,
          headers: { 'content-type': 'application/json' },
          body: '{"errors":[{"message":"refused for the test"}]}',
        }),
      );
      const r = await s.run(['apply', '-f', path, '--yes', '-o', 'json']);
      restore();
      expect(r.exitCode).toBe(1);
      const actions = JSON.parse(r.stdout).courses[0].actions as {
        action: string;
        kind: string;
        key: string;
        status: string;
        error?: string;
      }[];
      const status = (key: string) => actions.find((a) => a.key === key && a.action === 'create')?.status;
      expect(status('BIO-201-A')).toBe('failed');
      expect(status('sam student in BIO-201-A')).toBe('not_done');
      expect(actions.find((a) => a.key === 'sam student in BIO-201-A')!.error).toBe(
        'section BIO-201-A was not created',
      );
      expect(status('sis_user_id:S-008 student in BIO-201-A')).toBe('not_done');
      expect(status('ravi student')).toBe('done');
      expect(status('q1')).toBe('done');
      const report = JSON.parse(r.stderr);
      expect(report).toMatchObject({ exit_code: 1, message: '1 change failed, 2 not done' });
      expect(report.attention).toHaveLength(3);
      expect(report.notes).toEqual(['Running the same apply again makes only what is still left to do.']);

      const plan = await json<{ courses: { actions: { action: string; key: string }[] }[] }>(s, ['diff', '-f', path]);
      expect(plan.courses[0].actions.map((a) => `${a.action} ${a.key}`)).toEqual([
        'create BIO-201-A',
        'create sam student in BIO-201-A',
        'create sis_user_id:S-008 student in BIO-201-A',
      ]);
      expect((await s.run(['apply', '-f', path, '--yes'])).exitCode).toBe(0);
      const before = s.requests.length;
      expect((await s.run(['apply', '-f', path, '--yes'])).exitCode).toBe(0);
      expect(s.requests.slice(before).filter((q) => q.method !== 'GET')).toEqual([]);
    },
  );

  it('a write whose outcome is unknown is looked up, not sent again', async () => {
    const s = counted();
    const path = issueCourse(s);
    let dropped = 0;
    intercept(
      s,
      (q) => q.method === 'POST' && /discussion_topics$/.test(new URL(q.url).pathname),
      async (q, inner) => {
        await inner(q);
        dropped++;
        throw new NetworkError('socket hang up', { code: 'ECONNRESET' });
      },
    );
    const r = await s.run(['apply', '-f', path, '--yes']);
    expect(dropped).toBe(3);
    expect(r.exitCode, r.stderr).toBe(0);
    const id = (await json(s, ['courses', 'get', 'sis_course_id:BIO-201'])).id as number;
    expect(titles(await json(s, ['topics', 'list', '--course', String(id)]))).toEqual(['Lab 1 discussion', 'Welcome']);
  });

  it('keys: a topic matched by title is remembered, so renaming it later is an update', async () => {
    const s = counted();
    const path = issueCourse(s);
    expect((await s.run(['apply', '-f', path, '--yes'])).exitCode).toBe(0);
    // Another machine (a CI runner) has no state directory: objects are matched by title, then remembered.
    rmSync(join(s.dir, 'state'), { recursive: true, force: true });
    expect(JSON.parse((await s.run(['diff', '-f', path, '-o', 'json'])).stdout).changes).toBe(false);
    expect((await s.run(['apply', '-f', path, '--yes'])).exitCode).toBe(0);
    issueCourse(
      s,
      COURSE_YAML.replace('title: Welcome,', 'title: Welcome to Biology II,').replace(
        'title: Quiz 1,',
        'title: First quiz,',
      ),
    );
    const plan = await json<{ courses: { actions: { action: string; key: string }[] }[] }>(s, [
      'diff',
      '-f',
      path,
      '--prune',
    ]);
    expect(plan.courses[0].actions.map((a) => `${a.action} ${a.key}`)).toEqual(['update welcome', 'update q1']);
  });

  it('what no command can change is reported and fails the run, after everything else is done', async () => {
    const s = counted();
    // A topic's --require-initial-post switch turns it on; no verb turns it off again.
    const path = issueCourse(s, COURSE_YAML.replace('pinned: true }', 'pinned: true, require_initial_post: true }'));
    expect((await s.run(['apply', '-f', path, '--yes'])).exitCode).toBe(0);
    issueCourse(
      s,
      COURSE_YAML.replace('pinned: true }', 'pinned: true, require_initial_post: false }').replace(
        'time_limit: 20',
        'time_limit: 25',
      ),
    );
    const before = s.requests.length;
    const r = await s.run(['apply', '-f', path, '--yes']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(
      `${path}:17: update topic welcome: failed: cannot be changed: require_initial_post (no command sets ` +
        'require_initial_post to false on an existing one)',
    );
    expect(r.stderr).toContain('error: 1 change failed, 0 not done');
    expect(
      s.requests
        .slice(before)
        .filter((q) => q.method !== 'GET')
        .map((q) => q.method),
    ).toEqual(['PUT']);
  });

  it(
    'an edited course name and assignment field are ' + 'updates, made by courses update and assignments update',
    async () => {
      const s = counted();
      const path = issueCourse(s);
      expect((await s.run(['apply', '-f', path, '--yes'])).exitCode).toBe(0);
      issueCourse(
        s,
        COURSE_YAML.replace('name: Biology II', 'name: Biology Two').replace(
          'points_possible: 10',
          'points_possible: 12',
        ),
      );
      const diff = await s.run(['diff', '-f', path], { tty: true });
      expect(diff.stdout).toContain('  ~ course BIO-201 (id ');
      expect(diff.stdout).toContain('      name: "Biology II" → "Biology Two"\n');
      expect(diff.stdout).toContain('  ~ assignment lab1 (id ');
      expect(diff.stdout).toContain('      points_possible: 10 → 12\n');

      const before = s.requests.length;
      const r = await s.run(['apply', '-f', path, '--yes']);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stderr).toMatch(
        /^Applied 2 of 2 changes in [\d.]+ s: 0 created, 2 updated, 0 deleted or concluded, 0 failed, 0 not done\.\n$/,
      );
      const course = await json(s, ['courses', 'get', 'sis_course_id:BIO-201']);
      const id = course.id as number;
      const writes = s.requests.slice(before).filter((q) => q.method !== 'GET');
      const [lab1] = await json<{ id: number; name: string; points_possible: number }[]>(s, [
        'assignments',
        'list',
        '--course',
        String(id),
        '--search',
        'Lab 1',
      ]);
      expect(writes.map((q) => `${q.method} ${decodeURIComponent(new URL(q.url).pathname)}`)).toEqual([
        `PUT /api/v1/courses/${id}`,
        `PUT /api/v1/courses/sis_course_id:BIO-201/assignments/${lab1.id}`,
      ]);
      expect(course.name).toBe('Biology Two');
      expect(lab1).toMatchObject({ name: 'Lab 1', points_possible: 12 });
      expect(JSON.parse((await s.run(['diff', '-f', path, '-o', 'json'])).stdout).changes).toBe(false);
    },
  );

  it('--prune deletes an assignment the file dropped, but not one grading a topic the file still lists', async () => {
    const s = counted();
    const path = issueCourse(
      s,
      COURSE_YAML.replace(
        'published: true }\n    topics',
        'published: true }\n      - { key: lab2, name: Lab 2, points_possible: 5 }\n    topics',
      ),
    );
    expect((await s.run(['apply', '-f', path, '--yes'])).exitCode).toBe(0);
    const id = (await json(s, ['courses', 'get', 'sis_course_id:BIO-201'])).id as number;
    const names = async () => titles(await json(s, ['assignments', 'list', '--course', String(id)]));

    // Lab 2 is dropped. Lab 1 is dropped too, but "Lab 1 discussion" (kept, naming no assignment now) is graded by it.
    issueCourse(
      s,
      COURSE_YAML.replace(/ {6}- \{ key: lab1.*\n/, '').replace(
        '{ title: Lab 1 discussion, assignment: lab1 }',
        '{ title: Lab 1 discussion }',
      ),
    );
    const r = await s.run(['diff', '-f', path, '--prune', '-o', 'json']);
    const plan = JSON.parse(r.stdout);
    expect(
      plan.courses[0].actions.map(
        (a: { action: string; kind: string; key: string }) => `${a.action} ${a.kind} ${a.key}`,
      ),
    ).toEqual(['delete assignment Lab 2']);
    expect(plan.courses[0].kept).toEqual([
      {
        kind: 'assignments',
        count: 1,
        why: '"Lab 1" grades topic "Lab 1 discussion", which the file lists and deleting it would delete',
      },
    ]);
    const before = s.requests.length;
    const applied = await s.run(['apply', '-f', path, '--prune', '--yes']);
    expect(applied.exitCode, applied.stderr).toBe(0);
    expect(
      s.requests
        .slice(before)
        .filter((q) => q.method !== 'GET')
        .map((q) => q.method),
    ).toEqual(['DELETE']);
    // Quiz 1's assignment is the quiz's: no file lists it as an assignment, and --prune leaves it.
    expect(await names()).toEqual(['Lab 1', 'Quiz 1']);

    // Without the topic, both go: whichever is deleted first takes the other along, and the second finds it gone.
    issueCourse(
      s,
      COURSE_YAML.replace(/ {6}- \{ key: lab1.*\n/, '').replace(
        '      - { title: Lab 1 discussion, assignment: lab1 }\n',
        '',
      ),
    );
    const both = await s.run(['apply', '-f', path, '--prune', '--yes', '-o', 'json']);
    expect(both.exitCode, both.stderr).toBe(0);
    expect(
      JSON.parse(both.stdout).courses[0].actions.map(
        (a: { action: string; kind: string; key: string; status: string }) =>
          `${a.action} ${a.kind} ${a.key} ${a.status}`,
      ),
    ).toEqual(['delete assignment Lab 1 done', 'delete topic Lab 1 discussion done']);
    expect(await names()).toEqual(['Quiz 1']);
    expect(titles(await json(s, ['topics', 'list', '--course', String(id)]))).toEqual(['Welcome']);
  });

  it('--exit-code goes with --plan', async () => {
    const s = counted();
    const r = await s.run(['apply', '-f', issueCourse(s), '--exit-code']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--exit-code goes with --plan');
  });
});
