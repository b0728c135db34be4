// The CLI's own input: an import is checked while it streams (size, a runaway field, UTF-8), a YAML
// or JSON file for its nesting and its values before it is parsed, and every import refuses control
// characters where they never belong, naming the line and the column.
import { mkdtempSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  InputScanner,
  MAX_FIELD_BYTES,
  MAX_INPUT_BYTES,
  readInput,
  scanInput,
  type InputShape,
} from '../../src/bulk/csv-input.js';
import { parseTreeFile } from '../../src/commands/outcomes/tree-file.js';
import { session } from '../helpers/run-lms.js';

const MiB = 1024 * 1024;
const scratch = () => mkdtempSync(join(tmpdir(), 'lms-input-'));

function file(name: string, content: string | Buffer): string {
  const path = join(scratch(), name);
  writeFileSync(path, content);
  return path;
}

/** `chunk` over and over, for ever, counting what was pulled from it. */
function endless(chunk: Buffer): Readable & { pulled: number } {
  const stream = new Readable({
    read() {
      stream.pulled += chunk.length;
      this.push(chunk);
    },
  }) as Readable & { pulled: number };
  stream.pulled = 0;
  return stream;
}

const tooMany = (n: number) =>
  `the file holds more than ${n.toLocaleString('en-US')} values, the most read from one file; split it into several ` +
  `files (a folder of files is read as one), or give long rosters as \`- { csv: roster.csv }\``;

const treeTooMany =
  'the file holds more than 100,000 values, the most read from one file; split the tree, or give it as CSV';

const nested = (n: number) => '['.repeat(n) + ']'.repeat(n);

