import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { defaultFormat, FORMATS, renderItem, renderList, type Format } from '../../src/output/render.js';
import { UsageError } from '../../src/errors.js';
import { fakeIO } from '../helpers/fake-io.js';

const users = [
  { id: 1, name: 'Ada Lovelace', admin: true, email: null, user: { login: 'ada', roles: ['teacher'] } },
  { id: 22, name: 'Bo', admin: false, email: 'bo@example.edu', user: { login: 'bo', roles: [] } },
];

interface ListOptions {
  fields?: string[];
  columns?: string[];
  terminalWidth?: number;
}

async function listOutput(items: Iterable<unknown> | AsyncIterable<unknown>, format: Format, extra: ListOptions = {}) {
  const io = fakeIO({ tty: format === 'table', columns: extra.terminalWidth });
  const count = await renderList(items, { io, format, fields: extra.fields, columns: extra.columns });
  return { stdout: io.stdoutText(), stderr: io.stderrText(), count };
}

async function itemOutput(item: unknown, format: Format, fields?: string[]) {
  const io = fakeIO();
  await renderItem(item, { io, format, fields });
  return { stdout: io.stdoutText(), stderr: io.stderrText() };
}

async function* fromArray<T>(items: T[]): AsyncGenerator<T> {
  for (const item of items) yield item;
}

describe('formats', () => {
  it('lists the five formats', () => {
    expect(FORMATS).toEqual(['table', 'json', 'ndjson', 'csv', 'yaml']);
  });

  it.each([
    [true, 'table'],
    [false, 'json'],
  ])('defaultFormat with stdout TTY=%s is %s', (tty, expected) => {
    expect(defaultFormat(fakeIO({ tty }))).toBe(expected);
  });
});

describe('json', () => {
  const lists: Array<[name: string, items: unknown[]]> = [
    ['empty', []],
    ['one object', [{ id: 1 }]],
    ['nested objects, arrays and empty containers', [...users, { a: {}, b: [], c: [{ d: [1, { e: null }] }] }]],
    ['scalars', [1, 'two', true, null]],
    ['strings with newlines and quotes', [{ text: 'line 1\nline 2 "quoted"' }]],
    ['undefined elements', [undefined, { kept: 1, dropped: undefined }]],
  ];

  it.each(lists)('a list (%s) is exactly JSON.stringify(list, null, 2)', async (_name, items) => {
    const { stdout, count } = await listOutput(fromArray(items), 'json');
    expect(stdout).toBe(`${JSON.stringify(items, null, 2)}\n`);
    expect(count).toBe(items.length);
  });

  it('selects and orders fields, with dotted paths and null for missing', async () => {
    const items = [...users, { id: 3, name: 'Cy' }];
    const { stdout } = await listOutput(items, 'json', { fields: ['user.login', 'id', 'email'] });
    expect(JSON.parse(stdout)).toEqual([
      { 'user.login': 'ada', id: 1, email: null },
      { 'user.login': 'bo', id: 22, email: 'bo@example.edu' },
      { 'user.login': null, id: 3, email: null },
    ]);
    expect(Object.keys(JSON.parse(stdout)[0])).toEqual(['user.login', 'id', 'email']);
  });

  it('ignores columns (they are for table and csv) and passes items through untouched', async () => {
    const { stdout } = await listOutput(users, 'json', { columns: ['id'] });
    expect(stdout).toBe(`${JSON.stringify(users, null, 2)}\n`);
  });

  it('renders one item pretty-printed, with field selection', async () => {
    expect((await itemOutput(users[0], 'json')).stdout).toBe(`${JSON.stringify(users[0], null, 2)}\n`);
    expect((await itemOutput(users[0], 'json', ['name', 'user.roles'])).stdout).toBe(
      '{\n  "name": "Ada Lovelace",\n  "user.roles": [\n    "teacher"\n  ]\n}\n',
    );
  });

  it('leaves the array unclosed when the source fails, so a partial list is not valid JSON', async () => {
    async function* failing() {
      yield { id: 1 };
      throw new Error('page 2 failed');
    }
    const io = fakeIO();
    await expect(renderList(failing(), { io, format: 'json' })).rejects.toThrow('page 2 failed');
    expect(io.stdoutText()).toBe('[\n  {\n    "id": 1\n  }');
  });
});

