// The move of the state an older lms kept in the cache directory into the state directory: each
// file once, nothing newer written over, and nothing that is not a regular file of this user's
// followed or moved.
import { execFileSync } from 'node:child_process';
import {
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { awaitsMove, moveStateOnce } from '../../src/config/state-move.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function places(root = tmpdir()) {
  const dir = mkdtempSync(join(root, 'lms-state-move-'));
  made.push(dir);
  return { cache: join(dir, 'cache', 'lms'), state: join(dir, 'state', 'lms') };
}

function write(file: string, text: string, mode = 0o600) {
  mkdirSync(join(file, '..'), { recursive: true, mode: 0o700 });
  writeFileSync(file, text, { mode });
}

/** Every file under `dir`, by its path there, with what it holds. */
function tree(dir: string): Record<string, string> {
  if (!existsSync(dir)) return {};
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const path = join(dir, name);
    const seen = lstatSync(path);
    if (seen.isFile()) out[relative(dir, path)] = readFileSync(path, 'utf8');
    else if (!seen.isDirectory()) out[relative(dir, path)] = `<${seen.isSymbolicLink() ? 'link' : 'other'}>`;
  }
  return out;
}

/** What an older lms left in its cache directory: its state, and the caches that are not state. */
function oldState(cache: string) {
  write(join(cache, 'audit.log'), '{"time":"2026-11-02T12:00:00.000Z","n":3}\n');
  write(join(cache, 'audit.log.1'), '{"time":"2026-11-01T12:00:00.000Z","n":2}\n');
  write(join(cache, 'audit.log.2'), '{"time":"2026-10-31T12:00:00.000Z","n":1}\n');
  write(join(cache, 'journals', 'a1b2.ndjson'), '{"row":1}\n');
  write(join(cache, 'journals', 'batches-c3d4', '77-abcd.ndjson'), '{"batch":1}\n');
  write(join(cache, 'apply', 'e5f6.ndjson'), '{"kind":"assignment","key":"lab1","id":4}\n');
  write(join(cache, 'compile', 'v8-cache'), 'compiled');
  write(join(cache, 'completions', 'users.json'), '[]');
}

const warnings = () => {
  const said: string[] = [];
  return { said, warn: (message: string) => said.push(message) };
};

