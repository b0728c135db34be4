// `lms outcomes` in-process against the seeded mock: the group, link and tree verbs, and the
// import of a whole tree from YAML, JSON or CSV — validation first with line numbers, the plan,
// a re-run that changes nothing, updates matched by vendor_guid, and failed rows.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTreeFile } from '../../src/commands/outcomes/tree-file.js';
import { session, type Session } from '../helpers/run-lms.js';

const fixtures = new URL('../fixtures/outcomes/', import.meta.url).pathname;
const TEACHER = { LMS_TOKEN: '3~mock-tteacher' };

/** A session whose bulk journals live in their own directory. */
function fresh(): Session & { dir: string; file(name: string, text: string): string } {
  const dir = mkdtempSync(join(tmpdir(), 'lms-outcomes-'));
  const s = session({ LMS_STATE_DIR: join(dir, 'state') });
  return Object.assign(s, {
    dir,
    file(name: string, text: string) {
      const path = join(dir, name);
      writeFileSync(path, text);
      return path;
    },
  });
}

const json = (r: { stdout: string }) =>
  JSON.parse(r.stdout) as Record<string, unknown> & { rows: Record<string, unknown>[] };

describe('groups, links and the tree', () => {
  it("prints a context's tree indented on a terminal, nested as JSON, flat as NDJSON", async () => {
    const s = session();
    const tty = await s.run('outcomes tree --account 1', { tty: true });
    expect(tty.exitCode).toBe(0);
    expect(tty.stdout).toBe(
      [
        'Mock State University (group 1)',
        '  Scientific Literacy (group 2) [msu-sci-lit]',
        '    • Formulates hypotheses (outcome 1) [msu-hypothesis] — account 1',
        '    • Interprets data (outcome 2) [msu-data] — account 1',
        '    Laboratory Practice (group 3) [msu-lab]',
        '      • Follows lab safety procedures (outcome 3) [msu-safety] — account 1',
        '  Written Communication (group 4) [msu-writing]',
        '    • Writes clearly and concisely (outcome 4) [msu-writing-clarity] — account 1',
        '',
      ].join('\n'),
    );
    const nested = JSON.parse((await s.run('outcomes tree --course 1')).stdout);
    expect(nested).toMatchObject({
      id: 5,
      groups: [{ id: 6, vendor_guid: 'bio101-outcomes', outcomes: [{ id: 5 }, { id: 1 }, { id: 2 }], groups: [] }],
      outcomes: [],
    });
    const flat = (await s.run('outcomes tree --global -o ndjson')).stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(flat).toEqual([
      { depth: 0, type: 'group', id: 7, title: 'ROOT', vendor_guid: null, group_id: null },
      {
        depth: 1,
        type: 'group',
        id: 8,
        title: 'Critical Thinking',
        vendor_guid: 'global-critical-thinking',
        group_id: 7,
      },
      {
        depth: 2,
        type: 'outcome',
        id: 6,
        title: 'Evaluates arguments',
        vendor_guid: 'global-evaluates-arguments',
        group_id: 8,
      },
    ]);
  });

  it.each([
    ['no context', 'outcomes root', 2],
    ['two contexts', 'outcomes root --course 1 --account 1', 2],
    ['a group id that is not a number', 'outcomes groups create --account 1 --parent x --title T', 2],
    ['a rating without points', 'outcomes create 4 --account 1 --title T --rating Good', 2],
    ['--from without --into', 'outcomes import --course 1 --from 2', 2],
    ['no file', 'outcomes import --course 1', 2],
    ['a group of another context', 'outcomes groups get 6 --account 1', 4],
    ['moving a group below itself', 'outcomes groups update 2 --account 1 --parent 3', 5],
    ['deleting a group that would delete an aligned outcome', 'outcomes groups delete 3 --account 1 --yes', 5],
    ["unlinking an aligned outcome's last link", 'outcomes unlink 3 3 --account 1 --yes', 5],
    ['linking a course outcome into its account', 'outcomes link 4 5 --account 1', 5],
  ])('exits %s → %i', async (_what, line, code) => {
    const r = await session().run(line);
    expect(r.exitCode, r.stderr).toBe(code);
  });

  it('creates, moves and deletes groups; creates, links and unlinks outcomes', async () => {
    const s = session();
    const group = JSON.parse(
      (
        await s.run(
          'outcomes groups create --account 1 --parent 2 --title "Field Work" --vendor-guid msu-field -o json',
        )
      ).stdout,
    );
    expect(group).toMatchObject({ title: 'Field Work', vendor_guid: 'msu-field', parent_outcome_group: { id: 2 } });
    const moved = JSON.parse((await s.run(`outcomes groups update ${group.id} --account 1 --parent 4 -o json`)).stdout);
    expect(moved.parent_outcome_group.id).toBe(4);
    const created = JSON.parse(
      (
        await s.run(
          `outcomes create ${group.id} --account 1 --title "Keeps a notebook" --rating "3:Complete: every entry" ` +
            '--rating "1:Partial" -o json',
        )
      ).stdout,
    );
    expect(created.outcome).toMatchObject({
      mastery_points: 3,
      ratings: [
        { points: 3, description: 'Complete: every entry' },
        { points: 1, description: 'Partial' },
      ],
    });
    expect((await s.run(`outcomes link 6 ${created.outcome.id} --course 1`)).exitCode).toBe(0);
    const links = JSON.parse((await s.run('outcomes links list 6 --course 1 --full')).stdout);
    expect(links.map((l: { outcome: { title: string } }) => l.outcome.title)).toContain('Keeps a notebook');
    expect((await s.run(`outcomes unlink 6 ${created.outcome.id} --course 1 --yes`)).exitCode).toBe(0);
    expect((await s.run(`outcomes groups delete ${group.id} --account 1`)).exitCode).toBe(2);
    expect((await s.run(`outcomes groups delete ${group.id} --account 1 --yes`)).exitCode).toBe(0);
    expect((await s.run(`outcomes groups get ${group.id} --account 1`)).exitCode).toBe(4);
    const subgroups = JSON.parse((await s.run('outcomes groups subgroups 1 --account 1')).stdout);
    expect(subgroups.map((g: { title: string }) => g.title)).toEqual(['Scientific Literacy', 'Written Communication']);
  });

  it('lets a teacher deep-import an account group into the course with --from/--into', async () => {
    const s = session();
    const r = await s.run('outcomes import --course 1 --from 2 --into 6 -o json', { env: TEACHER });
    expect(r.exitCode, r.stderr).toBe(0);
    const copy = JSON.parse(r.stdout);
    expect(copy).toMatchObject({
      title: 'Scientific Literacy',
      context_type: 'Course',
      parent_outcome_group: { id: 6 },
    });
    expect((await s.run('outcomes groups update 2 --account 1 --title X', { env: TEACHER })).exitCode).toBe(3);
  });
});