describe('ndjson', () => {
  it.each<[string, unknown[], string[] | undefined, string]>([
    ['empty', [], undefined, ''],
    ['objects', users, undefined, users.map((user) => `${JSON.stringify(user)}\n`).join('')],
    ['fields', users, ['id', 'user.login'], '{"id":1,"user.login":"ada"}\n{"id":22,"user.login":"bo"}\n'],
    ['scalars', [1, 'a', null], undefined, '1\n"a"\nnull\n'],
  ])('%s', async (_name, items, fields, expected) => {
    const { stdout, stderr } = await listOutput(items, 'ndjson', { fields });
    expect(stdout).toBe(expected);
    expect(stderr).toBe('');
  });

  it('renders one item on one line', async () => {
    expect((await itemOutput({ id: 1, tags: ['a'] }, 'ndjson')).stdout).toBe('{"id":1,"tags":["a"]}\n');
  });
});

describe('csv', () => {
  it.each<[string, unknown[], { fields?: string[]; columns?: string[] }, string]>([
    [
      'keys of the first item; nested values as JSON, null empty, booleans as words',
      users,
      {},
      'id,name,admin,email,user\n' +
        '1,Ada Lovelace,true,,"{""login"":""ada"",""roles"":[""teacher""]}"\n' +
        '22,Bo,false,bo@example.edu,"{""login"":""bo"",""roles"":[]}"\n',
    ],
    ['the command columns', users, { columns: ['id', 'email'] }, 'id,email\n1,\n22,bo@example.edu\n'],
    [
      'fields win over columns',
      users,
      { fields: ['user.login', 'id'], columns: ['email'] },
      'user.login,id\nada,1\nbo,22\n',
    ],
    ['empty with known columns: header only', [], { columns: ['id', 'name'] }, 'id,name\n'],
    ['empty with fields: header only', [], { fields: ['id'] }, 'id\n'],
    ['empty without columns: nothing', [], {}, ''],
    ['scalars as a value column', ['a', 'b'], {}, 'value\na\nb\n'],
  ])('%s', async (_name, items, options, expected) => {
    const { stdout, stderr } = await listOutput(fromArray(items), 'csv', options);
    expect(stdout).toBe(expected);
    expect(stderr).toBe('');
  });

  it.each([
    ['known columns', { columns: ['id', 'name'] }],
    ['fields', { fields: ['id'] }],
  ])('a list that fails before its first item writes nothing, not even the header (%s)', async (_what, options) => {
    const io = fakeIO();
    async function* refused(): AsyncGenerator<unknown> {
      yield* [];
      throw new Error('401 from the instance');
    }
    await expect(renderList(refused(), { io, format: 'csv', ...options })).rejects.toThrow('401');
    expect(io.stdoutText()).toBe('');
  });

  it('a list that fails after its first page keeps what it wrote: header and rows', async () => {
    const io = fakeIO();
    async function* partly(): AsyncGenerator<unknown> {
      yield { id: 1 };
      throw new Error('timed out');
    }
    await expect(renderList(partly(), { io, format: 'csv', columns: ['id'] })).rejects.toThrow('timed out');
    expect(io.stdoutText()).toBe('id\n1\n');
  });

  it('quotes commas, quotes and newlines', async () => {
    const { stdout } = await listOutput(
      [{ name: 'Smith, Jo', note: 'says "hi"', bio: 'line 1\nline 2', plain: 'ok' }],
      'csv',
    );
    expect(stdout).toBe('name,note,bio,plain\n"Smith, Jo","says ""hi""","line 1\nline 2",ok\n');
  });

  it('renders one item as a header and a row', async () => {
    expect((await itemOutput({ id: 1, name: 'A' }, 'csv')).stdout).toBe('id,name\n1,A\n');
    expect((await itemOutput({ id: 1, name: 'A' }, 'csv', ['name'])).stdout).toBe('name\nA\n');
  });
});

