// End to end: export → edit → import → read back for every bulk noun, with the built binary against
// `lms mock serve`. Each export's stdout is a pipe, as in `lms X export > file`, and must come out
// as the CSV its import reads; the same import run a second time must change nothing.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, bin, e2eWorkspace, ensureBuilt, serveMock, spawnLms, type Served } from '../helpers/e2e.js';

const TEACHER = '3~mock-tteacher';
const { dir, env } = e2eWorkspace('e2e-round-trips');
let server: Served;
let files = 0;

function lms(args: string[], token = ADMIN) {
  return spawnLms(args, { ...env, LMS_BASE_URL: server.url, LMS_TOKEN: token });
}

/** Runs a command that must succeed; its stdout. */
async function ok(args: string[], token?: string): Promise<string> {
  const r = await lms(args, token);
  expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  return r.stdout;
}

/** The text as a new file of the scratch directory. */
function saved(text: string, ext = 'csv'): string {
  const path = join(dir, `round-trip-${++files}.${ext}`);
  writeFileSync(path, text);
  return path;
}

function edit(text: string, from: string, to: string): string {
  const lines = text.split('\n');
  expect(lines).toContain(from);
  return lines.map((l) => (l === from ? to : l)).join('\n');
}

beforeAll(async () => {
  await ensureBuilt();
  server = await serveMock(env, ['--quiet']);
});

afterAll(async () => {
  await server?.stop();
});