describe('InputScanner', () => {
  it.each<[string, string | Buffer, InputShape | undefined, { line: number; message: string } | undefined, number?]>([
    [
      'NUL bytes with no line break (/dev/zero)',
      Buffer.alloc(2 * MiB),
      undefined,
      { line: 1, message: 'a field is larger than 1 MiB' },
    ],
    ['a field of exactly 1 MiB', `a\n${'x'.repeat(MAX_FIELD_BYTES)}\n`, 'csv', undefined],
    [
      'a field one byte over',
      `a,b\n${'x'.repeat(MAX_FIELD_BYTES + 1)},y\n`,
      'csv',
      { line: 2, message: 'a field is larger than 1 MiB' },
    ],
    [
      'a quoted field over many lines, named by its first line',
      `a,b\nx,y\n"${'line\n'.repeat(MAX_FIELD_BYTES / 4)}",z\n`,
      'csv',
      { line: 3, message: 'a field is larger than 1 MiB' },
    ],
    ['escaped quotes counted once', `a\n"${'""'.repeat(MAX_FIELD_BYTES / 2)}"\n`, 'csv', undefined],
    [
      'a record of many small fields',
      `a\n${'xxxxxxx,'.repeat(200_000)}\n`,
      'csv',
      { line: 2, message: 'a record is larger than 1 MiB' },
    ],
    ['many short records', `name,login\n${'Ana,ana\n'.repeat(300_000)}`, 'csv', undefined],
    [
      'a YAML line over 1 MiB',
      `a: b\nc: ${'x'.repeat(MAX_FIELD_BYTES)}\n`,
      'lines',
      { line: 2, message: 'a line is longer than 1 MiB' },
    ],
    ['nesting 64 deep', nested(64), 'nested', undefined],
    ['nesting 65 deep', nested(65), 'nested', { line: 1, message: 'nested more than 64 levels deep' }],
    [
      'nesting 100,000 deep, on its line',
      `{\n"a":\n${nested(100_000)}}`,
      'nested',
      { line: 3, message: 'nested more than 64 levels deep' },
    ],
    ['brackets inside strings', `{"a": "${'['.repeat(100)}", "b": "\\"${'{'.repeat(100)}"}`, 'nested', undefined],
    [
      'brackets inside a YAML comment and single quotes',
      `[a, 'it''s ${'['.repeat(100)}'] # ${'{'.repeat(100)}\n`,
      'nested',
      undefined,
    ],
    [
      'a 2 MiB JSON string',
      `{"title": "${'x'.repeat(2 * MiB)}"}`,
      'nested',
      { line: 1, message: 'a value is larger than 1 MiB' },
    ],
    ['a 2 MiB bare value', `[${'1'.repeat(2 * MiB)}]`, 'nested', { line: 1, message: 'a value is larger than 1 MiB' }],
    ['a long minified JSON of short values', `[${'"abc",'.repeat(MiB)}"end"]`, 'nested', undefined],
    [
      'JSON found by its first byte',
      `  \n${nested(70)}`,
      undefined,
      { line: 2, message: 'nested more than 64 levels deep' },
    ],
    [
      'a byte-order mark, then CSV',
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('"a",b\n1,2\n')]),
      undefined,
      undefined,
    ],
    [
      'Latin-1 on line 3',
      Buffer.concat([Buffer.from('a,b\n1,2\nJ'), Buffer.from([0xf8]), Buffer.from('rn,3\n')]),
      'csv',
      {
        line: 3,
        message:
          'not valid UTF-8: it looks like Latin-1 (ISO-8859-1); convert it to UTF-8 with iconv -f ISO-8859-1 -t UTF-8',
      },
    ],
    [
      'a character cut off by a line break',
      Buffer.concat([Buffer.from('a\nb'), Buffer.from([0xe2, 0x82]), Buffer.from('\nc\n')]),
      'csv',
      {
        line: 2,
        message: 'not valid UTF-8: it looks like Windows-1252; convert it to UTF-8 with iconv -f WINDOWS-1252 -t UTF-8',
      },
    ],
    [
      'a character cut off at the end',
      Buffer.concat([Buffer.from('a\nb'), Buffer.from([0xf0, 0x9f, 0x98])]),
      'csv',
      { line: 2, message: 'not valid UTF-8 (save the file as UTF-8)' },
    ],
    [
      'an overlong NUL',
      Buffer.from([0x61, 0xc0, 0x80]),
      'csv',
      {
        line: 1,
        message: 'not valid UTF-8: it looks like Windows-1252; convert it to UTF-8 with iconv -f WINDOWS-1252 -t UTF-8',
      },
    ],
    [
      'a surrogate',
      Buffer.from([0x61, 0xed, 0xa0, 0x80]),
      'csv',
      {
        line: 1,
        message: 'not valid UTF-8: it looks like Windows-1252; convert it to UTF-8 with iconv -f WINDOWS-1252 -t UTF-8',
      },
    ],
    [
      'past U+10FFFF',
      Buffer.from([0x61, 0xf4, 0x90, 0x80, 0x80]),
      'csv',
      {
        line: 1,
        message: 'not valid UTF-8: it looks like Windows-1252; convert it to UTF-8 with iconv -f WINDOWS-1252 -t UTF-8',
      },
    ],
    ['every width of UTF-8', 'é,€,😀,\u{10FFFF}\n', 'csv', undefined],
    // Values: what the YAML library would build, counted before it is asked to.
    [
      'a million empty maps in 3 MB of JSON',
      `{"courses":[${'{},'.repeat(1_000_000)}{}]}`,
      'nested',
      { line: 1, message: tooMany(100_000) },
      100_000,
    ],
    ['the same with no bound asked for', `{"courses":[${'{},'.repeat(1_000_000)}{}]}`, 'nested', undefined],
    [
      'JSON of exactly the most values: maps, lists, keys and scalars',
      '{"a": [1, "x, y", {"b": null}], "c": true}',
      'nested',
      undefined,
      10,
    ],
    ['one value more', '{"a": [1, "x, y", {"b": null}], "c": [true]}', 'nested', { line: 1, message: tooMany(10) }, 10],
    [
      'block YAML past the bound, named by its line',
      `courses:\n${'  - a: b\n'.repeat(10)}`,
      'lines',
      { line: 4, message: tooMany(10) },
      10,
    ],
    [
      'block YAML at the bound: the root, entries, keys, values, a flow list, and a comment after a value (counted: ' +
        'it might be a string)',
      'courses:\n  - a: b\n  -\n    c: [1, 2]  # d, e: f\n# [g]\n  - -1\n',
      'lines',
      undefined,
      15,
    ],
    [
      'block YAML one over',
      'courses:\n  - a: b\n  -\n    c: [1, 2]  # d, e: f\n# [g]\n  - -1\n',
      'lines',
      { line: 6, message: tooMany(14) },
      14,
    ],
    [
      'a quote inside a bare value opens no string: its commas count',
      '[a "x, 1, 1, 1 "]',
      'nested',
      { line: 1, message: tooMany(4) },
      4,
    ],
    [
      'block YAML: a quoted key with a #, brackets in a string, flow pairs',
      '"a #": [1, 1, 1]\nk: ["]]", 1, 1]\nl: [a: 1, b: 2]\n',
      'lines',
      { line: 3, message: tooMany(17) },
      17,
    ],
    ['a CSV is not counted', 'a,b\n1,2\n'.repeat(100), 'csv', undefined, 10],
  ])('%s', (_what, input, shape, expected, maxValues?: number) => {
    const bytes = Buffer.from(input);
    expect(scanInput(bytes, shape, { maxValues })).toEqual(expected);
    // Fed in pieces, as a stream delivers it: the same answer.
    const scanner = new InputScanner(shape, { maxValues });
    let found: ReturnType<typeof scanInput>;
    for (let at = 0; at < bytes.length && !found; at += 7919) found = scanner.push(bytes.subarray(at, at + 7919));
    expect(found ?? scanner.end()).toEqual(expected);
  });

  it('agrees with the platform decoder on what is UTF-8', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const interesting = [
      0x00, 0x0a, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xec, 0xed, 0xee,
      0xef, 0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xff,
    ];
    const decoder = new TextDecoder('utf-8', { fatal: true });
    for (let n = 0; n < 20_000; n++) {
      const bytes = Buffer.from(
        Array.from(
          { length: 1 + Math.floor(random() * 6) },
          () => interesting[Math.floor(random() * interesting.length)],
        ),
      );
      let valid = true;
      try {
        decoder.decode(bytes);
      } catch {
        valid = false;
      }
      expect(scanInput(bytes, 'lines') === undefined, bytes.toString('hex')).toBe(valid);
    }
  });
});