describe('table', () => {
  it('shows the scalar fields of the first item by default, borderless, header uppercased', async () => {
    const { stdout, stderr, count } = await listOutput(users, 'table');
    expect(stdout).toBe(
      ['ID  NAME          ADMIN  EMAIL', '1   Ada Lovelace  true', '22  Bo            false  bo@example.edu', ''].join(
        '\n',
      ),
    );
    expect(stderr).toBe('');
    expect(count).toBe(2);
  });

  it.each<[string, { fields?: string[]; columns?: string[] }, string[]]>([
    ['command columns', { columns: ['name', 'id'] }, ['NAME          ID', 'Ada Lovelace  1', 'Bo            22']],
    [
      'fields with dotted paths; nested values as compact JSON',
      { fields: ['id', 'user.login', 'user.roles'], columns: ['name'] },
      ['ID  USER.LOGIN  USER.ROLES', '1   ada         ["teacher"]', '22  bo          []'],
    ],
  ])('%s', async (_name, options, lines) => {
    const { stdout } = await listOutput(users, 'table', options);
    expect(stdout).toBe(`${lines.join('\n')}\n`);
  });

  it('prints nothing for an empty list and says so on stderr', async () => {
    const { stdout, stderr, count } = await listOutput([], 'table', { columns: ['id'] });
    expect(stdout).toBe('');
    expect(stderr).toBe('No results.\n');
    expect(count).toBe(0);
  });

  it('keeps one line per row and shows control characters by their codes', async () => {
    const { stdout } = await listOutput([{ id: 1, name: 'two\nlines\u001b[31m' }], 'table');
    expect(stdout).toBe('ID  NAME\n1   two lines\\u001b[31m\n');
  });

  it('truncates long nested values in list cells', async () => {
    const { stdout } = await listOutput([{ id: 1, data: { text: 'x'.repeat(100) } }], 'table', { fields: ['data'] });
    const cell = stdout.split('\n')[1];
    expect(cell).toHaveLength(40);
    expect(cell.endsWith('…')).toBe(true);
  });

  it('fits io.columns by truncating the widest columns', async () => {
    const rows = [{ id: 1, title: 'A'.repeat(80), description: 'B'.repeat(120) }];
    const { stdout } = await listOutput(rows, 'table', { terminalWidth: 60 });
    const lines = stdout.trimEnd().split('\n');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(60);
    expect(lines[0]).toMatch(/^ID {2}TITLE +DESCRIPTION/);
    expect(lines[1]).toMatch(/^1 {3}A+… {2}B+…$/);
  });

  it('widens from the batch that brings a longer value, leaving the lines before it as they were', async () => {
    const rows = Array.from({ length: 60 }, (_, index) => ({
      id: index + 1,
      name: index === 55 ? 'a much longer name' : 'short',
    }));
    const { stdout, count } = await listOutput(fromArray(rows), 'table');
    const lines = stdout.trimEnd().split('\n');
    expect(count).toBe(60);
    expect(lines).toHaveLength(61);
    expect(lines[0]).toBe('ID  NAME');
    expect(lines[1]).toBe('1   short');
    expect(lines[56]).toBe('56  a much longer name');
    expect(lines[60]).toBe('60  short');
  });

  it('colours only the header, and only when io.color is set', async () => {
    const plain = await listOutput(users, 'table');
    expect(plain.stdout).not.toContain('\u001b');
    const io = { ...fakeIO({ tty: true }), color: true };
    await renderList(users, { io, format: 'table' });
    const [header, ...rest] = io.stdoutText().split('\n');
    expect(header).toContain('\u001b[1m');
    expect(rest.join('\n')).not.toContain('\u001b');
  });

  it('renders one item as KEY/VALUE rows', async () => {
    expect((await itemOutput(users[0], 'table')).stdout).toBe(
      [
        'KEY    VALUE',
        'id     1',
        'name   Ada Lovelace',
        'admin  true',
        'email',
        'user   {"login":"ada","roles":["teacher"]}',
        '',
      ].join('\n'),
    );
    expect((await itemOutput(users[0], 'table', ['user.login', 'id'])).stdout).toBe(
      'KEY         VALUE\nuser.login  ada\nid          1\n',
    );
  });

  it('renders an array item as a list', async () => {
    expect((await itemOutput([{ id: 1 }, { id: 2 }], 'table')).stdout).toBe('ID\n1\n2\n');
  });
});