describe('export → edit → import over HTTP', () => {
  it('grades: a gradebook, two cells edited', async () => {
    const historyBefore = JSON.parse(
      await ok(['history', 'feed', '--course', '1', '--all', '-o', 'json', '--fields', 'id'], TEACHER),
    ) as unknown[];
    const exported = await ok(['grade', 'export', '--course', '1'], TEACHER);
    expect(exported.split('\n')[0]).toBe(
      'user,name,section,Cell Structure Lab Report,Microscope Safety Quiz,Genetics Essay',
    );
    const sofia = 'sis_user_id:S-008,Sofia Student,"BIO-101 Section A, BIO-101 Lab Online"';
    const mina = 'sis_user_id:S-010,Mina Okafor,BIO-101 Section B';
    const file = saved(
      edit(edit(exported, `${sofia},15,incomplete,`, `${sofia},17,incomplete,`), `${mina},,,`, `${mina},,,C+`),
    );
    const first = JSON.parse(await ok(['grade', '--course', '1', '--csv', file, '-o', 'json'], TEACHER)) as Record<
      string,
      number
    >;
    // Lucas's lab report grade predates his resubmission: an empty cell, not a grade to send.
    expect(first).toMatchObject({ updated: 2, unchanged: 4, failed: 0 });
    const [lab, essay] = await Promise.all([
      ok(
        [
          'submissions',
          'get',
          '--course',
          '1',
          '--assignment',
          '1',
          '--user',
          'sis_user_id:S-008',
          '-o',
          'json',
          '--fields',
          'grade,score',
        ],
        TEACHER,
      ),
      ok(
        [
          'submissions',
          'get',
          '--course',
          '1',
          '--assignment',
          '3',
          '--user',
          'sis_user_id:S-010',
          '-o',
          'json',
          '--fields',
          'grade,score',
        ],
        TEACHER,
      ),
    ]);
    expect([JSON.parse(lab), JSON.parse(essay)]).toEqual([
      { grade: '17', score: 17 },
      { grade: 'C+', score: 79 },
    ]);
    // The gradebook's history has exactly the two edits, by the teacher who imported them.
    const feed = JSON.parse(
      await ok(
        [
          'history',
          'feed',
          '--course',
          '1',
          '--all',
          '-o',
          'json',
          '--fields',
          'user_id,assignment_id,grade,grader_id',
        ],
        TEACHER,
      ),
    ) as Record<string, unknown>[];
    expect(feed.slice(0, 2).sort((a, b) => Number(a.user_id) - Number(b.user_id))).toEqual([
      { user_id: 8, assignment_id: 1, grade: '17', grader_id: 3 },
      { user_id: 10, assignment_id: 3, grade: 'C+', grader_id: 3 },
    ]);
    expect(feed.length).toBe(historyBefore.length + 2);
    const again = JSON.parse(await ok(['grade', '--course', '1', '--csv', file, '-o', 'json'], TEACHER)) as Record<
      string,
      number
    >;
    expect(again).toMatchObject({ updated: 0, unchanged: 6, failed: 0 });
  });

  it('enrollments: a state changed and a student added, synced', async () => {
    const exported = await ok(['enrollments', 'export', '--course', '2']);
    expect(exported.split('\n')[0]).toBe('user,type,role,section,state');
    const file = saved(
      `${edit(exported, 'sis_user_id:S-011,student,,sis_section_id:CHEM-201-01,invited', 'sis_user_id:S-011,student,,sis_section_id:CHEM-201-01,active').trimEnd()}` +
        `\nsis_login_id:hana,student,,,active\n`,
    );
    const sync = ['enrollments', 'import', '--course', '2', '--update', '--sync', '--yes'];
    expect(JSON.parse(await ok([...sync, file, '-o', 'json']))).toMatchObject({ created: 1, updated: 1, failed: 0 });
    const [lucas, hana] = await Promise.all(
      ['sis_user_id:S-011', 'sis_user_id:S-012'].map(async (user) =>
        JSON.parse(
          await ok([
            'enrollments',
            'list',
            '--course',
            '2',
            '--user',
            user,
            '-o',
            'json',
            '--fields',
            'type,enrollment_state',
          ]),
        ),
      ),
    );
    expect([lucas, hana]).toEqual([
      [{ type: 'StudentEnrollment', enrollment_state: 'active' }],
      [{ type: 'StudentEnrollment', enrollment_state: 'active' }],
    ]);
    expect(JSON.parse(await ok([...sync, '--restart', file, '-o', 'json']))).toMatchObject({
      created: 0,
      updated: 0,
      differs: 0,
      failed: 0,
    });
  });

  it('outcomes: a group renamed and an outcome added, as YAML', async () => {
    const exported = await ok(['outcomes', 'export', '--account', '1', '--yaml']);
    const added = [
      '          - title: Keeps a field notebook',
      '            vendor_guid: msu-field',
      '            ratings: ["2:Complete", "1:Partial"]',
    ];
    const lines = edit(exported, '      - title: Laboratory Practice', '      - title: Lab Practice').split('\n');
    // After the lab group's only outcome: its last line, calculation_int.
    const at = lines.indexOf('            calculation_int: 65', lines.indexOf('        vendor_guid: msu-lab'));
    const file = saved([...lines.slice(0, at + 1), ...added, ...lines.slice(at + 1)].join('\n'), 'yaml');
    expect(JSON.parse(await ok(['outcomes', 'import', '--account', '1', file, '-o', 'json']))).toMatchObject({
      created: 1,
      updated: 1,
      failed: 0,
    });
    const csv = await ok(['outcomes', 'export', '--account', '1']);
    expect(csv).toContain('\nmsu-lab,group,Lab Practice,,,,,msu-sci-lit,,\n');
    expect(csv).toContain(
      '\nmsu-field,outcome,Keeps a field notebook,,,decaying_average,65,msu-lab,2,2:Complete;1:Partial\n',
    );
    expect(
      JSON.parse(await ok(['outcomes', 'import', '--account', '1', '--restart', file, '-o', 'json'])),
    ).toMatchObject({ created: 0, updated: 0, failed: 0 });
  });

  it('users: a short name changed', async () => {
    const exported = await ok(['users', 'export', '--account', '1']);
    const file = saved(
      edit(
        exported,
        'Sam Student,sam,sam@example.edu,S-007,Sam,"Student, Sam",America/Chicago,en',
        'Sam Student,sam,sam@example.edu,S-007,Sammy,"Student, Sam",America/Chicago,en',
      ),
    );
    expect(JSON.parse(await ok(['users', 'import', '--account', '1', '--update', file, '-o', 'json']))).toMatchObject({
      created: 0,
      updated: 1,
      failed: 0,
    });
    expect(JSON.parse(await ok(['users', 'get', 'sis_login_id:sam', '-o', 'json', '--fields', 'short_name']))).toEqual({
      short_name: 'Sammy',
    });
    expect(
      JSON.parse(await ok(['users', 'import', '--account', '1', '--update', '--restart', file, '-o', 'json'])),
    ).toMatchObject({ created: 0, updated: 0, differs: 0, failed: 0 });
  });
});

