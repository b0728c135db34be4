// A bulk job never reports work as done that is not: a journal is bound to the instance state it
// describes, checked where the instance cannot vouch for it, and a dry run says what the run does.
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { whyUnreadable } from '../../src/io/bounded.js';
import { run } from '../../src/cli/entry.js';
import { INSTANCE_HEADER } from '../../src/mock/handler.js';
import { reseed, type MockRuntime } from '../../src/mock/runtime.js';
import { fakeIO } from '../helpers/fake-io.js';
import { session, splitArgs } from '../helpers/run-lms.js';
import { value } from '../helpers/sql.js';

function csvFile(content: string, name = 'users.csv'): string {
  const path = join(mkdtempSync(join(tmpdir(), 'lms-honest-')), name);
  writeFileSync(path, content);
  return path;
}

function roster(n: number): string {
  const lines = ['name,login_id,email,time_zone'];
  for (let i = 1; i <= n; i++) lines.push(`Person ${i},p${i},p${i}@example.edu,America/Chicago`);
  return `${lines.join('\n')}\n`;
}

const stateDir = () => ({ LMS_STATE_DIR: mkdtempSync(join(tmpdir(), 'lms-state-')) });
const json = (r: { stdout: string }) =>
  JSON.parse(r.stdout) as Record<string, unknown> & { rows: Record<string, unknown>[] };
const activeLogins = (mock: MockRuntime, like: string) =>
  value(
    mock.db,
    `SELECT count(*) FROM pseudonyms WHERE unique_id LIKE ? AND workflow_state <> 'deleted'`,
    like,
  ) as number;

