import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { session } from '../helpers/run-lms.js';

const HEADER = 'name,login_id,email,sis_user_id,time_zone';

function csvFile(content: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'lms-import-'));
  const path = join(dir, 'users.csv');
  writeFileSync(path, content);
  return path;
}

function roster(n: number, from = 1): string {
  const lines = [HEADER];
  for (let i = from; i < from + n; i++) lines.push(`Student ${i},stu${i},stu${i}@example.edu,SIS-${i},America/Chicago`);
  return `${lines.join('\n')}\n`;
}

function stateDir() {
  return { LMS_STATE_DIR: mkdtempSync(join(tmpdir(), 'lms-state-')) };
}

const countUsers = (lms: ReturnType<typeof session>) =>
  (lms.mock.db.prepare(`SELECT count(*) AS n FROM users WHERE workflow_state <> 'deleted'`).get() as { n: number }).n;

describe('lms users import', () => {
  it('creates every row once, and a re-run skips what is done', async () => {
    const lms = session(stateDir());
    const file = csvFile(roster(25));
    const first = await lms.run(`users import ${file} -o json`);
    expect(first.exitCode).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ total: 25, created: 25, existed: 0, failed: 0 });
    expect(first.stderr).toContain('25 created, 0 already existed, 0 failed');
    expect(countUsers(lms)).toBe(13 + 25);
    const again = await lms.run(`users import ${file} -o json`);
    expect(JSON.parse(again.stdout)).toMatchObject({ created: 0, skipped_done: 25 });
    expect(countUsers(lms)).toBe(13 + 25);
  });

  it('counts rows whose user exists already (a new file) as existed, not failed', async () => {
    const lms = session(stateDir());
    await lms.run(`users import ${csvFile(roster(5))}`);
    const overlap = await lms.run(`users import ${csvFile(roster(10))} -o json`);
    expect(overlap.exitCode).toBe(0);
    expect(JSON.parse(overlap.stdout)).toMatchObject({ created: 5, existed: 5, failed: 0 });
  });

  it('plans without writing on --dry-run', async () => {
    const lms = session(stateDir());
    await lms.run(`users import ${csvFile(roster(2))}`);
    const plan = await lms.run(`users import ${csvFile(roster(4))} --dry-run -o json`);
    expect(JSON.parse(plan.stdout)).toMatchObject({ dry_run: true, total: 4, created: 2, existed: 2 });
    expect(
      (JSON.parse(plan.stdout) as { rows: { login_id: string; status: string }[] }).rows.map((r) => [
        r.login_id,
        r.status,
      ]),
    ).toEqual([
      ['stu1', 'existed'],
      ['stu2', 'existed'],
      ['stu3', 'created'],
      ['stu4', 'created'],
    ]);
    expect(countUsers(lms)).toBe(13 + 2);
  });

  it('writes failed rows with an error column, exits 1, and that file imports as it is', async () => {
    const lms = session({ ...stateDir(), LMS_TOKEN: '2~mock-helpdesk' });
    // The helpdesk admin may create users but not set SIS ids: rows with one fail.
    const file = csvFile('name,login_id,sis_user_id\nAna,ana,\nBo,bo,SIS-B\nCy,cy,\n');
    const failedOut = join(mkdtempSync(join(tmpdir(), 'lms-failed-')), 'failed.csv');
    const r = await lms.run(`users import ${file} --failed-out ${failedOut} -o json`);
    expect(r.exitCode).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ created: 2, failed: 1 });
    const failed = readFileSync(failedOut, 'utf8');
    // The input's own columns, then why.
    expect(failed.split('\n')[0]).toBe('name,login_id,sis_user_id,error');
    expect(failed.split('\n')[1]).toMatch(/^Bo,bo,SIS-B,.*not authorized/);
    expect(r.stderr).toContain(`Failed rows are in ${failedOut}`);
    // Imported as it is, by someone allowed to set SIS ids: the error column is ignored.
    const again = await lms.run(`users import ${failedOut} -o json`, { env: { LMS_TOKEN: '' } });
    expect(again.exitCode, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ created: 1, failed: 0 });
    expect((await lms.run('users get sis_user_id:SIS-B -o json')).stdout).toContain('"login_id": "bo"');
  });

  it('writes skipped invalid rows, with their problems, to the failed-rows file', async () => {
    const lms = session(stateDir());
    const file = csvFile('name,login_id,email\nAna,ana,\n,bo,\nCy,cy,cy-at-example\nDi,di,di@example.edu\n');
    const failedOut = join(mkdtempSync(join(tmpdir(), 'lms-failed-')), 'failed.csv');
    const r = await lms.run(`users import ${file} --skip-invalid --failed-out ${failedOut} -o json`);
    // Rows left undone, invalid ones included, fail the job.
    expect(r.exitCode).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ created: 2, failed: 0, invalid: 2 });
    expect(readFileSync(failedOut, 'utf8')).toBe(
      'name,login_id,email,error\n,bo,,name is empty\nCy,cy,cy-at-example,"email ""cy-at-example"" is not an email ' +
        'address"\n',
    );
    // Fixed in place, the file imports as it is.
    writeFileSync(
      failedOut,
      readFileSync(failedOut, 'utf8').replace(',bo,', 'Bo,bo,').replace('cy-at-example,', 'cy@example.edu,'),
    );
    const fixed = await lms.run(`users import ${failedOut} --failed-out ${failedOut} -o json`);
    expect(fixed.exitCode, fixed.stderr).toBe(0);
    expect(JSON.parse(fixed.stdout)).toMatchObject({ created: 2, failed: 0, invalid: 0 });
    // Nothing failed this time: the file, the one just imported, is not rewritten.
    expect(readFileSync(failedOut, 'utf8')).toBe(
      'name,login_id,email,error\nBo,bo,,name is empty\nCy,cy,cy@example.edu,"email ""cy-at-example"" is not an ' +
        'email address"\n',
    );
  });

  it('round-trips with export', async () => {
    const lms = session(stateDir());
    const exported = await lms.run('users export -o csv');
    expect(exported.stdout.split('\n')[0]).toBe(
      'name,login_id,email,sis_user_id,short_name,sortable_name,time_zone,locale',
    );
    const r = await lms.run(`users import ${csvFile(exported.stdout)} -o json`);
    expect(JSON.parse(r.stdout)).toMatchObject({ total: 13, created: 0, existed: 13, failed: 0 });
  });

  it('exports every page, or as many users as --limit says', async () => {
    const lms = session();
    const rows = (r: { stdout: string }) => r.stdout.trim().split('\n').length - 1;
    expect(rows(await lms.run('users export -o csv --per-page 2'))).toBe(13);
    expect(rows(await lms.run('users export -o csv --limit 3'))).toBe(3);
    expect(rows(await lms.run('users export -o csv --limit 3 --all'))).toBe(13);
  });

  it('reads stdin with -', async () => {
    const lms = session(stateDir());
    const r = await lms.run('users import - -o json', { stdin: roster(3) });
    expect(JSON.parse(r.stdout)).toMatchObject({ created: 3 });
  });
});

