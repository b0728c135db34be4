// SIS imports in the mock: the job applies the files in Canvas's order, a row it cannot apply is a
// warning naming its file and row, batch mode deletes what the batch no longer names (within the
// change threshold), diffing leaves out what the last import of the data set already had, an
// aborted import applies nothing more, and a zip that unpacks too far is refused.
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/client/client.js';
import type { SisImport } from '../../src/spec/types/sis.js';
import { clientFor, collect, failure, freshMock, TOKENS } from '../helpers/mock-client.js';

const USERS = `user_id,login_id,first_name,last_name,email,status
u1,ada,Ada,Lovelace,ada@example.edu,active
u2,alan,Alan,Turing,alan@example.edu,active
`;
const COURSES = `course_id,short_name,long_name,term_id,status
C1,MATH-1,Mathematics One,2026-FA,active
C2,MATH-2,Mathematics Two,2026-FA,active
`;
const SECTIONS = `section_id,course_id,name,status
S1,C1,Section One,active
`;
const ENROLLMENTS = `course_id,section_id,user_id,role,status
C1,S1,u1,student,active
C1,,u2,teacher,active
C2,,u1,student,active
`;

const zip = (files: Record<string, string>) =>
  zipSync(Object.fromEntries(Object.entries(files).map(([n, t]) => [n, strToU8(t)])));

async function importFiles(
  client: ApiClient,
  bytes: Uint8Array,
  name: string,
  extra: Record<string, unknown> = {},
): Promise<SisImport> {
  const started = await client.ops.sis.create({
    account_id: 1,
    attachment: new File([new Uint8Array(bytes)], name),
    ...extra,
  } as Parameters<ApiClient['ops']['sis']['create']>[0]);
  return started;
}

async function finished(mock: ReturnType<typeof freshMock>, client: ApiClient, id: number): Promise<SisImport> {
  await mock.jobs.idle();
  return client.ops.sis.get({ account_id: 1, id });
}

