// Exports and -o csv are safe to open in a spreadsheet, and still import back with nothing changed:
// text a spreadsheet would run gets a leading ', which every import takes off again; --raw writes it as it is.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { session, type Session } from '../helpers/run-lms.js';

const TEACHER = { LMS_TOKEN: '3~mock-tteacher' };
const HOSTILE = ["=cmd|' /C calc'!A0", '+SUM(1+1)', '@SUM(1)', '-2+3', "'=already quoted"];

function workspace(env: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'lms-csv-guard-'));
  const lms = session({ ...env, LMS_STATE_DIR: join(dir, 'state') });
  let n = 0;
  const file = (text: string) => {
    const path = join(dir, `file-${++n}.csv`);
    writeFileSync(path, text);
    return path;
  };
  return { lms, file };
}

async function ok(lms: Session, line: string): Promise<string> {
  const r = await lms.run(line);
  expect(r.exitCode, `${line}: ${r.stderr}`).toBe(0);
  return r.stdout;
}

/** The cells of a CSV, as any CSV reader (a spreadsheet among them) finds them. */
const cells = (csv: string) => (parse(csv) as string[][]).flat();

/** Gives users of the seeded school the hostile names (as a real instance may hold them). */
async function hostileUsers(lms: Session): Promise<void> {
  const users = JSON.parse(await ok(lms, 'users list --all -o json')) as { id: number }[];
  HOSTILE.forEach((name, i) => {
    lms.mock.db.prepare('UPDATE users SET name = ?, short_name = ? WHERE id = ?').run(name, name, users[i + 1].id);
  });
}

describe('a hostile name in CSV', () => {
  it.each([['users export'], ['users list --all -o csv']])('%s: every one guarded, none as it is', async (line) => {
    const { lms } = workspace();
    await hostileUsers(lms);
    const written = cells(await ok(lms, line));
    for (const name of HOSTILE) {
      expect(written).toContain(`'${name}`);
      expect(written).not.toContain(name);
    }
    expect(written.filter((c) => /^[=+\-@\t\r]/.test(c))).toEqual([]);
  });

  it.each([['users export --raw'], ['users list --all -o csv --raw']])('%s: as it is', async (line) => {
    const { lms } = workspace();
    await hostileUsers(lms);
    const written = cells(await ok(lms, line));
    for (const name of HOSTILE) expect(written).toContain(name);
  });

  it('users export imports back with nothing changed', async () => {
    const { lms, file } = workspace();
    await hostileUsers(lms);
    const exported = await ok(lms, 'users export');
    const r = await lms.run(`users import --update ${file(exported)} -o json`);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ created: 0, updated: 0, differs: 0, failed: 0 });
    expect(await ok(lms, 'users export')).toBe(exported);
  });

  it('-o json is data, not a spreadsheet: as it is', async () => {
    const { lms } = workspace();
    await hostileUsers(lms);
    const names = (JSON.parse(await ok(lms, 'users export -o json')) as { name: string }[]).map((u) => u.name);
    for (const name of HOSTILE) expect(names).toContain(name);
  });
});

describe('a gradebook whose assignment names a spreadsheet would run', () => {
  it('is guarded, and grades back with nothing changed', async () => {
    const { lms, file } = workspace(TEACHER);
    lms.mock.db.prepare('UPDATE assignments SET name = ? WHERE id = 1').run('=HYPERLINK("http://127.0.0.1/x","Lab")');
    lms.mock.db.prepare('UPDATE assignments SET name = ? WHERE id = 2').run('@Quiz');
    const exported = await ok(lms, 'grade export --course 1');
    const header = (parse(exported) as string[][])[0];
    expect(header).toContain(`'=HYPERLINK("http://127.0.0.1/x","Lab")`);
    expect(header).toContain("'@Quiz");
    const r = await lms.run(`grade --course 1 --csv ${file(exported)} -o json`);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ updated: 0, failed: 0 });
    expect(await ok(lms, 'grade export --course 1')).toBe(exported);
  });

  it('reads a guarded grade back as the grade', async () => {
    const { lms, file } = workspace(TEACHER);
    const r = await lms.run(
      `grade --course 1 --assignment 1 --csv ${file("user,grade\nsis_user_id:S-008,'+16\n")} -o json`,
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ updated: 1, failed: 0 });
    expect(await ok(lms, 'grade export --course 1 --assignment 1')).toContain(
      'sis_user_id:S-008,Sofia Student,"BIO-101 Section A, BIO-101 Lab Online",16,\n',
    );
  });
});
