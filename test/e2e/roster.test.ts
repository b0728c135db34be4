// End to end: the roster commands (enrollments, sections, admins) as the built binary runs them
// against `lms mock serve` — a saved profile for the admin, LMS_BASE_URL and LMS_TOKEN for the other seeded users.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, e2eWorkspace, ensureBuilt, serveMock, spawnLms, type Served } from '../helpers/e2e.js';

const TEACHER = '3~mock-tteacher';
const TA = '5~mock-tara'; // TA of BIO-101, limited to section A (1)
const STUDENT = '7~mock-sam';

const { env } = e2eWorkspace('e2e-roster');
let server: Served;

/**
 * The binary as the profile's admin, or, on the same server, as the seeded user whose token is given (`-p` would bring
 * the profile's own token).
 */
function lms(line: string[], token?: string) {
  return token
    ? spawnLms(line, { ...env, LMS_BASE_URL: server.url, LMS_TOKEN: token })
    : spawnLms(['-p', 'school', ...line], env);
}

/** Runs a command that must succeed with `-o json`, and returns what it printed. */
async function json(line: string[], token?: string): Promise<unknown> {
  const r = await lms([...line, '-o', 'json'], token);
  expect(r.exitCode, `${line.join(' ')}: ${r.stderr}`).toBe(0);
  return JSON.parse(r.stdout) as unknown;
}

/** Runs a command that must fail, and returns its exit code and (JSON) error. */
async function failure(line: string[], token?: string): Promise<{ exit: number | undefined; message: string }> {
  const r = await lms([...line, '-o', 'json'], token);
  expect(r.stdout).toBe('');
  return { exit: r.exitCode, message: (JSON.parse(r.stderr) as { message: string }).message };
}

beforeAll(async () => {
  await ensureBuilt();
  server = await serveMock(env, ['--quiet']);
  const added = await spawnLms(['profile', 'add', 'school', '--url', server.url, '--token-stdin'], env, ADMIN);
  expect(added.exitCode, added.stderr).toBe(0);
  expect(added.stderr).toContain('as Ada Admin (id 1)');
});

afterAll(async () => {
  await server?.stop();
});

