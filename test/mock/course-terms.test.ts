// A course's term and integration id in the mock: a new course is in its root account's default
// term unless given one (an id or sis_term_id:X; one not found is a 404), an integration id is held
// by one course of the root account at most, an account's course list narrows to a term, an SIS
// import's courses.csv sets both, and a database made before courses had terms carries its courses
// into the default term.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strToU8 } from 'fflate';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/client/client.js';
import { loadMock, type MockRuntime } from '../../src/mock/runtime.js';
import { clientFor, collect, failure, freshMock, statusOf, TOKENS } from '../helpers/mock-client.js';
import { value } from '../helpers/sql.js';

let mock: MockRuntime;
beforeEach(() => {
  mock = freshMock();
});

const as = (token: string): ApiClient['ops'] => clientFor(mock, token).ops;
const admin = () => as(TOKENS.admin);
const termId = (sis: string) => value(mock.db, `SELECT id FROM enrollment_terms WHERE sis_term_id = ?`, sis);
const defaultTerm = (db = mock.db) => value(db, `SELECT id FROM enrollment_terms WHERE name = 'Default Term'`);

describe("a course's term", () => {
  it("is its root account's default term unless it is given one", async () => {
    expect(defaultTerm()).toEqual(expect.any(Number));
    expect(await admin().courses.get({ id: 1 })).toMatchObject({
      enrollment_term_id: defaultTerm(),
      integration_id: null,
    });
    const made = await admin().courses.create({ account_id: 1, course: { name: 'Astronomy' } });
    expect(made).toMatchObject({ enrollment_term_id: defaultTerm(), integration_id: null });
  });

  it('is given by id or by sis_term_id:X, on create and on update', async () => {
    const fall = termId('2026-FA');
    expect(fall).not.toBe(defaultTerm());
    const made = await admin().courses.create({
      account_id: 1,
      course: { name: 'Astronomy', term_id: 'sis_term_id:2026-FA' },
    });
    expect(made.enrollment_term_id).toBe(fall);
    expect(await admin().courses.update({ id: made.id, course: { term_id: String(defaultTerm()) } })).toMatchObject({
      enrollment_term_id: defaultTerm(),
    });
    expect(await admin().courses.update({ id: made.id, course: { name: 'Stars' } })).toMatchObject({
      enrollment_term_id: defaultTerm(),
    });
    expect(await admin().courses.get({ id: made.id })).toMatchObject({ enrollment_term_id: defaultTerm() });
  });

  it("narrows an account's course list to one term, by id or sis_term_id:X; a term it lacks is a 404", async () => {
    const made = await admin().courses.create({
      account_id: 2,
      course: { name: 'Astronomy', term_id: 'sis_term_id:2026-FA' },
    });
    const inFall = await collect(
      admin().courses.listAccount({ account_id: 1, enrollment_term_id: 'sis_term_id:2026-FA' }),
    );
    expect(inFall.map((c) => c.id)).toEqual([made.id]);
    const byId = await collect(
      admin().courses.listAccount({ account_id: 1, enrollment_term_id: String(defaultTerm()) }),
    );
    expect(byId.length).toBeGreaterThan(1);
    expect(byId.map((c) => c.id)).not.toContain(made.id);
    expect(
      await statusOf(collect(admin().courses.listAccount({ account_id: 1, enrollment_term_id: 'sis_term_id:1999' }))),
    ).toBe(404);
  });

  it("not found among the root account's terms is a 404, and nothing is made or changed", async () => {
    const before = value(mock.db, 'SELECT count(*) FROM courses');
    const gone = { status: 404, body: { errors: [{ message: 'The specified resource does not exist.' }] } };
    for (const term_id of ['sis_term_id:1999-SP', '999', 'spring'])
      expect(await failure(admin().courses.create({ account_id: 1, course: { name: 'X', term_id } }))).toEqual(gone);
    expect(value(mock.db, 'SELECT count(*) FROM courses')).toBe(before);
    expect(await failure(admin().courses.update({ id: 3, course: { name: 'Y', term_id: '999' } }))).toEqual(gone);
    expect(await admin().courses.get({ id: 3 })).toMatchObject({ enrollment_term_id: defaultTerm() });
  });
});

