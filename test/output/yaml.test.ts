// -o yaml: a list is a YAML sequence and one record a mapping, holding exactly the data -o json
// prints (--fields included), readable by YAML 1.2 and 1.1 parsers alike, and streamed like JSON.
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { renderItem, renderList } from '../../src/output/render.js';
import { fakeIO } from '../helpers/fake-io.js';
import { session } from '../helpers/run-lms.js';

const users = [
  { id: 1, name: 'Ada Lovelace', admin: true, email: null, user: { login: 'ada', roles: ['teacher'] } },
  { id: 22, name: 'Bo', admin: false, email: 'bo@example.edu', user: { login: 'bo', roles: [] } },
];

/** Strings that a YAML reader would take for something else if they were written plain. */
const lookalikes = {
  yes: 'yes',
  no: 'No',
  on: 'on',
  off: 'OFF',
  y: 'y',
  tilde: '~',
  null: 'null',
  empty: '',
  timestamp: '2026-11-02T12:00:00Z',
  date: '2026-11-02',
  sexagesimal: '12:30:00',
  octal_1_1: '0777',
  octal_1_2: '0o17',
  hex: '0x1F',
  underscored: '1_000',
  float: '1.0',
  exp: '1e3',
  inf: '.inf',
  indicator: '- x',
  colon: 'a: b',
  comment: '#c',
  spaces: '  lead and trail  ',
  multiline: 'line 1\nline 2\n',
};

async function yamlOf(value: unknown, kind: 'list' | 'item', fields?: string[]) {
  const io = fakeIO();
  if (kind === 'list') await renderList(value as unknown[], { io, format: 'yaml', fields });
  else await renderItem(value, { io, format: 'yaml', fields });
  return io.stdoutText();
}

/** What a YAML 1.2 reader and a YAML 1.1 reader each get back. */
const readBoth = (text: string) => [parse(text), parse(text, { version: '1.1' })];

describe('yaml renderer', () => {
  it.each([
    ['a list of records', users],
    ['scalars', [1, 'two', true, null, 1.5]],
    ['nested and empty containers', [{ a: {}, b: [], c: [{ d: [1, { e: null }] }] }]],
    ['look-alike strings', [lookalikes]],
    ['one record', [users[0]]],
  ])('a list (%s) is a sequence that reads back as the JSON data, in YAML 1.2 and 1.1', async (_name, items) => {
    const text = await yamlOf(items, 'list');
    expect(text.startsWith('- ')).toBe(true);
    for (const read of readBoth(text)) expect(read).toEqual(JSON.parse(JSON.stringify(items)));
  });

  it.each([
    ['a record', users[0], 'id: 1\n'],
    ['look-alike strings (keys too)', lookalikes, '"yes": "yes"\n'],
    ['an array', users, '- id: 1\n'],
    ['a scalar', 'plain', 'plain\n'],
  ])('one item (%s) reads back as the JSON data', async (_name, item, start) => {
    const text = await yamlOf(item, 'item');
    expect(text.startsWith(start)).toBe(true);
    for (const read of readBoth(text)) expect(read).toEqual(JSON.parse(JSON.stringify(item)));
  });

  it('quotes timestamps, 1.1 booleans and 1.2 octals, and keeps long strings on one line', async () => {
    const long = 'x'.repeat(200);
    const text = await yamlOf({ created_at: '2026-11-02T12:00:00Z', answer: 'no', mode: '0o17', long }, 'item');
    expect(text).toBe(`created_at: "2026-11-02T12:00:00Z"\nanswer: "no"\nmode: "0o17"\nlong: ${long}\n`);
  });

  it.each([
    ['an empty list', [], 'list', '[]\n'],
    [
      'undefined elements, as JSON prints them',
      [undefined, { kept: 1, dropped: undefined }],
      'list',
      '- null\n- kept: 1\n',
    ],
    [
      '--fields on a list',
      users,
      'list',
      '- id: 1\n  user.login: ada\n- id: 22\n  user.login: bo\n',
      ['id', 'user.login'],
    ],
    ['--fields on a record', users[1], 'item', 'name: Bo\nid: 22\n', ['name', 'id']],
    ['--fields on each element of an array', users, 'item', '- id: 1\n- id: 22\n', ['id']],
  ])('%s', async (_name, value, kind, expected, fields?: string[]) => {
    expect(await yamlOf(value, kind as 'list' | 'item', fields)).toBe(expected);
  });

  it('writes each element as it arrives: the first page is out before the next is asked for', async () => {
    const io = fakeIO();
    const seen: string[] = [];
    async function* pages() {
      yield users[0];
      seen.push(io.stdoutText());
      yield users[1];
    }
    expect(await renderList(pages(), { io, format: 'yaml' })).toBe(2);
    expect(seen[0]).toContain('name: Ada Lovelace');
    expect(seen[0]).not.toContain('Bo');
  });
});