describe('lms enrollments over HTTP', () => {
  it('lists a course, a section and a user with repeatable filters and a custom role', async () => {
    const [course, section, user, role] = await Promise.all([
      json([
        'enrollments',
        'list',
        '--course',
        'sis_course_id:CHEM-201',
        '--type',
        'student',
        '--type',
        'teacher',
        '--state',
        'active',
        '--state',
        'invited',
        '--fields',
        'user_id,type,enrollment_state',
      ]),
      json([
        'enrollments',
        'list',
        '--section',
        'sis_section_id:BIO-101-B',
        '--fields',
        'user_id,role,course_id,course_section_id',
      ]),
      json([
        'enrollments',
        'list',
        '--user',
        'sis_user_id:S-007',
        '--state',
        'active',
        '--fields',
        'course_id,type,enrollment_state',
      ]),
      json([
        'enrollments',
        'list',
        '--course',
        '5',
        '--role',
        'Grader',
        '--fields',
        'user_id,type,role,course_section_id',
      ]),
    ]);
    expect(course).toEqual([
      { user_id: 11, type: 'StudentEnrollment', enrollment_state: 'invited' },
      { user_id: 9, type: 'StudentEnrollment', enrollment_state: 'active' },
      { user_id: 7, type: 'StudentEnrollment', enrollment_state: 'active' },
      { user_id: 8, type: 'StudentEnrollment', enrollment_state: 'active' },
      { user_id: 3, type: 'TeacherEnrollment', enrollment_state: 'active' },
    ]);
    expect(section).toEqual(
      [10, 9, 12].map((user_id) => ({ user_id, role: 'StudentEnrollment', course_id: 1, course_section_id: 2 })),
    );
    expect(user).toEqual([
      { course_id: 1, type: 'StudentEnrollment', enrollment_state: 'active' },
      { course_id: 2, type: 'StudentEnrollment', enrollment_state: 'active' },
    ]);
    expect(role).toEqual([{ user_id: 4, type: 'TaEnrollment', role: 'Grader', course_section_id: 6 }]);
  });

  it(
    'adds through a course and a section, concludes, deactivates and deletes; students and section-limited TAs are ' +
      'refused (exit 3)',
    async () => {
      const fields = ['--fields', 'id,user_id,type,role,enrollment_state,course_id,course_section_id'];
      const active = (await json([
        'enrollments',
        'add',
        '--course',
        'sis_course_id:HIST-110',
        '--user',
        'sis_user_id:S-007',
        '--state',
        'active',
        ...fields,
      ])) as { id: number };
      expect(active).toEqual({
        id: active.id,
        user_id: 7,
        type: 'StudentEnrollment',
        role: 'StudentEnrollment',
        enrollment_state: 'active',
        course_id: 3,
        course_section_id: 4,
      });
      const grader = (await json([
        'enrollments',
        'add',
        '--section',
        'sis_section_id:BIO-101-B',
        '--user',
        '13',
        '--role',
        'Grader',
        ...fields,
      ])) as { id: number };
      expect(grader).toEqual({
        id: grader.id,
        user_id: 13,
        type: 'TaEnrollment',
        role: 'Grader',
        enrollment_state: 'invited',
        course_id: 1,
        course_section_id: 2,
      });

      const state = ['--fields', 'id,enrollment_state'];
      expect(await json(['enrollments', 'deactivate', String(active.id), '--course', '3', '--yes', ...state])).toEqual({
        id: active.id,
        enrollment_state: 'inactive',
      });
      expect(
        await json([
          'enrollments',
          'conclude',
          String(active.id),
          '--course',
          'sis_course_id:HIST-110',
          '--yes',
          ...state,
        ]),
      ).toEqual({ id: active.id, enrollment_state: 'completed' });
      const [completed, unconfirmed, missing] = await Promise.all([
        json(['enrollments', 'list', '--user', '7', '--state', 'completed', '--fields', 'id,course_id']),
        lms(['enrollments', 'delete', String(grader.id), '--course', '1']),
        failure(['enrollments', 'conclude', '99999', '--course', '1', '--yes']),
      ]);
      expect(completed).toContainEqual({ id: active.id, course_id: 3 });
      expect(missing).toEqual({ exit: 4, message: expect.stringContaining('enrollment 99999 not found') as string });
      expect(unconfirmed.exitCode).toBe(2);
      expect(unconfirmed.stderr).toContain('pass --yes to confirm');
      expect(await json(['enrollments', 'delete', String(grader.id), '--course', '1', '--yes', ...state])).toEqual({
        id: grader.id,
        enrollment_state: 'deleted',
      });
      expect(
        await json([
          'enrollments',
          'list',
          '--course',
          '1',
          '--role',
          'Grader',
          '--state',
          'invited',
          '--state',
          'active',
        ]),
      ).toEqual([]);

      // A student may not enrol anyone; Tara, a TA limited to BIO-101 section A, only in section A.
      const [student, otherSection, otherSectionViaCourse, ownSection] = await Promise.all([
        failure(['enrollments', 'add', '--course', '1', '--user', '12'], STUDENT),
        failure(['enrollments', 'add', '--section', 'sis_section_id:BIO-101-B', '--user', '13'], TA),
        failure(['enrollments', 'add', '--course', '1', '--section-id', '2', '--user', '13'], TA),
        json(
          [
            'enrollments',
            'add',
            '--section',
            'sis_section_id:BIO-101-A',
            '--user',
            '13',
            '--fields',
            'user_id,type,course_section_id,enrollment_state',
          ],
          TA,
        ),
      ]);
      expect(student).toEqual({
        exit: 3,
        message: expect.stringContaining('POST /api/v1/courses/1/enrollments failed with 401') as string,
      });
      expect(otherSection).toEqual({
        exit: 3,
        message: expect.stringContaining(
          'POST /api/v1/sections/sis_section_id:BIO-101-B/enrollments failed with 401',
        ) as string,
      });
      expect(otherSectionViaCourse.exit).toBe(3);
      expect(ownSection).toEqual({
        user_id: 13,
        type: 'StudentEnrollment',
        course_section_id: 1,
        enrollment_state: 'invited',
      });
      // Nothing the refused requests asked for exists.
      expect(
        await json(['enrollments', 'list', '--section', '2', '--state', 'invited', '--fields', 'user_id']),
      ).toEqual([]);
    },
  );
});