describe('a journal outlives the data it describes', () => {
  it('after a reseed, the dry run and the run both see that nothing is done', async () => {
    const lms = session(stateDir());
    const file = csvFile(roster(20));
    expect(json(await lms.run(`users import ${file} -o json`))).toMatchObject({ created: 20, skipped_done: 0 });
    expect(json(await lms.run(`users import ${file} -o json`))).toMatchObject({ created: 0, skipped_done: 20 });

    await reseed(lms.mock.db);
    const plan = await lms.run(`users import ${file} --dry-run -o json`);
    expect(plan.stderr).toContain('Dry run: 20 would be created, 0 already exist, 0 would fail. Nothing was written.');
    expect(new Set(json(plan).rows.map((p) => p.status))).toEqual(new Set(['created']));
    expect(activeLogins(lms.mock, 'p%')).toBe(0);

    const again = await lms.run(`users import ${file} -o json`);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(json(again)).toMatchObject({ total: 20, created: 20, skipped_done: 0, failed: 0 });
    expect(again.stderr).toContain('20 created, 0 already existed, 0 failed.');
    expect(activeLogins(lms.mock, 'p%')).toBe(20);
  });

  it(
    'after a delete, the rows the journal calls done are ' + 'checked again, and a deleted user is created again',
    async () => {
      const lms = session(stateDir());
      const file = csvFile(roster(3));
      expect(json(await lms.run(`users import ${file} -o json`))).toMatchObject({ created: 3 });
      expect((await lms.run('users delete sis_login_id:p2 --yes -o json')).exitCode).toBe(0);
      expect(activeLogins(lms.mock, 'p%')).toBe(2);

      const again = await lms.run(`users import ${file} -o json`);
      expect(again.exitCode, again.stderr).toBe(0);
      expect(json(again)).toMatchObject({ total: 3, created: 1, skipped_done: 0, failed: 0 });
      expect(activeLogins(lms.mock, 'p%')).toBe(3);
      // Nothing removed since: the journal is trusted again, and no row costs a request.
      expect(json(await lms.run(`users import ${file} -o json`))).toMatchObject({ created: 0, skipped_done: 3 });
    },
  );

  it(
    'on an instance that names no state, rows the journal ' + 'calls done are looked up, and redone when gone',
    async () => {
      const lms = session(stateDir());
      // What a real server looks like: the same mock, minus the header naming its state.
      const real: MockRuntime = {
        ...lms.mock,
        handler: async (req) => {
          const res = await lms.mock.handler(req);
          delete res.headers[INSTANCE_HEADER];
          return res;
        },
      };
      const env = { LMS_MOCK: '1', ...stateDir() };
      const runReal = async (line: string) => {
        const io = fakeIO({});
        const exitCode = await run(splitArgs(line), { io, env, mock: real, configDir: lms.configDir });
        return { exitCode, stdout: io.stdoutText(), stderr: io.stderrText() };
      };
      const file = csvFile(roster(6));
      expect(json(await runReal(`users import ${file} -o json`))).toMatchObject({ created: 6 });
      for (const login of ['p2', 'p5'])
        expect((await runReal(`users delete sis_login_id:${login} --yes -o json`)).exitCode).toBe(0);

      const plan = await runReal(`users import ${file} --dry-run -o json`);
      expect(plan.stderr).toContain(
        'Dry run: 2 would be created (2 of them again: an earlier run did them, but they are gone), 0 already exist, ' +
          '0 would fail, 4 done by an earlier run.',
      );
      expect(
        json(plan)
          .rows.filter((p) => p.status === 'created')
          .map((p) => p.login_id),
      ).toEqual(['p2', 'p5']);
      expect(activeLogins(lms.mock, 'p%')).toBe(4);

      const again = await runReal(`users import ${file} -o json`);
      expect(again.exitCode, again.stderr).toBe(0);
      expect(json(again)).toMatchObject({ created: 2, skipped_done: 4, redone: 2 });
      expect(again.stderr).toContain(
        '2 created (2 of them again: an earlier run did them, but they are gone), 0 already existed, 0 failed, 4 ' +
          'done ' +
          'by an earlier run.',
      );
      expect(activeLogins(lms.mock, 'p%')).toBe(6);
    },
  );

  it('--restart ignores the journal, and replaces it', async () => {
    const env = stateDir();
    const lms = session(env);
    const file = csvFile(roster(5));
    await lms.run(`users import ${file}`);
    // The mock vouches for its state, which nothing has changed since: the journal is believed…
    expect(json(await lms.run(`users import ${file} -o json`))).toMatchObject({ created: 0, skipped_done: 5 });
    // …until told to start over, when every row is looked at again.
    const plan = await lms.run(`users import ${file} --restart --dry-run -o json`);
    expect(json(plan).rows.map((p) => p.status)).toEqual(['existed', 'existed', 'existed', 'existed', 'existed']);
    expect(json(await lms.run(`users import ${file} --restart -o json`))).toMatchObject({
      created: 0,
      existed: 5,
      skipped_done: 0,
    });
    expect(json(await lms.run(`users import ${file} -o json`))).toMatchObject({ created: 0, skipped_done: 5 });
    const journals = readdirSync(join(env.LMS_STATE_DIR, 'journals'));
    expect(journals).toHaveLength(1);
    // Replaced, not appended to: two lines per row of the restarted run (started, then the outcome), no token.
    const text = readFileSync(join(env.LMS_STATE_DIR, 'journals', journals[0]), 'utf8');
    expect(text.trim().split('\n')).toHaveLength(2 * 5);
    expect(text).not.toContain('mock-admin');
  });
});