describe('readInput', () => {
  it('refuses an endless stream at the field limit, having read little of it, and stops it', async () => {
    const stdin = endless(Buffer.alloc(64 * 1024));
    await expect(readInput('-', stdin)).rejects.toThrow('stdin:1: a field is larger than 1 MiB');
    expect(stdin.pulled).toBeLessThan(2 * MiB);
    expect(stdin.destroyed).toBe(true);
  });

  it('refuses a stream of valid rows past the size limit, at the limit', async () => {
    const stdin = endless(Buffer.from('Student Somebody,somebody,somebody@example.edu\n'.repeat(1400)));
    await expect(readInput('-', stdin)).rejects.toThrow('stdin is larger than 64 MiB');
    expect(stdin.pulled).toBeLessThan(MAX_INPUT_BYTES + MiB);
    expect(stdin.destroyed).toBe(true);
  });

  it('refuses a regular file past the limit from its size, unread', async () => {
    const path = join(scratch(), 'users.csv');
    writeFileSync(path, '');
    truncateSync(path, MAX_INPUT_BYTES + 1);
    const started = performance.now();
    await expect(readInput(path, endless(Buffer.alloc(1)))).rejects.toThrow(
      `${path} is larger than 64 MiB, the most lms reads from one input`,
    );
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('reads /dev/zero as the stream it is, and stops', async () => {
    await expect(readInput('/dev/zero', endless(Buffer.alloc(1)))).rejects.toThrow(
      '/dev/zero:1: a field is larger than 1 MiB',
    );
  });

  it('reads a file at the limit whole', async () => {
    const path = file('users.csv', `name,login_id\n${'Ana,ana\n'.repeat(1000)}`);
    const { bytes, name } = await readInput(path, endless(Buffer.alloc(1)));
    expect(name).toBe(path);
    expect(bytes.length).toBe(14 + 8000);
  });

  it.each([
    ['no such file', '/nonexistent/users.csv', 'cannot read /nonexistent/users.csv: no such file'],
    ['a directory', tmpdir(), `cannot read ${tmpdir()}: it is a directory, not a file`],
  ])('says why it cannot read %s', async (_what, path, message) => {
    await expect(readInput(path, endless(Buffer.alloc(1)))).rejects.toThrow(message);
  });
});

/** `lms <args> FILE` on a fresh mock: its exit code and stderr, and whether anything was written. */
async function importFile(args: string, name: string, content: string | Buffer) {
  const lms = session({ LMS_STATE_DIR: scratch() });
  const path = file(name, content);
  const before = (lms.mock.db.prepare('SELECT count(*) AS n FROM page_views').get() as { n: number }).n;
  const r = await lms.run(`${args} ${path}`);
  const after = (lms.mock.db.prepare('SELECT count(*) AS n FROM page_views').get() as { n: number }).n;
  return { ...r, path, sent: after - before };
}

describe('control characters: refused with the line and the column, nothing sent', () => {
  it.each([
    [
      'a NUL in a name',
      'users import --account 1',
      'users.csv',
      'name,login_id\nAna,ana\nB\0o,bo\n',
      'users.csv:3: name contains a control character (U+0000)',
    ],
    [
      'an escape in a login',
      'users import --account 1',
      'users.csv',
      'name,login_id\nAna,an\x1ba\n',
      'users.csv:2: login_id contains a control character (U+001B)',
    ],
    [
      'a tab inside a name',
      'users import --account 1',
      'users.csv',
      'name,login_id\n"A\tna",ana\n',
      'users.csv:2: name contains a control character (U+0009)',
    ],
    [
      'a line break inside a SIS id',
      'users import --account 1',
      'users.csv',
      'name,login_id,sis_user_id\nAna,ana,"S\nIS"\n',
      'users.csv:2: sis_user_id contains a control character (U+000A)',
    ],
    [
      'DEL in an email',
      'users import --account 1',
      'users.csv',
      'name,login_id,email\nAna,ana,ana\x7f@example.edu\n',
      'users.csv:2: email contains a control character (U+007F)',
    ],
    [
      'a one-byte CSI (C1) in a name',
      'users import --account 1',
      'users.csv',
      'name,login_id\nAna\u009b31m,ana\n',
      'users.csv:2: name contains a control character (U+009B)',
    ],
    [
      'NEL (C1) in a grade comment',
      'grade --course 1 --assignment 1 --csv',
      'grades.csv',
      'user,grade,comment\n7,90,"Well\u0085done"\n',
      'grades.csv:2: comment contains a control character (U+0085)',
    ],
    [
      'DEL in a grade comment',
      'grade --course 1 --assignment 1 --csv',
      'grades.csv',
      'user,grade,comment\n7,90,"Well\x7f done"\n',
      'grades.csv:2: comment contains a control character (U+007F)',
    ],
    [
      'a NUL in an enrollment user',
      'enrollments import --course 1',
      'enrollments.csv',
      'user,type\n7\0,StudentEnrollment\n',
      'enrollments.csv:2: user contains a control character (U+0000)',
    ],
    [
      'a NUL in a grade comment',
      'grade --course 1 --assignment 1 --csv',
      'grades.csv',
      'user,grade,comment\n7,90,"Well\0 done"\n',
      'grades.csv:2: comment contains a control character (U+0000)',
    ],
    [
      'a bell in a grade',
      'grade --course 1 --assignment 1 --csv',
      'grades.csv',
      'user,grade\n7,9\x070\n',
      'grades.csv:2: grade contains a control character (U+0007)',
    ],
    [
      'a NUL in an outcome title (CSV)',
      'outcomes import --course 1',
      'outcomes.csv',
      'vendor_guid,object_type,title\ng,group,G\0\n',
      'outcomes.csv:2: title contains a control character (U+0000)',
    ],
    [
      'a NUL in an outcome description (YAML escape)',
      'outcomes import --course 1',
      'outcomes.yaml',
      'groups:\n  - title: G\n    vendor_guid: g\n    description: "a\\0b"\n',
      'outcomes.yaml:2 groups[0]: description contains a control character (U+0000)',
    ],
    [
      'an escaped U+0001 in a vendor_guid (JSON)',
      'outcomes import --course 1',
      'outcomes.json',
      '{"groups": [{"title": "G", "vendor_guid": "g\\u0001h"}]}',
      'outcomes.json: groups[0]: vendor_guid contains a control character (U+0001)',
    ],
  ])('%s', async (_what, args, name, content, message) => {
    const r = await importFile(args, name, content);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain(message.replace(`${name}:`, `${r.path}:`));
    expect(r.stderr).toContain('nothing was sent');
    expect(r.sent).toBe(0);
  });

  it.each([
    [
      'tabs and line breaks in a grade comment',
      'grade --course 1 --assignment 1 --dry-run --csv',
      'grades.csv',
      'user,grade,comment\n7,90,"Well\tdone,\r\nsee me"\n',
    ],
    [
      'a multi-line outcome description',
      'outcomes import --course 1 --dry-run',
      'outcomes.csv',
      'vendor_guid,object_type,title,description\ng,group,G,"Line one\n\tLine two"\n',
    ],
  ])('allows %s', async (_what, args, name, content) => {
    const r = await importFile(args, name, content);
    expect(r.exitCode, r.stderr).toBe(0);
  });

  it('shows a control character it quotes, rather than sending it to the terminal', async () => {
    const r = await importFile('users import --account 1', 'users.csv', 'name,login_id,email\nAna,ana,\x1b[31mred\n');
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('email "\\u001b[31mred" is not an email address');
    expect(r.stderr).not.toContain('\x1b');
  });

  it('shows a one-byte CSI (C1) it quotes as its escape too', async () => {
    const r = await importFile('users import --account 1', 'users.csv', 'name,login_id,email\nAna,ana,\u009b31mred\n');
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('email "\\u009b31mred" is not an email address');
    expect(r.stderr).not.toContain('\u009b');
  });
});

describe('YAML and JSON files: bounded before they are parsed', () => {
  /** Groups within groups, `levels` deep: each group's map is two levels below its parent's. */
  const deepTree = (levels: number) => {
    let yaml = 'groups:\n';
    for (let i = 0; i < levels; i++) {
      const indent = '    '.repeat(i);
      yaml +=
        `${indent}  - title: G${i}\n${indent}    vendor_guid: g${i}\n` +
        `${i < levels - 1 ? `${indent}    groups:\n` : ''}`;
    }
    return yaml;
  };
  it.each([
    [
      'JSON nested 100,000 deep',
      'outcomes.json',
      `{"groups": ${nested(100_000)}}`,
      'outcomes.json:1: nested more than 64 levels deep',
    ],
    // (100,000 deep would be 100,000 values: the values' bound, below, would refuse it first.)
    [
      'YAML nested 50,000 deep',
      'outcomes.yaml',
      `groups:\n${'- '.repeat(50_000)}x\n`,
      'outcomes.yaml:2: nested more than 64 levels deep',
    ],
    [
      'YAML flow style nested 100,000 deep',
      'outcomes.yaml',
      nested(100_000),
      'outcomes.yaml:1: nested more than 64 levels deep',
    ],
    ['a YAML tree of groups 40 levels deep', 'outcomes.yaml', deepTree(40), 'outcomes.yaml:'],
    [
      'a 10 MB title in JSON',
      'outcomes.json',
      `{"groups": [{"title": "${'x'.repeat(10_000_000)}", "vendor_guid": "g"}]}`,
      'outcomes.json:1: a value is larger than 1 MiB',
    ],
    [
      'a 10 MB title in YAML',
      'outcomes.yaml',
      `groups:\n  - vendor_guid: g\n    title: ${'x'.repeat(10_000_000)}\n`,
      'outcomes.yaml:3: a line is longer than 1 MiB',
    ],
    [
      'a 2 MB block scalar of short lines',
      'outcomes.yaml',
      `groups:\n  - vendor_guid: g\n    title: G\n    description: |\n` +
        `${'      a line of the description\n'.repeat(80_000)}`,
      'outcomes.yaml:4: a value is larger than 1 MiB',
    ],
    [
      'a tree past 16 MiB',
      'outcomes.yaml',
      `groups:\n${'  - {title: G, vendor_guid: g}\n'.repeat(600_000)}`,
      'outcomes.yaml:1: the file is larger than 16 MiB',
    ],
    [
      'a million empty groups in 3 MB of JSON',
      'outcomes.json',
      `{"groups":[${Array(1_000_000).fill('{}').join(',')}]}`,
      `outcomes.json:1: ${treeTooMany}`,
    ],
    // The root, groups: and its list, then three values a line: a map, a key and its value.
    [
      '200,000 groups of block YAML',
      'outcomes.yaml',
      `groups:\n${'  - title: G\n'.repeat(200_000)}`,
      `outcomes.yaml:33334: ${treeTooMany}`,
    ],
  ])('refuses %s: exit 2, named, no stack trace', async (_what, name, content, message) => {
    const started = performance.now();
    const r = await importFile('outcomes import --course 1', name, content);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain(message.replace(`${name}:`, `${r.path}:`));
    expect(r.stderr).toContain('has 1 problem;');
    expect(r.stderr).not.toMatch(/call stack|RangeError/);
    expect(r.sent).toBe(0);
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('takes a tree 12 groups deep', () => {
    const { problems, rows } = parseTreeFile(Buffer.from(deepTree(12)), 'outcomes.yaml');
    expect(problems).toEqual([]);
    expect(rows).toHaveLength(12);
  });

  it('takes groups 31 deep, and refuses the 32nd at its line', () => {
    expect(parseTreeFile(Buffer.from(deepTree(31)), 'outcomes.yaml').problems).toEqual([]);
    // The root map, then a list and a map for each group: the 32nd group's map is the 65th level.
    expect(parseTreeFile(Buffer.from(deepTree(32)), 'outcomes.yaml').problems).toEqual([
      { line: 2 + 3 * 31, message: 'nested more than 64 levels deep' },
    ]);
  });

  it('orders a CSV chain of 20,000 groups, parents first, with no recursion to overflow', () => {
    let csv = 'vendor_guid,object_type,title,parent_guids\n';
    for (let i = 19_999; i >= 0; i--) csv += `g${i},group,G${i},${i ? `g${i - 1}` : ''}\n`;
    const { problems, rows } = parseTreeFile(Buffer.from(csv), 'chain.csv');
    expect(problems).toEqual([]);
    expect(rows.slice(0, 3).map((r) => r.values.vendor_guid)).toEqual(['g0', 'g1', 'g2']);
  });

  it.each([
    [
      'nested 100,000 deep',
      'body.json',
      `{"user": ${nested(100_000)}}`,
      'body.json:1: nested more than 64 levels deep',
    ],
    ['endless (/dev/zero)', '/dev/zero', undefined, '/dev/zero:1: a value is larger than 1 MiB'],
  ])('lms api --input refuses a body %s', async (_what, name, content, message) => {
    const lms = session();
    const path = content === undefined ? name : file(name, content);
    const r = await lms.run(['api', 'PUT', '/api/v1/users/self', '--input', path]);
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toContain(message.replace(`${name}:`, `${path}:`));
    expect(r.stderr).not.toMatch(/call stack|RangeError/);
  });
});
