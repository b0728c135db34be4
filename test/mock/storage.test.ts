// Where the mock keeps its data, and what it keeps: a bad database path is a clear usage error that
// names the path; names and field lengths are checked before anything is stored.
import { chmodSync, chownSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { validateHeaderValue } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { contentDisposition } from '../../src/mock/areas/files/handlers.js';
import { safeFileName } from '../../src/mock/areas/files/upload.js';
import { openSqlite } from '../../src/mock/db/driver.js';
import { loadMock, type MockRuntime } from '../../src/mock/runtime.js';
import { run } from '../../src/cli/entry.js';
import { fakeIO } from '../helpers/fake-io.js';
import { clientFor, freshMock, statusOf, TOKENS } from '../helpers/mock-client.js';
import { value } from '../helpers/sql.js';

const scratch = () => mkdtempSync(join(tmpdir(), 'lms-storage-'));

describe('a mock database of another schema version', () => {
  /** A mock at `path` with a TA enrolled by hand, stamped as another lms's schema; `alter` changes it further. */
  async function olderMock(path: string, alter: (db: MockRuntime['db']) => void = () => undefined): Promise<void> {
    const first = await loadMock(path, {});
    await clientFor(first, TOKENS.admin).ops.enrollments.enrollCourse({
      course_id: 1,
      enrollment: { user_id: 10, type: 'TaEnrollment' },
    });
    await clientFor(first, TOKENS.admin).ops.users.update({ id: 7, user: { name: 'Samantha Carried' } });
    first.db.pragma('foreign_keys = OFF');
    alter(first.db);
    first.db.pragma('user_version = 1');
    first.db.close();
  }

  it('is rebuilt with its rows carried over, columns it alone had left behind', async () => {
    const path = join(scratch(), 'old.db');
    await olderMock(path, (db) =>
      db.exec('ALTER TABLE users ADD COLUMN retired_field TEXT; CREATE TABLE retired_table (x)'),
    );
    const reopened = await loadMock(path, {});
    expect(reopened).toMatchObject({ created: false, rebuilt: 'carried' });
    const admin = clientFor(reopened, TOKENS.admin);
    expect((await admin.ops.users.get({ id: 7 })).name).toBe('Samantha Carried');
    expect(
      value(
        reopened.db,
        `SELECT count(*) FROM enrollments WHERE course_id = 1 AND user_id = 10 AND type = 'TaEnrollment'`,
      ),
    ).toBe(1);
    // The full-text index is filled again from the carried rows, not copied.
    const found = [];
    for await (const user of admin.ops.users.list({ account_id: 1, search_term: 'Samantha' })) found.push(user.id);
    expect(found).toEqual([7]);
    expect(value(reopened.db, `SELECT count(*) FROM sqlite_master WHERE name = 'retired_table'`)).toBe(0);
    expect(reopened.db.pragma('foreign_keys')).toBe(1);
    reopened.db.close();
    expect((await loadMock(path, {})).rebuilt).toBeUndefined();
  });

  it('is seeded afresh when its rows do not fit, and says so', async () => {
    const path = join(scratch(), 'broken.db');
    await olderMock(path, (db) => db.exec("UPDATE enrollments SET user_id = 999999 WHERE type = 'TaEnrollment'"));
    const reopened = await loadMock(path, {});
    expect(reopened).toMatchObject({ created: false, rebuilt: 'reseeded' });
    expect((await clientFor(reopened, TOKENS.admin).ops.users.get({ id: 7 })).name).not.toBe('Samantha Carried');
    reopened.db.close();
  });

  it('is said once, on stderr, by the command that opened it', async () => {
    const path = join(scratch(), 'said.db');
    await olderMock(path);
    const said = async () => {
      const io = fakeIO();
      expect(await run(['--mock', 'users', 'get', '7', '-o', 'json'], { io, env: { LMS_MOCK_DB: path } })).toBe(0);
      return io.stderrText();
    };
    expect(await said()).toMatch(
      /^warning: the mock database .*said\.db was made by another version of lms; its rows were carried into this version's schema\n$/,
    );
    expect(await said()).toBe('');
  });
});

describe('the mock database path', () => {
  const cases: [string, () => string, RegExp][] = [
    [
      'a directory that cannot be created (/proc)',
      () => '/proc/nope/x.db',
      /cannot create the directory \/proc\/nope for the mock database \/proc\/nope\/x\.db/,
    ],
    [
      'a path under a regular file',
      () => {
        const file = join(scratch(), 'plain');
        writeFileSync(file, 'x');
        return join(file, 'sub', 'x.db');
      },
      /plain is not a directory/,
    ],
    ['a directory', () => scratch(), /is a directory; give a file path/],
    [
      'a file that is not SQLite',
      () => {
        const file = join(scratch(), 'notes.db');
        writeFileSync(file, 'these are my notes, not a database\n'.repeat(100));
        return file;
      },
      /is not an SQLite database, so it cannot be the mock database; it was left untouched/,
    ],
    [
      "another program's SQLite database",
      () => {
        const file = join(scratch(), 'other.db');
        const other = openSqlite(file);
        other.exec(`CREATE TABLE precious (x); INSERT INTO precious VALUES (42)`);
        other.close();
        return file;
      },
      /is an SQLite database, but not an lms mock database; it was left untouched/,
    ],
  ];

  it.each(cases)('%s is a usage error naming the path, and returns at once', async (_name, make, message) => {
    const path = make();
    let thrown: unknown;
    try {
      await loadMock(path, {});
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(UsageError);
    expect((thrown as UsageError).exitCode).toBe(2);
    expect((thrown as Error).message).toMatch(message);
    expect((thrown as Error).message).toContain(path.split('/').slice(0, -1).join('/') || path);
  });

  it("leaves another program's database untouched", async () => {
    const file = join(scratch(), 'other.db');
    const other = openSqlite(file);
    other.exec(`CREATE TABLE precious (x); INSERT INTO precious VALUES (42)`);
    other.close();
    await expect(loadMock(file, {})).rejects.toThrow(UsageError);
    expect(value(openSqlite(file), 'SELECT x FROM precious')).toBe(42);
  });

  it('creates missing directories, and knows when it created the database', async () => {
    const path = join(scratch(), 'a', 'b', 'mock.db');
    const first = await loadMock(path, {});
    expect(first.created).toBe(true);
    first.db.close();
    const again = await loadMock(path, {});
    expect(again.created).toBe(false);
    again.db.close();
  });

  it(
    'is shared through a write-ahead log, and its writes ' + 'do not wait for the disk (README: a test instance)',
    async () => {
      const mock = await loadMock(join(scratch(), 'mock.db'), {});
      expect(mock.db.pragma('journal_mode')).toBe('wal');
      expect(mock.db.pragma('synchronous')).toBe(0);
      mock.db.close();
    },
  );
});

describe('the mock database file, which holds tokens', () => {
  const mode = (file: string) => statSync(file).mode & 0o777;
  let umask: number;
  // The common umask: a file SQLite makes itself comes out 0644 under it.
  beforeEach(() => {
    umask = process.umask(0o022);
  });
  afterEach(() => {
    process.umask(umask);
  });

  it('is made 0600, and so are its write-ahead log and shared-memory index', async () => {
    const path = join(scratch(), 'new', 'mock.db');
    const mock = await loadMock(path, {});
    await clientFor(mock, TOKENS.admin).ops.users.update({ id: 7, user: { name: 'Written' } });
    // Both are there while a connection is open, made by SQLite with the database file's mode.
    for (const file of [path, `${path}-wal`, `${path}-shm`]) expect([file, mode(file)]).toEqual([file, 0o600]);
    mock.db.close();
  });

  it("is narrowed when an existing one of this user's is more open, its -wal and -shm with it", async () => {
    const path = join(scratch(), 'mock.db');
    const first = await loadMock(path, {});
    await clientFor(first, TOKENS.admin).ops.users.update({ id: 7, user: { name: 'Written' } });
    const files = [path, `${path}-wal`, `${path}-shm`];
    // As an older lms left it, or a copy.
    for (const file of files) chmodSync(file, 0o644);
    const again = await loadMock(path, {});
    for (const file of files) expect([file, mode(file)]).toEqual([file, 0o600]);
    again.db.close();
    first.db.close();
  });

  it('leaves a file that is not a mock database as it found it, mode included', async () => {
    const file = join(scratch(), 'notes.db');
    writeFileSync(file, 'these are my notes, not a database\n'.repeat(100), { mode: 0o644 });
    await expect(loadMock(file, {})).rejects.toThrow(UsageError);
    expect(mode(file)).toBe(0o644);
  });

  it.skipIf(process.getuid?.() !== 0)("leaves another user's database as it is", async () => {
    const path = join(scratch(), 'theirs.db');
    (await loadMock(path, {})).db.close();
    chmodSync(path, 0o644);
    chownSync(path, 4242, 4242);
    const mock = await loadMock(path, {});
    expect(mode(path)).toBe(0o644);
    mock.db.close();
  });
});

describe('file names', () => {
  it.each([
    ['report.pdf', 'report.pdf'],
    ['a\r\nSet-Cookie: x=1.txt', 'aSet-Cookie: x=1.txt'],
    ['nul\u0000byte.txt', 'nulbyte.txt'],
    ['../../etc/passwd', '.._.._etc_passwd'],
    ['bad\ud800half.txt', 'bad\ufffdhalf.txt'],
    ['  spaced  ', 'spaced'],
    ['\r\n', ''],
  ])('%j is stored as %j', (raw, stored) => expect(safeFileName(raw)).toBe(stored));

  it.each([
    'Résumé.pdf',
    '東京 レポート.txt',
    'quote"and\\back.txt',
    'emoji 🎓.png',
    "it's (1)*.txt",
    'legacy\r\nname',
    '100%.csv',
  ])('Content-Disposition for %j is a valid header that round-trips', (name) => {
    const header = contentDisposition(name);
    expect(() => validateHeaderValue('content-disposition', header)).not.toThrow();
    expect(header).toMatch(/^attachment; filename="[\x20-\x7e]*"; filename\*=UTF-8''[A-Za-z0-9%!._~-]*$/);
    expect(decodeURIComponent(header.split("UTF-8''")[1])).toBe(name);
  });

  it('uploads and downloads a file whose name is not Latin-1, with a header a server can send', async () => {
    const mock = freshMock();
    const client = clientFor(mock, TOKENS.student);
    const { uploadFile } = await import('../../src/client/upload.js');
    const name = '東京\r\nレポート.txt';
    const ticket = await client.ops.users.uploadFile({ user_id: 'self', name, size: 3, content_type: 'text/plain' });
    const file = (await uploadFile(client, ticket, {
      name,
      data: new Uint8Array([104, 105, 10]),
      contentType: 'text/plain',
    })) as { url: string; display_name: string };
    expect(file.display_name).toBe('東京レポート.txt');
    const res = await mock.handler({ method: 'GET', url: file.url, headers: {} });
    expect(res.status).toBe(200);
    for (const [k, v] of Object.entries(res.headers)) expect(() => validateHeaderValue(k, v)).not.toThrow();
    expect(res.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent('東京レポート.txt')}`);
  });

  it('refuses a content type that could not be sent as a header', async () => {
    const mock = freshMock();
    const client = clientFor(mock, TOKENS.student);
    expect(
      await statusOf(
        client.ops.users.uploadFile({
          user_id: 'self',
          name: 'a.txt',
          size: 1,
          content_type: 'text/plain\r\nX-Evil: 1',
        }),
      ),
    ).toBe(400);
    expect(await statusOf(client.ops.users.uploadFile({ user_id: 'self', name: '\r\n', size: 1 }))).toBe(400);
  });
});

describe('field lengths', () => {
  const long = 'x'.repeat(256);
  it.each([
    ['user[name]', { user: { name: long }, pseudonym: { unique_id: 'fine1' } }, 'user.name'],
    [
      'user[short_name]',
      { user: { name: 'ok', short_name: long }, pseudonym: { unique_id: 'fine2' } },
      'user.short_name',
    ],
    [
      'pseudonym[unique_id] over 100',
      { user: { name: 'ok' }, pseudonym: { unique_id: 'u'.repeat(101) } },
      'pseudonym.unique_id',
    ],
    [
      'pseudonym[sis_user_id]',
      { user: { name: 'ok' }, pseudonym: { unique_id: 'fine3', sis_user_id: long } },
      'pseudonym.sis_user_id',
    ],
    [
      'communication_channel[address]',
      { user: { name: 'ok' }, pseudonym: { unique_id: 'fine4' }, communication_channel: { address: `${long}@x.edu` } },
      'communication_channel.address',
    ],
  ])(
    'creating a user with an over-long %s is a 400 naming the field, and stores nothing',
    async (_label, body, field) => {
      const mock = freshMock();
      const client = clientFor(mock, TOKENS.admin);
      const before = value(mock.db, 'SELECT count(*) FROM users');
      let error: { status: number; messages: string[] } | undefined;
      try {
        await client.ops.users.create({ account_id: 1, ...body });
      } catch (e) {
        error = e as { status: number; messages: string[] };
      }
      expect(error?.status).toBe(400);
      expect(error?.messages.join()).toContain(`${field}: is too long (maximum is`);
      expect(value(mock.db, 'SELECT count(*) FROM users')).toBe(before);
    },
  );

  // Real instances count characters as Ruby does, by code point: 255 emoji fit (510 UTF-16 units), 256 do not.
  const emoji = (n: number) => '\u{1F600}'.repeat(n);
  type Ops = ReturnType<typeof clientFor>['ops'];
  it.each<[string, (ops: Ops, title: string) => Promise<unknown>]>([
    [
      'a calendar event title',
      (ops, title) => ops.calendar.create({ calendar_event: { context_code: 'course_1', title } }),
    ],
    ['a section name', (ops, name) => ops.sections.create({ course_id: 1, course_section: { name } })],
    ['a topic title', (ops, title) => ops.discussions.createTopic({ course_id: 1, title })],
    ['a quiz title', (ops, title) => ops.quizzes.create({ course_id: 1, quiz: { title } })],
    ['a user name', (ops, name) => ops.users.update({ id: 7, user: { name } })],
  ])('%s of 255 characters counts code points; 256 is a 400', async (_label, write) => {
    const ops = clientFor(freshMock(), TOKENS.admin).ops;
    expect(await statusOf(write(ops, emoji(255)))).toBe('ok');
    expect(await statusOf(write(ops, emoji(256)))).toBe(400);
  });

  it('updating a name past 255 characters is refused; 255 is fine', async () => {
    const mock = freshMock();
    const client = clientFor(mock, TOKENS.admin);
    expect(await statusOf(client.ops.users.update({ id: 7, user: { name: 'n'.repeat(256) } }))).toBe(400);
    expect(await statusOf(client.ops.users.update({ id: 7, user: { name: 'n'.repeat(255) } }))).toBe('ok');
  });
});
