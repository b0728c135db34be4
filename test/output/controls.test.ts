// Control characters in data the API sends (C0, DEL, C1: U+009B alone starts a terminal sequence)
// reach a terminal only as escapes, in every format: JSON and NDJSON as `\u0085` (still JSON, the
// same values when read back), YAML as its own escapes, CSV and text as `\u0085` too. A pipe or a
// file gets the data exact, so a round trip changes nothing. Line feeds and tabs, which only move
// forward, are left as they are. The CLI's own messages show what they quote the same way.
import { parse as parseCsv } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { handleError } from '../../src/model/handle-error.js';
import { UsageError } from '../../src/errors.js';
import { compileJq } from '../../src/output/jq.js';
import { renderItem, renderList, renderText, type Format } from '../../src/output/render.js';
import { fakeIO } from '../helpers/fake-io.js';
import { session } from '../helpers/run-lms.js';

const NAME = 'Eve\u0085\u009b31mAdmin\u007f';
const BODY = 'one\ttwo\nthree\rfour\u001b]0;title\u0007';
const record = { id: 1, name: NAME, body: BODY, tags: [NAME] };

/** Anything a terminal would act on: every control character but a line feed and a tab. */
// eslint-disable-next-line no-control-regex
const ACTED_ON = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

const READ_BACK: Record<Exclude<Format, 'table'>, (text: string) => unknown> = {
  json: (text) => JSON.parse(text),
  ndjson: (text) =>
    text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line)),
  yaml: (text) => parseYaml(text),
  csv: (text) => parseCsv(text, { columns: true }),
};

/** What each format holds when read back, for one record listed. */
const EXPECTED: Record<Exclude<Format, 'table'>, unknown> = {
  json: [record],
  ndjson: [record],
  yaml: [record],
  csv: [{ id: '1', name: NAME, body: BODY, tags: JSON.stringify([NAME]) }],
};

async function listed(format: Format, tty: boolean) {
  const io = fakeIO({ tty });
  await renderList([record], { io, format, raw: true });
  return io.stdoutText();
}

describe('a list on a terminal: control characters as escapes, in every format', () => {
  it.each(['json', 'ndjson', 'yaml', 'csv'] as const)('%s', async (format) => {
    const text = await listed(format, true);
    expect(text).not.toMatch(ACTED_ON);
    // The characters are there to be seen, each by its code.
    for (const code of ['\\u0085', '\\u009b', '\\u007f']) expect(text).toContain(code);
  });

  it.each([
    ['json', '"Eve\\u0085\\u009b31mAdmin\\u007f"'],
    ['ndjson', '"Eve\\u0085\\u009b31mAdmin\\u007f"'],
    ['yaml', '"Eve\\u0085\\u009b31mAdmin\\u007f"'],
    ['csv', 'Eve\\u0085\\u009b31mAdmin\\u007f'],
  ] as const)('%s shows the name as %s', async (format, shown) => {
    expect(await listed(format, true)).toContain(shown);
  });

  it.each(['json', 'ndjson', 'yaml'] as const)('%s reads back to the same values', async (format) => {
    expect(READ_BACK[format](await listed(format, true))).toEqual(EXPECTED[format]);
  });

  it('a CSV cell keeps its line feed and tab, and shows its carriage return', async () => {
    expect(await listed('csv', true)).toContain('"one\ttwo\nthree\\u000dfour\\u001b]0;title\\u0007"');
  });

  it('a table makes each cell one line: spaces for its line breaks and tabs, codes for the rest', async () => {
    const io = fakeIO({ tty: true });
    await renderList([record], { io, format: 'table', columns: ['id', 'name', 'body'] });
    expect(io.stdoutText()).not.toMatch(ACTED_ON);
    expect(io.stdoutText()).toContain('Eve\\u0085\\u009b31mAdmin\\u007f');
    expect(io.stdoutText()).toContain('one two three four\\u001b]0;title\\u0007');
  });
});

describe('piped or written to a file: the data exact', () => {
  it.each(['json', 'ndjson', 'yaml', 'csv'] as const)('%s', async (format) => {
    const text = await listed(format, false);
    expect(text).toContain(NAME);
    expect(READ_BACK[format](text)).toEqual(EXPECTED[format]);
  });

  it('JSON byte for byte as JSON.stringify writes it', async () => {
    expect(await listed('json', false)).toBe(`${JSON.stringify([record], null, 2)}\n`);
  });
});

describe('one record, --jq and text on a terminal', () => {
  it.each(['json', 'ndjson', 'yaml', 'csv'] as const)('an item as %s', async (format) => {
    const io = fakeIO({ tty: true });
    await renderItem(record, { io, format, raw: true });
    expect(io.stdoutText()).not.toMatch(ACTED_ON);
    expect(io.stdoutText()).toContain('\\u009b');
  });

  it('--jq: a string printed raw shows its escapes; piped, it is exact', async () => {
    const jq = await compileJq('.[] | .name', {});
    const terminal = fakeIO({ tty: true });
    await renderList([record], { io: terminal, format: 'json', jq });
    expect(terminal.stdoutText()).toBe('Eve\\u0085\\u009b31mAdmin\\u007f\n');
    const piped = fakeIO();
    await renderList([record], { io: piped, format: 'json', jq });
    expect(piped.stdoutText()).toBe(`${NAME}\n`);
    jq.close();
  });

  it('text a command prints', async () => {
    const io = fakeIO({ tty: true });
    await renderText(`${NAME}\n`, { io, format: 'json' });
    expect(io.stdoutText()).toBe('Eve\\u0085\\u009b31mAdmin\\u007f\n');
  });
});