describe('SIS imports', () => {
  it('applies a zip of users, courses, sections and enrollments, and the other routes then list them', async () => {
    const mock = freshMock();
    const admin = clientFor(mock, TOKENS.admin);
    const started = await importFiles(
      admin,
      zip({ 'enrollments.csv': ENROLLMENTS, 'users.csv': USERS, 'courses.csv': COURSES, 'sections.csv': SECTIONS }),
      'school.zip',
    );
    expect(started.workflow_state).toBe('created');
    const done = await finished(mock, admin, started.id);
    expect(done).toMatchObject({
      workflow_state: 'imported',
      progress: 100,
      data: {
        supplied_batches: ['course', 'enrollment', 'section', 'user'],
        counts: { users: 2, courses: 2, sections: 1, enrollments: 3 },
      },
    });
    const ada = await admin.ops.users.get({ id: 'sis_user_id:u1' });
    expect(ada.name).toBe('Ada Lovelace');
    const roster = await collect(admin.ops.enrollments.listCourse({ course_id: 'sis_course_id:C1' }));
    expect(roster.map((e) => [e.user_id, e.type]).sort()).toEqual(
      [
        [ada.id, 'StudentEnrollment'],
        [(await admin.ops.users.get({ id: 'sis_user_id:u2' })).id, 'TeacherEnrollment'],
      ].sort(),
    );
    const listed = await collect(admin.ops.sis.list({ account_id: 1 }));
    expect(listed[0]!.id).toBe(started.id);
    expect(listed.length).toBeGreaterThan(1);
  });

  it('turns a row it cannot apply into a warning naming the file and row, and applies the rest', async () => {
    const mock = freshMock();
    const admin = clientFor(mock, TOKENS.admin);
    await finished(
      mock,
      admin,
      (await importFiles(admin, zip({ 'users.csv': USERS, 'courses.csv': COURSES }), 'a.zip')).id,
    );
    const bad = `course_id,user_id,role,status\nC1,u1,student,active\nC1,nobody,student,active\nC1,u2,wizard,active\n`;
    const done = await finished(mock, admin, (await importFiles(admin, strToU8(bad), 'enrollments.csv')).id);
    expect(done.workflow_state).toBe('imported_with_messages');
    expect(done.data?.counts).toMatchObject({ enrollments: 1, warning_count: 2 });
    expect(done.processing_warnings).toEqual([
      ['enrollments.csv', expect.stringMatching(/^row 3: User not found/)],
      ['enrollments.csv', expect.stringMatching(/^row 4: Improper role "wizard"/)],
    ]);
  });

  it('reads the kinds it does not apply, a warning naming each file, and applies the rest', async () => {
    const mock = freshMock();
    const admin = clientFor(mock, TOKENS.admin);
    const files = {
      'users.csv': USERS,
      'xlists.csv': 'xlist_course_id,section_id,status\nC1,S1,active\nC1,S2,active\nC2,S3,active\n',
      'user_observers.csv': 'observer_id,student_id,status\nu2,u1,active\n',
      'admins.csv': 'user_id,account_id,role,status\nu1,,AccountAdmin,active\n',
    };
    const done = await finished(mock, admin, (await importFiles(admin, zip(files), 'mixed.zip')).id);
    expect(done).toMatchObject({
      workflow_state: 'imported_with_messages',
      data: {
        supplied_batches: ['admin', 'user_observer', 'user', 'xlist'],
        counts: { users: 2, xlists: 0, user_observers: 0, admins: 0, enrollments: 0 },
      },
    });
    expect(done.processing_warnings).toEqual([
      ['admins.csv', 'this mock does not apply admins rows; 1 row skipped'],
      ['user_observers.csv', 'this mock does not apply user_observers rows; 1 row skipped'],
      ['xlists.csv', 'this mock does not apply xlists rows; 3 rows skipped'],
    ]);
    expect((await admin.ops.users.get({ id: 'sis_user_id:u1' })).name).toBe('Ada Lovelace');
  });

  it("keeps a user's integration_id and a changed login_id, and skips a row whose login another holds", async () => {
    const mock = freshMock();
    const admin = clientFor(mock, TOKENS.admin);
    const head = 'user_id,login_id,full_name,status,integration_id\n';
    const run = async (rows: string) =>
      finished(mock, admin, (await importFiles(admin, strToU8(head + rows), 'users.csv')).id);
    await run('U-1,grace,Grace Hopper,active,IU1\nU-2,linus,Linus Torvalds,active,\n');
    expect(await admin.ops.users.get({ id: 'sis_user_id:U-1' })).toMatchObject({
      login_id: 'grace',
      integration_id: 'IU1',
    });
    // A new login_id renames the login; an empty integration_id leaves it as it was.
    const renamed = await run('U-1,ghopper,Grace Hopper,active,\nU-2,grace2,Linus Torvalds,active,IU1\n');
    expect(await admin.ops.users.get({ id: 'sis_user_id:U-1' })).toMatchObject({
      login_id: 'ghopper',
      integration_id: 'IU1',
    });
    expect(renamed.processing_warnings).toEqual([
      ['users.csv', 'row 3: user U-2: the integration_id IU1 is already in use by another user, skipping'],
    ]);
    const taken = await run('U-2,ghopper,Linus Torvalds,active,\n');
    expect(taken.processing_warnings).toEqual([
      ['users.csv', 'row 2: user U-2: the login ghopper is already taken by another user, skipping'],
    ]);
    expect(await admin.ops.users.get({ id: 'sis_user_id:U-2' })).toMatchObject({
      login_id: 'linus',
      integration_id: null,
    });
  });

  it("suspends a users.csv row's login in the state the logins route and user[event] share", async () => {
    const mock = freshMock();
    const admin = clientFor(mock, TOKENS.admin);
    const head = 'user_id,login_id,full_name,status\n';
    const run = async (rows: string) =>
      finished(mock, admin, (await importFiles(admin, strToU8(head + rows), 'users.csv')).id);
    const states = async () => {
      const user = await admin.ops.users.get({ id: 'sis_user_id:U-9' });
      return (await collect(admin.ops.users.logins({ user_id: user.id }))).map((l) => l.workflow_state);
    };
    await run('U-9,kay,Kay Suspended,suspended\n');
    expect(await states()).toEqual(['suspended']);
    const user = await admin.ops.users.get({ id: 'sis_user_id:U-9' });
    await admin.ops.users.update({ id: user.id, user: { event: 'unsuspend' } });
    expect(await states()).toEqual(['active']);
    await run('U-9,kay,Kay Suspended,suspended\n');
    expect(await states()).toEqual(['suspended']);
    await run('U-9,kay,Kay Suspended,active\n');
    expect(await states()).toEqual(['active']);
  });

  it('keeps a term with courses in it that terms.csv deletes, as a warning, and deletes an empty one', async () => {
    const mock = freshMock();
    const admin = clientFor(mock, TOKENS.admin);
    await finished(mock, admin, (await importFiles(admin, strToU8(COURSES), 'courses.csv')).id);
    const terms =
      'term_id,name,status,start_date,end_date\n2026-FA,Fall 2026,deleted,,\n2027-SP,Spring 2027,active,,\n';
    await finished(mock, admin, (await importFiles(admin, strToU8(terms), 'terms.csv')).id);
    const empty =
      'term_id,name,status,start_date,end_date\n2026-FA,Fall 2026,deleted,,\n2027-SP,Spring 2027,deleted,,\n';
    const done = await finished(mock, admin, (await importFiles(admin, strToU8(empty), 'terms.csv')).id);
    expect(done.processing_warnings).toEqual([
      ['terms.csv', 'row 2: term 2026-FA: Cannot delete a term with active courses'],
    ]);
    const left = await collect(admin.ops.terms.list({ account_id: 1, workflow_state: ['all'] }));
    expect(left.map((t) => [t.sis_term_id, t.workflow_state])).toContainEqual(['2026-FA', 'active']);
    expect(left.map((t) => [t.sis_term_id, t.workflow_state])).toContainEqual(['2027-SP', 'deleted']);
  });

  // As canvas-lms spec/lib/sis/csv/term_importer_spec.rb sets and removes an override.
  it(
    "sets a term's dates for one enrollment type from a " + 'date_override_enrollment_type row, and removes them',
    async () => {
      const mock = freshMock();
      const admin = clientFor(mock, TOKENS.admin);
      const header = 'term_id,name,status,start_date,end_date,date_override_enrollment_type\n';
      const set =
        header +
        'T001,Winter11,active,2011-01-05T00:00:00Z,2011-04-14T00:00:00Z,\n' +
        'T001,Winter11,active,2012-01-05T00:00:00Z,2012-04-14T00:00:00Z,StudentEnrollment\n' +
        'T404,,active,2012-01-05T00:00:00Z,,TeacherEnrollment\n';
      const done = await finished(mock, admin, (await importFiles(admin, strToU8(set), 'terms.csv')).id);
      expect(done.processing_warnings).toEqual([['terms.csv', 'row 4: Cannot set date override on non-existent term']]);
      const term = await admin.ops.terms.get({ account_id: 1, id: 'sis_term_id:T001' });
      expect(term).toMatchObject({
        start_at: '2011-01-05T00:00:00.000Z',
        end_at: '2011-04-14T00:00:00.000Z',
        overrides: { StudentEnrollment: { start_at: '2012-01-05T00:00:00.000Z', end_at: '2012-04-14T00:00:00.000Z' } },
      });
      const removed = `${header}T001,,deleted,,,StudentEnrollment\n`;
      await finished(mock, admin, (await importFiles(admin, strToU8(removed), 'terms.csv')).id);
      const after = await admin.ops.terms.get({ account_id: 1, id: 'sis_term_id:T001' });
      expect(after).toMatchObject({ workflow_state: 'active', overrides: {} });
    },
  );

  it('names a file it cannot read as a processing error, and fails when nothing could be imported', async () => {
    const mock = freshMock();
    const admin = clientFor(mock, TOKENS.admin);
    const done = await finished(mock, admin, (await importFiles(admin, strToU8('a,b\n1,2\n'), 'x.csv')).id);
    expect(done).toMatchObject({
      workflow_state: 'failed_with_messages',
      processing_errors: [['x.csv', "Couldn't find Canvas CSV import headers"]],
    });
  });

  it('in batch mode deletes what earlier imports made in the term and this one no longer names', async () => {
    const mock = freshMock();
    const admin = clientFor(mock, TOKENS.admin);
    const all = zip({
      'users.csv': USERS,
      'courses.csv': COURSES,
      'sections.csv': SECTIONS,
      'enrollments.csv': ENROLLMENTS,
    });
    await finished(mock, admin, (await importFiles(admin, all, 'all.zip')).id);
    const onlyC1 = zip({
      'courses.csv': COURSES.split('\n').slice(0, 2).join('\n'),
      'sections.csv': SECTIONS,
      'enrollments.csv': ENROLLMENTS.split('\n').slice(0, 3).join('\n'),
    });
    const batch = { batch_mode: true, batch_mode_term_id: 'sis_term_id:2026-FA' };
    // Half the term's courses would go: more than a 10% threshold allows, so nothing does.
    const held = await finished(
      mock,
      admin,
      (await importFiles(admin, onlyC1, 'c1.zip', { ...batch, change_threshold: 10 })).id,
    );
    expect(held.workflow_state).toBe('failed_with_messages');
    expect(held.processing_errors?.[0]?.[1]).toMatch(/^Change threshold exceeded/);
    expect((await admin.ops.courses.get({ id: 'sis_course_id:C2' })).workflow_state).not.toBe('deleted');

    const done = await finished(mock, admin, (await importFiles(admin, onlyC1, 'c1.zip', batch)).id);
    expect(done.processing_warnings).toBeUndefined();
    expect(done.workflow_state).toBe('imported');
    expect(done.data?.counts).toMatchObject({ batch_courses_deleted: 1, batch_enrollments_deleted: 1 });
    expect((await failure(admin.ops.courses.get({ id: 'sis_course_id:C2' }))).status).toBe(404);
    expect(
      await failure(importFiles(admin, onlyC1, 'c1.zip', { batch_mode: true, batch_mode_term_id: '999' })),
    ).toEqual({
      status: 400,
      body: { message: 'Batch mode specified, but the given batch_mode_term_id cannot be found.' },
    });
  });

  it(
    'diffs against the last import of the same data set: ' + 'unchanged rows are left out, missing ones deleted',
    async () => {
      const mock = freshMock();
      const admin = clientFor(mock, TOKENS.admin);
      const set = { diffing_data_set_identifier: 'nightly' };
      const first = await finished(
        mock,
        admin,
        (
          await importFiles(
            admin,
            zip({ 'users.csv': USERS, 'courses.csv': COURSES, 'enrollments.csv': ENROLLMENTS }),
            'n.zip',
            set,
          )
        ).id,
      );
      const fewer = ENROLLMENTS.split('\n').slice(0, 3).join('\n');
      const second = await finished(
        mock,
        admin,
        (
          await importFiles(
            admin,
            zip({ 'users.csv': USERS, 'courses.csv': COURSES, 'enrollments.csv': fewer }),
            'n.zip',
            set,
          )
        ).id,
      );
      expect(second).toMatchObject({ diffed_against_import_id: first.id, workflow_state: 'imported' });
      // Only the enrollment no longer listed was applied (as deleted); users and courses were unchanged.
      expect(second.data?.counts).toMatchObject({ users: 0, courses: 0, enrollments: 1 });
      const c2 = await collect(admin.ops.enrollments.listCourse({ course_id: 'sis_course_id:C2' }));
      expect(c2).toEqual([]);
    },
  );

  it(
    'drops what a diffed data set no longer lists as told: ' + 'enrollments inactive, users suspended; or skips it',
    async () => {
      const mock = freshMock();
      const admin = clientFor(mock, TOKENS.admin);
      const set = {
        diffing_data_set_identifier: 'nightly',
        diffing_drop_status: 'inactive',
        diffing_user_remove_status: 'suspended',
      };
      const all = zip({ 'users.csv': USERS, 'courses.csv': COURSES, 'enrollments.csv': ENROLLMENTS });
      const fewer = zip({
        'users.csv': USERS.split('\n').slice(0, 2).join('\n'),
        'courses.csv': COURSES,
        'enrollments.csv': ENROLLMENTS.split('\n').slice(0, 2).join('\n'),
      });
      const c2 = async () =>
        (
          await collect(
            admin.ops.enrollments.listCourse({
              course_id: 'sis_course_id:C2',
              state: ['inactive', 'active', 'deleted'],
            }),
          )
        ).map((e) => e.enrollment_state);
      const alanLogin = () =>
        mock.db.prepare(`SELECT workflow_state FROM pseudonyms WHERE sis_user_id = 'u2'`).get() as {
          workflow_state: string;
        };
      const run = async (files: Uint8Array, extra = {}) =>
        finished(mock, admin, (await importFiles(admin, files, 'n.zip', { ...set, ...extra })).id);

      await run(all);
      const skipped = await run(fewer, { skip_deletes: true });
      expect(skipped).toMatchObject({ skip_deletes: true, data: { counts: { users: 0, enrollments: 0 } } });
      expect(await c2()).toEqual(['active']);
      expect(alanLogin().workflow_state).toBe('active');

      await run(all);
      const dropped = await run(fewer);
      expect(dropped).toMatchObject({
        workflow_state: 'imported',
        diffing_drop_status: 'inactive',
        diffing_user_remove_status: 'suspended',
        data: { counts: { users: 1, enrollments: 2 } },
      });
      expect(await c2()).toEqual(['inactive']);
      expect(alanLogin().workflow_state).toBe('suspended');
      // Listed again, the login is active again.
      await run(all);
      expect(alanLogin().workflow_state).toBe('active');
    },
  );

  it('refuses a drop status it does not know, and multi-term batch mode without a change threshold', async () => {
    const mock = freshMock();
    const admin = clientFor(mock, TOKENS.admin);
    const csv = strToU8(USERS);
    for (const name of ['diffing_drop_status', 'diffing_user_remove_status', 'batch_mode_enrollment_drop_status'])
      expect(await failure(importFiles(admin, csv, 'users.csv', { [name]: 'gone' }))).toEqual({
        status: 400,
        body: { errors: [{ message: `Invalid ${name}` }] },
      });
    expect(
      await failure(importFiles(admin, csv, 'users.csv', { batch_mode: true, multi_term_batch_mode: true })),
    ).toMatchObject({
      status: 400,
      body: { errors: [{ message: 'change_threshold is required to use multi term_batch mode.' }] },
    });
  });

  it('in multi-term batch mode cleans up every term its terms.csv names, enrollments to the drop status', async () => {
    const mock = freshMock();
    const admin = clientFor(mock, TOKENS.admin);
    const TERMS = 'term_id,name,status\n2026-FA,Fall 2026,active\n2027-SP,Spring 2027,active\n';
    const twoTerms = `${COURSES}C3,MATH-3,Mathematics Three,2027-SP,active\n`;
    const enrolled = `${ENROLLMENTS}C3,,u2,student,active\n`;
    await finished(
      mock,
      admin,
      (
        await importFiles(
          admin,
          zip({
            'terms.csv': TERMS,
            'users.csv': USERS,
            'courses.csv': twoTerms,
            'sections.csv': SECTIONS,
            'enrollments.csv': enrolled,
          }),
          'all.zip',
        )
      ).id,
    );
    // The next batch names both terms, C1 and C3, and only Ada's enrollment in C1.
    const next = zip({
      'terms.csv': TERMS,
      'courses.csv': `${COURSES.split('\n').slice(0, 2).join('\n')}\nC3,MATH-3,Mathematics Three,2027-SP,active\n`,
      'sections.csv': SECTIONS,
      'enrollments.csv': ENROLLMENTS.split('\n').slice(0, 2).join('\n'),
    });
    const done = await finished(
      mock,
      admin,
      (
        await importFiles(admin, next, 'next.zip', {
          batch_mode: true,
          multi_term_batch_mode: true,
          change_threshold: 100,
          batch_mode_enrollment_drop_status: 'completed',
        })
      ).id,
    );
    expect(done.processing_warnings).toBeUndefined();
    expect(done).toMatchObject({
      workflow_state: 'imported',
      multi_term_batch_mode: true,
      batch_mode_enrollment_drop_status: 'completed',
      data: { counts: { batch_courses_deleted: 1 } },
    });
    // C2 (fall) went; C3's enrollment (spring) and Alan's in C1 were completed, not deleted.
    expect((await failure(admin.ops.courses.get({ id: 'sis_course_id:C2' }))).status).toBe(404);
    for (const course of ['sis_course_id:C1', 'sis_course_id:C3']) {
      const ended = await collect(admin.ops.enrollments.listCourse({ course_id: course, state: ['completed'] }));
      expect(
        ended.map((e) => e.type),
        course,
      ).toEqual([course.endsWith('C1') ? 'TeacherEnrollment' : 'StudentEnrollment']);
    }
    // Without a terms.csv there is nothing multi-term batch mode may replace: nothing is deleted.
    const none = await finished(
      mock,
      admin,
      (
        await importFiles(admin, strToU8(USERS), 'users.csv', {
          batch_mode: true,
          multi_term_batch_mode: true,
          change_threshold: 100,
        })
      ).id,
    );
    expect(none.processing_errors?.[0]?.[1]).toMatch(/^Multi-term batch mode needs the terms it replaces/);
    expect((await admin.ops.courses.get({ id: 'sis_course_id:C1' })).workflow_state).not.toBe('deleted');
  });

  it('aborts an import that has not ended: it applies nothing more', async () => {
    const mock = freshMock();
    const admin = clientFor(mock, TOKENS.admin);
    const started = await importFiles(admin, strToU8(USERS), 'users.csv');
    const aborted = await admin.ops.sis.abort({ account_id: 1, id: started.id });
    expect(aborted.workflow_state).toBe('aborted');
    const done = await finished(mock, admin, started.id);
    expect(done.workflow_state).toBe('aborted');
    expect((await failure(admin.ops.users.get({ id: 'sis_user_id:u1' }))).status).toBe(404);
    // Canvas aborts only an import that has not ended: one that has (imported, or this one now) is not found.
    expect((await failure(admin.ops.sis.abort({ account_id: 1, id: 1 }))).status).toBe(404);
    expect((await failure(admin.ops.sis.abort({ account_id: 1, id: started.id }))).status).toBe(404);
    expect((await admin.ops.sis.get({ account_id: 1, id: 1 })).workflow_state).toBe('imported');
  });

  it('refuses a zip that unpacks far past its own size, a sub-account, and anyone but an admin', async () => {
    const mock = freshMock();
    const admin = clientFor(mock, TOKENS.admin);
    const bomb = zipSync({ 'users.csv': new Uint8Array(8 * 1024 * 1024) }, { level: 9 });
    const refused = await failure(importFiles(admin, bomb, 'bomb.zip'));
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toMatch(/unpacks to more than/);
    expect(
      (await failure(admin.ops.sis.create({ account_id: 2, attachment: new File([USERS], 'users.csv') }))).status,
    ).toBe(400);
    const teacher = clientFor(mock, TOKENS.teacher);
    expect((await failure(teacher.ops.sis.list({ account_id: 1 }).next())).status).toBe(401);
  });
});