describe('reading an outcomes file', () => {
  it('reads YAML into rows, parents first, an outcome repeated by its GUID linked in both groups', () => {
    const { rows, problems } = parseTreeFile(readFileSync(join(fixtures, 'tree.yaml')), 'tree.yaml');
    expect(problems).toEqual([]);
    expect(rows.map((r) => [r.line, r.values.object_type, r.values.vendor_guid, r.values.parent_guids])).toEqual([
      [3, 'group', 'bio-cells', ''],
      [27, 'group', 'bio-genetics', ''],
      [20, 'group', 'bio-microscopy', 'bio-cells'],
      [7, 'outcome', 'bio-organelles', 'bio-microscopy bio-cells'],
      [14, 'outcome', 'bio-membranes', 'bio-cells'],
      [23, 'outcome', 'bio-wet-mount', 'bio-microscopy'],
      [30, 'outcome', 'bio-communicates', ''],
    ]);
    expect(rows[3].values).toMatchObject({ mastery_points: '3', ratings: '4:Exceeds;3:Meets;1:Not yet' });
  });

  it('reads the CSV layout with ratings as trailing points/description pairs, and JSON', () => {
    const csv = parseTreeFile(readFileSync(join(fixtures, 'tree.csv')), 'tree.csv');
    expect(csv.problems).toEqual([]);
    expect(csv.rows.find((r) => r.values.vendor_guid === 'bio-organelles')?.values).toMatchObject({
      ratings: '4:Exceeds;3:Meets;1:Not yet',
      parent_guids: 'bio-cells bio-microscopy',
    });
    const fromJson = parseTreeFile(
      Buffer.from(
        JSON.stringify({
          groups: [
            {
              title: 'G',
              vendor_guid: 'g',
              outcomes: [{ title: 'O', vendor_guid: 'o', ratings: [{ points: 2, description: 'Yes' }] }],
            },
          ],
        }),
      ),
      'tree.json',
    );
    expect(fromJson.problems).toEqual([]);
    expect(fromJson.rows.map((r) => r.values.ratings ?? '')).toEqual(['', '2:Yes']);
  });

  it.each([
    ['a missing vendor_guid', 'groups:\n  - title: G\n', 2, 'vendor_guid is empty'],
    [
      'a repeated group GUID',
      'groups:\n  - title: G\n    vendor_guid: g\n  - title: H\n    vendor_guid: g\n',
      4,
      'repeats line 2',
    ],
    ['an unknown key', 'groups:\n  - title: G\n    vendor_guid: g\n    colour: red\n', 4, 'unknown key "colour"'],
    [
      'ratings that are not a list',
      'outcomes:\n  - title: O\n    vendor_guid: o\n    ratings: lots\n',
      4,
      'ratings must be a list',
    ],
    [
      'an unknown calculation method',
      'outcomes:\n  - title: O\n    vendor_guid: o\n    calculation_method: median\n',
      2,
      'calculation_method "median"',
    ],
    [
      'a calculation_int out of range',
      'outcomes:\n  - title: O\n    vendor_guid: o\n    calculation_method: n_mastery\n    calculation_int: 20\n',
      2,
      '1-10',
    ],
    [
      'an outcome defined twice differently',
      'outcomes:\n  - title: O\n    vendor_guid: o\ngroups:\n  - title: G\n    vendor_guid: g\n    outcomes:\n      ' +
        '- title: P\n        vendor_guid: o\n',
      2,
      'defined at line 8',
    ],
    ['broken YAML', 'groups:\n  - title: [unclosed\n', 2, ''],
    ['a list at the top', '- title: G\n', 1, 'must be a map'],
  ])('refuses %s, with its line', (_what, text, line, message) => {
    const { problems } = parseTreeFile(Buffer.from(text), 'x.yaml');
    expect(problems.length).toBeGreaterThan(0);
    expect(problems[0].line).toBe(line);
    expect(problems[0].message).toContain(message);
  });

  it.each([
    [
      'a parent that is not a group of the file',
      'vendor_guid,object_type,title,parent_guids\no,outcome,O,nowhere\n',
      2,
      'not a group of this file',
    ],
    ['a cycle of groups', 'vendor_guid,object_type,title,parent_guids\na,group,A,b\nb,group,B,a\n', 2, 'cycle'],
    [
      'a group with two parents',
      'vendor_guid,object_type,title,parent_guids\na,group,A,\nb,group,B,\nc,group,C,a b\n',
      4,
      'one parent at most',
    ],
    [
      'an unknown object_type',
      'vendor_guid,object_type,title\na,standard,A\n',
      2,
      'object_type must be group or outcome',
    ],
    [
      'a deleted row',
      'vendor_guid,object_type,title,workflow_state\na,group,A,deleted\n',
      2,
      'only creates and updates',
    ],
    [
      'ratings pairs without points',
      'vendor_guid,object_type,title,ratings,\na,outcome,A,Good,3\n',
      2,
      'pairs of points and description',
    ],
    ['an unknown column', 'vendor_guid,object_type,title,colour\na,group,A,red\n', 1, 'unknown column "colour"'],
    [
      'Latin-1 text (not UTF-8)',
      Buffer.concat([
        Buffer.from('vendor_guid,object_type,title\na,group,'),
        Buffer.from([0xc9]),
        Buffer.from('tude\n'),
      ]),
      2,
      'not valid UTF-8',
    ],
    ['a quote never closed', 'vendor_guid,object_type,title\na,group,"A\n', 2, 'a quoted field is never closed'],
  ])('refuses a CSV with %s', (_what, text, line, message) => {
    const { problems } = parseTreeFile(Buffer.from(text), 'x.csv');
    expect(problems[0]).toMatchObject({ line });
    expect(problems[0].message).toContain(message);
  });
});

