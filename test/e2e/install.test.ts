// The package as a user installs it: `npm pack`, then `npm install -g` of the tarball into a fresh
// prefix with no network (an empty cache, --offline) and no compiler (PATH holds only node and sh).
// The optional packages cannot come, and the install must not care: on Node 22.13 and later the
// mock runs on the runtime's own SQLite; on Node 20 everything but the mock works, and the mock says
// plainly what it lacks, until @photostructure/sqlite (prebuilt, nothing to compile) is installed
// beside it. Nor can the optional keychain binding: tokens then go to the profile file, with the
// notice; installed beside the package, the binding is found from the bundle.
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { driverName } from '../../src/mock/db/driver.js';
import { ensureBuilt, root } from '../helpers/e2e.js';
import { offlinePrefix, SQLITE_PACKAGES, type OfflinePrefix } from '../helpers/offline-install.js';

const dir = mkdtempSync(join(tmpdir(), 'lms-install-'));
const { name, version } = (await import('../../package.json', { with: { type: 'json' } })).default as {
  name: string;
  version: string;
};
let offline: OfflinePrefix;
let install: Awaited<ReturnType<typeof execa>>;

beforeAll(async () => {
  await ensureBuilt();
  offline = await offlinePrefix(dir);
  const packed = await execa('npm', ['pack', '--ignore-scripts', '--pack-destination', dir], { cwd: root });
  install = await offline.install([join(dir, packed.stdout.trim().split('\n').pop()!)]);
}, 180_000);

const lms = (args: string[], input?: string) =>
  execa(offline.bin, args, { env: offline.env, extendEnv: false, reject: false, input });

describe(`npm install -g of the packed ${name}, offline and with no compiler (Node ${process.version})`, () => {
  it('installs, under a name of its own on the registry, the command lms', async () => {
    expect(name).not.toBe('lms');
    expect(install.exitCode, String(install.stderr)).toBe(0);
    expect(await lms(['--version'])).toMatchObject({ exitCode: 0, stdout: version });
    expect(await lms(['--no-color', 'users', '--help'])).toMatchObject({ exitCode: 0 });
  });

  it.runIf(driverName() === 'node:sqlite')('runs the mock on the runtime SQLite: lms --mock users list', async () => {
    const list = await lms(['--mock', 'users', 'list', '-o', 'csv', '--fields', 'id,name']);
    expect({ code: list.exitCode, stderr: list.stderr }).toEqual({ code: 0, stderr: '' });
    expect(list.stdout.split('\n')[1]).toBe('1,Ada Admin');
  });

  it.runIf(driverName() !== 'node:sqlite')(
    'on a Node without SQLite, the mock says what it lacks and what to do',
    async () => {
      const list = await lms(['--mock', 'users', 'list']);
      expect(list.exitCode).toBe(1);
      expect(list.stderr).toContain('the mock needs SQLite');
      expect(list.stderr).toContain('Use Node 22.13 or newer');
      expect(list.stderr).not.toMatch(/\n\s+at /);
    },
  );

  // The package and the loader it finds its prebuilt binary with, packed from the checkout's node_modules.
  it.runIf(driverName() !== 'node:sqlite')(
    'on a Node without SQLite, runs the mock once @photostructure/sqlite is installed, with nothing compiled',
    async () => {
      // PATH has no compiler and --offline allows no download: it works from the binaries the package carries.
      const added = await offline.installPacked(SQLITE_PACKAGES);
      expect(added.exitCode, String(added.stderr)).toBe(0);
      const list = await lms(['--mock', 'users', 'list', '-o', 'csv', '--fields', 'id,name']);
      expect({ code: list.exitCode, stderr: list.stderr }).toEqual({ code: 0, stderr: '' });
      expect(list.stdout.split('\n')[1]).toBe('1,Ada Admin');
    },
    120_000,
  );

  it('keeps a token in the profile file, with the notice, without the optional keychain binding', async () => {
    const added = await lms(
      ['profile', 'add', 'p', '--url', 'https://lms.example.edu', '--token-stdin', '--no-verify', '-v'],
      'a-token',
    );
    expect(added.exitCode, String(added.stderr)).toBe(0);
    expect(added.stderr).toContain('keychain: no keychain answered (@napi-rs/keyring is not installed)');
    expect(added.stderr).toContain(
      `notice: no keychain answered, so the token is kept in ${join(offline.env.LMS_CONFIG_DIR, 'config.json')}`,
    );
  });

  // The binding and this platform's build of it, packed from the checkout's node_modules.
  const builds = readdirSync(join(root, 'node_modules', '@napi-rs')).filter((d) => d.startsWith('keyring-'));
  it.runIf(builds.length > 0)(
    'finds the keychain binding from the installed bundle once it is installed',
    async () => {
      const binding = await offline.installPacked(['keyring', ...builds].map((pkg) => `@napi-rs/${pkg}`));
      expect(binding.exitCode, String(binding.stderr)).toBe(0);
      // It loads, and asks the session bus for the Secret Service, which the environment says is not there.
      const added = await lms(
        ['profile', 'add', 'q', '--url', 'https://lms.example.edu', '--token-stdin', '--no-verify', '-v'],
        'a-token',
      );
      expect(added.exitCode, String(added.stderr)).toBe(0);
      expect(added.stderr).toMatch(/keychain: no keychain answered \(.*DBus/);
    },
    120_000,
  );
});