describe('re-importing an edited export', () => {
  async function exported(lms: ReturnType<typeof session>) {
    const r = await lms.run('users export -o csv');
    return parse(r.stdout, { columns: true }) as Record<string, string>[];
  }

  it('reports what differs, applies it with --update, and then agrees', async () => {
    const lms = session(stateDir());
    const users = await exported(lms);
    const edit = (login: string, change: Record<string, string>) =>
      Object.assign(users.find((u) => u.login_id === login)!, change);
    edit('sam', { name: 'Samuel Student', sortable_name: 'Student, Samuel' });
    edit('ravi', { time_zone: 'Asia/Kolkata' });
    edit('hana', { short_name: 'Hana S', locale: 'ja' });
    const file = csvFile(stringify(users, { header: true }));

    const first = await lms.run(`users import ${file}`);
    expect(first.exitCode).toBe(0);
    expect(json(first)).toMatchObject({ total: 13, created: 0, existed: 10, differs: 3, updated: 0, failed: 0 });
    const sam = json(first).rows.find((r) => r.login_id === 'sam')!;
    expect(sam).toMatchObject({
      status: 'differs',
      changes: [
        { field: 'name', from: 'Sam Student', to: 'Samuel Student', applicable: true },
        { field: 'sortable_name', from: 'Student, Sam', to: 'Student, Samuel', applicable: true },
      ],
    });
    expect(first.stderr).toContain('3 differ (left as they are; --update applies the differences)');
    expect(first.stderr).toContain('(login_id ravi): differs: time_zone "America/Chicago" → "Asia/Kolkata"');
    expect(JSON.parse((await lms.run('users get sis_login_id:sam -o json')).stdout)).toMatchObject({
      name: 'Sam Student',
    });

    const plan = await lms.run(`users import ${file} --update --dry-run -o json`);
    // The rows that agreed are done (the first run said so); the three that differ would be updated.
    const actions = json(plan).rows.map((p) => ({ login_id: p.login_id, status: p.status }));
    expect(
      actions
        .filter((p) => p.status !== 'skipped')
        .sort((a, b) => String(a.login_id).localeCompare(String(b.login_id))),
    ).toEqual([
      { login_id: 'hana', status: 'updated' },
      { login_id: 'ravi', status: 'updated' },
      { login_id: 'sam', status: 'updated' },
    ]);
    expect(plan.stderr).toContain(
      'Dry run: 0 would be created, 0 already exist, 3 would be updated, 0 would fail, 10 done by an earlier run.',
    );

    const applied = await lms.run(`users import ${file} --update -o json`);
    expect(applied.exitCode, applied.stderr).toBe(0);
    expect(json(applied)).toMatchObject({ existed: 0, differs: 0, updated: 3, failed: 0, skipped_done: 10 });
    expect(JSON.parse((await lms.run('users get sis_login_id:sam -o json')).stdout)).toMatchObject({
      name: 'Samuel Student',
      sortable_name: 'Student, Samuel',
    });
    expect(JSON.parse((await lms.run('users get sis_login_id:ravi -o json')).stdout)).toMatchObject({
      time_zone: 'Asia/Kolkata',
    });
    expect(JSON.parse((await lms.run('users get sis_login_id:hana -o json')).stdout)).toMatchObject({
      short_name: 'Hana S',
      locale: 'ja',
    });

    // Everything is done now; checked afresh, every row agrees with the instance.
    expect(json(await lms.run(`users import ${file} --update -o json`))).toMatchObject({
      updated: 0,
      skipped_done: 13,
    });
    expect(json(await lms.run(`users import ${file} --restart -o json`))).toMatchObject({
      existed: 13,
      differs: 0,
      updated: 0,
      failed: 0,
    });
  });

  it(
    'reports fields the API cannot change, applies the ' + 'rest, and fails a row with nothing it could apply',
    async () => {
      const lms = session(stateDir());
      const file = csvFile(
        'name,login_id,email,sis_user_id\nSam Student,sam,sam@school.example,S-007\nSofia S ' +
          'Student,sofia,sofia@school.example,S-008\nRavi Patel,ravi,ravi@example.edu,S-999\n',
      );
      const plain = await lms.run(`users import ${file}`);
      expect(plain.exitCode).toBe(0);
      expect(json(plain)).toMatchObject({ differs: 3, failed: 0 });
      expect(plain.stderr).toContain(
        '(login_id sam): differs: email "sam@example.edu" → "sam@school.example" (cannot be changed through the API)',
      );

      const plan = await lms.run(`users import ${file} --update --dry-run`);
      expect(json(plan).rows.map((p) => ({ login_id: p.login_id, status: p.status }))).toEqual([
        { login_id: 'sam', status: 'failed' },
        { login_id: 'sofia', status: 'updated' },
        { login_id: 'ravi', status: 'failed' },
      ]);
      expect(plan.stderr).toContain('(login_id sofia): would be updated: name "Sofia Student" → "Sofia S Student"');
      expect(plan.stderr).toContain(
        '(login_id sam): would fail: cannot be changed through the API: email "sam@example.edu" → "sam@school.example"',
      );
      const failedOut = join(mkdtempSync(join(tmpdir(), 'lms-failed-')), 'failed.csv');
      const r = await lms.run(`users import ${file} --update --failed-out ${failedOut}`);
      expect(r.exitCode).toBe(1);
      expect(json(r)).toMatchObject({ updated: 1, failed: 2 });
      expect(json(r).rows.find((x) => x.login_id === 'sofia')).toMatchObject({
        status: 'updated',
        changes: [
          { field: 'name', applicable: true },
          { field: 'email', from: 'sofia@example.edu', to: 'sofia@school.example', applicable: false },
        ],
      });
      expect(r.stderr).toContain(
        '(login_id sofia): updated: name "Sofia Student" → "Sofia S Student"; email "sofia@example.edu" → ' +
          '"sofia@school.example" (cannot be changed through the API)',
      );
      expect(r.stderr).toContain(
        '(login_id ravi): failed: cannot be changed through the API: sis_user_id "S-009" → "S-999"',
      );
      expect(readFileSync(failedOut, 'utf8')).toContain(
        'Ravi Patel,ravi,ravi@example.edu,S-999,"cannot be changed through the API: sis_user_id ""S-009"" → ' +
          '""S-999"""\n',
      );
      expect(JSON.parse((await lms.run('users get sis_login_id:sofia -o json')).stdout)).toMatchObject({
        name: 'Sofia S Student',
        email: 'sofia@example.edu',
      });
    },
  );
});