/** jq, where the machine has it (CI installs it): the JSON rows are skipped, saying so, where it has not. */
const jq = spawnSync('jq', ['--version']).status === 0;

describe('lists and exports piped into imports, as a jq user does', () => {
  /** A shell pipeline of lms commands (`lms` is the built binary) and jq; its stdout. */
  async function pipeline(line: string, token = ADMIN): Promise<string> {
    const lmsCmd = `'${process.execPath}' '${bin}'`;
    const r = await execa('bash', ['-c', `set -o pipefail; ${line.replaceAll('lms ', `${lmsCmd} `)}`], {
      env: { ...env, LMS_BASE_URL: server.url, LMS_TOKEN: token },
      reject: false,
    });
    expect(r.exitCode, `${line}: ${r.stderr}`).toBe(0);
    return r.stdout;
  }

  it.each([
    [
      'a course roster listed as JSON, turned into the import CSV by jq',
      `lms enrollments list --course 2 -o json | jq -r '["user","type","section","state"], (.[] | ["\\(.user_id)", ` +
        `.type, "\\(.course_section_id)", .enrollment_state]) | @csv' | lms enrollments import --course 2 - -o json`,
      ADMIN,
    ],
    [
      "an account's users listed as JSON, turned into the import CSV by jq",
      `lms users list --account 1 --all -o json | jq -r '["name","login_id"], (.[] | select(.login_id) | [.name, ` +
        `.login_id]) | @csv' | lms users import --account 1 - -o json`,
      ADMIN,
    ],
    [
      "an assignment's submissions listed as JSON, turned into the grade CSV by jq",
      `lms submissions list --course 1 --assignment 2 --include user -o json | jq -r '["user","grade"], (.[] | ` +
        `select(.grade != null) | ["sis_login_id:" + .user.login_id, .grade]) | @csv' | lms grade --course 1 ` +
        '--assignment 2 --csv - -o json',
      TEACHER,
    ],
    [
      'the gradebook exported straight into its import',
      `lms grade export --course 1 | lms grade --course 1 --csv - -o json`,
      TEACHER,
    ],
    [
      'a roster exported straight into its import',
      `lms enrollments export --course 3 | lms enrollments import --course 3 - -o json`,
      ADMIN,
    ],
    [
      'the outcome tree exported straight into its import',
      `lms outcomes export --account 1 | lms outcomes import --account 1 - -o json`,
      ADMIN,
    ],
  ])('%s changes nothing, twice', async (what, line, token) => {
    if (line.includes('| jq ') && !jq) {
      console.warn(`skipped (no jq on this machine): ${what}`);
      return;
    }
    for (let run = 0; run < 2; run++) {
      const summary = JSON.parse(await pipeline(line, token)) as Record<string, number>;
      expect(summary.failed ?? 0, JSON.stringify(summary)).toBe(0);
      for (const changed of ['created', 'updated'])
        expect(summary[changed] ?? 0, `${changed}: ${JSON.stringify(summary)}`).toBe(0);
    }
  });
});
