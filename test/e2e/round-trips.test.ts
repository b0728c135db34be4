// End to end: export → edit → import → read back for every bulk noun, with the built binary against
// `lms mock serve`. Each export's stdout is a pipe, as in `lms X export > file`, and must come out
// as the CSV its import reads; the same import run a second time must change nothing.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, e2eWorkspace, ensureBuilt, serveMock, spawnLms, type Served } from '../helpers/e2e.js';

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
    const exported = await ok(['grade', 'export', '--course', '1'], TEACHER);
    expect(exported.split('\n')[0]).toBe('user,Cell Structure Lab Report,Microscope Safety Quiz,Genetics Essay');
    const file = saved(edit(edit(exported, 'sis_user_id:S-008,15,incomplete,', 'sis_user_id:S-008,17,incomplete,'), 'sis_user_id:S-010,,,', 'sis_user_id:S-010,,,C+'));
    const first = JSON.parse(await ok(['grade', '--course', '1', '--csv', file, '-o', 'json'], TEACHER)) as Record<string, number>;
    // Lucas's lab report grade predates his resubmission: an empty cell, not a grade to send.
    expect(first).toMatchObject({ updated: 2, unchanged: 4, failed: 0 });
    const [lab, essay] = await Promise.all([
      ok(['submissions', 'get', '--course', '1', '--assignment', '1', '--user', 'sis_user_id:S-008', '-o', 'json', '--fields', 'grade,score'], TEACHER),
      ok(['submissions', 'get', '--course', '1', '--assignment', '3', '--user', 'sis_user_id:S-010', '-o', 'json', '--fields', 'grade,score'], TEACHER),
    ]);
    expect([JSON.parse(lab), JSON.parse(essay)]).toEqual([{ grade: '17', score: 17 }, { grade: 'C+', score: 79 }]);
    const again = JSON.parse(await ok(['grade', '--course', '1', '--csv', file, '-o', 'json'], TEACHER)) as Record<string, number>;
    expect(again).toMatchObject({ updated: 0, unchanged: 6, failed: 0 });
  });

  it('enrollments: a state changed and a student added, synced', async () => {
    const exported = await ok(['enrollments', 'export', '--course', '2']);
    expect(exported.split('\n')[0]).toBe('user,type,role,section,state');
    const file = saved(`${edit(exported, 'sis_user_id:S-011,student,,sis_section_id:CHEM-201-01,invited', 'sis_user_id:S-011,student,,sis_section_id:CHEM-201-01,active').trimEnd()}\nsis_login_id:hana,student,,,active\n`);
    const sync = ['enrollments', 'import', '--course', '2', '--update', '--sync', '--yes'];
    expect(JSON.parse(await ok([...sync, file, '-o', 'json']))).toMatchObject({ created: 1, updated: 1, failed: 0 });
    const [lucas, hana] = await Promise.all(
      ['sis_user_id:S-011', 'sis_user_id:S-012'].map(async (user) => JSON.parse(await ok(['enrollments', 'list', '--course', '2', '--user', user, '-o', 'json', '--fields', 'type,enrollment_state']))),
    );
    expect([lucas, hana]).toEqual([[{ type: 'StudentEnrollment', enrollment_state: 'active' }], [{ type: 'StudentEnrollment', enrollment_state: 'active' }]]);
    expect(JSON.parse(await ok([...sync, '--restart', file, '-o', 'json']))).toMatchObject({ created: 0, updated: 0, differs: 0, failed: 0 });
  });

  it('outcomes: a group renamed and an outcome added, as YAML', async () => {
    const exported = await ok(['outcomes', 'export', '--account', '1', '--yaml']);
    const added = ['          - title: Keeps a field notebook', '            vendor_guid: msu-field', '            ratings: ["2:Complete", "1:Partial"]'];
    const lines = edit(exported, '      - title: Laboratory Practice', '      - title: Lab Practice').split('\n');
    // After the lab group's only outcome: its last line, calculation_int.
    const at = lines.indexOf('            calculation_int: 65', lines.indexOf('        vendor_guid: msu-lab'));
    const file = saved([...lines.slice(0, at + 1), ...added, ...lines.slice(at + 1)].join('\n'), 'yaml');
    expect(JSON.parse(await ok(['outcomes', 'import', '--account', '1', file, '-o', 'json']))).toMatchObject({ created: 1, updated: 1, failed: 0 });
    const csv = await ok(['outcomes', 'export', '--account', '1']);
    expect(csv).toContain('\nmsu-lab,group,Lab Practice,,,,,msu-sci-lit,,\n');
    expect(csv).toContain('\nmsu-field,outcome,Keeps a field notebook,,,decaying_average,65,msu-lab,2,2:Complete;1:Partial\n');
    expect(JSON.parse(await ok(['outcomes', 'import', '--account', '1', '--restart', file, '-o', 'json']))).toMatchObject({ created: 0, updated: 0, failed: 0 });
  });

  it('users: a short name changed', async () => {
    const exported = await ok(['users', 'export', '--account', '1']);
    const file = saved(edit(exported, 'Sam Student,sam,sam@example.edu,S-007,Sam,"Student, Sam",America/Chicago,en', 'Sam Student,sam,sam@example.edu,S-007,Sammy,"Student, Sam",America/Chicago,en'));
    expect(JSON.parse(await ok(['users', 'import', '--account', '1', '--update', file, '-o', 'json']))).toMatchObject({ created: 0, updated: 1, failed: 0 });
    expect(JSON.parse(await ok(['users', 'get', 'sis_login_id:sam', '-o', 'json', '--fields', 'short_name']))).toEqual({ short_name: 'Sammy' });
    expect(JSON.parse(await ok(['users', 'import', '--account', '1', '--update', '--restart', file, '-o', 'json']))).toMatchObject({ created: 0, updated: 0, differs: 0, failed: 0 });
  });
});
