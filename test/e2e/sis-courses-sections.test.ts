// `lms courses import` and `lms sections import` of SIS files over HTTP against `lms mock serve`:
// courses made in the accounts their rows name, sections in those courses, a completed row asked
// about before it concludes; and a sections import killed with SIGKILL, whose re-run completes with
// no section made twice. Files shaped as canvas-lms doc/api/sis_csv.md's samples.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, e2eWorkspace, ensureBuilt, serveMock, spawnLms, type Served } from '../helpers/e2e.js';

const { dir, env } = e2eWorkspace('sis-courses-sections');
const servers: Served[] = [];

async function server(name: string, flags: string[] = ['--quiet']) {
  const db = join(dir, `${name}.db`);
  expect((await spawnLms(['mock', 'seed', '--yes'], { ...env, LMS_MOCK_DB: db })).exitCode).toBe(0);
  const s = await serveMock({ ...env, LMS_MOCK_DB: db }, flags);
  servers.push(s);
  return { ...s, db };
}

/** The SIS ids of a course's sections, read through the CLI's own mock mode on the server's database. */
async function sectionIds(db: string, course: string): Promise<string[]> {
  const r = await spawnLms(
    ['--mock', 'sections', 'list', '--course', course, '--all', '-o', 'ndjson', '--fields', 'sis_section_id'],
    { ...env, LMS_MOCK_DB: db },
  );
  expect(r.exitCode, r.stderr).toBe(0);
  return (
    r.stdout
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as { sis_section_id: string | null }).sis_section_id)
      // The default section a course is made with has no SIS id.
      .filter((id): id is string => id !== null)
  );
}

beforeAll(ensureBuilt);
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});

describe('lms courses import and lms sections import against lms mock serve', () => {
  it('puts courses in the term their term_id names, with their integration_id, and --term moves one', async () => {
    const s = await server('terms');
    const remote = { ...env, LMS_BASE_URL: s.url, LMS_TOKEN: ADMIN };
    const courses = join(dir, 'term-courses.csv');
    writeFileSync(
      courses,
      'course_id,short_name,long_name,account_id,term_id,status,integration_id,start_date,end_date\n' +
        'T411208,AST115,Astronomy 115,,2026-FA,active,int-ast-115,,\n',
    );
    const made = await spawnLms(['courses', 'import', courses, '-o', 'json'], remote);
    expect(made.exitCode, made.stderr).toBe(0);
    expect(JSON.parse(made.stdout)).toMatchObject({ created: 1, failed: 0 });
    const get = async () =>
      JSON.parse((await spawnLms(['courses', 'get', 'sis_course_id:T411208', '-o', 'json'], remote)).stdout) as {
        id: number;
        enrollment_term_id: number;
        integration_id: string | null;
      };
    const course = await get();
    expect(course.integration_id).toBe('int-ast-115');
    const seeded = JSON.parse((await spawnLms(['courses', 'get', '1', '-o', 'json'], remote)).stdout) as {
      enrollment_term_id: number;
    };
    expect(course.enrollment_term_id).not.toBe(seeded.enrollment_term_id);
    const again = await spawnLms(['courses', 'import', '--update', courses, '-o', 'json'], remote);
    expect(JSON.parse(again.stdout)).toMatchObject({ failed: 0 });
    const moved = await spawnLms(
      ['courses', 'update', String(course.id), '--term', String(seeded.enrollment_term_id), '-o', 'json'],
      remote,
    );
    expect(moved.exitCode, moved.stderr).toBe(0);
    expect(await get()).toMatchObject({ enrollment_term_id: seeded.enrollment_term_id, integration_id: 'int-ast-115' });

    // The terms a file may name, read from the server; a file naming one it does not have is refused unsent.
    const terms = await spawnLms(['terms', 'list', '-o', 'csv', '--fields', 'id,name,sis_term_id'], remote);
    expect(terms.exitCode, terms.stderr).toBe(0);
    expect(terms.stdout.trim().split(/\r?\n/)).toEqual([
      'id,name,sis_term_id',
      `${seeded.enrollment_term_id},Default Term,`,
      `${course.enrollment_term_id},Fall 2026,2026-FA`,
    ]);
    writeFileSync(courses, readFileSync(courses, 'utf8').replace('2026-FA', '2031-SP'));
    const refused = await spawnLms(['courses', 'import', '--update', courses], remote);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain(`${courses}:2: term "2031-SP" not found`);
    expect(await get()).toMatchObject({ enrollment_term_id: seeded.enrollment_term_id });
  }, 60_000);

  it('makes courses in their accounts and sections in them, then concludes a completed row after asking', async () => {
    const s = await server('files');
    const remote = { ...env, LMS_BASE_URL: s.url, LMS_TOKEN: ADMIN };
    const courses = join(dir, 'courses.csv');
    writeFileSync(
      courses,
      'course_id,short_name,long_name,account_id,term_id,status\n' +
        'E411208,ENG115,English 115: Intro to English,MSU-HUM,,active\n' +
        'R001104,BIO300,"Biology 300: Rocking it, Bio Style",MSU-SCI,,published\n',
    );
    const made = await spawnLms(['courses', 'import', courses, '-o', 'json'], remote);
    expect(made.exitCode, made.stderr).toBe(0);
    expect(JSON.parse(made.stdout)).toMatchObject({ created: 2, failed: 0 });
    const sections = join(dir, 'sections.csv');
    writeFileSync(
      sections,
      'section_id,course_id,name,status,start_date,end_date\n' +
        'S001,E411208,Section 1,active,,\nS002,E411208,Section 2,active,,\nS003,R001104,Section 1,active,,\n',
    );
    const placed = await spawnLms(['sections', 'import', sections, '-o', 'json'], remote);
    expect(placed.exitCode, placed.stderr).toBe(0);
    expect(JSON.parse(placed.stdout)).toMatchObject({ created: 3, failed: 0 });
    expect((await sectionIds(s.db, 'sis_course_id:E411208')).sort()).toEqual(['S001', 'S002']);

    const ends = join(dir, 'ends.csv');
    writeFileSync(
      ends,
      'course_id,short_name,long_name,status\nE411208,ENG115,English 115: Intro to English,completed\n',
    );
    const asked = await spawnLms(['courses', 'import', '--update', ends], remote);
    expect(asked.exitCode).toBe(2);
    expect(asked.stderr).toMatch(/Conclude 1 course .*--yes/);
    const done = await spawnLms(['courses', 'import', '--update', '--yes', ends, '-o', 'json'], remote);
    expect(done.exitCode, done.stderr).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({ updated: 1, failed: 0 });
    const course = await spawnLms(['courses', 'get', 'sis_course_id:E411208', '-o', 'json'], remote);
    expect(JSON.parse(course.stdout)).toMatchObject({ workflow_state: 'completed' });
  }, 60_000);
});

