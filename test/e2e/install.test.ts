// The package as a user installs it: `npm pack`, then `npm install -g` of the tarball into a fresh
// prefix with no network (an empty cache, --offline) and no compiler (PATH holds only node and sh).
// The optional packages cannot come, and the install must not care: on Node 22.13 and later the
// mock runs on the runtime's own SQLite; on Node 20 everything but the mock works, and the mock says
// plainly what it lacks, until @photostructure/sqlite (prebuilt, nothing to compile) is installed
// beside it. Nor can
// the optional keychain binding: tokens then go to the profile file, with the notice; installed
// beside the package, the binding is found from the bundle.
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { driverName } from '../../src/mock/db/driver.js';
import { ensureBuilt, root } from '../helpers/e2e.js';

const dir = mkdtempSync(join(tmpdir(), 'lms-install-'));
const prefix = join(dir, 'prefix');
const pathDir = join(dir, 'bin');
const { name, version } = (await import('../../package.json', { with: { type: 'json' } })).default as { name: string; version: string };
const installed = join(prefix, 'bin', 'lms');
/** Nothing of the caller's environment: no proxy, no registry, no compiler on PATH. */
const bare = {
  HOME: join(dir, 'home'),
  PATH: pathDir,
  npm_config_cache: join(dir, 'cache'),
  LMS_MOCK_DB: join(dir, 'mock.db'),
  LMS_CONFIG_DIR: join(dir, 'config'),
  // No Secret Service: a binding that loads says so, rather than reaching the caller's keychain.
  DBUS_SESSION_BUS_ADDRESS: 'disabled:',
};
let npmCli = '';

let install: Awaited<ReturnType<typeof execa>>;

beforeAll(async () => {
  await ensureBuilt();
  mkdirSync(pathDir);
  mkdirSync(bare.HOME);
  symlinkSync(process.execPath, join(pathDir, 'node'));
  symlinkSync('/bin/sh', join(pathDir, 'sh'));
  const packed = await execa('npm', ['pack', '--ignore-scripts', '--pack-destination', dir], { cwd: root });
  const tarball = join(dir, packed.stdout.trim().split('\n').pop()!);
  npmCli = realpathSync((await execa('sh', ['-c', 'command -v npm'])).stdout.trim());
  install = await execa(process.execPath, [npmCli, 'install', '-g', '--offline', '--prefix', prefix, tarball], { env: bare, extendEnv: false, reject: false });
}, 180_000);

const lms = (args: string[], input?: string) => execa(installed, args, { env: bare, extendEnv: false, reject: false, input });

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

  it.runIf(driverName() !== 'node:sqlite')('on a Node without SQLite, the mock says what it lacks and what to do', async () => {
    const list = await lms(['--mock', 'users', 'list']);
    expect(list.exitCode).toBe(1);
    expect(list.stderr).toContain('the mock needs SQLite');
    expect(list.stderr).toContain('Use Node 22.13 or newer');
    expect(list.stderr).not.toMatch(/\n\s+at /);
  });

  // The package and the loader it finds its prebuilt binary with, packed from the checkout's node_modules.
  it.runIf(driverName() !== 'node:sqlite')('on a Node without SQLite, runs the mock once @photostructure/sqlite is installed, with nothing compiled', async () => {
    const tarballs: string[] = [];
    for (const pkg of ['@photostructure/sqlite', 'node-gyp-build', 'node-addon-api']) {
      const packed = await execa('npm', ['pack', '--ignore-scripts', '--pack-destination', dir, join(root, 'node_modules', pkg)], { cwd: root });
      tarballs.push(join(dir, packed.stdout.trim().split('\n').pop()!));
    }
    // PATH has no compiler, --offline allows no download, and no install script runs (npm runs none of
    // a dependency's unless allowed): it works from the binaries the package carries.
    const added = await execa(process.execPath, [npmCli, 'install', '-g', '--offline', '--ignore-scripts', '--prefix', prefix, ...tarballs], { env: bare, extendEnv: false, reject: false });
    expect(added.exitCode, String(added.stderr)).toBe(0);
    const list = await lms(['--mock', 'users', 'list', '-o', 'csv', '--fields', 'id,name']);
    expect({ code: list.exitCode, stderr: list.stderr }).toEqual({ code: 0, stderr: '' });
    expect(list.stdout.split('\n')[1]).toBe('1,Ada Admin');
  }, 120_000);

  it('keeps a token in the profile file, with the notice, without the optional keychain binding', async () => {
    const added = await lms(['profile', 'add', 'p', '--url', 'https://lms.example.edu', '--token-stdin', '--no-verify', '-v'], 'a-token');
    expect(added.exitCode, String(added.stderr)).toBe(0);
    expect(added.stderr).toContain('keychain: no keychain answered (@napi-rs/keyring is not installed)');
    expect(added.stderr).toContain(`notice: no keychain answered, so the token is kept in ${join(bare.LMS_CONFIG_DIR, 'config.json')}`);
  });

  // The binding and this platform's build of it, packed from the checkout's node_modules.
  const builds = readdirSync(join(root, 'node_modules', '@napi-rs')).filter((d) => d.startsWith('keyring-'));
  it.runIf(builds.length > 0)('finds the keychain binding from the installed bundle once it is installed', async () => {
    const tarballs: string[] = [];
    for (const pkg of ['keyring', ...builds]) {
      const packed = await execa('npm', ['pack', '--ignore-scripts', '--pack-destination', dir, join(root, 'node_modules', '@napi-rs', pkg)], { cwd: root });
      tarballs.push(join(dir, packed.stdout.trim().split('\n').pop()!));
    }
    const binding = await execa(process.execPath, [npmCli, 'install', '-g', '--offline', '--prefix', prefix, ...tarballs], { env: bare, extendEnv: false, reject: false });
    expect(binding.exitCode, String(binding.stderr)).toBe(0);
    // It loads, and asks the session bus for the Secret Service, which the environment says is not there.
    const added = await lms(['profile', 'add', 'q', '--url', 'https://lms.example.edu', '--token-stdin', '--no-verify', '-v'], 'a-token');
    expect(added.exitCode, String(added.stderr)).toBe(0);
    expect(added.stderr).toMatch(/keychain: no keychain answered \(.*DBus/);
  }, 120_000);
});
