// `lms sis`: the files checked here first (every problem with its file and line, nothing sent), an
// import that can delete asked about, the job followed to its end and its failure in the exit code;
// status, list and abort; the audit log of the write.
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { ApiRequest } from '../../src/transport/types.js';
import { session } from '../helpers/run-lms.js';

const dir = mkdtempSync(join(tmpdir(), 'lms-sis-'));
const USERS = 'user_id,login_id,first_name,last_name,status\nu1,ada,Ada,Lovelace,active\nu2,alan,Alan,Turing,active\n';
const COURSES = 'course_id,short_name,long_name,term_id,status\nC1,M1,Maths One,2026-FA,active\n';
const ENROLLMENTS = 'course_id,user_id,role,status\nC1,u1,student,active\nC1,u2,teacher,active\n';

function file(name: string, content: string | Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

const zipOf = (files: Record<string, string>) =>
  zipSync(Object.fromEntries(Object.entries(files).map(([n, t]) => [n, strToU8(t)])));

function writesOf(lms: ReturnType<typeof session>): ApiRequest[] {
  const writes: ApiRequest[] = [];
  const handler = lms.mock.handler;
  lms.mock.handler = (req) => {
    if (req.method !== 'GET') writes.push(req);
    return handler(req);
  };
  return writes;
}

describe('lms sis import', () => {
  it('imports a zip, follows the job to its end, and the other commands then list what it made', async () => {
    const lms = session();
    const path = file(
      'school.zip',
      zipOf({ 'users.csv': USERS, 'courses.csv': COURSES, 'enrollments.csv': ENROLLMENTS }),
    );
    const r = await lms.run(['sis', 'import', path, '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const result = JSON.parse(r.stdout) as { id: number; workflow_state: string; data: { counts: object } };
    expect(result).toMatchObject({
      workflow_state: 'imported',
      data: { counts: { users: 2, courses: 1, enrollments: 2 } },
    });
    const roster = await lms.run('enrollments list --course sis_course_id:C1 -o json');
    expect((JSON.parse(roster.stdout) as { type: string }[]).map((e) => e.type).sort()).toEqual([
      'StudentEnrollment',
      'TeacherEnrollment',
    ]);
    const status = await lms.run(`sis status ${result.id} -o json`);
    expect(JSON.parse(status.stdout)).toMatchObject({ id: result.id, workflow_state: 'imported' });
    const listed = await lms.run('sis list -o json');
    expect((JSON.parse(listed.stdout) as { id: number }[]).map((b) => b.id)).toEqual([result.id, 1]);
    // The write is in the audit log.
    expect(readFileSync(join(lms.stateDir, 'audit.log'), 'utf8')).toMatch(/sis_imports/);
  });

  it('off a terminal, says the import id and how to follow it as soon as the instance answers', async () => {
    const lms = session();
    const r = await lms.run(['sis', 'import', file('said.csv', USERS), '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const { id } = JSON.parse(r.stdout) as { id: number };
    expect(r.stderr.split('\n')[0]).toBe(`SIS import ${id} created; follow it with lms sis status ${id}`);
    // On a terminal the bar names the import instead.
    const tty = await lms.run(['sis', 'import', file('said2.csv', USERS), '-o', 'json'], { tty: true });
    expect(tty.exitCode, tty.stderr).toBe(0);
    expect(tty.stderr).not.toContain('follow it with');
  });

  it('warns of each row the instance could not apply, naming the file and row, and exits 0', async () => {
    const lms = session();
    await lms.run(['sis', 'import', file('u.csv', USERS)]);
    await lms.run(['sis', 'import', file('c.csv', COURSES)]);
    const r = await lms.run([
      'sis',
      'import',
      file('e.csv', 'course_id,user_id,role,status\nC1,u1,student,active\nC1,ghost,student,active\n'),
    ]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('warning: e.csv: row 3: User not found for enrollment (User ID: ghost');
  });

  it('checks the files here: every problem with its file and line, exit 2, nothing sent', async () => {
    const lms = session();
    const writes = writesOf(lms);
    const path = file(
      'bad.zip',
      zipOf({
        'users.csv': 'user_id,login_id,full_name,status\nu1,ada,Ada,active\nu2,,Alan,retired\n',
        'notes.csv': 'what,ever\n1,2\n',
      }),
    );
    const r = await lms.run(['sis', 'import', path]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('notes.csv:1: not a SIS import file');
    expect(r.stderr).toContain('users.csv:3: login_id is empty');
    expect(r.stderr).toContain('users.csv:3: status "retired" is not one of active, suspended, deleted');
    const override = await lms.run([
      'sis',
      'import',
      file(
        'terms.csv',
        'term_id,name,status,date_override_enrollment_type\nT1,,active,Student\nT1,,active,TaEnrollment\n',
      ),
    ]);
    expect(override.exitCode).toBe(2);
    expect(override.stderr).toContain(
      'terms.csv:2: date_override_enrollment_type "Student" is not one of StudentEnrollment, TeacherEnrollment',
    );
    expect(override.stderr).not.toContain('terms.csv:3');
    expect(writes).toEqual([]);
    const dry = await lms.run(['sis', 'import', file('ok.csv', USERS), '--dry-run', '-o', 'json']);
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ dry_run: true, files: [{ file: 'ok.csv', kind: 'user', rows: 2 }] });
    expect(writes).toEqual([]);
  });

  it("tells every kind of file the instance reads by its header, in the instance's order", async () => {
    const lms = session();
    const writes = writesOf(lms);
    const kinds = {
      'a.csv': ['xlist_course_id,section_id,status\nC1,S1,active\n', 'xlist'],
      'b.csv': ['observer_id,student_id,status\nu2,u1,active\n', 'user_observer'],
      // user_id and role, but no course_id or section_id: an admin, not an enrollment.
      'c.csv': ['user_id,account_id,role,status\nu1,,AccountAdmin,active\n', 'admin'],
      // user_id and login_id, but a user named by an existing id: a login, not a user.
      'd.csv': ['user_id,login_id,existing_user_id,status\nu9,ada2,u1,active\n', 'login'],
      'e.csv': ['old_id,new_id,type\nu1,u1b,user\n', 'change_sis_id'],
      'f.csv': ['group_category_id,category_name,status\nGC1,Teams,active\n', 'group_category'],
      'g.csv': ['group_id,name,status\nG1,Team 1,available\n', 'group'],
      'h.csv': ['group_id,user_id,status\nG1,u1,accepted\n', 'group_membership'],
    } as const;
    const path = file('kinds.zip', zipOf(Object.fromEntries(Object.entries(kinds).map(([n, [t]]) => [n, t]))));
    const dry = await lms.run(['sis', 'import', path, '--dry-run', '-o', 'json']);
    expect(dry.exitCode, dry.stderr).toBe(0);
    const files = (JSON.parse(dry.stdout) as { files: { file: string; kind: string; rows: number }[] }).files;
    expect(files.map((f) => [f.file, f.kind, f.rows])).toEqual(Object.entries(kinds).map(([n, [, k]]) => [n, k, 1]));
    expect(writes).toEqual([]);
  });

  it('sends a kind the mock does not apply, which says so of the file while the rest applies', async () => {
    const lms = session();
    const path = file(
      'mixed.zip',
      zipOf({ 'users.csv': USERS, 'xlists.csv': 'xlist_course_id,section_id,status\nC1,S1,active\nC1,S2,active\n' }),
    );
    const r = await lms.run(['sis', 'import', path, '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      workflow_state: 'imported_with_messages',
      data: { supplied_batches: ['user', 'xlist'], counts: { users: 2, xlists: 0 } },
    });
    expect(r.stderr).toContain('warning: xlists.csv: this mock does not apply xlists rows; 2 rows skipped');
  });

  describe('reads the dialects spreadsheets write, and sends the instance UTF-8 with commas', () => {
    const SEMI = 'user_id;login_id;full_name;status\r\nu1;ada;Lovelace, Ada;active\r\nu2;alan;Turing, Alan;active\r\n';
    const utf16le = (text: string) => Buffer.from(`\uFEFF${text}`, 'utf16le');
    const names = async (lms: ReturnType<typeof session>) =>
      Promise.all(
        ['u1', 'u2'].map(
          async (u) =>
            (JSON.parse((await lms.run(`users get sis_user_id:${u} -o json`)).stdout) as { name: string }).name,
        ),
      );

    it.each([
      ['a ";" CSV with CRLF', 'semi.csv', Buffer.from(SEMI)],
      ['a tab-separated UTF-16 LE file', 'tabs.csv', utf16le(SEMI.replaceAll(';', '\t'))],
      ['a UTF-16 BE file with commas', 'be.csv', utf16le(USERS).swap16()],
      ['a zip whose member is ";"', 'semi.zip', zipSync({ 'in/users.csv': strToU8(SEMI), 'c.csv': strToU8(COURSES) })],
    ])('%s: checked as it is, imported as the instance reads it', async (_, name, bytes) => {
      const lms = session();
      const path = file(name, bytes);
      const dry = await lms.run(['sis', 'import', path, '--dry-run', '-o', 'json']);
      expect(dry.exitCode, dry.stderr).toBe(0);
      expect(JSON.parse(dry.stdout)).toMatchObject({
        files: expect.arrayContaining([{ ...fileOf(name), kind: 'user', rows: 2, ending: 0 }]),
      });
      const r = await lms.run(['sis', 'import', path, '-o', 'json']);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ workflow_state: 'imported', data: { counts: { users: 2 } } });
      expect(await names(lms)).toEqual(
        name === 'be.csv' ? ['Ada Lovelace', 'Alan Turing'] : ['Lovelace, Ada', 'Turing, ' + 'Alan'],
      );
    });

    function fileOf(name: string) {
      return { file: name.endsWith('.zip') ? 'users.csv' : name };
    }

    it('finds the same problems in a dry run and a real one, with file and line; nothing sent', async () => {
      const lms = session();
      const writes = writesOf(lms);
      const bad = file('bad-semi.csv', `${SEMI}u3;;Hopper, Grace;retired\r\n`);
      for (const flags of [['--dry-run'], []]) {
        const r = await lms.run(['sis', 'import', bad, ...flags]);
        expect(r.exitCode).toBe(2);
        expect(r.stderr).toContain('bad-semi.csv:4: login_id is empty');
        expect(r.stderr).toContain('bad-semi.csv:4: status "retired" is not one of active, suspended, deleted');
      }
      expect(writes).toEqual([]);
    });

    it('honours --delimiter over the header, and refuses Latin-1 as before', async () => {
      const lms = session();
      const writes = writesOf(lms);
      const tab = await lms.run(['sis', 'import', file('semi2.csv', SEMI), '--delimiter', 'tab', '--dry-run']);
      expect(tab.exitCode).toBe(2);
      expect(tab.stderr).toContain('semi2.csv:1: not a SIS import file');
      const latin = file(
        'latin.csv',
        Buffer.from('user_id,login_id,full_name,status\nu1,jose,Jos\xe9,active\n', 'latin1'),
      );
      for (const flags of [['--dry-run'], []]) {
        const r = await lms.run(['sis', 'import', latin, ...flags]);
        expect(r.exitCode).toBe(2);
        expect(r.stderr).toContain('latin.csv:2: not valid UTF-8: it looks like Latin-1 (ISO-8859-1)');
        // The command to run, whole: the file it converts and the one it writes.
        expect(r.stderr).toMatch(/iconv -f ISO-8859-1 -t UTF-8 \S*latin\.csv > \S*latin\.utf8\.csv/);
      }
      const empty = await lms.run([
        'sis',
        'import',
        file('empty.zip', zipOf({ 'users.csv': USERS, 'groups.csv': '' })),
      ]);
      expect(empty.exitCode).toBe(2);
      expect(empty.stderr).toMatch(/groups\.csv:1: the file is empty; it needs a header\n/);
      expect(writes).toEqual([]);
    });
  });

  it('asks before an import that can delete: batch mode, or a row whose status ends something', async () => {
    const lms = session();
    const writes = writesOf(lms);
    const ending = file('drop.csv', 'user_id,login_id,full_name,status\nu1,ada,Ada,deleted\n');
    const refused = await lms.run(['sis', 'import', ending]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/has 1 user row that end .*pass --yes/);
    const batch = await lms.run([
      'sis',
      'import',
      file('b.csv', COURSES),
      '--batch-mode',
      '--batch-term',
      'sis_term_id:2026-FA',
    ]);
    expect(batch.exitCode).toBe(2);
    expect(batch.stderr).toMatch(/deletes what earlier imports made in term sis_term_id:2026-FA/);
    expect(writes).toEqual([]);
    const noTerm = await lms.run(['sis', 'import', file('b.csv', COURSES), '--batch-mode']);
    expect(noTerm.stderr).toMatch(/--batch-mode needs --batch-term/);
    const yes = await lms.run([
      'sis',
      'import',
      file('b.csv', COURSES),
      '--batch-mode',
      '--batch-term',
      'sis_term_id:2026-FA',
      '--yes',
      '-o',
      'json',
    ]);
    expect(yes.exitCode, yes.stderr).toBe(0);
    expect(JSON.parse(yes.stdout)).toMatchObject({ batch_mode: true, workflow_state: 'imported' });
  });

  it(
    'asks before a diffed import, which drops what the ' + 'data set no longer lists, unless it skips deletes',
    async () => {
      const lms = session();
      const path = file(
        'set.zip',
        zipOf({ 'users.csv': USERS, 'courses.csv': COURSES, 'enrollments.csv': ENROLLMENTS }),
      );
      const set = ['--diffing-data-set-id', 'nightly'];
      const writes = writesOf(lms);
      const asked = await lms.run(['sis', 'import', path, ...set, '--drop-status', 'inactive']);
      expect(asked.exitCode).toBe(2);
      expect(asked.stderr).toMatch(
        /drops \(inactive enrollments, deleted users\) what the last import of data set nightly listed and it does not/,
      );
      expect(writes).toEqual([]);
      const first = await lms.run(['sis', 'import', path, ...set, '--drop-status', 'inactive', '--yes', '-o', 'json']);
      expect(first.exitCode, first.stderr).toBe(0);
      expect(JSON.parse(first.stdout)).toMatchObject({
        diffing_data_set_identifier: 'nightly',
        diffing_drop_status: 'inactive',
      });
      // Alan's enrollment is gone from the next night's file: inactive, not deleted.
      const fewer = file(
        'fewer.zip',
        zipOf({
          'users.csv': USERS,
          'courses.csv': COURSES,
          'enrollments.csv': ENROLLMENTS.split('\n')[0] + '\nC1,u1,student,active\n',
        }),
      );
      const second = await lms.run([
        'sis',
        'import',
        fewer,
        ...set,
        '--drop-status',
        'inactive',
        '--yes',
        '-o',
        'json',
      ]);
      expect(second.exitCode, second.stderr).toBe(0);
      const roster = await lms.run('enrollments list --course sis_course_id:C1 --state inactive -o json');
      expect((JSON.parse(roster.stdout) as { type: string; enrollment_state: string }[]).map((e) => e.type)).toEqual([
        'TeacherEnrollment',
      ]);
      // With --skip-deletes nothing is dropped, and nothing is asked.
      const skipped = await lms.run(['sis', 'import', fewer, ...set, '--skip-deletes', '-o', 'json']);
      expect(skipped.exitCode, skipped.stderr).toBe(0);
      expect(JSON.parse(skipped.stdout)).toMatchObject({ skip_deletes: true });
    },
  );

  it.each([
    [['--user-remove-status', 'suspended'], /--user-remove-status is for a diffed import/],
    [['--drop-status', 'completed'], /--drop-status is for batch mode or a diffed import/],
    [['--drop-status', 'gone', '--batch-mode'], /'gone' is invalid. Allowed choices are deleted, completed, inactive/],
    [['--multi-term', '--batch-term', '1'], /give --batch-term or --multi-term, not both/],
    [['--multi-term'], /--multi-term needs --change-threshold/],
    [
      ['--multi-term', '--change-threshold', '10'],
      /--multi-term replaces the terms a terms.csv names, and the import has none/,
    ],
  ])('refuses %j before sending anything, exit 2', async (flags, message) => {
    const lms = session();
    const writes = writesOf(lms);
    const r = await lms.run(['sis', 'import', file('c.csv', COURSES), ...flags]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(writes).toEqual([]);
  });

  it('exits 1 naming the errors when the import fails, and 4 for an import that is not there', async () => {
    const lms = session();
    // The files are checked by their own rules here; the instance fails what it cannot apply at all.
    const r = await lms.run(['sis', 'import', file('b2.csv', COURSES), '--batch-mode', '--batch-term', '999', '--yes']);
    expect(r.exitCode).toBe(5);
    expect(r.stderr).toMatch(/batch_mode_term_id cannot be found/);
    const two = file('two.csv', `${COURSES}C2,M2,Maths Two,2026-FA,active\n`);
    expect((await lms.run(['sis', 'import', two])).exitCode).toBe(0);
    const held = await lms.run([
      'sis',
      'import',
      file('one.csv', COURSES),
      '--batch-mode',
      '--batch-term',
      'sis_term_id:2026-FA',
      '--change-threshold',
      '10',
      '--yes',
    ]);
    expect(held.exitCode).toBe(1);
    expect(held.stderr).toMatch(/SIS import \d+ ended failed_with_messages: Change threshold exceeded: 1 of 2 courses/);
    const missing = await lms.run('sis status 999');
    expect(missing.exitCode).toBe(4);
  });

  it("stores a user's integration_id, and a login_id that changes, as users get reads them", async () => {
    const lms = session();
    const head = 'user_id,login_id,full_name,status,integration_id\n';
    expect(
      (await lms.run(['sis', 'import', file('iu.csv', `${head}U-1,grace,Grace Hopper,active,IU1\n`)])).exitCode,
    ).toBe(0);
    expect(
      (await lms.run(['sis', 'import', file('iu2.csv', `${head}U-1,ghopper,Grace Hopper,active,\n`)])).exitCode,
    ).toBe(0);
    const grace = JSON.parse((await lms.run('users get sis_user_id:U-1 -o json')).stdout) as Record<string, unknown>;
    expect(grace).toMatchObject({ sis_user_id: 'U-1', integration_id: 'IU1', login_id: 'ghopper' });
  });

  it('says in one line that an import had already ended, exit 4, as the instance answers 404', async () => {
    const lms = session();
    const r = await lms.run('sis abort 1');
    expect(r.exitCode).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('SIS import 1 had already ended imported; there is nothing to abort');
    const json = await lms.run('sis abort 1 -o json');
    expect(json.exitCode).toBe(4);
    expect(json.stdout).toBe('');
    const missing = await lms.run('sis abort 999');
    expect(missing.exitCode).toBe(4);
    expect(missing.stderr).not.toContain('had already ended');
  });
});

describe('lms users import of a SIS users.csv', () => {
  const SIS_USERS =
    'user_id,login_id,first_name,last_name,email,status,integration_id\n' +
    'S-1,grace,Grace,Hopper,grace@example.edu,active,i-1\nS-2,linus,Linus,Torvalds,linus@example.edu,active,\n';

  it('takes user_id as the SIS id and the name from its parts, checking every row first', async () => {
    const lms = session();
    const bad = await lms.run([
      'users',
      'import',
      file('bad-users.csv', 'user_id,login_id,full_name,email,status\nS-1,,Grace,g@example.edu,retired\n'),
    ]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('bad-users.csv:2: login_id is empty');
    expect(bad.stderr).toContain('bad-users.csv:2: status "retired" is not one of active, suspended, deleted');
    const r = await lms.run(['users', 'import', file('sis-users.csv', SIS_USERS), '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ created: 2, failed: 0 });
    const grace = JSON.parse((await lms.run('users get sis_user_id:S-1 -o json')).stdout) as Record<string, unknown>;
    expect(grace).toMatchObject({
      name: 'Grace Hopper',
      sortable_name: 'Hopper, Grace',
      login_id: 'grace',
      integration_id: 'i-1',
    });
  });

  it("sends the login's integration id and provider and the pronouns; refuses what the API cannot set", async () => {
    const lms = session();
    const writes = writesOf(lms);
    const header =
      'user_id,integration_id,login_id,authentication_provider_id,full_name,pronouns,ssha_password,status\n';
    const hashed = file(
      'hashed.csv',
      `${header}S-200,INT-200,sso1,saml,Sso One,she/her,,active\nS-201,,sso2,,Sso Two,,{SSHA}abc,active\n`,
    );
    for (const dry of [['--dry-run'], []]) {
      const r = await lms.run(['users', 'import', ...dry, hashed]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain('hashed.csv:3: ssha_password "{SSHA}abc": lms users import cannot set it');
    }
    expect(writes).toEqual([]);
    const good = file('sso.csv', `${header}S-200,INT-200,sso1,saml,Sso One,she/her,,active\n`);
    const r = await lms.run(['users', 'import', good, '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ created: 1, failed: 0 });
    const sso = JSON.parse((await lms.run('users get sis_user_id:S-200 -o json')).stdout) as Record<string, unknown>;
    expect(sso).toMatchObject({ login_id: 'sso1', integration_id: 'INT-200', pronouns: 'she/her' });
    const login = lms.mock.db
      .prepare(`SELECT authentication_provider_id AS provider FROM pseudonyms WHERE unique_id = 'sso1'`)
      .get() as { provider: string };
    expect(login.provider).toBe('saml');
    // Pronouns changed in the file are a difference --update applies.
    const they = file('sso-they.csv', `${header}S-200,INT-200,sso1,saml,Sso One,they/them,,active\n`);
    const updated = await lms.run(['users', 'import', '--update', they, '-o', 'json']);
    expect(JSON.parse(updated.stdout), updated.stderr).toMatchObject({ updated: 1, failed: 0 });
    const after = JSON.parse((await lms.run('users get sis_user_id:S-200 -o json')).stdout) as Record<string, unknown>;
    expect(after.pronouns).toBe('they/them');
  });

  it(
    'deletes a user whose status is deleted, with --update, ' + 'after asking; failed rows go back in the SIS columns',
    async () => {
      const lms = session();
      await lms.run(['users', 'import', file('sis-users2.csv', SIS_USERS)]);
      const drop = file(
        'drop-users.csv',
        'user_id,login_id,full_name,email,status\nS-2,linus,Linus Torvalds,,deleted\nS-7,ghost,Ghost,,deleted\n' +
          'S-1,grace,Grace Hopper,amazing@example.edu,active\n',
      );
      // A user who is not there has nothing to delete: only linus is asked about.
      const asked = await lms.run(['users', 'import', '--update', drop]);
      expect(asked.exitCode).toBe(2);
      expect(asked.stderr).toMatch(/Delete 1 user of account self \(\S*drop-users\.csv: line 2\).*pass --yes/);
      const failedOut = join(dir, 'failed-users.csv');
      const r = await lms.run(['users', 'import', '--update', '--yes', drop, '--failed-out', failedOut, '-o', 'json']);
      expect(r.exitCode).toBe(1);
      expect(r.stderr).not.toContain('ghost does not exist');
      const rows = (JSON.parse(r.stdout) as { rows: { line: number; status: string }[] }).rows;
      expect(rows.map((x) => [x.line, x.status])).toEqual([
        [2, 'updated'],
        [3, 'existed'],
        [4, 'failed'],
      ]);
      expect((await lms.run('users get sis_user_id:S-2')).exitCode).toBe(4);
      const failed = readFileSync(failedOut, 'utf8').split(/\r?\n/);
      expect(failed[0]).toBe('user_id,login_id,full_name,email,status,error');
      expect(failed[1]).toMatch(/^S-1,grace,Grace Hopper,amazing@example.edu,active,.*email/);
    },
  );

  it(
    'passes over a deleted row whose user is deleted ' + 'already or was never there: a re-run writes nothing',
    async () => {
      const lms = session();
      await lms.run(['users', 'import', file('night0-users.csv', SIS_USERS)]);
      const night1 = file(
        'night1-users.csv',
        'user_id,login_id,first_name,last_name,status\nS-1,grace,Grace,Hopper,active\n' +
          'S-2,linus,Linus,Torvalds,deleted\n' +
          'S-9,ku590,Never,Here,deleted\n',
      );
      const deleted = await lms.run(['users', 'import', '--update', '--yes', night1, '-o', 'json']);
      expect(deleted.exitCode, deleted.stderr).toBe(0);
      expect(JSON.parse(deleted.stdout)).toMatchObject({ created: 0, existed: 2, updated: 1, failed: 0 });
      const writes = writesOf(lms);
      const night2 = file('night2-users.csv', `${readFileSync(night1, 'utf8')}S-3,ada,Ada,Lovelace,active\n`);
      const plan = await lms.run(['users', 'import', '--update', '--dry-run', night2, '-o', 'json']);
      expect(plan.exitCode, plan.stderr).toBe(0);
      const planned = (JSON.parse(plan.stdout) as { rows: Record<string, unknown>[] }).rows;
      expect(planned.map((r) => [r.line, r.status, r.destructive ?? false])).toEqual([
        [2, 'existed', false],
        [3, 'existed', false],
        [4, 'existed', false],
        [5, 'created', false],
      ]);
      // Nothing destroys, so nothing is asked: no --yes.
      const r = await lms.run(['users', 'import', '--update', night2, '-o', 'json']);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ created: 1, existed: 3, updated: 0, failed: 0 });
      expect(writes.map((w) => w.method)).toEqual(['POST']);
      const again = await lms.run(['users', 'import', '--update', '--restart', night2]);
      expect(again.exitCode, again.stderr).toBe(0);
      expect(writes).toHaveLength(1);
    },
  );
});

describe('lms users import of a SIS users.csv with suspended and active rows', () => {
  const HEAD = 'user_id,login_id,full_name,status\n';
  const states = async (lms: ReturnType<typeof session>, user: string) =>
    (JSON.parse((await lms.run(`users logins ${user} -o json`)).stdout) as { workflow_state: string }[]).map(
      (l) => l.workflow_state,
    );

  it('suspends the logins of new and existing users after asking; a re-run writes nothing', async () => {
    const lms = session();
    const writes = writesOf(lms);
    // Sam exists (S-007); Grace is new; S-999 is not Sofia's SIS id, which the API cannot change.
    const path = file(
      'suspend-users.csv',
      `${HEAD}S-007,sam,Sam Student,suspended\nS-1,grace,Grace Hopper,suspended\nS-999,sofia,Sofia Student,active\n`,
    );
    const asked = await lms.run(['users', 'import', '--update', path]);
    expect(asked.exitCode).toBe(2);
    expect(asked.stderr).toMatch(/Suspend 2 users of account self.*pass --yes/s);
    expect(writes).toEqual([]);
    const plan = await lms.run(['users', 'import', '--update', '--dry-run', path, '-o', 'json']);
    expect(plan.exitCode, plan.stderr).toBe(1);
    expect(plan.stderr).toContain('would suspend 2 users of account self');
    type Planned = { login_id: string; status: string; changes?: unknown[]; destructive?: boolean };
    const planned = JSON.parse(plan.stdout) as { rows: Planned[] };
    expect(planned.rows.map((r) => [r.login_id, r.status, r.destructive ?? false])).toEqual([
      ['sam', 'updated', true],
      ['grace', 'created', true],
      ['sofia', 'failed', false],
    ]);
    expect(planned.rows[0].changes).toEqual([
      expect.objectContaining({ field: 'status', from: 'active', to: 'suspended' }),
    ]);
    expect(writes).toEqual([]);
    const failedOut = join(dir, 'failed-suspend.csv');
    const r = await lms.run(['users', 'import', '--update', '--yes', path, '--failed-out', failedOut, '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ created: 1, updated: 1, failed: 1 });
    expect(await states(lms, 'sis_user_id:S-007')).toEqual(['suspended']);
    expect(await states(lms, 'sis_user_id:S-1')).toEqual(['suspended']);
    const failed = readFileSync(failedOut, 'utf8').split(/\r?\n/);
    expect(failed[0]).toBe('user_id,login_id,full_name,status,error');
    expect(failed[1]).toMatch(/^S-999,sofia,Sofia Student,active,.*sis_user_id/);
    writes.length = 0;
    const same = await lms.run(['users', 'import', '--update', path, '-o', 'json']);
    expect(same.exitCode, same.stderr).toBe(1);
    expect(writes).toEqual([]);
    // A file no journal knows: the logins are read to compare; nothing differs, is asked or is written.
    const rows = 'S-007,sam,Sam Student,suspended\nS-1,grace,Grace Hopper,suspended\n';
    const again = file('suspend-again.csv', `${HEAD}${rows}`);
    const rerun = await lms.run(['users', 'import', '--update', again, '-o', 'json']);
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    expect(JSON.parse(rerun.stdout)).toMatchObject({ created: 0, updated: 0, existed: 2, failed: 0 });
    expect(writes).toEqual([]);
  });

  it('makes suspended logins active again for an active row, with --update, asking nothing', async () => {
    const lms = session();
    expect((await lms.run('users update 7 --suspend --yes')).exitCode).toBe(0);
    const writes = writesOf(lms);
    const path = file('active-users.csv', `${HEAD}S-007,sam,Sam Student,active\n`);
    const without = await lms.run(['users', 'import', path, '-o', 'json']);
    expect(JSON.parse(without.stdout)).toMatchObject({ differs: 1, updated: 0 });
    expect(writes).toEqual([]);
    const r = await lms.run(['users', 'import', '--update', path, '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ updated: 1, failed: 0 });
    expect(writes.map((w) => [w.method, w.url.replace(/^\w+:\/\/[^/]+/, '')])).toEqual([['PUT', '/api/v1/users/7']]);
    expect(String(writes[0].body)).toContain('event');
    expect(await states(lms, '7')).toEqual(['active']);
  });
});

describe('lms enrollments import of a SIS enrollments.csv', () => {
  const SECTIONS = 'section_id,course_id,name,status\nS1,C1,Maths One A,active\n';
  const COURSES2 = `${COURSES}C2,M2,Maths Two,2026-FA,active\n`;
  const USERS3 = `${USERS}u3,mary,Mary,Somerville,active\n`;

  async function seeded() {
    const lms = session();
    const zip = file('base.zip', zipOf({ 'users.csv': USERS3, 'courses.csv': COURSES2, 'sections.csv': SECTIONS }));
    const made = await lms.run(['sis', 'import', '--yes', zip]);
    expect(made.exitCode, made.stderr).toBe(0);
    return lms;
  }

  it('needs no --course: rows span courses, a section names its course, references are checked first', async () => {
    const lms = await seeded();
    const writes = writesOf(lms);
    const bad = await lms.run([
      'enrollments',
      'import',
      file(
        'bad-enr.csv',
        'course_id,section_id,user_id,role,status,limit_section_privileges\nC1,,u1,student,retired,\n' +
          'C9,,u1,student,active,\nC2,S1,u2,teacher,active,\nC1,,u7,student,active,maybe\n',
      ),
    ]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('bad-enr.csv:2: status "retired" is not one of');
    expect(bad.stderr).toContain('bad-enr.csv:5: limit_section_privileges "maybe" is not true or false');
    expect(writes).toEqual([]);
    // What only the instance's SIS import reads is refused, never dropped.
    const dated = await lms.run([
      'enrollments',
      'import',
      file('dated.csv', 'course_id,user_id,role,status,start_date,notify\nC1,u1,student,active,2026-09-01,true\n'),
    ]);
    expect(dated.exitCode).toBe(2);
    expect(dated.stderr).toContain('dated.csv:2: start_date "2026-09-01": lms enrollments import cannot set it');
    expect(dated.stderr).toContain('dated.csv:2: notify "true": lms enrollments import cannot set it');
    expect(writes).toEqual([]);
    const refs = await lms.run([
      'enrollments',
      'import',
      file(
        'refs-enr.csv',
        'course_id,section_id,user_id,role,status\nC9,,u1,student,active\nC2,S1,u2,teacher,active\n' +
          'C1,,u7,student,active\n',
      ),
    ]);
    expect(refs.exitCode).toBe(2);
    expect(refs.stderr).toContain('refs-enr.csv:2: course "sis_course_id:C9" not found');
    expect(refs.stderr).toContain(
      'refs-enr.csv:3: section "sis_section_id:S1" is not a section of course sis_course_id:C2',
    );
    expect(refs.stderr).toContain('refs-enr.csv:4: user "sis_user_id:u7" not found');
    expect(writes).toEqual([]);
    const plain = await lms.run(['enrollments', 'import', file('plain.csv', 'user,type\nada,student\n')]);
    expect(plain.exitCode).toBe(2);
    expect(plain.stderr).toContain('--course is required');

    const good = file(
      'sis-enr.csv',
      'course_id,section_id,user_id,role,status,associated_user_id,limit_section_privileges\n' +
        'C1,,u1,student,active,,\n,S1,u2,ta,active,,true\nC2,,u1,student,active,,\nC1,,u3,observer,active,u1,\n',
    );
    const dry = await lms.run(['enrollments', 'import', '--dry-run', good, '-o', 'json']);
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ created: 4, dry_run: true });
    expect(writes).toEqual([]);
    const r = await lms.run(['enrollments', 'import', good, '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ created: 4, failed: 0 });
    const c1 = JSON.parse((await lms.run('enrollments list --course sis_course_id:C1 -o json')).stdout) as {
      data: Record<string, unknown>[];
    };
    const rows = c1.data ?? (c1 as unknown as Record<string, unknown>[]);
    expect(rows.map((e) => e.type).sort()).toEqual(['ObserverEnrollment', 'StudentEnrollment', 'TaEnrollment']);
    const ta = rows.find((e) => e.type === 'TaEnrollment')!;
    expect(ta.limit_privileges_to_course_section).toBe(true);
    const observer = rows.find((e) => e.type === 'ObserverEnrollment')!;
    const student = rows.find((e) => e.type === 'StudentEnrollment')!;
    expect(observer.associated_user_id).toBe(student.user_id);
    const again = await lms.run(['enrollments', 'import', good, '-o', 'json']);
    // The journal knows the file: its rows are done.
    expect(JSON.parse(again.stdout)).toMatchObject({ created: 0, skipped_done: 4 });
    // The same rows in another file are found, not made again.
    const copy = file('sis-enr-copy.csv', `${readFileSync(good, 'utf8')}C1,,u2,teacher,active,,\n`);
    const found = await lms.run(['enrollments', 'import', copy, '-o', 'json']);
    expect(JSON.parse(found.stdout)).toMatchObject({ created: 1, existed: 4 });
  });

  it("takes an observer's observee as part of the enrollment: a second observee is a new link", async () => {
    // The seeded school: Olive (O-013) observes Sam (S-007) in BIO-101.
    const lms = session();
    const observers = async () =>
      (
        JSON.parse(
          (await lms.run('enrollments list --course sis_course_id:BIO-101 --type observer -o json')).stdout,
        ) as { user_id: number; associated_user_id: number | null }[]
      )
        .map((e) => `${e.user_id}:${e.associated_user_id}`)
        .sort();
    expect(await observers()).toEqual(['13:7']);
    const header = 'course_id,user_id,role,section_id,status,associated_user_id\n';
    const both = file(
      'observe.csv',
      `${header}BIO-101,O-013,observer,,active,S-007\nBIO-101,O-013,observer,,active,S-008\n`,
    );
    const writes = writesOf(lms);
    const dry = await lms.run(['enrollments', 'import', '--update', '--dry-run', both, '-o', 'json']);
    expect(JSON.parse(dry.stdout)).toMatchObject({ created: 1, existed: 1, dry_run: true });
    expect(writes).toEqual([]);
    const r = await lms.run(['enrollments', 'import', '--update', both, '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ created: 1, existed: 1, failed: 0 });
    expect(writes.map((w) => decodeURIComponent(String(w.body)))).toEqual([
      expect.stringContaining('enrollment[associated_user_id]=8'),
    ]);
    expect(await observers()).toEqual(['13:7', '13:8']);
    // Ending one link leaves the other: the row finds the enrollment of its own observee.
    const end = file('observe-end.csv', `${header}BIO-101,O-013,observer,,inactive,S-008\n`);
    const ended = await lms.run(['enrollments', 'import', '--update', '--yes', end, '-o', 'json']);
    expect(JSON.parse(ended.stdout), ended.stderr).toMatchObject({ updated: 1, failed: 0 });
    expect(await observers()).toEqual(['13:7']);
  });

  it('reads the file with --delimiter over the separator its header suggests', async () => {
    const lms = await seeded();
    const tabs = file('tabs.txt', 'course_id\tuser_id\trole\tstatus\nC1\tu1\tstudent\tactive\n');
    const given = await lms.run(['enrollments', 'import', '--dry-run', '--delimiter', 'tab', tabs, '-o', 'json']);
    expect(given.exitCode, given.stderr).toBe(0);
    expect(JSON.parse(given.stdout)).toMatchObject({ created: 1, dry_run: true });
    // A comma file read with the separator given: one column, which is no SIS file.
    const commas = file('commas.csv', ENROLLMENTS);
    const wrong = await lms.run(['enrollments', 'import', '--dry-run', '--delimiter', ';', commas]);
    expect(wrong.exitCode).toBe(2);
    expect(wrong.stderr).toContain('--course is required');
  });

  it("checks custom roles against the course's account first: an unknown one is refused, nothing sent", async () => {
    const lms = session();
    const writes = writesOf(lms);
    const roles = file(
      'roles.csv',
      'course_id,user_id,role,role_id,status\nBIO-101,S-008,Grader,,active\nBIO-101,S-008,Marker,,active\n' +
        'BIO-101,S-008,,999,active\n',
    );
    for (const dry of [['--dry-run'], []]) {
      const r = await lms.run(['enrollments', 'import', ...dry, roles]);
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/roles\.csv:3: role "Marker" is not an active role of account \d+/);
      expect(r.stderr).toMatch(/roles\.csv:4: role_id 999 is not an active role of account \d+/);
      expect(r.stderr).not.toContain('roles.csv:2');
    }
    expect(writes).toEqual([]);
    const good = file('roles-good.csv', 'course_id,user_id,role,status\nBIO-101,S-008,Grader,active\n');
    const made = await lms.run(['enrollments', 'import', good, '-o', 'json']);
    expect(JSON.parse(made.stdout), made.stderr).toMatchObject({ created: 1, failed: 0 });
  });

  it(
    'concludes, deletes and deactivates by status after asking, makes a completed row it does not find; failed ' +
      'rows go back in the SIS columns',
    async () => {
      const lms = await seeded();
      await lms.run([
        'enrollments',
        'import',
        file(
          'start.csv',
          'course_id,user_id,role,status\nC1,u1,student,active\nC1,u2,teacher,active\nC2,u3,student,active\n',
        ),
      ]);
      // A course that has ended takes no enrollment: the row the instance refuses.
      const ended = file(
        'c3.csv',
        'course_id,short_name,long_name,term_id,status\nC3,M3,Maths ' + 'Three,2026-FA,completed\n',
      );
      expect((await lms.run(['sis', 'import', '--yes', ended])).exitCode).toBe(0);
      const ends = file(
        'ends.csv',
        'course_id,user_id,role,status\nC1,u1,student,completed\nC1,u2,teacher,deleted\nC2,u3,student,inactive\n' +
          'C2,u1,student,deleted\nC2,u2,student,completed\nC3,u2,student,active\nC1,u3,student,inactive\n',
      );
      const asked = await lms.run(['enrollments', 'import', '--update', ends]);
      expect(asked.exitCode).toBe(2);
      expect(asked.stderr).toMatch(/pass --yes/);
      const failedOut = join(dir, 'failed-enr.csv');
      const r = await lms.run(['enrollments', 'import', '--update', '--yes', ends, '--failed-out', failedOut]);
      expect(r.exitCode, r.stderr).toBe(1);
      expect(r.stderr).toContain("Can't add an enrollment to a concluded course");
      // Deleting an enrollment that was never made has nothing to do, as Canvas's SIS import passes it over.
      expect(r.stderr).not.toContain('sis_user_id:u1 has no such enrollment');
      const rows = (JSON.parse(r.stdout) as { rows: { line: number; status: string }[] }).rows;
      expect(rows.find((x) => x.line === 5)).toMatchObject({ status: 'existed' });
      // A completed row with no enrollment is made completed, as Canvas's SIS import makes it.
      expect(rows.find((x) => x.line === 6)).toMatchObject({ status: 'created' });
      const states = async (course: string) =>
        (
          JSON.parse(
            (
              await lms.run(
                `enrollments list --course sis_course_id:${course} --state active --state completed --state inactive ` +
                  '-o json',
              )
            ).stdout,
          ) as Record<string, unknown>[]
        ).map((e) => `${e.user_id}:${e.type}:${e.enrollment_state}`);
      expect((await states('C1')).map((x) => x.replace(/^\d+:/, '')).sort()).toEqual([
        'StudentEnrollment:completed',
        'StudentEnrollment:inactive',
      ]);
      expect((await states('C2')).map((x) => x.replace(/^\d+:/, '')).sort()).toEqual([
        'StudentEnrollment:completed',
        'StudentEnrollment:inactive',
      ]);
      const failed = readFileSync(failedOut, 'utf8').split(/\r?\n/);
      expect(failed[0]).toBe('course_id,user_id,role,status,error');
      expect(failed[1]).toMatch(/^C3,u2,student,active,/);
      expect(failed).toHaveLength(3);
      // Run again, the file finds what it made: nothing is written.
      const writes = writesOf(lms);
      const again = await lms.run(['enrollments', 'import', '--update', '--yes', ends, '--restart']);
      expect(again.exitCode).toBe(1);
      expect(writes.filter((w) => !/\/enrollments$/.test(new URL(w.url).pathname) || w.method !== 'POST')).toEqual([]);
    },
  );

  it('passes over a deleted row whose enrollment is deleted already: a re-run is exit 0, no write', async () => {
    const lms = await seeded();
    const first = 'course_id,user_id,role,status\nC1,u1,student,active\nC1,u2,teacher,active\nC2,u3,student,deleted\n';
    await lms.run(['enrollments', 'import', file('night0.csv', first)]);
    const night1 = file('night1.csv', first.replace('C1,u2,teacher,active', 'C1,u2,teacher,deleted'));
    const deleted = await lms.run(['enrollments', 'import', '--update', '--yes', night1, '-o', 'json']);
    expect(deleted.exitCode, deleted.stderr).toBe(0);
    // The second night's file keeps the deleted row and adds a student.
    const night2 = file('night2.csv', `${readFileSync(night1, 'utf8')}C2,u1,student,active\n`);
    const plan = await lms.run(['enrollments', 'import', '--update', '--dry-run', night2, '-o', 'json']);
    expect(plan.exitCode, plan.stderr).toBe(0);
    const planned = JSON.parse(plan.stdout) as { rows: Record<string, unknown>[] };
    expect(planned.rows.map((r) => [r.line, r.status, r.destructive ?? false])).toEqual([
      [2, 'existed', false],
      [3, 'existed', false],
      [4, 'existed', false],
      [5, 'created', false],
    ]);
    const writes = writesOf(lms);
    // Nothing it writes destroys, so nothing is asked and no --yes is needed.
    const r = await lms.run(['enrollments', 'import', '--update', night2, '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ created: 1, existed: 3, updated: 0, failed: 0 });
    expect(writes.map((w) => `${w.method} ${new URL(w.url).pathname}`)).toEqual([
      expect.stringMatching(/^POST .*\/enrollments$/),
    ]);
    // The file again, its journal ignored: every row is looked up and none written.
    const again = await lms.run(['enrollments', 'import', '--update', '--restart', night2]);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(writes).toHaveLength(1);
    const deletedNow = await lms.run('enrollments list --course sis_course_id:C1 --state deleted -o json');
    expect((JSON.parse(deletedNow.stdout) as { type: string }[]).map((e) => e.type)).toEqual(['TeacherEnrollment']);
  });

  it('passes over a deleted row whose user, course or section the instance no longer has', async () => {
    const lms = await seeded();
    const writes = writesOf(lms);
    const gone = file(
      'gone.csv',
      'course_id,section_id,user_id,role,status\nC1,,nobody,student,deleted\nC9,,u1,student,deleted\n' +
        ',S9,u1,student,deleted\nC9,,u2,student,active\n',
    );
    const r = await lms.run(['enrollments', 'import', gone, '--dry-run']);
    // Only the row that would enrol is a problem: there is nothing left to delete for the others.
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('gone.csv:5: course "sis_course_id:C9" not found');
    expect(r.stderr).not.toMatch(/gone\.csv:[234]:/);
    const ok = await lms.run([
      'enrollments',
      'import',
      file('gone2.csv', readFileSync(gone, 'utf8').split('\n').slice(0, 4).join('\n')),
      '-o',
      'json',
    ]);
    expect(ok.exitCode, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ existed: 3, failed: 0 });
    expect(writes).toEqual([]);
  });
});