describe('a sections import killed with SIGKILL', () => {
  it('completes on the re-run, with no section made twice', async () => {
    const s = await server('killed', ['--quiet', '--latency', '15']);
    const file = join(dir, 'many-sections.csv');
    const lines = ['section_id,course_id,name,status'];
    for (let i = 1; i <= 120; i++) lines.push(`K-${i},HIST-110,Seminar ${i},active`);
    writeFileSync(file, `${lines.join('\n')}\n`);
    const state = join(dir, 'state-killed');
    const http = { ...env, LMS_BASE_URL: s.url, LMS_TOKEN: ADMIN, LMS_STATE_DIR: state };
    const child = spawnLms(['sections', 'import', file, '--concurrency', '2'], http);
    const journals = join(state, 'journals');
    const journalLines = () =>
      existsSync(journals)
        ? readdirSync(journals).reduce(
            (n, f) => n + readFileSync(join(journals, f), 'utf8').split('\n').filter(Boolean).length,
            0,
          )
        : 0;
    const deadline = Date.now() + 30_000;
    while (journalLines() < 40 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    child.kill('SIGKILL');
    const killed = await child;
    expect(killed.signal).toBe('SIGKILL');
    const partial = (await sectionIds(s.db, 'sis_course_id:HIST-110')).filter((id) => id.startsWith('K-'));
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.length).toBeLessThan(120);

    const rerun = await spawnLms(['sections', 'import', file, '-o', 'json'], http);
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    const summary = JSON.parse(rerun.stdout) as { created: number; skipped_done: number; existed: number };
    expect(summary.created + summary.skipped_done + summary.existed).toBe(120);
    const ids = (await sectionIds(s.db, 'sis_course_id:HIST-110')).filter((id) => id.startsWith('K-'));
    expect(ids).toHaveLength(120);
    expect(new Set(ids).size).toBe(120);
  }, 90_000);
});