describe('input files', () => {
  it.each([
    ['a missing file', (dir: string) => join(dir, 'nope.csv'), 'no such file'],
    [
      'a directory',
      (dir: string) => {
        mkdirSync(join(dir, 'folder.csv'));
        return join(dir, 'folder.csv');
      },
      'it is a directory, not a file',
    ],
  ])('%s: exit 2, naming the path and why', async (_what, make, why) => {
    const lms = session(stateDir());
    const path = make(mkdtempSync(join(tmpdir(), 'lms-unreadable-')));
    const r = await lms.run(`users import ${path}`);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`cannot read ${path}: ${why}`);
  });

  it('a file it may not read: exit 2, permission denied', async () => {
    const lms = session(stateDir());
    const path = csvFile(roster(1));
    chmodSync(path, 0o000);
    const r = await lms.run(`users import ${path}`);
    // Root reads anything; then the denial is proven on the message alone.
    if (process.getuid?.() === 0) expect(r.exitCode).toBe(0);
    else expect(r.stderr).toContain(`cannot read ${path}: permission denied`);
    expect(whyUnreadable(Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' }))).toBe(
      'permission denied',
    );
  });

  it('a token the instance refuses stops the job before any row: exit 3, no journal', async () => {
    const env = stateDir();
    const lms = session(env);
    const r = await lms.run(`users import ${csvFile(roster(3))}`, { env: { LMS_TOKEN: 'not-a-token' } });
    expect(r.exitCode).toBe(3);
    expect(() => readdirSync(join(env.LMS_STATE_DIR, 'journals'))).toThrow();
    expect(activeLogins(lms.mock, 'p%')).toBe(0);
  });
});