describe('lms sections over HTTP', () => {
  it(
    'creates, updates, cross-lists a section with its ' + 'enrollments, moves it back, and deletes it once empty',
    async () => {
      const cols = ['--fields', 'id,name,course_id,nonxlist_course_id,sis_section_id'];
      const created = (await json([
        'sections',
        'create',
        '--course',
        'sis_course_id:BIO-101',
        '--name',
        'Lab C',
        '--sis-id',
        'BIO-101-C',
        ...cols,
      ])) as { id: number };
      const id = String(created.id);
      expect(created).toEqual({
        id: created.id,
        name: 'Lab C',
        course_id: 1,
        nonxlist_course_id: null,
        sis_section_id: 'BIO-101-C',
      });
      expect(
        await json(['sections', 'update', 'sis_section_id:BIO-101-C', '--name', 'Lab C (online)', ...cols]),
      ).toEqual({ ...created, name: 'Lab C (online)' });
      const [inCourse, wrongCourse] = await Promise.all([
        json(['sections', 'get', 'sis_section_id:BIO-101-C', '--course', '1', '--fields', 'id,name']),
        failure(['sections', 'get', id, '--course', '2']),
      ]);
      expect(inCourse).toEqual({ id: created.id, name: 'Lab C (online)' });
      expect(wrongCourse.exit).toBe(4);

      const enrolled = (await Promise.all(
        [
          ['12', 'student'],
          ['11', 'ta'],
        ].map(([user, type]) =>
          json([
            'enrollments',
            'add',
            '--section',
            id,
            '--user',
            user,
            '--type',
            type,
            '--state',
            'active',
            '--fields',
            'id',
          ]),
        ),
      )) as { id: number }[];
      const members = ['enrollments', 'list', '--section', id, '--fields', 'id,user_id,course_id,course_section_id'];
      const inSection = (course: number) => [
        { id: enrolled[0].id, user_id: 12, course_id: course, course_section_id: created.id },
        { id: enrolled[1].id, user_id: 11, course_id: course, course_section_id: created.id },
      ];
      // Students first, then TAs: the API's order.
      expect(await json(members)).toEqual(inSection(1));

      expect(await json(['sections', 'crosslist', id, '--to', 'sis_course_id:BIO-101L', ...cols])).toEqual({
        ...created,
        name: 'Lab C (online)',
        course_id: 5,
        nonxlist_course_id: 1,
      });
      const [movedMembers, bioLab, labSections] = await Promise.all([
        json(members),
        json(['enrollments', 'list', '--course', '5', '--fields', 'id,course_section_id']),
        json(['sections', 'list', '--course', '5', '--fields', 'id,course_id,nonxlist_course_id']),
      ]);
      expect(movedMembers).toEqual(inSection(5));
      expect(bioLab).toEqual(
        expect.arrayContaining(enrolled.map((e) => ({ id: e.id, course_section_id: created.id }))),
      );
      expect(labSections).toContainEqual({ id: created.id, course_id: 5, nonxlist_course_id: 1 });

      expect(await json(['sections', 'uncrosslist', id, '--yes', '--fields', 'course_id,nonxlist_course_id'])).toEqual({
        course_id: 1,
        nonxlist_course_id: null,
      });
      expect(await json(members)).toEqual(inSection(1));
      const again = await failure(['sections', 'uncrosslist', id, '--yes']);
      expect(again).toEqual({ exit: 5, message: expect.stringContaining('section is not cross-listed') as string });

      const occupied = await failure(['sections', 'delete', id, '--yes']);
      expect(occupied).toEqual({
        exit: 5,
        message: expect.stringContaining("You can't delete a section that has enrollments") as string,
      });
      await Promise.all(
        enrolled.map((e) => json(['enrollments', 'delete', String(e.id), '--course', '1', '--yes', '--fields', 'id'])),
      );
      expect(await json(['sections', 'delete', id, '--yes', '--fields', 'id,name'])).toEqual({
        id: created.id,
        name: 'Lab C (online)',
      });
      const [gone, left] = await Promise.all([
        failure(['sections', 'get', id]),
        json(['sections', 'list', '--course', '1', '--fields', 'id']),
      ]);
      expect(gone.exit).toBe(4);
      expect(left).toEqual([{ id: 1 }, { id: 2 }, { id: 7 }]);
    },
  );
});

describe('lms admins over HTTP', () => {
  it('adds an admin who can act as one in the next command, and removes only a role the user holds', async () => {
    const admins = ['admins', 'list', '--account', '1', '--fields', 'user.id,role,workflow_state'];
    const [refused, notYet] = await Promise.all([
      failure(admins, TEACHER),
      failure(['enrollments', 'add', '--course', '3', '--user', '8'], TEACHER),
    ]);
    expect(refused.exit).toBe(3);
    expect(notYet.exit).toBe(3);

    expect(
      await json([
        'admins',
        'add',
        '--account',
        '1',
        '--user',
        'sis_login_id:tteacher',
        '--fields',
        'user.id,user.login_id,role,workflow_state',
      ]),
    ).toEqual({
      'user.id': 3,
      'user.login_id': 'tteacher',
      role: 'AccountAdmin',
      workflow_state: 'active',
    });
    // Tess now lists the admins and enrols into a course she does not teach.
    expect(await json(admins, TEACHER)).toEqual([
      { 'user.id': 1, role: 'AccountAdmin', workflow_state: 'active' },
      { 'user.id': 2, role: 'Helpdesk', workflow_state: 'active' },
      { 'user.id': 3, role: 'AccountAdmin', workflow_state: 'active' },
    ]);
    expect(
      await json(
        [
          'enrollments',
          'add',
          '--course',
          '3',
          '--user',
          '8',
          '--state',
          'active',
          '--fields',
          'user_id,course_id,enrollment_state',
        ],
        TEACHER,
      ),
    ).toEqual({
      user_id: 8,
      course_id: 3,
      enrollment_state: 'active',
    });

    expect(await failure(['admins', 'remove', '3', '--account', '1', '--role', 'Helpdesk', '--yes'])).toEqual({
      exit: 4,
      message: expect.stringContaining('admin user 3 not found') as string,
    });
    expect(
      await json(['admins', 'remove', '3', '--account', '1', '--yes', '--fields', 'user.id,role,workflow_state']),
    ).toEqual({ 'user.id': 3, role: 'AccountAdmin', workflow_state: 'deleted' });
    const [noLonger, notHeld] = await Promise.all([
      failure(admins, TEACHER),
      failure(['admins', 'remove', '3', '--account', '1', '--yes']),
    ]);
    expect(noLonger.exit).toBe(3);
    expect(notHeld.exit).toBe(4);
  });
});
