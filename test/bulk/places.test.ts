// Files as programs write them: a YAML or JSON input on one line (`jq -c`, JSON.stringify,
// json.dumps) reads like the same input pretty-printed, for every reader — outcomes import, apply's
// course file and the outcome tree it names, `lms api --input`. Its rows are told apart, and named in
// messages, by their place in the document (`groups[0].outcomes[1]`), not by a line they all share.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { counted, COURSE_YAML, OUTCOMES_YAML, ROSTER_CSV, type Counted } from '../apply/helpers.js';

const fixtures = new URL('../fixtures/outcomes/', import.meta.url).pathname;
const TREE = parse(readFileSync(join(fixtures, 'tree.yaml'), 'utf8')) as {
  groups: { outcomes: Record<string, unknown>[] }[];
};

/** The same document as a program writes it, pretty-printed, and as YAML. */
const layouts = (data: unknown, yaml: string): [string, string, string][] => [
  ['one-line JSON', 'json', JSON.stringify(data)],
  ['pretty JSON', 'json', JSON.stringify(data, null, 2)],
  ['YAML', 'yaml', yaml],
];

const body = (r: { stdout: string }) =>
  JSON.parse(r.stdout) as { rows: { line: number; at?: string; vendor_guid: string; status: string }[] } & Record<
    string,
    unknown
  >;

