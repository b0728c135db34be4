// Installing as a user on a machine with no network and no compiler: a bare environment (no npm
// settings, an empty cache, only node and sh on PATH) and packages packed from the checkout's own
// node_modules, installed into a prefix of their own. Shared by the install and release tests.
import { mkdirSync, realpathSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { execa, type Result } from 'execa';
import { root } from './e2e.js';

export interface OfflinePrefix {
  prefix: string;
  /** Nothing of the caller's environment: no proxy, no registry, no compiler on PATH. */
  env: Record<string, string>;
  /** The installed `lms` of the prefix. */
  bin: string;
  /** npm install -g --offline of these tarballs (or package paths) into the prefix. */
  install(targets: string[], flags?: string[]): Promise<Result>;
  /** Packs packages of the checkout's node_modules (`@napi-rs/keyring`) and installs them, no script run. */
  installPacked(packages: string[]): Promise<Result>;
}

export async function offlinePrefix(dir: string): Promise<OfflinePrefix> {
  const prefix = join(dir, 'prefix');
  const pathDir = join(dir, 'bin');
  const env = {
    HOME: join(dir, 'home'),
    PATH: pathDir,
    npm_config_cache: join(dir, 'cache'),
    LMS_MOCK_DB: join(dir, 'mock.db'),
    LMS_CONFIG_DIR: join(dir, 'config'),
    // No Secret Service: a binding that loads says so, rather than reaching the caller's keychain.
    DBUS_SESSION_BUS_ADDRESS: 'disabled:',
  };
  mkdirSync(pathDir, { recursive: true });
  mkdirSync(env.HOME, { recursive: true });
  symlinkSync(process.execPath, join(pathDir, 'node'));
  symlinkSync('/bin/sh', join(pathDir, 'sh'));
  const npmCli = realpathSync((await execa('sh', ['-c', 'command -v npm'])).stdout.trim());
  const install = async (targets: string[], flags: string[] = []): Promise<Result> =>
    execa(process.execPath, [npmCli, 'install', '-g', '--offline', ...flags, '--prefix', prefix, ...targets], {
      env,
      extendEnv: false,
      reject: false,
    });
  return {
    prefix,
    env,
    bin: join(prefix, 'bin', 'lms'),
    install,
    async installPacked(packages) {
      const tarballs: string[] = [];
      for (const pkg of packages) {
        const packed = await execa(
          'npm',
          ['pack', '--ignore-scripts', '--pack-destination', dir, join(root, 'node_modules', pkg)],
          { cwd: root },
        );
        tarballs.push(join(dir, packed.stdout.trim().split('\n').pop()!));
      }
      // No install script runs (npm runs none of a dependency's unless allowed): what installs must work from what the
      // package carries.
      return install(tarballs, ['--ignore-scripts']);
    },
  };
}

/**
 * What the mock needs on a Node without SQLite of its own: the package, and the loader it finds its prebuilt binary
 * with.
 */
export const SQLITE_PACKAGES = ['@photostructure/sqlite', 'node-gyp-build', 'node-addon-api'];