describe('-o yaml in --mock', () => {
  const s = session();

  it.each([
    ['a list is a sequence', 'users list --account 1'],
    ['one record is a mapping', 'users get self'],
    ['--fields applies as for JSON', 'users list --account 1 --fields id,name,login_id'],
    ['a record with --fields', 'users get self --fields id,name'],
  ])('%s: %s', async (_name, command) => {
    const json = await s.run(`${command} -o json`);
    const yaml = await s.run(`${command} -o yaml`);
    expect({ exitCode: yaml.exitCode, stderr: yaml.stderr }).toEqual({ exitCode: 0, stderr: '' });
    expect(parse(yaml.stdout)).toEqual(JSON.parse(json.stdout));
    expect(Array.isArray(parse(yaml.stdout))).toBe(command.startsWith('users list'));
  });

  it('prints the records in order, one sequence element each', async () => {
    const r = await s.run('users list --account 1 --limit 2 --fields id,name -o yaml');
    expect(r.stdout).toBe('- id: 1\n  name: Ada Admin\n- id: 5\n  name: Tara Assistant\n');
  });

  it('is chosen by LMS_OUTPUT=yaml too, and on a terminal', async () => {
    const r = await s.run('users get self --fields id,name', { env: { LMS_OUTPUT: 'yaml' }, tty: true });
    expect(r).toEqual({ exitCode: 0, stdout: 'id: 1\nname: Ada Admin\n', stderr: '' });
  });

  it('refuses a field the output does not have, before printing anything (exit 2)', async () => {
    const r = await s.run('users list --account 1 -o yaml --fields id,nosuch');
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('--fields: unknown field "nosuch"');
  });
});

describe('-o yaml on commands that choose their own format', () => {
  // Each gives as YAML what it gives with -o json: the same data, another notation.
  it.each([
    ['the outcome tree', 'outcomes tree --account 1'],
    ['the outcome export', 'outcomes export --account 1'],
    ['a course export', 'export course sis_course_id:BIO-101 --include sections,quizzes'],
  ])('%s', async (_what, line) => {
    const s = session();
    const [json, yaml] = await Promise.all([s.run(`${line} -o json`), s.run(`${line} -o yaml`)]);
    expect(json.exitCode, json.stderr).toBe(0);
    expect(yaml.exitCode, yaml.stderr).toBe(0);
    expect(parse(yaml.stdout)).toEqual(JSON.parse(json.stdout));
  });

  it('the plan of lms diff', async () => {
    const s = session();
    const exported = await s.run('export course sis_course_id:BIO-101 --include sections -o json');
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const file = join(mkdtempSync(join(tmpdir(), 'lms-yaml-plan-')), 'bio.json');
    writeFileSync(file, exported.stdout);
    const [json, yaml] = await Promise.all([s.run(`diff -f ${file} -o json`), s.run(`diff -f ${file} -o yaml`)]);
    expect(json.exitCode, json.stderr).toBe(0);
    expect(parse(yaml.stdout)).toEqual(JSON.parse(json.stdout));
    expect(parse(yaml.stdout)).toMatchObject({ changes: false });
  });
});