describe("a course's integration id", () => {
  const taken = (id: string) => ({
    status: 400,
    body: {
      errors: {
        course: {
          integration_id: [
            { attribute: 'integration_id', type: 'taken', message: `Integration ID "${id}" is already in use` },
          ],
        },
      },
    },
  });

  it('is set on create and update, cleared with "", and held by one course of the root account', async () => {
    const made = await admin().courses.create({
      account_id: 1,
      course: { name: 'Astronomy', integration_id: 'int-1' },
    });
    expect(made.integration_id).toBe('int-1');
    expect(
      await failure(admin().courses.create({ account_id: 1, course: { name: 'B', integration_id: 'int-1' } })),
    ).toEqual(taken('int-1'));
    expect(await failure(admin().courses.update({ id: 3, course: { integration_id: 'int-1' } }))).toEqual(
      taken('int-1'),
    );
    // Its own id again is no clash.
    expect(await admin().courses.update({ id: made.id, course: { integration_id: 'int-1' } })).toMatchObject({
      integration_id: 'int-1',
    });
    expect(await admin().courses.update({ id: made.id, course: { integration_id: '' } })).toMatchObject({
      integration_id: null,
    });
    expect(await admin().courses.update({ id: 3, course: { integration_id: 'int-1' } })).toMatchObject({
      integration_id: 'int-1',
    });
    expect(await admin().courses.get({ id: 3 })).toMatchObject({ integration_id: 'int-1' });
  });

  it('asks the right to manage SIS data, as the SIS id does', async () => {
    expect(await statusOf(as(TOKENS.teacher).courses.update({ id: 1, course: { integration_id: 'x' } }))).toBe(401);
    expect(await admin().courses.get({ id: 1 })).toMatchObject({ integration_id: null });
  });
});

describe('an SIS import of courses.csv', () => {
  it("sets each course's term by its term_id and its integration_id; a taken one is a warning", async () => {
    const client = clientFor(mock, TOKENS.admin);
    const csv =
      'course_id,short_name,long_name,term_id,status,integration_id\n' +
      'AST-1,AST-1,Astronomy,2026-FA,active,int-ast\n' +
      'AST-2,AST-2,Astrophysics,,active,\n' +
      'AST-3,AST-3,Cosmology,,active,int-ast\n';
    const started = await client.ops.sis.create({
      account_id: 1,
      attachment: new File([new Uint8Array(strToU8(csv))], 'courses.csv'),
    } as Parameters<ApiClient['ops']['sis']['create']>[0]);
    await mock.jobs.idle();
    const done = await client.ops.sis.get({ account_id: 1, id: started.id });
    expect(done.processing_warnings).toEqual([
      ['courses.csv', expect.stringContaining('the integration_id int-ast is already in use by another course')],
    ]);
    expect(await admin().courses.get({ id: 'sis_course_id:AST-1' })).toMatchObject({
      enrollment_term_id: termId('2026-FA'),
      integration_id: 'int-ast',
    });
    expect(await admin().courses.get({ id: 'sis_course_id:AST-2' })).toMatchObject({
      enrollment_term_id: defaultTerm(),
      integration_id: null,
    });
    expect(await statusOf(admin().courses.get({ id: 'sis_course_id:AST-3' }))).toBe(404);
  });
});

describe('a database made before courses had terms', () => {
  it("is carried over with its courses in the root account's default term", async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'lms-terms-')), 'old.db');
    const first = await loadMock(path, {});
    first.db.pragma('foreign_keys = OFF');
    const columns = (first.db.prepare('PRAGMA table_info(courses)').all() as { name: string }[])
      .map((c) => c.name)
      .filter((c) => c !== 'enrollment_term_id' && c !== 'integration_id');
    first.db.exec(
      `CREATE TABLE courses_before AS SELECT ${columns.join(', ')} FROM courses; DROP TABLE courses; ` +
        `ALTER TABLE courses_before RENAME TO courses; DELETE FROM enrollment_terms WHERE name = 'Default Term'`,
    );
    first.db.pragma('user_version = 1');
    first.db.close();
    const reopened = await loadMock(path, {});
    expect(reopened).toMatchObject({ created: false, rebuilt: 'carried' });
    const term = defaultTerm(reopened.db);
    expect(term).toEqual(expect.any(Number));
    // Every course in the default term of its own root account.
    expect(
      value(
        reopened.db,
        `SELECT count(*) FROM courses c WHERE NOT EXISTS (SELECT 1 FROM enrollment_terms t WHERE ` +
          `t.id = c.enrollment_term_id AND t.root_account_id = c.root_account_id AND t.name = 'Default Term')`,
      ),
    ).toBe(0);
    expect(value(reopened.db, `SELECT count(*) FROM enrollment_terms WHERE sis_term_id = '2026-FA'`)).toBe(1);
    expect(await clientFor(reopened, TOKENS.admin).ops.courses.get({ id: 1 })).toMatchObject({
      enrollment_term_id: term,
      integration_id: null,
    });
    reopened.db.close();
  });
});