describe('bad CSVs: exit 2, a line-numbered message, nothing sent', () => {
  const bigField = 'x'.repeat(10 * 1024 * 1024);
  it.each([
    ['a missing header', 'Ana,ana,ana@example.edu\n', 'users.csv:1: unknown columns "ana"'],
    ['an unknown column', 'name,login_id,shoe_size\nAna,ana,9\n', 'users.csv:1: unknown column "shoe_size"'],
    ['a missing required column', 'login_id\nana\n', 'users.csv:1: missing required column name'],
    ['an empty required field', 'name,login_id\nAna,ana\n,bo\n', 'users.csv:3: name is empty'],
    ['a duplicate login id', 'name,login_id\nAna,ana\nAnn,ANA\n', 'users.csv:3: login_id "ANA" repeats line 2'],
    [
      'a bad email',
      'name,login_id,email\nAna,ana,not-an-email\n',
      'users.csv:2: email "not-an-email" is not an email address',
    ],
    ['a quote left open', 'name,login_id\nAna,ana\n"Bo,bo\n', 'a quoted field is never closed'],
    ['a 10 MB field', `name,login_id\n${bigField},big\n`, 'a field is larger than 1 MiB'],
    ['a wrong number of fields', 'name,login_id\nAna,ana,extra\n', 'users.csv:2:'],
    ['an empty file', '', 'users.csv:1: the file is empty'],
  ])('%s', async (_what, content, message) => {
    const lms = session(stateDir());
    const before = (lms.mock.db.prepare('SELECT count(*) AS n FROM page_views').get() as { n: number }).n;
    const r = await lms.run(`users import ${csvFile(content)}`);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stderr).toContain('nothing was sent');
    expect((lms.mock.db.prepare('SELECT count(*) AS n FROM page_views').get() as { n: number }).n).toBe(before);
  });

  it('bad encoding', async () => {
    const lms = session(stateDir());
    const dir = mkdtempSync(join(tmpdir(), 'lms-enc-'));
    const path = join(dir, 'users.csv');
    writeFileSync(
      path,
      Buffer.concat([
        Buffer.from('name,login_id\nAna,ana\n'),
        Buffer.from([0x4a, 0xf8, 0x72, 0x6e]),
        Buffer.from(',jorn\n'),
      ]),
    );
    const r = await lms.run(`users import ${path}`);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('users.csv:3: not valid UTF-8');
  });

  it('imports the valid rows with --skip-invalid', async () => {
    const lms = session(stateDir());
    const r = await lms.run(`users import ${csvFile('name,login_id\nAna,ana\n,bo\nCy,cy\n')} --skip-invalid`);
    expect(r.exitCode).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ created: 2, invalid: 1 });
    expect(r.stderr).toContain('users.csv:3: name is empty');
  });
});