describe('streaming', () => {
  // The second "page" is fetched only after the first one's items are on stdout.
  it.each(FORMATS)('%s writes the first page before the source finishes', async (format) => {
    const io = fakeIO({ tty: format === 'table' });
    let writtenBeforeSecondPage = '';
    async function* pages() {
      yield { id: 1, name: 'page 1' };
      await new Promise((resolve) => setTimeout(resolve, 5));
      writtenBeforeSecondPage = io.stdoutText();
      yield { id: 2, name: 'page 2' };
    }
    await renderList(pages(), { io, format });
    expect(writtenBeforeSecondPage).toContain('page 1');
    expect(writtenBeforeSecondPage).not.toContain('page 2');
    expect(io.stdoutText()).toContain('page 2');
  });

  // A stdout that accepts nothing until opened, like a pipe whose reader has stalled.
  class StalledStdout extends Writable {
    private waiting: Array<() => void> = [];
    private open = false;
    constructor() {
      super({ highWaterMark: 64 });
    }
    override _write(_chunk: unknown, _encoding: BufferEncoding, done: () => void): void {
      if (this.open) done();
      else this.waiting.push(done);
    }
    release(): void {
      this.open = true;
      for (const done of this.waiting.splice(0)) done();
    }
  }

  it.each(FORMATS)('%s stops pulling items while stdout is not draining (flat memory)', async (format) => {
    const stdout = new StalledStdout();
    const io = { ...fakeIO(), stdout };
    let pulled = 0;
    function* manyItems() {
      for (let id = 1; id <= 1000; id++) {
        pulled++;
        yield { id, name: `user ${id}` };
      }
    }
    const rendering = renderList(manyItems(), { io, format });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(pulled).toBeLessThanOrEqual(60);
    stdout.release();
    expect(await rendering).toBe(1000);
  });

  // A source that never waits for I/O (the in-process mock) never lets a macrotask run: whatever
  // waits for one must not pile up, or every item raced against it stays in memory.
  it.each(FORMATS)('%s keeps no waiter per item from a source that never waits (flat memory)', async (format) => {
    const io = fakeIO({ tty: format === 'table' });
    const immediates = () => process.getActiveResourcesInfo().filter((r) => r === 'Immediate').length;
    const before = immediates();
    let most = 0;
    async function* neverWaits() {
      for (let id = 1; id <= 2000; id++) {
        most = Math.max(most, immediates() - before);
        yield { id, name: `user ${id}` };
      }
    }
    expect(await renderList(neverWaits(), { io, format })).toBe(2000);
    expect(most).toBeLessThanOrEqual(2);
  });

  it.each(FORMATS)('%s accepts a plain iterable', async (format) => {
    function* items() {
      yield { id: 1 };
      yield { id: 2 };
    }
    const io = fakeIO();
    expect(await renderList(items(), { io, format })).toBe(2);
  });

  it.each(FORMATS)('%s never writes colour codes when io.color is false', async (format) => {
    const { stdout } = await listOutput(users, format);
    expect(stdout).not.toContain('\u001b');
  });
});