describe('moving the state out of the cache directory', () => {
  it("moves the audit log and its rotated files, the journals and apply's keys, and leaves the caches", () => {
    const { cache, state } = places();
    oldState(cache);
    const before = tree(cache);
    const stamp = new Date('2026-10-31T12:00:00Z');
    utimesSync(join(cache, 'audit.log.2'), stamp, stamp);
    const { said, warn } = warnings();
    expect(awaitsMove(cache, state)).toBe(true);
    moveStateOnce(cache, state, warn);
    expect(said).toEqual([]);
    const moved = Object.fromEntries(Object.entries(before).filter(([path]) => !/^(compile|completions)\//.test(path)));
    expect(tree(state)).toEqual({ ...moved, '.moved-from-cache': `lms's state was moved here from ${cache}\n` });
    expect(tree(cache)).toEqual({ 'compile/v8-cache': 'compiled', 'completions/users.json': '[]' });
    // Emptied folders go; the old audit log's lock, taken for the move, is released.
    expect(readdirSync(cache).sort()).toEqual(['compile', 'completions']);
    // The rotation reads a file's age from its time: kept.
    expect(statSync(join(state, 'audit.log.2')).mtimeMs).toBe(stamp.getTime());
    for (const d of [state, join(state, 'journals'), join(state, 'journals', 'batches-c3d4'), join(state, 'apply')])
      expect(statSync(d).mode & 0o777).toBe(0o700);
    for (const f of ['audit.log', 'journals/a1b2.ndjson', 'apply/e5f6.ndjson'])
      expect(statSync(join(state, f)).mode & 0o777).toBe(0o600);
    expect(awaitsMove(cache, state)).toBe(false);
  });

  it('moves once: what an older lms writes there later stays, and newer state is not written over', () => {
    const { cache, state } = places();
    oldState(cache);
    moveStateOnce(cache, state, () => undefined);
    write(join(state, 'audit.log'), '{"newer":true}\n');
    // An older lms run again after the move writes to the old place again.
    write(join(cache, 'audit.log'), '{"older":true}\n');
    write(join(cache, 'journals', 'later.ndjson'), '{"row":9}\n');
    const { said, warn } = warnings();
    expect(awaitsMove(cache, state)).toBe(false);
    moveStateOnce(cache, state, warn);
    expect(said).toEqual([]);
    expect(readFileSync(join(state, 'audit.log'), 'utf8')).toBe('{"newer":true}\n');
    expect(tree(cache)).toMatchObject({ 'audit.log': '{"older":true}\n', 'journals/later.ndjson': '{"row":9}\n' });
    expect(existsSync(join(state, 'journals', 'later.ndjson'))).toBe(false);
  });

  it('writes over no file the state directory has, and says which it left', () => {
    const { cache, state } = places();
    oldState(cache);
    write(join(state, 'audit.log'), '{"newer":true}\n');
    write(join(state, 'journals', 'a1b2.ndjson'), '{"row":"newer"}\n');
    const { said, warn } = warnings();
    moveStateOnce(cache, state, warn);
    expect(readFileSync(join(state, 'audit.log'), 'utf8')).toBe('{"newer":true}\n');
    expect(readFileSync(join(state, 'journals', 'a1b2.ndjson'), 'utf8')).toBe('{"row":"newer"}\n');
    // The rest is moved beside what was there.
    expect(readFileSync(join(state, 'audit.log.1'), 'utf8')).toContain('"n":2');
    expect(readFileSync(join(state, 'journals', 'batches-c3d4', '77-abcd.ndjson'), 'utf8')).toBe('{"batch":1}\n');
    expect(tree(cache)).toMatchObject({
      'audit.log': '{"time":"2026-11-02T12:00:00.000Z","n":3}\n',
      'journals/a1b2.ndjson': '{"row":1}\n',
    });
    expect(said).toEqual([
      `left in ${cache}, not moved to the state directory ${state}: ${join(cache, 'audit.log')} (the state ` +
        `directory has its own), ${join(cache, 'journals', 'a1b2.ndjson')} (the state directory has its own); move ` +
        `what of it is lms's there yourself`,
    ]);
  });

  it('follows no link and moves nothing that is not a regular file, saying so once', () => {
    const { cache, state } = places();
    const elsewhere = join(cache, '..', 'elsewhere');
    write(join(elsewhere, 'secret'), "not lms's");
    mkdirSync(join(elsewhere, 'folder'));
    write(join(cache, 'journals', 'real.ndjson'), '{"row":1}\n');
    symlinkSync(join(elsewhere, 'secret'), join(cache, 'audit.log'));
    symlinkSync(join(elsewhere, 'secret'), join(cache, 'journals', 'linked.ndjson'));
    symlinkSync(join(elsewhere, 'folder'), join(cache, 'apply'));
    execFileSync('mkfifo', [join(cache, 'journals', 'fifo.ndjson')]);
    const { said, warn } = warnings();
    moveStateOnce(cache, state, warn);
    expect(tree(state)).toEqual({ 'journals/real.ndjson': '{"row":1}\n', '.moved-from-cache': expect.any(String) });
    expect(tree(cache)).toEqual({
      'audit.log': '<link>',
      apply: '<link>',
      'journals/linked.ndjson': '<link>',
      'journals/fifo.ndjson': '<other>',
    });
    expect(readFileSync(join(elsewhere, 'secret'), 'utf8')).toBe("not lms's");
    expect(said).toHaveLength(1);
    for (const [path, why] of [
      ['audit.log', 'a symbolic link'],
      ['apply', 'a symbolic link'],
      [join('journals', 'linked.ndjson'), 'a symbolic link'],
      [join('journals', 'fifo.ndjson'), 'not a regular file'],
    ]) {
      expect(said[0]).toContain(`${join(cache, path)} (${why})`);
    }
    // Said once: the move is done, what was left stays left.
    moveStateOnce(cache, state, warn);
    expect(said).toHaveLength(1);
  });

  it.skipIf(process.getuid?.() !== 0)(
    "leaves another user's files where they are (run as root, which can make one)",
    () => {
      const { cache, state } = places();
      write(join(cache, 'audit.log'), 'planted\n');
      write(join(cache, 'journals', 'mine.ndjson'), '{"row":1}\n');
      write(join(cache, 'journals', 'theirs.ndjson'), '{"row":"planted"}\n');
      chownSync(join(cache, 'audit.log'), 4242, 4242);
      chownSync(join(cache, 'journals', 'theirs.ndjson'), 4242, 4242);
      const { said, warn } = warnings();
      moveStateOnce(cache, state, warn);
      expect(Object.keys(tree(state)).sort()).toEqual(['.moved-from-cache', 'journals/mine.ndjson']);
      expect(said[0]).toContain(`${join(cache, 'audit.log')} (another user's)`);
      expect(said[0]).toContain(`${join(cache, 'journals', 'theirs.ndjson')} (another user's)`);
    },
  );

  it('makes the files private that an older lms left readable to others', () => {
    const { cache, state } = places();
    write(join(cache, 'apply', 'keys.ndjson'), '{}\n', 0o644);
    moveStateOnce(cache, state, () => undefined);
    expect(statSync(join(state, 'apply', 'keys.ndjson')).mode & 0o777).toBe(0o600);
  });

  it('does nothing where there is nothing to move, making no state directory', () => {
    const { cache, state } = places();
    write(join(cache, 'compile', 'v8-cache'), 'compiled');
    expect(awaitsMove(cache, state)).toBe(false);
    moveStateOnce(cache, state, () => undefined);
    moveStateOnce(join(cache, '..', 'missing'), state, () => undefined);
    expect(existsSync(state)).toBe(false);
    // XDG_STATE_HOME and XDG_CACHE_HOME naming one place: it is already where it goes.
    oldState(cache);
    moveStateOnce(cache, join(cache, '.', ''), () => undefined);
    expect(existsSync(join(cache, '.moved-from-cache'))).toBe(false);
    expect(existsSync(join(cache, 'audit.log'))).toBe(true);
  });

  const shm = '/dev/shm';
  const otherDevice = existsSync(shm) && statSync(shm).dev !== statSync(tmpdir()).dev;
  it.skipIf(!otherDevice)(
    'copies across devices (here /dev/shm and the temporary directory), then removes the old',
    () => {
      const { cache } = places();
      const { state } = places(shm);
      oldState(cache);
      const stamp = new Date('2026-10-31T12:00:00Z');
      utimesSync(join(cache, 'audit.log.1'), stamp, stamp);
      const before = tree(cache);
      const { said, warn } = warnings();
      moveStateOnce(cache, state, warn);
      expect(said).toEqual([]);
      expect(tree(state)).toMatchObject(
        Object.fromEntries(Object.entries(before).filter(([path]) => !/^(compile|completions)\//.test(path))),
      );
      expect(Object.keys(tree(state)).filter((p) => p.includes('.moving'))).toEqual([]);
      expect(statSync(join(state, 'audit.log.1')).mtimeMs).toBe(stamp.getTime());
      expect(readdirSync(cache).sort()).toEqual(['compile', 'completions']);
    },
  );

  it('warns, and tries again next time, when the state directory cannot be made', () => {
    const { cache, state } = places();
    oldState(cache);
    write(join(state, '..'), 'a file, not a folder');
    const { said, warn } = warnings();
    moveStateOnce(cache, state, warn);
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/ENOTDIR/);
    expect(
      said[0].startsWith(`could not move lms's state (audit log, journals, apply's keys) from ${cache} to ${state}: `),
    ).toBe(true);
    expect(said[0].endsWith('; the next command tries again')).toBe(true);
    expect(tree(cache)['audit.log']).toBeDefined();
    expect(awaitsMove(cache, state)).toBe(true);
  });
});
