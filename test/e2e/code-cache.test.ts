// The compile cache: Node's own (module.enableCompileCache) where the runtime has it, in a directory
// only this user can write, and none on Node 20. Whatever the cache directory holds, a command runs
// the build's code and ends as it would with no cache: never a crash, a hang or another file's code.
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { bin, e2eWorkspace, ensureBuilt, root } from '../helpers/e2e.js';

const { dir: scratch, env } = e2eWorkspace('code-cache');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
const hasCompileCache = 'enableCompileCache' in (await import('node:module'));
const isRoot = process.getuid?.() === 0;

const listing = ['--mock', 'users', 'list', '--account', '1', '-o', 'csv', '--fields', 'id,login_id'];
/** A run bounded in time: a cache that hung it would end here, as a failure, not hold the suite. */
const run = (cacheDir: string, args = listing, extra: Record<string, string> = {}) => {
  // Node reads NODE_DISABLE_COMPILE_CACHE as set even when empty: these are left out, not emptied.
  const { NODE_COMPILE_CACHE: _chosen, NODE_DISABLE_COMPILE_CACHE: _disabled, ...inherited } = process.env;
  return execa(process.execPath, [bin, ...args], {
    env: { ...inherited, ...env, LMS_CACHE_DIR: cacheDir, ...extra },
    extendEnv: false,
    reject: false,
    timeout: 30_000,
  });
};
let expected: string;

beforeAll(async () => {
  await ensureBuilt();
  const plain = await run(join(scratch, 'none'), listing, { NODE_DISABLE_COMPILE_CACHE: '1' });
  expect(plain.exitCode).toBe(0);
  expected = plain.stdout;
  expect(expected).toMatch(/^id,login_id\n1,/);
});

const fresh = () => mkdtempSync(join(tmpdir(), 'lms-cache-'));
/** The cache entries this Node wrote under `dir`: the files of its own directory in `dir/compile`. */
const entries = (dir: string) => {
  const compile = join(dir, 'compile');
  if (!existsSync(compile)) return [];
  return readdirSync(compile).flatMap((own) => readdirSync(join(compile, own)).map((name) => join(compile, own, name)));
};
/** A cache directory the listing has filled (where this Node has a compile cache). */
const filled = async () => {
  const dir = fresh();
  expect((await run(dir)).stdout).toBe(expected);
  // One entry at least: the bundle, which every command loads.
  if (hasCompileCache) expect(entries(dir).length).toBeGreaterThan(0);
  return dir;
};
const flipBits = (file: string, count: number, seed: number) => {
  const bytes = readFileSync(file);
  let x = seed;
  for (let i = 0; i < count; i++) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    bytes[x % bytes.length] ^= 1 << (x % 8);
  }
  writeFileSync(file, bytes);
};

