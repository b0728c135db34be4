// What keeps two runs of one file (or a run and a person) from making an object twice where no lock
// is shared: a create looks again just before it is sent, by the key the state directory keeps and
// then by title, and takes over what it finds. And the plan says when the instance holds two objects
// the file's one would match, and which it was matched to.
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApiRequest } from '../../src/transport/types.js';
import { asAnotherClient } from '../helpers/declared-routes.js';
import { counted, type Counted } from './helpers.js';

const COURSE = 'http://lms.mock/api/v1/courses/sis_course_id:BIO-101';
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

/**
 * Before the first write of the apply reaches the mock (after its plan was read), `meanwhile` is sent as another client
 * would.
 */
function onFirstWrite(s: Counted, meanwhile: ApiRequest[]): void {
  const inner = s.mock.handler;
  let fired = false;
  s.mock.handler = async (req) => {
    if (req.method !== 'GET' && !fired) {
      fired = true;
      for (const other of meanwhile) {
        const res = await asAnotherClient(() => inner({ ...other, headers: req.headers }));
        expect(res.status).toBeLessThan(300);
      }
    }
    return inner(req);
  };
}

const post = (path: string, fields: Record<string, string>): ApiRequest => ({
  method: 'POST',
  url: `${COURSE}/${path}`,
  headers: {},
  body: form(fields),
});

async function listOf(
  s: Counted,
  noun: string,
): Promise<{ id: number; name?: string; title?: string; points_possible?: number; message?: string }[]> {
  const r = await s.run([noun, 'list', '--course', 'sis_course_id:BIO-101', '--all', '-o', 'json']);
  expect(r.exitCode, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

describe('an object made between the plan and its create', () => {
  it('is found by its title and taken over (updated to the file), not made again', async () => {
    const s = counted();
    const path = s.file(
      'c.yaml',
      `courses:
  - sis_course_id: BIO-101
    sections:
      - { sis_section_id: MEANWHILE-A, name: Lab A }
    assignments:
      - { name: Meanwhile Lab, points_possible: 5 }
    announcements:
      - { title: Meanwhile news, message: "<p>From the file</p>" }
`,
    );
    onFirstWrite(s, [
      post('assignments', { 'assignment[name]': 'Meanwhile Lab', 'assignment[points_possible]': '3' }),
      post('discussion_topics', { title: 'Meanwhile news', message: '<p>By hand</p>', is_announcement: 'true' }),
    ]);
    const r = await s.run(['apply', '-f', path, '--yes']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /warning: assignment Meanwhile Lab was made meanwhile, by another run or a person \(id \d+\): this run took it over instead of making it again/,
    );
    expect(r.stderr).toMatch(/warning: announcement Meanwhile news was made meanwhile/);
    const labs = (await listOf(s, 'assignments')).filter((a) => a.name === 'Meanwhile Lab');
    expect(labs.map((a) => a.points_possible)).toEqual([5]);
    const news = (await listOf(s, 'announcements')).filter((a) => a.title === 'Meanwhile news');
    expect(news.map((a) => a.message)).toEqual(['<p>From the file</p>']);
    const diff = await s.run(['diff', '-f', path, '--exit-code']);
    expect(diff.exitCode, diff.stdout).toBe(0);
  });

  it('is found by the key another run recorded in the same state directory, whatever its title now', async () => {
    const s = counted();
    // A first apply writes the course's state file (and names the mock state it belongs to).
    const first = await s.run([
      'apply',
      '-f',
      s.file(
        'first.yaml',
        'courses:\n  - sis_course_id: BIO-101\n    assignments:\n      - { key: first, name: First Lab }\n',
      ),
      '--yes',
    ]);
    expect(first.exitCode, first.stderr).toBe(0);
    const dir = join(s.dir, 'state', 'apply');
    const [file] = readdirSync(dir);
    const { state } = JSON.parse(readFileSync(join(dir, file), 'utf8').split('\n')[0]) as { state?: string };

    const path = s.file(
      'c.yaml',
      `courses:
  - sis_course_id: BIO-101
    sections:
      - { sis_section_id: MEANWHILE-K, name: Lab K }
    assignments:
      - { key: first, name: First Lab }
      - { key: lab2, name: Second Lab, points_possible: 8 }
`,
    );
    const inner = s.mock.handler;
    let fired = false;
    s.mock.handler = async (req) => {
      if (req.method !== 'GET' && !fired) {
        fired = true;
        // Another run of this file, under an earlier title, recorded under the key.
        const res = await asAnotherClient(() =>
          inner({
            ...post('assignments', { 'assignment[name]': 'Second Lab (draft)', 'assignment[points_possible]': '1' }),
            headers: req.headers,
          }),
        );
        const id = (JSON.parse(String(res.body)) as { id: number }).id;
        appendFileSync(
          join(dir, file),
          `${JSON.stringify({ kind: 'assignments', key: 'lab2', id, ...(state ? { state } : {}) })}\n`,
        );
      }
      return inner(req);
    };
    const r = await s.run(['apply', '-f', path, '--yes']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/assignment lab2 was made meanwhile/);
    const names = (await listOf(s, 'assignments'))
      .filter((a) => /Second Lab/.test(a.name ?? ''))
      .map((a) => `${a.name} ${a.points_possible}`);
    expect(names).toEqual(['Second Lab 8']);
  });
});

describe('two objects on the instance that one of the file would match', () => {
  it('are named in the plan, with the one matched, and only that one is changed', async () => {
    const s = counted();
    const ids: number[] = [];
    for (const points of ['1', '2']) {
      const r = await s.run([
        'assignments',
        'create',
        '--course',
        'sis_course_id:BIO-101',
        '--name',
        'Twin Lab',
        '--points',
        points,
        '-o',
        'json',
      ]);
      expect(r.exitCode, r.stderr).toBe(0);
      ids.push(JSON.parse(r.stdout).id);
    }
    const path = s.file(
      'c.yaml',
      'courses:\n  - sis_course_id: BIO-101\n    assignments:\n      - { name: Twin Lab, points_possible: 7 }\n',
    );
    const warning =
      `course BIO-101: 2 assignments of this course are titled "Twin Lab" (ids ${ids[0]}, ${ids[1]}); ` +
      `${path}:4 is matched to ${ids[0]}, the first listed (rename or delete the others to choose)`;

    const diff = await s.run(['diff', '-f', path, '-o', 'json']);
    expect(diff.exitCode, diff.stderr).toBe(0);
    expect(JSON.parse(diff.stdout).courses[0].ambiguous).toEqual([
      { kind: 'assignments', title: 'Twin Lab', source: `${path}:4`, ids, chosen: ids[0] },
    ]);
    expect(JSON.parse(diff.stderr).warnings).toEqual([warning]);

    const text = await s.run(['diff', '-f', path], { tty: true });
    expect(text.stdout).toContain(`  ! ${warning.slice('course BIO-101: '.length)}\n`);
    expect(text.stderr).toContain(`warning: ${warning}\n`);

    const applied = await s.run(['apply', '-f', path, '--yes']);
    expect(applied.exitCode, applied.stderr).toBe(0);
    expect(applied.stderr).toContain(`warning: ${warning}\n`);
    const twins = (await listOf(s, 'assignments')).filter((a) => a.name === 'Twin Lab');
    expect(twins.map((a) => [a.id, a.points_possible])).toEqual([
      [ids[0], 7],
      [ids[1], 2],
    ]);
  });
});
