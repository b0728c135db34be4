// End to end: `lms export course` against `lms mock serve`, the round trip its files are for. A
// seeded course exported, applied under new SIS ids and exported again is the same file but for
// those ids; the first export applied to the course it came from sends no write (the server's log).
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, e2eWorkspace, ensureBuilt, serveMock, spawnLms, type Served } from '../helpers/e2e.js';

const { dir, env } = e2eWorkspace('e2e-export');
let served: Served | undefined;

const moved = (text: string, from: string, to: string) =>
  text
    .replace(new RegExp(`^(\\s+- sis_course_id:) ${from}$`, 'm'), `$1 ${to}`)
    .replace(new RegExp(`\\b${from}-([A-Z])\\b`, 'g'), `${to}-$1`);
const writes = (log: string) => log.split('\n').filter((l) => /^(POST|PUT|DELETE) /.test(l));

beforeAll(async () => {
  await ensureBuilt();
  const seeded = await spawnLms(['--mock', 'mock', 'seed', '--yes'], env);
  expect(seeded.exitCode, seeded.stderr).toBe(0);
  served = await serveMock(env);
}, 120_000);

afterAll(async () => {
  await served?.stop();
});

describe('lms export course against lms mock serve', () => {
  it('export → apply under new SIS ids → export is the same file, SIS ids aside; the first export re-applied sends ' +
    'no write', async () => {
    const http = { ...env, LMS_BASE_URL: served!.url, LMS_TOKEN: ADMIN };
    for (const d of ['a', 'b', 'c']) mkdirSync(join(dir, d), { recursive: true });

    const first = await spawnLms(
      ['export', 'course', 'sis_course_id:BIO-101', '--out', join(dir, 'a', 'course.yaml')],
      http,
    );
    expect(first.exitCode, first.stderr).toBe(0);
    const text = readFileSync(join(dir, 'a', 'course.yaml'), 'utf8');
    expect(text).toContain('    outcomes:\n      file: course.outcomes.yaml\n');
    // Modules name what their items show by the keys the export gave it, and their prerequisites alike.
    expect(text).toContain('        prerequisites: [ week-1-cells ]\n');
    expect(text).toContain(
      '          - assignment: genetics-essay\n            completion_requirement: must_mark_done\n',
    );

    writeFileSync(join(dir, 'b', 'course.yaml'), moved(text, 'BIO-101', 'E2E-101'));
    copyFileSync(join(dir, 'a', 'course.outcomes.yaml'), join(dir, 'b', 'course.outcomes.yaml'));
    const applied = await spawnLms(['apply', '-f', join(dir, 'b', 'course.yaml'), '--yes', '-o', 'json'], http);
    expect(applied.exitCode, applied.stderr).toBe(0);
    expect(JSON.parse(applied.stdout).summary).toMatchObject({ create: 40, update: 0, delete: 0 });

    const second = await spawnLms(
      ['export', 'course', 'sis_course_id:E2E-101', '--out', join(dir, 'c', 'course.yaml')],
      http,
    );
    expect(second.exitCode, second.stderr).toBe(0);
    expect(readFileSync(join(dir, 'c', 'course.yaml'), 'utf8')).toBe(moved(text, 'BIO-101', 'E2E-101'));
    expect(readFileSync(join(dir, 'c', 'course.outcomes.yaml'), 'utf8')).toBe(
      readFileSync(join(dir, 'a', 'course.outcomes.yaml'), 'utf8'),
    );

    const mark = served!.log().length;
    const again = await spawnLms(['apply', '-f', join(dir, 'a', 'course.yaml'), '--yes', '-o', 'json'], http);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(JSON.parse(again.stderr).summary).toBe(
      'No changes: the instance matches the file (40 unchanged). Nothing was changed.',
    );
    expect(writes(served!.log().slice(mark))).toEqual([]);
    // As JSON too: the same course, which apply reads as it reads YAML.
    const json = await spawnLms(
      [
        'export',
        'course',
        'sis_course_id:E2E-101',
        '--include',
        'sections,enrollments,assignments,topics,announcements,quizzes',
        '-o',
        'json',
      ],
      http,
    );
    expect(json.exitCode, json.stderr).toBe(0);
    writeFileSync(join(dir, 'c', 'course.json'), json.stdout);
    const diff = await spawnLms(['diff', '-f', join(dir, 'c', 'course.json'), '--exit-code'], http);
    expect(diff.exitCode, diff.stdout).toBe(0);
  }, 120_000);
});