describe.skipIf(!hasCompileCache)("Node's compile cache", () => {
  it(
    'is written by the first run in <cache directory>/compile, ' + 'private to the user, and used by the next',
    async () => {
      const dir = await filled();
      expect(statSync(join(dir, 'compile')).mode & 0o777).toBe(0o700);
      const before = new Map(entries(dir).map((file) => [file, statSync(file).mtimeMs]));
      expect((await run(dir)).stdout).toBe(expected);
      // Accepted, so not written again.
      expect(new Map(entries(dir).map((file) => [file, statSync(file).mtimeMs]))).toEqual(before);
    },
  );

  it.skipIf(process.platform === 'win32' || process.platform === 'darwin')(
    "lives in XDG_CACHE_HOME/lms/compile, or ~/.cache/lms/compile (env-paths' cache directory)",
    async () => {
      const home = fresh();
      expect((await run('', listing, { XDG_CACHE_HOME: '', HOME: home })).stdout).toBe(expected);
      expect(entries(join(home, '.cache', 'lms')).length).toBeGreaterThan(0);
      expect(statSync(join(home, '.cache', 'lms')).mode & 0o777).toBe(0o700);
    },
  );

  it.each([
    ['a few bits flipped in every entry', (file: string, i: number) => flipBits(file, 3, i + 1)],
    ['many bits flipped in every entry', (file: string, i: number) => flipBits(file, 400, i + 7)],
    [
      'every entry truncated to half',
      (file: string) => writeFileSync(file, readFileSync(file).subarray(0, statSync(file).size >> 1)),
    ],
    ['every entry emptied', (file: string) => writeFileSync(file, '')],
  ])('damaged (%s): the run is correct and the entries are written afresh', async (_what, damage) => {
    const dir = await filled();
    const files = entries(dir);
    files.forEach(damage);
    const damaged = files.map((file) => readFileSync(file));
    expect((await run(dir)).stdout).toBe(expected);
    expect(files.some((file, i) => !readFileSync(file).equals(damaged[i]))).toBe(true);
    expect((await run(dir)).stdout).toBe(expected);
  });

  it(
    "foreign: another file's entry, cut or padded to this " + "one's length, is refused and the build's code runs",
    async () => {
      const dir = await filled();
      const files = entries(dir).sort((a, b) => statSync(b).size - statSync(a).size);
      const bytes = files.map((file) => readFileSync(file));
      // Each entry replaced by the next one's bytes, made the same length as the one it replaces.
      files.forEach((file, i) => {
        const other = bytes[(i + 1) % bytes.length];
        const same = Buffer.alloc(bytes[i].length);
        other.copy(same, 0, 0, Math.min(other.length, same.length));
        writeFileSync(file, same);
      });
      expect((await run(dir)).stdout).toBe(expected);
      // And a run of another command on the same cache.
      expect((await run(dir, ['--no-color', '--version'])).stdout).toBe(version);
    },
  );

  it.each([
    ['a FIFO', (file: string) => execFileSync('mkfifo', [file])],
    ['a directory', (file: string) => mkdirSync(join(file, 'inside'), { recursive: true })],
    ['a link to a file of the user’s', (file: string) => symlinkSync(join(scratch, 'precious'), file)],
  ])('an entry that is %s never holds or steers the run, and no file it points to is touched', async (_what, plant) => {
    writeFileSync(join(scratch, 'precious'), 'keep me');
    const dir = await filled();
    for (const file of entries(dir)) {
      rmSync(file);
      plant(file);
    }
    expect((await run(dir)).stdout).toBe(expected);
    expect(readFileSync(join(scratch, 'precious'), 'utf8')).toBe('keep me');
    for (const file of entries(dir)) expect(statSync(file).isFile()).toBe(true);
  });

  it.each<[string, (dir: string) => void]>([
    ['the compile directory group-writable', (dir: string) => chmodSync(join(dir, 'compile'), 0o770)],
    ['the compile directory world-writable', (dir: string) => chmodSync(join(dir, 'compile'), 0o777)],
    ['the cache directory above it world-writable', (dir: string) => chmodSync(dir, 0o777)],
    ...(isRoot
      ? [
          [
            'the compile directory owned by another user',
            (dir: string) => chownSync(join(dir, 'compile'), 65534, 65534),
          ] as [string, (dir: string) => void],
        ]
      : []),
  ])('a cache others can write (%s) is not used: nothing is read from it or written to it', async (_what, share) => {
    const dir = await filled();
    const files = entries(dir);
    // Another user's code, where the build's was: were it read, the run would differ or crash.
    for (const file of files) flipBits(file, 50, 3);
    const planted = files.map((file) => [file, readFileSync(file), statSync(file).mtimeMs] as const);
    share(dir);
    expect((await run(dir)).stdout).toBe(expected);
    for (const [file, bytes, mtime] of planted) {
      expect(readFileSync(file).equals(bytes)).toBe(true);
      expect(statSync(file).mtimeMs).toBe(mtime);
    }
  });

  it('a compile directory that is a link to another directory is not followed', async () => {
    const dir = fresh();
    const elsewhere = fresh();
    symlinkSync(elsewhere, join(dir, 'compile'));
    expect((await run(dir)).stdout).toBe(expected);
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it('honours NODE_DISABLE_COMPILE_CACHE: nothing is written', async () => {
    const dir = fresh();
    expect((await run(dir, listing, { NODE_DISABLE_COMPILE_CACHE: '1' })).stdout).toBe(expected);
    expect(entries(dir)).toEqual([]);
  });
});

describe.skipIf(hasCompileCache)('on Node 20, which has no compile cache', () => {
  it(
    'lms keeps none of its own: the cache directory is ' + 'not made, and what is planted there is never opened',
    async () => {
      const dir = fresh();
      expect((await run(join(dir, 'made'))).stdout).toBe(expected);
      expect(existsSync(join(dir, 'made', 'compile'))).toBe(false);
      // What the launcher once read: a FIFO would hold any reader for ever.
      for (const name of ['compile', 'lms.v8', `0123456789abcdef-${process.version}-${process.arch}.v8`])
        execFileSync('mkfifo', [join(dir, name)]);
      expect((await run(dir)).stdout).toBe(expected);
    },
  );
});

describe('a cache directory that cannot be used', () => {
  it.each([
    [
      'under a file',
      () => {
        const file = join(fresh(), 'a-file');
        writeFileSync(file, '');
        return join(file, 'cache');
      },
    ],
    ['under /proc, where a recursive mkdir never returns', () => '/proc/lms-nope/cache'],
    [
      'a FIFO where the compile directory belongs',
      () => {
        const dir = fresh();
        execFileSync('mkfifo', [join(dir, 'compile')]);
        return dir;
      },
    ],
  ])('(%s) is no error and costs no wait', async (_what, where) => {
    const result = await run(where());
    expect(result).toMatchObject({ exitCode: 0, stdout: expected, stderr: '' });
  });
});