describe('what a command prints of a name a server sent', () => {
  const s = session();
  // A name the mock would refuse today, as a real instance may still hold from before.
  s.mock.db.prepare('UPDATE users SET name = ? WHERE id = 7').run(NAME);

  it.each([
    ['json', true, '"name": "Eve\\u0085\\u009b31mAdmin\\u007f"'],
    ['yaml', true, 'name: "Eve\\u0085\\u009b31mAdmin\\u007f"'],
    ['csv', true, 'Eve\\u0085\\u009b31mAdmin\\u007f'],
    ['json', false, `"name": "${NAME}"`],
    ['csv', false, NAME],
  ] as const)('-o %s, on a terminal: %s', async (format, tty, shown) => {
    const r = await s.run(`users get 7 -o ${format} --fields id,name`, { tty });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain(shown);
    if (tty) expect(r.stdout).not.toMatch(ACTED_ON);
  });
});

describe("the CLI's own messages", () => {
  it('an error quoting what was typed shows its control characters as escapes', async () => {
    const r = await session().run(['users', 'list', '--account', '1', '-o', 'js\u009bn\u0085']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("'js\\u009bn\\u0085'");
    expect(r.stderr).not.toMatch(ACTED_ON);
  });

  it('as JSON, the same message read back', () => {
    const io = fakeIO();
    expect(handleError(new UsageError(`no user ${NAME}`), io, true)).toBe(2);
    expect(io.stderrText()).not.toMatch(ACTED_ON);
    expect(JSON.parse(io.stderrText())).toMatchObject({ message: `no user ${NAME}` });
  });

  it('in the human form, keeping the lines of a message that has several', () => {
    const io = fakeIO();
    handleError(new UsageError(`two problems:\n  name ${NAME}`), io, false);
    expect(io.stderrText()).toBe('error: two problems:\n  name Eve\\u0085\\u009b31mAdmin\\u007f\n');
  });
});

describe('format characters (bidi overrides and isolates, zero-width ones, tags) in a table', () => {
  // A login that reads "moc.elpmaxe@eve" drawn backwards as an address, a name with a hidden
  // space, an isolate, a byte order mark, a tag: each shown by its code in a cell.
  const SPOOF = {
    id: 2,
    name: 'Eve\u202emoc.elpmaxe',
    login_id: 'ad\u200bmin\u200e\u200f',
    email: '\u2066x\u2069\ufeff\u{e0001}',
  };
  const FORMAT = /\p{Cf}/u;

  it('shows each by its code, in a listing and in one record', async () => {
    const list = fakeIO({ tty: true });
    await renderList([SPOOF], { io: list, format: 'table', columns: ['id', 'name', 'login_id', 'email'] });
    const one = fakeIO({ tty: true });
    await renderItem(SPOOF, { io: one, format: 'table' });
    for (const text of [list.stdoutText(), one.stdoutText()]) {
      expect(text).not.toMatch(FORMAT);
      expect(text).toContain('Eve\\u202emoc.elpmaxe');
      expect(text).toContain('ad\\u200bmin\\u200e\\u200f');
      expect(text).toContain('\\u2066x\\u2069\\ufeff\\u{e0001}');
    }
  });

  it("leaves the joiners that are part of what is drawn: an emoji's, a Persian or Devanagari word's", async () => {
    const drawn = [
      '👩🏽\u200d🏫 Ms. Núñez',
      'می\u200cخواهم',
      'क्\u200dष',
      '🏴\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f}',
    ];
    const io = fakeIO({ tty: true });
    await renderList(
      drawn.map((name, id) => ({ id, name })),
      { io, format: 'table', columns: ['id', 'name'] },
    );
    for (const name of drawn) expect(io.stdoutText()).toContain(name);
    // Between Latin letters a joiner draws nothing: it is shown.
    const latin = fakeIO({ tty: true });
    await renderList([{ id: 1, name: 'ad\u200cmi\u200dn' }], { io: latin, format: 'table', columns: ['id', 'name'] });
    expect(latin.stdoutText()).toContain('ad\\u200cmi\\u200dn');
  });

  it.each([true, false])('JSON keeps them as they are (on a terminal: %s)', async (tty) => {
    const io = fakeIO({ tty });
    await renderList([SPOOF], { io, format: 'json' });
    expect(JSON.parse(io.stdoutText())).toEqual([SPOOF]);
    expect(io.stdoutText()).toContain('Eve\u202emoc.elpmaxe');
  });
});