describe('outcomes import', () => {
  it.each(layouts(TREE, readFileSync(join(fixtures, 'tree.yaml'), 'utf8')))(
    'imports a tree as %s, each row by its place',
    async (_what, ext, text) => {
      const s = counted();
      const file = s.file(`tree.${ext}`, text);
      const r = await s.run(['outcomes', 'import', '--course', '1', file, '-o', 'json']);
      expect(r.exitCode, r.stderr).toBe(0);
      const out = body(r);
      expect(out).toMatchObject({ total: 7, created: 7, failed: 0 });
      expect(out.rows.map((row) => [row.at, row.vendor_guid, row.status]).sort()).toEqual([
        ['groups[0]', 'bio-cells', 'created'],
        ['groups[0].groups[0]', 'bio-microscopy', 'created'],
        ['groups[0].groups[0].outcomes[0]', 'bio-wet-mount', 'created'],
        ['groups[0].outcomes[0]', 'bio-organelles', 'created'],
        ['groups[0].outcomes[1]', 'bio-membranes', 'created'],
        ['groups[1]', 'bio-genetics', 'created'],
        ['outcomes[0]', 'bio-communicates', 'created'],
      ]);
      if (text.includes('\n')) expect(new Set(out.rows.map((row) => row.line)).size).toBe(7);
      else expect(out.rows.every((row) => row.line === 1)).toBe(true);
      const tree = JSON.parse((await s.run('outcomes tree --course 1')).stdout) as {
        groups: { vendor_guid: string; groups: { vendor_guid: string }[]; outcomes: unknown[] }[];
      };
      const cells = tree.groups.find((g) => g.vendor_guid === 'bio-cells')!;
      expect(cells.groups.map((g) => g.vendor_guid)).toEqual(['bio-microscopy']);
      expect(cells.outcomes).toHaveLength(2);
      // A re-run finds every row done: none is taken for another.
      const again = body(await s.run(['outcomes', 'import', '--course', '1', file, '-o', 'json']));
      expect(again).toMatchObject({ total: 7, created: 0, skipped_done: 7 });
    },
  );

  it('names each problem of a one-line file by its place, and of a pretty one by its line and place', async () => {
    const s = counted();
    const bad = structuredClone(TREE) as {
      groups: Record<string, unknown>[] & { outcomes: Record<string, unknown>[] }[];
    };
    (bad.groups[0].outcomes as Record<string, unknown>[])[1].calculation_int = 99;
    bad.groups[1].bogus = 1;
    const oneLine = s.file('bad.json', JSON.stringify(bad));
    const r = await s.run(['outcomes', 'import', '--course', '1', oneLine]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(
      [
        `${oneLine} has 2 problems; nothing was sent:`,
        `  ${oneLine}: groups[0].outcomes[1]: calculation_int must be 1-10 for n_mastery`,
        `  ${oneLine}: groups[1]: unknown key "bogus" in a group; use title, vendor_guid, description, groups, ` +
          'outcomes',
      ].join('\n'),
    );
    const pretty = s.file(
      'bad.yaml',
      readFileSync(join(fixtures, 'tree.yaml'), 'utf8').replace('calculation_int: 3', 'calculation_int: 99'),
    );
    const p = await s.run(['outcomes', 'import', '--course', '1', pretty]);
    expect(p.exitCode).toBe(2);
    expect(p.stderr).toContain(`  ${pretty}:14 groups[0].outcomes[1]: calculation_int must be 1-10 for n_mastery`);
    expect(s.writes()).toEqual([]);
  });

  it('with --skip-invalid leaves out only the row at fault in a one-line file', async () => {
    const s = counted();
    const bad = structuredClone(TREE);
    bad.groups[0].outcomes[1].mastery_points = 'lots';
    const file = s.file('tree.json', JSON.stringify(bad));
    const r = await s.run(['outcomes', 'import', '--course', '1', '--skip-invalid', file, '-o', 'json']);
    expect(r.exitCode).toBe(1);
    const out = body(r);
    expect(out).toMatchObject({ total: 6, created: 6, invalid: 1 });
    expect(out.rows.map((row) => row.vendor_guid)).not.toContain('bio-membranes');
    expect(JSON.parse(r.stderr).attention).toEqual([
      {
        line: 1,
        at: 'groups[0].outcomes[1]',
        vendor_guid: 'bio-membranes',
        status: 'invalid',
        error: 'mastery_points "lots" is not a number of 0 or more',
      },
    ]);
  });

  it('names a repeated vendor_guid of a one-line file by the place it repeats', async () => {
    const s = counted();
    const file = s.file(
      'tree.json',
      JSON.stringify({
        groups: [
          { title: 'A', vendor_guid: 'g' },
          { title: 'B', vendor_guid: 'g' },
        ],
      }),
    );
    const r = await s.run(['outcomes', 'import', '--course', '1', file]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`${file}: groups[1]: vendor_guid "g" repeats groups[0]`);
  });
});

describe('apply', () => {
  /** The course of the apply tests, with its roster and outcome tree, in the given layout. */
  function course(s: Counted, layout: 'one-line JSON' | 'pretty JSON' | 'YAML'): string {
    s.file('roster.csv', ROSTER_CSV);
    const write = (data: unknown) =>
      layout === 'one-line JSON' ? JSON.stringify(data) : JSON.stringify(data, null, 2);
    if (layout === 'YAML') {
      s.file('outcomes.yaml', OUTCOMES_YAML);
      return s.file('course.yaml', COURSE_YAML);
    }
    s.file('outcomes.json', write(parse(OUTCOMES_YAML)));
    return s.file('course.json', write(parse(COURSE_YAML.replace('outcomes.yaml', 'outcomes.json'))));
  }

  it.each(['one-line JSON', 'pretty JSON', 'YAML'] as const)(
    'applies a course file as %s, and then has nothing to change',
    async (layout) => {
      const s = counted();
      const file = course(s, layout);
      const r = await s.run(['apply', '-f', file, '--yes', '-o', 'json']);
      expect(r.exitCode, r.stderr).toBe(0);
      const plan = JSON.parse(r.stdout) as {
        summary: Record<string, number>;
        courses: { actions: { kind: string; key: string; status: string; source: string }[] }[];
      };
      // The same plan whatever the layout: the course, its sections, people, objects and tree; the cross-listing an
      // update.
      expect(plan.summary).toMatchObject({ create: 14, update: 1, delete: 0 });
      const actions = plan.courses[0].actions;
      expect(actions.every((a) => a.status === 'done')).toBe(true);
      // The outcome rows of the tree, each its own.
      const outcomes = actions.filter((a) => a.kind.startsWith('outcome'));
      expect(outcomes.map((a) => a.key).sort()).toEqual(['bio201-field', 'bio201-notebook']);
      if (layout === 'one-line JSON')
        expect(outcomes.map((a) => a.source).sort()).toEqual([
          `${s.dir}/outcomes.json: groups[0]`,
          `${s.dir}/outcomes.json: groups[0].outcomes[0]`,
        ]);
      const diff = await s.run(['diff', '-f', file, '-o', 'json']);
      expect(diff.exitCode, diff.stderr).toBe(0);
      expect(JSON.parse(diff.stdout)).toMatchObject({ changes: false });
    },
  );

  it('names the problems of a one-line course file by their place', async () => {
    const s = counted();
    const file = s.file(
      'f.json',
      JSON.stringify({
        courses: [
          {
            sis_course_id: 'V-1',
            name: 'V',
            sections: [
              { sis_section_id: 'V-A', name: 'A' },
              { sis_section_id: 'V-B', nmae: 'B' },
            ],
            topics: [{ title: 'T' }, { title: 'T' }],
          },
        ],
      }),
    );
    const r = await s.run(['apply', '-f', file, '--plan']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(
      `  ${file}: courses[0].sections[1].nmae: unknown field "nmae" for a section (did you mean name?)`,
    );
    expect(r.stderr).toContain(
      `  ${file}: courses[0].topics[1]: title "T" repeats courses[0].topics[0]: give each a key`,
    );
    expect(s.writes()).toEqual([]);
  });
});

describe('lms api --input', () => {
  it.each([
    ['one-line JSON', JSON.stringify({ course_section: { name: 'Lab Z', sis_section_id: 'Z-1' } })],
    ['pretty JSON', JSON.stringify({ course_section: { name: 'Lab Z', sis_section_id: 'Z-1' } }, null, 2)],
  ])('sends a body given as %s', async (_what, text) => {
    const s = counted();
    const file = s.file('body.json', text);
    const r = await s.run(['api', 'POST', '/api/v1/courses/1/sections', '--input', file]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ name: 'Lab Z', sis_section_id: 'Z-1' });
    expect(JSON.parse(String(s.writes()[0].body))).toEqual({
      course_section: { name: 'Lab Z', sis_section_id: 'Z-1' },
    });
  });

  it.each([
    ['one-line JSON by its column', '{"a": 1,, "b": 2}', 'column 9'],
    ['pretty JSON by its line and column', '{\n  "a": 1,\n  , "b": 2\n}\n', 'line 3, column 3'],
  ])('names where a body that is not JSON goes wrong: %s', async (_what, text, where) => {
    const s = counted();
    const r = await s.run(['api', 'PUT', '/api/v1/users/self', '--input', '-'], { stdin: text });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(`error: --input - is not JSON: Expected double-quoted property name at ${where}\n`);
    expect(s.requests).toEqual([]);
  });
});