describe('--fields the output does not have', () => {
  // Items arrive one at a time; nothing may be written before the first one is checked.
  async function* slowly<T>(items: T[]): AsyncGenerator<T> {
    for (const item of items) {
      await new Promise((resolve) => setImmediate(resolve));
      yield item;
    }
  }

  it.each(FORMATS.map((format) => [format]))(
    '%s list: a usage error naming the field meant, nothing written',
    async (format) => {
      const io = fakeIO({ tty: format === 'table' });
      let pulled = 0;
      let closed = false;
      async function* source() {
        try {
          for (const user of users) {
            pulled++;
            yield user;
          }
        } finally {
          closed = true;
        }
      }
      const error = await renderList(source(), { io, format, fields: ['id', 'nmae'], columns: ['id'] }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(UsageError);
      const usage = error as UsageError;
      expect(usage.exitCode).toBe(2);
      expect(usage.message).toBe('--fields: unknown field "nmae"');
      expect(usage.hint).toBe('did you mean --fields id,name?');
      expect(usage.toJSON()).toMatchObject({
        unknown_fields: ['nmae'],
        available_fields: ['id', 'name', 'admin', 'email', 'user'],
      });
      expect(io.stdoutText()).toBe('');
      expect(io.stderrText()).toBe('');
      expect(pulled).toBe(1);
      expect(closed).toBe(true);
    },
  );

  it('lists the available fields when a name is near none of them', async () => {
    const error = (await renderList(users, { io: fakeIO(), format: 'json', fields: ['nmae', 'colour'] }).catch(
      (e: unknown) => e,
    )) as UsageError;
    expect(error.message).toBe('--fields: unknown fields "nmae", "colour"');
    expect(error.hint).toBe('available fields: id, name, admin, email, user');
  });

  it('lists the keys of the nested object a dotted path reaches into', async () => {
    const error = (await renderList(users, { io: fakeIO(), format: 'json', fields: ['user.name'] }).catch(
      (e: unknown) => e,
    )) as UsageError;
    expect(error.hint).toBe('available fields: id, name, admin, email, user, user.login, user.roles');
  });

  it('accepts a field that is present with a null value, and a path through a null', async () => {
    const items = [
      { id: 1, email: null, user: null },
      { id: 2, email: 'b@x', user: { login: 'b' } },
    ];
    const { stdout } = await listOutput(slowly(items), 'json', { fields: ['email', 'user.login'] });
    expect(JSON.parse(stdout)).toEqual([
      { email: null, 'user.login': null },
      { email: 'b@x', 'user.login': 'b' },
    ]);
  });

  it('cannot check an empty list, which prints as before', async () => {
    expect((await listOutput([], 'json', { fields: ['nope'] })).stdout).toBe('[]\n');
    expect((await listOutput([], 'csv', { fields: ['nope'] })).stdout).toBe('nope\n');
  });

  it.each(FORMATS.map((format) => [format]))('%s item: a usage error before anything is written', async (format) => {
    const io = fakeIO({ tty: format === 'table' });
    const error = (await renderItem(users[0], { io, format, fields: ['id', 'bogus'] }).catch(
      (e: unknown) => e,
    )) as UsageError;
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toBe('--fields: unknown field "bogus"');
    expect(io.stdoutText()).toBe('');
  });

  it('streams the rest of the list after the check', async () => {
    const many = Array.from({ length: 120 }, (_, i) => ({ id: i, name: `n${i}` }));
    const { stdout, count } = await listOutput(slowly(many), 'ndjson', { fields: ['name'] });
    expect(count).toBe(120);
    expect(stdout.split('\n').filter(Boolean)).toHaveLength(120);
  });
});

describe('a single record', () => {
  it('shows every field on a TTY table, whatever the command columns', async () => {
    const io = fakeIO({ tty: true });
    await renderItem(
      { id: 7, name: 'Sam', time_zone: 'Europe/Berlin' },
      { io, format: 'table', columns: ['id', 'name'] },
    );
    expect(io.stdoutText()).toBe('KEY        VALUE\nid         7\nname       Sam\ntime_zone  Europe/Berlin\n');
  });

  it('shows only --fields when given', async () => {
    const io = fakeIO({ tty: true });
    await renderItem(
      { id: 7, name: 'Sam', time_zone: 'Europe/Berlin' },
      { io, format: 'table', fields: ['time_zone'], columns: ['id', 'name'] },
    );
    expect(io.stdoutText()).toBe('KEY        VALUE\ntime_zone  Europe/Berlin\n');
  });

  it('as CSV has every field too', async () => {
    const io = fakeIO();
    await renderItem({ id: 7, name: 'Sam', time_zone: 'UTC' }, { io, format: 'csv', columns: ['id'] });
    expect(io.stdoutText()).toBe('id,name,time_zone\n7,Sam,UTC\n');
  });

  it('an array value is still a list: the columns apply', async () => {
    const io = fakeIO();
    await renderItem(users, { io, format: 'csv', columns: ['id'] });
    expect(io.stdoutText()).toBe('id\n1\n22\n');
  });
});

describe('a long table after its first batch', () => {
  it('cuts and pads later rows to the widened free-text widths, exactly as the first batch was drawn', async () => {
    const io = fakeIO({ tty: true, columns: 20 });
    const rows = [
      ...Array.from({ length: 50 }, (_, i) => ({ id: i, name: 'ab', note: i % 2 ? 'x' : '' })),
      { id: 50, name: 'ab', note: 'x' },
      { id: 51, name: 'abcdefgh', note: 'longer note' },
      { id: 52, name: '東京東京東京', note: 'x' },
    ];
    async function* pages() {
      yield* rows.slice(0, 50);
      await new Promise((r) => setTimeout(r, 1));
      yield* rows.slice(50);
    }
    await renderList(pages(), { io, format: 'table' });
    const lines = io.stdoutText().trimEnd().split('\n');
    expect(lines[0]).toBe('ID  NAME  NOTE');
    // The first batch set ID 2 wide, NAME 4, NOTE 4; the second needs NAME 12 and NOTE 11, and the
    // 14 columns the terminal leaves them are shared out as 7 and 7.
    expect(lines[1]).toBe('0   ab');
    expect(lines[2]).toBe('1   ab    x');
    expect(lines[51]).toBe('50  ab       x');
    expect(lines[52]).toBe('51  abcdef…  longer…');
    expect(lines[53]).toBe('52  東京東…  x');
    expect(lines).toHaveLength(54);
  });
});
