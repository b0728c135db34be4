// `npm run release` as whoever checks a release would use it: made twice from a copy of the checkout
// (so the checkout's own dist/ is never rebuilt under the other tests), the two compared byte for
// byte, the checksums checked with sha256sum, the SBOM read, and the tarball installed with npm into
// a fresh prefix with no network, where `lms --mock users list` and `man lms` work.
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { driverName } from '../../src/mock/db/driver.js';
import { root } from '../helpers/e2e.js';
import { offlinePrefix, SQLITE_PACKAGES, type OfflinePrefix } from '../helpers/offline-install.js';

const { name, version, man } = (await import('../../package.json', { with: { type: 'json' } })).default as {
  name: string;
  version: string;
  man: string[];
};
const dir = mkdtempSync(join(tmpdir(), 'lms-release-'));
const copy = join(dir, 'src');
const first = join(dir, 'release-1');
const second = join(dir, 'release-2');
const tarball = `${name}-${version}.tgz`;
const sbomFile = `${name}-${version}.cdx.json`;
const hasMan = (await execa('man', ['--version'], { reject: false }).catch(() => ({ exitCode: 1 }))).exitCode === 0;
let epoch = '';
let offline: OfflinePrefix;
let install: Awaited<ReturnType<typeof execa>>;

beforeAll(async () => {
  // The files a commit of this checkout would hold, as they are now, and its installed packages
  // (hard links: the same bytes, under the copy's own path, as the build resolves them).
  const files = (
    await execa('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root })
  ).stdout
    .split('\0')
    .filter(Boolean);
  for (const file of files)
    if (existsSync(join(root, file))) cpSync(join(root, file), join(copy, file), { recursive: true });
  const linked = await execa('cp', ['-al', join(root, 'node_modules'), join(copy, 'node_modules')], { reject: false });
  if (linked.exitCode !== 0)
    cpSync(join(root, 'node_modules'), join(copy, 'node_modules'), { recursive: true, verbatimSymlinks: true });
  // The copy is no git checkout: the release time comes from the checkout's last commit, as it would.
  epoch = (await execa('git', ['log', '-1', '--format=%ct'], { cwd: root })).stdout.trim();
  const env = { SOURCE_DATE_EPOCH: epoch };
  await execa(process.execPath, ['scripts/release.mjs', `--out=${first}`], { cwd: copy, env });
  await execa(process.execPath, ['scripts/release.mjs', `--out=${second}`], { cwd: copy, env });

  offline = await offlinePrefix(dir);
  install = await offline.install([join(first, tarball)], ['--ignore-scripts']);
}, 240_000);

// A copy of the checkout and two releases: not left behind in the temporary directory.
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const lms = (args: string[]) => execa(offline.bin, args, { env: offline.env, extendEnv: false, reject: false });

describe(`npm run release (Node ${process.version})`, () => {
  it('writes the tarball, the SBOM and SHA256SUMS, which sha256sum -c accepts', async () => {
    expect(readdirSync(first).sort()).toEqual(['SHA256SUMS', sbomFile, tarball].sort());
    const check = await execa('sha256sum', ['-c', 'SHA256SUMS'], { cwd: first, reject: false });
    expect({ code: check.exitCode, stdout: check.stdout }).toEqual({
      code: 0,
      stdout: `${sbomFile}: OK\n${tarball}: OK`,
    });
  });

  it.each([
    ['the checkout itself', () => root],
    [
      'a folder of other files',
      () => {
        const other = mkdtempSync(join(tmpdir(), 'lms-not-a-release-'));
        writeFileSync(join(other, 'notes.txt'), 'keep me');
        return other;
      },
    ],
  ])('refuses to empty %s as its --out folder (exit 2), and leaves it as it was', async (_what, folder) => {
    const out = folder();
    const before = readdirSync(out).sort();
    const r = await execa(process.execPath, ['scripts/release.mjs', `--out=${out}`, '--allow-dirty'], {
      cwd: root,
      reject: false,
    });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('a release empties the folder it writes');
    expect(readdirSync(out).sort()).toEqual(before);
  });

  it('gives the same bytes on a second run', () => {
    for (const file of readdirSync(first))
      expect(readFileSync(join(second, file)).equals(readFileSync(join(first, file))), file).toBe(true);
  });

  it('describes in CycloneDX what an install runs: the optional packages and those bundled into dist/', () => {
    const bom = JSON.parse(readFileSync(join(first, sbomFile), 'utf8'));
    expect(bom).toMatchObject({
      bomFormat: 'CycloneDX',
      metadata: {
        timestamp: new Date(Number(epoch) * 1000).toISOString(),
        component: { name, version, purl: `pkg:npm/${name}@${version}` },
      },
    });
    // Name-based (version 5), not drawn at random.
    expect(bom.serialNumber).toMatch(/^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const components = new Map<string, { scope: string; hashes?: unknown[] }>(
      bom.components.map((c: { name: string }) => [c.name, c]),
    );
    expect(components.get('@photostructure/sqlite')?.scope).toBe('optional');
    expect(components.get('@napi-rs/keyring-darwin-arm64')?.scope).toBe('optional');
    for (const bundled of ['commander', 'yaml', 'conf', '@modelcontextprotocol/sdk', 'csv-parse']) {
      expect(components.get(bundled), bundled).toMatchObject({ scope: 'required', hashes: [{ alg: 'SHA-512' }] });
    }
    // Build tools are not what an install runs.
    for (const tool of ['typescript', 'esbuild', 'vitest', 'execa']) expect(components.has(tool), tool).toBe(false);
  });

  it('names the licence of every component, those only an older package.json "licenses" list names included', () => {
    const bom = JSON.parse(readFileSync(join(first, sbomFile), 'utf8'));
    type Component = { name: string; licenses?: { license: { id?: string; name?: string } }[] };
    const unnamed = [bom.metadata.component as Component, ...(bom.components as Component[])].filter(
      (c) => !c.licenses?.length || c.licenses.some((l) => !(l.license.id ?? l.license.name)),
    );
    expect(unnamed.map((c) => c.name)).toEqual([]);
    const licences = new Map(
      (bom.components as Component[]).map((c) => [c.name, c.licenses!.map((l) => l.license.id ?? l.license.name)]),
    );
    expect(licences.get('busboy')).toEqual(['MIT']);
    expect(licences.get('streamsearch')).toEqual(['MIT']);
  });
});

describe(`npm install -g of the release's tarball, offline (Node ${process.version})`, () => {
  it('installs lms and its man pages', async () => {
    expect(install.exitCode, String(install.stderr)).toBe(0);
    expect(await lms(['--version'])).toMatchObject({ exitCode: 0, stdout: version });
    for (const page of man)
      expect(existsSync(join(offline.prefix, 'share', 'man', 'man1', page.split('/').pop()!)), page).toBe(true);
  });

  it('runs lms --mock users list', async () => {
    if (driverName() !== 'node:sqlite') {
      // Node 20 has no SQLite of its own: the optional package, with the loader it finds its prebuilt binary with,
      // packed from the checkout.
      const added = await offline.installPacked(SQLITE_PACKAGES);
      expect(added.exitCode, String(added.stderr)).toBe(0);
    }
    const list = await lms(['--mock', 'users', 'list', '-o', 'csv', '--fields', 'id,name']);
    expect({ code: list.exitCode, stderr: list.stderr }).toEqual({ code: 0, stderr: '' });
    expect(list.stdout.split('\n')[1]).toBe('1,Ada Admin');
  }, 120_000);

  it.runIf(hasMan)(
    hasMan
      ? 'man lms and man lms-users find the installed pages'
      : 'man: skipped, man is not installed (apt-get install man-db)',
    async () => {
      const env = { MANPATH: join(offline.prefix, 'share', 'man'), MANWIDTH: '100', LANG: 'C.UTF-8' };
      const main = await execa('man', ['-P', 'cat', 'lms'], { env, reject: false });
      expect({ code: main.exitCode, stderr: main.stderr }).toEqual({ code: 0, stderr: '' });
      expect(main.stdout).toMatch(/^LMS\(1\)/);
      expect(main.stdout).toContain('lms-users(1)');
      const users = await execa('man', ['-P', 'cat', 'lms-users'], { env, reject: false });
      expect(users.exitCode, users.stderr).toBe(0);
      expect(users.stdout.replace(/[\u2010\u2212]/g, '-')).toContain('lms users list [options]');
    },
  );
});
