// `lms courses import` and `lms sections import` of Canvas's SIS courses.csv and sections.csv: rows
// matched by SIS id (changed only where they differ, no write when nothing does), references checked
// first with their lines, completed and deleted statuses asked about, failed rows back out in the
// file's columns and dialect. The files are shaped as canvas-lms doc/api/sis_csv.md documents them
// (its samples' columns and statuses), with the seeded school's SIS ids.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApiRequest } from '../../src/transport/types.js';
import { session } from '../helpers/run-lms.js';

const dir = mkdtempSync(join(tmpdir(), 'lms-sis-cs-'));

function file(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

function writesOf(lms: ReturnType<typeof session>): ApiRequest[] {
  const writes: ApiRequest[] = [];
  const handler = lms.mock.handler;
  lms.mock.handler = (req) => {
    if (req.method !== 'GET') writes.push(req);
    return handler(req);
  };
  return writes;
}

const json = <T>(r: { stdout: string }) => JSON.parse(r.stdout) as T;

// courses.csv as sis_csv.md's sample has it (course_id,short_name,long_name,account_id,term_id,status).
const COURSES =
  'course_id,short_name,long_name,account_id,term_id,status,start_date,end_date\n' +
  'E411208,ENG115,English 115: Intro to English,MSU-HUM,,active,,\n' +
  'R001104,BIO300,"Biology 300: Rocking it, Bio Style",MSU-SCI,,published,2026-09-01T00:00:00Z,\n' +
  'A110035,ART105,"Art 105: ""Art as a Medium""",,,active,,\n';

describe('lms courses import of a SIS courses.csv', () => {
  it('checks every row and every account first, with lines, and sends nothing on a problem', async () => {
    const lms = session();
    const writes = writesOf(lms);
    const bad = await lms.run([
      'courses',
      'import',
      file(
        'bad-courses.csv',
        'course_id,short_name,long_name,term_id,status,start_date,course_format\n' +
          'C1,,Maths,,retired,soon,\nC2,M2,Maths Two,2026-FA,active,,online\n',
      ),
    ]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('bad-courses.csv:2: short_name is empty');
    expect(bad.stderr).toContain(
      'bad-courses.csv:2: status "retired" is not one of active, deleted, completed, published',
    );
    expect(bad.stderr).toContain('bad-courses.csv:2: start_date "soon" is not an ISO 8601 date');
    expect(bad.stderr).not.toContain('term_id');
    expect(bad.stderr).toContain('bad-courses.csv:3: course_format "online"');
    const refs = await lms.run([
      'courses',
      'import',
      file(
        'refs.csv',
        'course_id,short_name,long_name,account_id,status\nC1,M1,Maths,NOPE,active\nC2,M2,Two,MSU,active\n',
      ),
    ]);
    expect(refs.exitCode).toBe(2);
    expect(refs.stderr).toContain('refs.csv:2: account "sis_account_id:NOPE" not found');
    expect(refs.stderr).not.toContain('refs.csv:3');
    const other = await lms.run([
      'courses',
      'import',
      file('users.csv', 'user_id,login_id,full_name,status\nu1,ada,Ada,active\n'),
    ]);
    expect(other.exitCode).toBe(2);
    expect(other.stderr).toContain('users.csv is a SIS users.csv, not a courses.csv: lms users import reads it');
    expect(writes).toEqual([]);
  });

  it('sets the term (by SIS term id) and integration id; an unknown term is a problem before any write', async () => {
    const lms = session();
    const header = 'course_id,short_name,long_name,account_id,term_id,status,integration_id,start_date,end_date\n';
    const unknown = file(
      'terms-unknown.csv',
      `${header}T1,AST1,Astronomy,,2026-FA,active,int-t1,,\nT2,AST2,Astrophysics,,1999-SP,active,,,\n`,
    );
    const writes = writesOf(lms);
    for (const line of [
      ['courses', 'import', unknown],
      ['courses', 'import', '--dry-run', unknown],
    ]) {
      const refused = await lms.run(line);
      expect(refused.exitCode).toBe(2);
      expect(refused.stderr).toContain(`${unknown}:3: term "1999-SP" not found`);
    }
    expect(writes).toEqual([]);

    const csv = file('terms.csv', `${header}T1,AST1,Astronomy,,2026-FA,active,int-t1,,\n`);
    const r = await lms.run(['courses', 'import', csv, '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(json(r)).toMatchObject({ created: 1 });
    const sent = new URLSearchParams(String(writes[0].body));
    expect([sent.get('course[term_id]'), sent.get('course[integration_id]')]).toEqual([
      'sis_term_id:2026-FA',
      'int-t1',
    ]);
    const fall = json<{ enrollment_term_id: number }>(await lms.run('courses get sis_course_id:T1 -o json'));
    expect(fall).toMatchObject({ integration_id: 'int-t1', enrollment_term_id: expect.any(Number) });
    expect(fall.enrollment_term_id).not.toBe(
      json<{ enrollment_term_id: number }>(await lms.run('courses get 1 -o json')).enrollment_term_id,
    );
    // Another integration id differs, and --update sends it, and not the term, which is the same.
    const changed = file('terms-changed.csv', readFileSync(csv, 'utf8').replace('int-t1', 'int-t1b'));
    writes.length = 0;
    const updated = await lms.run(['courses', 'import', '--update', changed, '-o', 'json']);
    expect(json(updated)).toMatchObject({ updated: 1 });
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatchObject({ method: 'PUT' });
    expect(new URLSearchParams(String(writes[0].body)).has('course[term_id]')).toBe(false);
    expect(json<Record<string, unknown>>(await lms.run('courses get sis_course_id:T1 -o json'))).toMatchObject({
      integration_id: 'int-t1b',
      enrollment_term_id: fall.enrollment_term_id,
    });
  });

  it('creates by SIS id in the named account, then updates only what differs, and nothing else', async () => {
    const lms = session();
    const path = file('courses.csv', COURSES);
    const dry = await lms.run(['courses', 'import', '--dry-run', path, '-o', 'json']);
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(json(dry)).toMatchObject({ created: 3, dry_run: true });
    const writes = writesOf(lms);
    const r = await lms.run(['courses', 'import', path, '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(json(r)).toMatchObject({ created: 3, failed: 0 });
    expect(writes.map((w) => `${w.method} ${w.url.replace(/^.*\/api\/v1/, '')}`).sort()).toEqual([
      'POST /accounts/self/courses',
      'POST /accounts/sis_account_id:MSU-HUM/courses',
      'POST /accounts/sis_account_id:MSU-SCI/courses',
    ]);
    const bio = json<Record<string, unknown>>(await lms.run('courses get sis_course_id:R001104 -o json'));
    expect(bio).toMatchObject({
      name: 'Biology 300: Rocking it, Bio Style',
      course_code: 'BIO300',
      account_id: 2,
      workflow_state: 'available',
      start_at: '2026-09-01T00:00:00.000Z',
    });
    const art = json<Record<string, unknown>>(await lms.run('courses get sis_course_id:A110035 -o json'));
    expect(art).toMatchObject({ name: 'Art 105: "Art as a Medium"', account_id: 1, workflow_state: 'unpublished' });

    // The same file again: its journal says it is done.
    const again = await lms.run(['courses', 'import', path, '-o', 'json']);
    expect(json(again)).toMatchObject({ created: 0, skipped_done: 3 });
    // The same rows in another file (CRLF line ends): found, agreeing, no write.
    writes.length = 0;
    const crlf = COURSES.replaceAll('\n', '\r\n');
    const same = await lms.run(['courses', 'import', '--update', file('same.csv', crlf), '-o', 'json']);
    expect(json(same)).toMatchObject({ created: 0, existed: 3, updated: 0 });
    expect(writes).toEqual([]);

    const changed = file(
      'changed.csv',
      COURSES.replace('English 115: Intro to English', 'English 115').replace('A110035,ART105', 'A110035,ART106'),
    );
    const differs = await lms.run(['courses', 'import', changed, '-o', 'json']);
    expect(json(differs)).toMatchObject({ differs: 2, existed: 1 });
    expect(writes).toEqual([]);
    const updated = await lms.run(['courses', 'import', '--update', changed, '-o', 'json']);
    expect(updated.exitCode, updated.stderr).toBe(0);
    // The row that agreed is done by the run before, as its journal says.
    expect(json(updated)).toMatchObject({ updated: 2, skipped_done: 1 });
    expect(writes.map((w) => w.method)).toEqual(['PUT', 'PUT']);
    expect(json<Record<string, unknown>>(await lms.run('courses get sis_course_id:E411208 -o json'))).toMatchObject({
      name: 'English 115',
      course_code: 'ENG115',
    });
    // A course in another account than the row's is reported, never moved.
    const moved = await lms.run([
      'courses',
      'import',
      '--update',
      file(
        'moved.csv',
        'course_id,short_name,long_name,account_id,status\nBIO-101,BIO-101,Introduction to Biology,MSU-HUM,active\n',
      ),
      '-o',
      'json',
    ]);
    expect(moved.exitCode).toBe(1);
    expect((JSON.parse(moved.stderr) as { attention: { error: string }[] }).attention[0].error).toBe(
      'cannot be changed through the API: account_id "2" → "sis_account_id:MSU-HUM"',
    );
  });

  it('concludes and deletes by status after asking; active reopens; failed rows go back as they came', async () => {
    const lms = session();
    await lms.run(['courses', 'import', file('start.csv', COURSES)]);
    const ends = file(
      'ends.csv',
      'course_id;short_name;long_name;account_id;status\r\nE411208;ENG115;English 115: Intro to ' +
        'English;;completed\r\n' +
        'A110035;ART105;"Art 105: ""Art as a Medium""";;deleted\r\nGHOST;G1;Ghost;;deleted\r\n' +
        'BIO-101;BIO-101;Introduction to Biology;MSU-HUM;active\r\n',
    );
    const writes = writesOf(lms);
    // A course that is not there has nothing to delete: GHOST is not asked about.
    const asked = await lms.run(['courses', 'import', '--update', ends]);
    expect(asked.exitCode).toBe(2);
    expect(asked.stderr).toMatch(/Conclude 1, delete 1 courses \(\S*ends\.csv: line 2, line 3\).*pass --yes/s);
    expect(writes).toEqual([]);
    const plan = await lms.run(['courses', 'import', '--update', '--dry-run', ends, '-o', 'json']);
    const planned = json<{ rows: Record<string, unknown>[] }>(plan).rows;
    expect(planned.filter((r) => r.destructive).map((r) => r.course_id)).toEqual(['E411208', 'A110035']);
    expect(planned.find((r) => r.course_id === 'GHOST')).toMatchObject({ status: 'existed' });
    const failedOut = join(dir, 'failed-courses.csv');
    const r = await lms.run(['courses', 'import', '--update', '--yes', ends, '--failed-out', failedOut]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).not.toContain('GHOST');
    expect(json<Record<string, unknown>>(await lms.run('courses get sis_course_id:E411208 -o json'))).toMatchObject({
      workflow_state: 'completed',
    });
    expect((await lms.run('courses get sis_course_id:A110035')).exitCode).toBe(4);
    // Written as the input was: its separator and its line endings.
    expect(readFileSync(failedOut, 'utf8')).toMatch(
      /^course_id;short_name;long_name;account_id;status;error\r\nBIO-101;.*;MSU-HUM;active;"cannot be changed/,
    );
    // active reopens a concluded course, unpublished; nothing destroys, so nothing is asked.
    const reopen = await lms.run([
      'courses',
      'import',
      '--update',
      file(
        'reopen.csv',
        'course_id,short_name,long_name,status\nE411208,ENG115,English 115: Intro to English,active\n',
      ),
      '-o',
      'json',
    ]);
    expect(reopen.exitCode, reopen.stderr).toBe(0);
    expect(json(reopen)).toMatchObject({ updated: 1 });
    expect(json<Record<string, unknown>>(await lms.run('courses get sis_course_id:E411208 -o json'))).toMatchObject({
      workflow_state: 'unpublished',
    });
    // The audit log has each run's job.
    const log = await lms.run('log -o json');
    expect(log.stdout).toContain('courses.import');
  });

  it(
    'passes over a deleted row whose course is deleted ' + 'already or was never there: a re-run writes nothing',
    async () => {
      const lms = session();
      await lms.run(['courses', 'import', file('night0-courses.csv', COURSES)]);
      const head = 'course_id,short_name,long_name,status\n';
      const night1 = file('night1-courses.csv', `${head}A110035,ART105,Art 105,deleted\nDELC,DEL,Never Made,deleted\n`);
      const deleted = await lms.run(['courses', 'import', '--update', '--yes', night1, '-o', 'json']);
      expect(deleted.exitCode, deleted.stderr).toBe(0);
      expect(json(deleted)).toMatchObject({ created: 0, existed: 1, updated: 1, failed: 0 });
      expect((await lms.run('courses get sis_course_id:DELC')).exitCode).toBe(4);
      const writes = writesOf(lms);
      const night2 = file('night2-courses.csv', `${readFileSync(night1, 'utf8')}NEW1,N1,New One,active\n`);
      const plan = await lms.run(['courses', 'import', '--update', '--dry-run', night2, '-o', 'json']);
      expect(plan.exitCode, plan.stderr).toBe(0);
      const planned = json<{ rows: Record<string, unknown>[] }>(plan).rows;
      expect(planned.map((r) => [r.course_id, r.status, r.destructive ?? false])).toEqual([
        ['A110035', 'existed', false],
        ['DELC', 'existed', false],
        ['NEW1', 'created', false],
      ]);
      // Nothing destroys, so nothing is asked: no --yes.
      const r = await lms.run(['courses', 'import', '--update', night2, '-o', 'json']);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(json(r)).toMatchObject({ created: 1, existed: 2, updated: 0, failed: 0 });
      expect(writes.map((w) => w.method)).toEqual(['POST']);
      const again = await lms.run(['courses', 'import', '--update', '--restart', night2]);
      expect(again.exitCode, again.stderr).toBe(0);
      expect(writes).toHaveLength(1);
    },
  );
});

// sections.csv as sis_csv.md's sample has it (section_id,course_id,name,status,start_date,end_date).
const SECTIONS =
  'section_id,course_id,name,status,start_date,end_date\n' +
  'S001,BIO-101,Section 1,active,,\n' +
  'S002,BIO-101,Section 2,active,2026-09-07,2026-12-18\n' +
  'S003,CHEM-201,Section 1,active,,\n';

describe('lms sections import of a SIS sections.csv', () => {
  it('checks the rows and their courses first, with lines, and sends nothing on a problem', async () => {
    const lms = session();
    const writes = writesOf(lms);
    const bad = await lms.run([
      'sections',
      'import',
      file(
        'bad-sections.csv',
        'section_id,course_id,name,status,integration_id\n' +
          'S1,BIO-101,,active,\nS2,BIO-101,Two,gone,\nS3,BIO-101,Three,active,i-3\n',
      ),
    ]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('bad-sections.csv:2: name is empty');
    expect(bad.stderr).toContain('bad-sections.csv:3: status "gone" is not one of active, deleted');
    expect(bad.stderr).toContain('bad-sections.csv:4: integration_id "i-3": lms sections import cannot set it');
    const refs = await lms.run([
      'sections',
      'import',
      file(
        'refs-sections.csv',
        'section_id,course_id,name,status\nS1,NOPE,One,active\nS2,BIO-101,Two,active\nS2,BIO-101,Two,active\n',
      ),
    ]);
    expect(refs.exitCode).toBe(2);
    expect(refs.stderr).toContain('refs-sections.csv:4: repeats line 3');
    const missing = await lms.run([
      'sections',
      'import',
      file('missing-course.csv', 'section_id,course_id,name,status\nS1,NOPE,One,active\nS2,BIO-101,Two,active\n'),
    ]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('missing-course.csv:2: course "sis_course_id:NOPE" not found');
    expect(missing.stderr).toContain('nothing was written');
    expect(writes).toEqual([]);
    // --skip-invalid imports the rest.
    const skipped = await lms.run([
      'sections',
      'import',
      '--skip-invalid',
      join(dir, 'missing-course.csv'),
      '-o',
      'json',
    ]);
    expect(skipped.exitCode).toBe(1);
    expect(json(skipped)).toMatchObject({ created: 1, invalid: 1 });
  });

  it('creates in the named course, updates what differs, leaves what agrees, and reports a moved section', async () => {
    const lms = session();
    const path = file('sections.csv', SECTIONS);
    const r = await lms.run(['sections', 'import', path, '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(json(r)).toMatchObject({ created: 3, failed: 0 });
    const two = json<Record<string, unknown>>(await lms.run('sections get sis_section_id:S002 -o json'));
    expect(two).toMatchObject({ name: 'Section 2', course_id: 1, start_at: '2026-09-07T00:00:00.000Z' });
    const writes = writesOf(lms);
    // The seeded sections too: the cross-listed lab section is its own course's, as the file says.
    const seeded = file(
      'seeded.csv',
      'section_id,course_id,name,status,start_date,end_date\n' +
        'BIO-101-B,BIO-101,BIO-101 Section B (Tue),active,,\n' +
        'BIO-101L-ONL,BIO-101L,BIO-101 Lab Online,active,2026-09-07T00:00:00Z,\n' +
        'S003,BIO-101,Section 1,active,,\n',
    );
    const differs = await lms.run(['sections', 'import', '--update', seeded, '-o', 'json']);
    expect(differs.exitCode).toBe(1);
    expect(json(differs)).toMatchObject({ updated: 1, existed: 1, failed: 1 });
    const attention = (JSON.parse(differs.stderr) as { attention: { section_id: string; error?: string }[] }).attention;
    expect(attention.find((a) => a.section_id === 'S003')?.error).toBe(
      'cannot be changed through the API: course_id "2" → "sis_course_id:BIO-101"',
    );
    expect(writes.map((w) => `${w.method} ${w.url.replace(/^.*\/api\/v1/, '')}`)).toEqual(['PUT /sections/2']);
    expect(json<Record<string, unknown>>(await lms.run('sections get 2 -o json')).name).toBe('BIO-101 Section B (Tue)');
  });

  it('deletes a deleted row after asking; one with enrollments fails with the reason, back in the file', async () => {
    const lms = session();
    await lms.run(['sections', 'import', file('sections2.csv', SECTIONS)]);
    const drop = file(
      'drop.csv',
      'section_id,course_id,name,status\nS001,BIO-101,Section 1,deleted\nBIO-101-A,BIO-101,BIO-101 Section A,deleted\n',
    );
    const asked = await lms.run(['sections', 'import', '--update', drop]);
    expect(asked.exitCode).toBe(2);
    expect(asked.stderr).toMatch(/Delete 2 sections \(\S*drop\.csv: line 2, line 3\).*pass --yes/s);
    const failedOut = join(dir, 'failed-sections.csv');
    const r = await lms.run(['sections', 'import', '--update', '--yes', drop, '--failed-out', failedOut]);
    expect(r.exitCode).toBe(1);
    expect((await lms.run('sections get sis_section_id:S001')).exitCode).toBe(4);
    expect((await lms.run('sections get sis_section_id:BIO-101-A')).exitCode).toBe(0);
    const failed = readFileSync(failedOut, 'utf8').split(/\r?\n/);
    expect(failed[0]).toBe('section_id,course_id,name,status,error');
    expect(failed[1]).toMatch(/^BIO-101-A,BIO-101,BIO-101 Section A,deleted,.*enrollments/);
  });

  it(
    'passes over a deleted row whose section is deleted ' + 'already or was never there: a re-run writes nothing',
    async () => {
      const lms = session();
      await lms.run(['sections', 'import', file('night0-sections.csv', SECTIONS)]);
      const head = 'section_id,course_id,name,status\n';
      const night1 = file(
        'night1-sections.csv',
        `${head}S001,BIO-101,Section 1,deleted\nNOSUCH,BIO-101,Never,deleted\n`,
      );
      const deleted = await lms.run(['sections', 'import', '--update', '--yes', night1, '-o', 'json']);
      expect(deleted.exitCode, deleted.stderr).toBe(0);
      expect(json(deleted)).toMatchObject({ created: 0, existed: 1, updated: 1, failed: 0 });
      const writes = writesOf(lms);
      const night2 = file('night2-sections.csv', `${readFileSync(night1, 'utf8')}S009,BIO-101,Section 9,active\n`);
      const plan = await lms.run(['sections', 'import', '--update', '--dry-run', night2, '-o', 'json']);
      expect(plan.exitCode, plan.stderr).toBe(0);
      const planned = json<{ rows: Record<string, unknown>[] }>(plan).rows;
      expect(planned.map((r) => [r.section_id, r.status, r.destructive ?? false])).toEqual([
        ['S001', 'existed', false],
        ['NOSUCH', 'existed', false],
        ['S009', 'created', false],
      ]);
      // Nothing destroys, so nothing is asked: no --yes.
      const r = await lms.run(['sections', 'import', '--update', night2, '-o', 'json']);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(json(r)).toMatchObject({ created: 1, existed: 2, updated: 0, failed: 0 });
      expect(writes.map((w) => w.method)).toEqual(['POST']);
      const again = await lms.run(['sections', 'import', '--update', '--restart', night2]);
      expect(again.exitCode, again.stderr).toBe(0);
      expect(writes).toHaveLength(1);
    },
  );
});