describe('lms outcomes import', () => {
  it('plans, builds, and on a re-run changes nothing', async () => {
    const s = fresh();
    const file = join(fixtures, 'tree.yaml');
    const plan = await s.run(`outcomes import --course 1 --dry-run ${file} -o json`);
    expect(plan.exitCode, plan.stderr).toBe(0);
    expect(json(plan).rows.map((r) => r.status)).toEqual(Array(7).fill('created'));
    expect(plan.stderr).toContain('7 would be created');
    const run = await s.run(`outcomes import --course 1 ${file} -o json`);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(json(run)).toMatchObject({ created: 7, failed: 0 });
    const tree = JSON.parse((await s.run('outcomes tree --course 1')).stdout);
    const cells = tree.groups.find((g: { vendor_guid: string }) => g.vendor_guid === 'bio-cells');
    expect(cells.outcomes.map((o: { vendor_guid: string }) => o.vendor_guid)).toEqual([
      'bio-membranes',
      'bio-organelles',
    ]);
    expect(cells.groups[0].outcomes.map((o: { vendor_guid: string }) => o.vendor_guid)).toEqual([
      'bio-organelles',
      'bio-wet-mount',
    ]);
    expect(json(await s.run(`outcomes import --course 1 ${file} -o json`))).toMatchObject({
      created: 0,
      skipped_done: 7,
    });
    expect(json(await s.run(`outcomes import --course 1 --restart ${file} -o json`))).toMatchObject({
      created: 0,
      existed: 7,
      updated: 0,
      failed: 0,
    });
    const plannedAgain = json(await s.run(`outcomes import --course 1 --restart --dry-run ${file} -o json`));
    expect(plannedAgain.rows.map((r) => r.status)).toEqual(Array(7).fill('existed'));
  });

  it('updates groups matched by vendor_guid (title, description, parent) and adds links', async () => {
    const s = fresh();
    const v1 = s.file(
      'v1.csv',
      'vendor_guid,object_type,title,parent_guids\nA,group,Alpha,\nB,group,Beta,A\no1,outcome,One,B\n',
    );
    expect((await s.run(`outcomes import --account 1 ${v1}`)).exitCode).toBe(0);
    const v2 = s.file(
      'v2.csv',
      'vendor_guid,object_type,title,description,parent_guids\nA,group,Alpha Prime,First,\nB,group,Beta,,\n' +
        'o1,outcome,One,,B A\n',
    );
    const plan = json(await s.run(`outcomes import --account 1 --dry-run ${v2} -o json`)).rows;
    expect(plan.map((r) => `${r.vendor_guid}:${r.status}`)).toEqual(['A:updated', 'B:updated', 'o1:updated']);
    expect(plan[2].changes).toEqual([{ field: 'link', from: '', to: 'A', applicable: true }]);
    const r = await s.run(`outcomes import --account 1 ${v2} -o json`);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(json(r)).toMatchObject({ updated: 3, failed: 0 });
    const tree = JSON.parse((await s.run('outcomes tree --account 1')).stdout);
    const alpha = tree.groups.find((g: { vendor_guid: string }) => g.vendor_guid === 'A');
    const beta = tree.groups.find((g: { vendor_guid: string }) => g.vendor_guid === 'B');
    expect(alpha).toMatchObject({ title: 'Alpha Prime', outcomes: [{ vendor_guid: 'o1' }] });
    expect(beta.outcomes.map((o: { vendor_guid: string }) => o.vendor_guid)).toEqual(['o1']);
    expect(json(await s.run(`outcomes import --account 1 --restart ${v2} -o json`))).toMatchObject({
      existed: 3,
      updated: 0,
    });
  });

  it(
    "fails a row asking to change an existing outcome's " + 'own fields, naming them, and writes it to --failed-out',
    async () => {
      const s = fresh();
      const v1 = s.file('v1.yaml', 'outcomes:\n  - title: One\n    vendor_guid: o1\n    ratings: ["3:Yes", "0:No"]\n');
      expect((await s.run(`outcomes import --course 1 ${v1}`)).exitCode).toBe(0);
      const v2 = s.file(
        'v2.yaml',
        'outcomes:\n  - title: Uno\n    vendor_guid: o1\n    ratings: ["3:Yes", "0:No"]\n  - title: Two\n    ' +
          'vendor_guid: o2\n',
      );
      const failed = join(s.dir, 'failed.csv');
      const r = await s.run(`outcomes import --course 1 ${v2} --failed-out ${failed} -o json`);
      expect(r.exitCode).toBe(1);
      expect(json(r)).toMatchObject({ created: 1, failed: 1 });
      expect(JSON.parse(r.stderr)).toMatchObject({
        attention: [
          { line: 2, vendor_guid: 'o1', status: 'failed', error: expect.stringContaining('title "One" → "Uno"') },
        ],
      });
      expect(readFileSync(failed, 'utf8')).toMatch(/^vendor_guid,object_type,title,.*error\no1,outcome,Uno,/);
    },
  );

  it('refuses an invalid file with line numbers, sending nothing', async () => {
    const s = fresh();
    const bad = s.file(
      'bad.yaml',
      'groups:\n  - title: G\n    outcomes:\n      - title: O\n        vendor_guid: o\n        mastery_points: lots\n',
    );
    const r = await s.run(`outcomes import --course 1 ${bad}`);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('bad.yaml:2 groups[0]: vendor_guid is empty');
    expect(r.stderr).toContain('bad.yaml:4 groups[0].outcomes[0]: mastery_points "lots"');
    expect(r.stderr).toContain('nothing was sent');
    expect(JSON.parse((await s.run('outcomes tree --course 1')).stdout).groups).toHaveLength(1);
  });

  it('reads stdin, and fails the children of a group whose row fails', async () => {
    const s = fresh();
    // A student may not create outcomes: every row fails, children for want of their parent.
    const r = await s.run('outcomes import --course 1 - -o json', {
      stdin: 'vendor_guid,object_type,title,parent_guids\ng,group,G,\no,outcome,O,g\n',
      env: { LMS_TOKEN: '7~mock-sam' },
    });
    expect(r.exitCode).toBe(1);
    const rows = json(r).rows;
    expect(rows.map((x) => x.status)).toEqual(['failed', 'failed']);
    expect(String(rows[1].error)).toMatch(/not authorized|parent group "g"/);
  });
});
