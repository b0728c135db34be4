// End to end: Canvas's Gradebook export through the built binary, over HTTP against `lms mock serve`
// and with --mock: imported and read back, exported by lms and imported unchanged with zero writes;
// a UTF-16 "Unicode Text" file graded, and a Windows-1252 one refused with the command to convert it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqlite } from '../../src/mock/db/driver.js';
import { e2eWorkspace, ensureBuilt, serveMock, spawnLms, type Served } from '../helpers/e2e.js';
import { value } from '../helpers/sql.js';

const { dir, env } = e2eWorkspace('e2e-gradebook');
const served = { ...env, LMS_MOCK_DB: join(dir, 'served.db') };
const local = { ...env, LMS_MOCK_DB: join(dir, 'local.db'), LMS_TOKEN: '3~mock-tteacher' };
const fixture = (name: string) => new URL(`../fixtures/grading/${name}`, import.meta.url).pathname;
let server: Served;
let http: Record<string, string>;

/** What a database holds: a submission's score and whether it is excused, and every grade ever written. */
function held(db: string, assignment: number, user: number) {
  const conn = openSqlite(db, { readonly: true });
  try {
    return conn
      .prepare(`SELECT score, excused FROM submissions WHERE assignment_id = ? AND user_id = ?`)
      .get(assignment, user) as { score: number | null; excused: number };
  } finally {
    conn.close();
  }
}
function versions(db: string): number {
  const conn = openSqlite(db, { readonly: true });
  try {
    return value(conn, `SELECT count(*) FROM submission_versions`) as number;
  } finally {
    conn.close();
  }
}

beforeAll(async () => {
  await ensureBuilt();
  for (const e of [served, local]) {
    const seeded = await spawnLms(['--mock', 'mock', 'seed', '--yes'], e);
    expect(seeded.exitCode, seeded.stderr).toBe(0);
  }
  server = await serveMock(served, ['--quiet']);
  http = { ...env, LMS_BASE_URL: server.url, LMS_TOKEN: '3~mock-tteacher' };
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

describe("Canvas's gradebook export against lms mock serve", () => {
  it('grades the export, reads it back, and grades it again as no change', async () => {
    const r = await spawnLms(['grade', '--course', '1', '--csv', fixture('canvas-gradebook.csv'), '-o', 'json'], http);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ updated: 4, unchanged: 5, failed: 0 });
    expect(held(served.LMS_MOCK_DB, 1, 7).score).toBe(20);
    expect(held(served.LMS_MOCK_DB, 3, 8).excused).toBe(1);
    const before = versions(served.LMS_MOCK_DB);
    const again = await spawnLms(
      ['grade', '--course', '1', '--csv', fixture('canvas-gradebook.csv'), '-o', 'json'],
      http,
    );
    expect(JSON.parse(again.stdout)).toMatchObject({ updated: 0, failed: 0 });
    expect(versions(served.LMS_MOCK_DB)).toBe(before);
  });

  it('exports with --format canvas, and the export imported unchanged writes nothing', async () => {
    const exported = await spawnLms(['grade', 'export', '--course', '1', '--format', 'canvas'], http);
    expect(exported.exitCode, exported.stderr).toBe(0);
    expect(exported.stdout.split('\n')[1]).toMatch(/^ {4}Points Possible,/);
    const file = join(dir, 'exported.csv');
    writeFileSync(file, exported.stdout);
    const before = versions(served.LMS_MOCK_DB);
    const r = await spawnLms(['grade', '--course', '1', '--csv', file, '-o', 'json'], http);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ updated: 0, failed: 0 });
    expect(versions(served.LMS_MOCK_DB)).toBe(before);
  });
});

describe("Canvas's gradebook export and the dialects, with --mock", () => {
  it('round-trips an export edited in a spreadsheet that saves UTF-16 with tabs', async () => {
    const exported = await spawnLms(['--mock', 'grade', 'export', '--course', '1', '--format', 'canvas'], local);
    expect(exported.exitCode, exported.stderr).toBe(0);
    const unchanged = join(dir, 'unchanged.csv');
    writeFileSync(unchanged, exported.stdout);
    const before = versions(local.LMS_MOCK_DB);
    const same = await spawnLms(['--mock', 'grade', '--course', '1', '--csv', unchanged, '-o', 'json'], local);
    expect(JSON.parse(same.stdout)).toMatchObject({ updated: 0, failed: 0 });
    expect(versions(local.LMS_MOCK_DB)).toBe(before);
    // "Unicode Text": tabs, UTF-16 LE with its byte-order mark, CRLF; one score edited.
    const tsv = exported.stdout
      .replace('BIO-101 Section A,19.00,', 'BIO-101 Section A,16.00,')
      .split('\n')
      .map((line) => line.split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/).join('\t'))
      .join('\r\n');
    const edited = join(dir, 'edited.txt');
    writeFileSync(edited, Buffer.from(`\uFEFF${tsv}`, 'utf16le'));
    const r = await spawnLms(['--mock', 'grade', '--course', '1', '--csv', edited, '-o', 'json'], local);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ updated: 1, failed: 0 });
    expect(held(local.LMS_MOCK_DB, 1, 7).score).toBe(16);
    expect(versions(local.LMS_MOCK_DB)).toBe(before + 1);
  });

  it('refuses a Windows-1252 file with exit 2, naming its line and the iconv command', async () => {
    const file = join(dir, 'excel.csv');
    writeFileSync(file, Buffer.from('user,grade,comment\nsam,18,\x93good\x94\n', 'latin1'));
    const r = await spawnLms(['--mock', 'grade', '--course', '1', '--assignment', '1', '--csv', file], local);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(
      `${file}:2: not valid UTF-8: it looks like Windows-1252; convert it to UTF-8 with iconv -f WINDOWS-1252 -t ` +
        `UTF-8 ${file} > ${join(dir, 'excel.utf8.csv')}`,
    );
  });
});
