// Writes a release anyone can check: the package as npm installs it, what it is made of, and the
// checksums of both.
//   node scripts/release.mjs [--out=DIR] [--allow-dirty]     (npm run release: DIR is release/)
//
//   lms-cli-VERSION.tgz        npm pack of a fresh build
//   lms-cli-VERSION.cdx.json   CycloneDX SBOM: the optional packages npm installs beside it (as the
//                              lockfile resolves them) and the packages bundled into dist/
//   SHA256SUMS                 `sha256sum -c SHA256SUMS` checks both
//
// The same commit gives the same bytes, on any machine, in any directory, at any time, with the
// same npm: the build holds no path or time, npm pack writes every entry with one fixed time, and
// the SBOM's timestamp is SOURCE_DATE_EPOCH (the last commit's time unless set) and its serial
// number is derived from its content rather than drawn at random.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const out = resolve(args.find((arg) => arg.startsWith('--out='))?.slice('--out='.length) ?? join(root, 'release'));
const allowDirty = args.includes('--allow-dirty');
const unknown = args.filter((arg) => !arg.startsWith('--out=') && arg !== '--allow-dirty');
if (unknown.length)
  fail(`unknown argument ${unknown[0]}; usage: node scripts/release.mjs [--out=DIR] [--allow-dirty]`, 2);

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
const inGit = git(['rev-parse', '--is-inside-work-tree']) === 'true';

// A release says which commit it is: uncommitted changes would make it one nobody can rebuild.
if (inGit && !allowDirty) {
  const changes = git(['status', '--porcelain']);
  if (changes)
    fail(
      `the checkout has uncommitted changes, so the release would not be the commit's:\n${changes}\ncommit them, or ` +
        'give --allow-dirty for a release only you can rebuild',
      2,
    );
}
const epoch = process.env.SOURCE_DATE_EPOCH || (inGit ? git(['log', '-1', '--format=%ct']) : '');
if (!/^\d+$/.test(epoch))
  fail(
    'SOURCE_DATE_EPOCH is not set and there is no commit to take it from: set it to the release time in seconds ' +
      'since 1970',
    2,
  );
const env = { ...process.env, SOURCE_DATE_EPOCH: epoch };

// The folder is emptied first, so it must be one a release made: never the checkout, a folder
// holding it, or a folder of other files (--out=. or --out=$HOME would be wiped).
const holdsCheckout = !relative(out, root).startsWith('..');
const foreign = existsSync(out) && readdirSync(out).length > 0 && !existsSync(join(out, 'SHA256SUMS'));
if (holdsCheckout || foreign)
  fail(
    `--out=${out} ${holdsCheckout ? 'is or holds the checkout' : 'holds files of no earlier release'}: a release ` +
      `empties the folder it writes; give a new or earlier release's folder`,
    2,
  );
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const work = mkdtempSync(join(tmpdir(), 'lms-release-'));
try {
  const inputsFile = join(work, 'inputs.json');
  run(process.execPath, [join(root, 'scripts', 'build.mjs'), `--inputs=${inputsFile}`]);

  // The build above is what is packed: prepare would only build it again.
  const [packed] = JSON.parse(run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', out]));
  const tarball = packed.filename;
  const tarballSha256 = sha256(readFileSync(join(out, tarball)));

  // From the lockfile alone, so every platform's optional build is named, whichever machine runs this.
  const sbom = JSON.parse(run('npm', ['sbom', '--sbom-format', 'cyclonedx', '--omit', 'dev', '--package-lock-only']));
  const bom = reproducible(
    withLicences(withBundled(sbom, JSON.parse(readFileSync(inputsFile, 'utf8')))),
    tarballSha256,
  );
  const sbomFile = `${pkg.name}-${pkg.version}.cdx.json`;
  writeFileSync(join(out, sbomFile), `${JSON.stringify(bom, null, 2)}\n`);

  const sums = [tarball, sbomFile].sort().map((file) => `${sha256(readFileSync(join(out, file)))}  ${file}\n`);
  writeFileSync(join(out, 'SHA256SUMS'), sums.join(''));
  process.stdout.write(`${out}:\n${sums.join('')}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}

/**
 * The packages whose code dist/ holds, as components of their own: npm's SBOM leaves them out with
 * the devDependencies they are declared as, yet every install runs them.
 */
function withBundled(sbom, inputs) {
  const dirs = [
    ...new Set(inputs.map((path) => /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(path)?.[1]).filter(Boolean)),
  ].sort();
  const bundled = dirs.map((dir) => {
    const manifest = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
    const locked = lock.packages[dir];
    if (!locked || locked.version !== manifest.version)
      fail(
        `${dir} (${manifest.name}@${manifest.version}) is bundled but package-lock.json does not hold that version: ` +
          'run npm ci',
        1,
      );
    const ref = `${manifest.name}@${manifest.version}`;
    return {
      'bom-ref': ref,
      type: 'library',
      name: manifest.name,
      version: manifest.version,
      scope: 'required',
      ...(manifest.description ? { description: manifest.description } : {}),
      purl: `pkg:npm/${manifest.name.replace(/^@/, '%40')}@${manifest.version}`,
      properties: [{ name: 'lms:bundled', value: 'in dist/, not installed as a package of its own' }],
      externalReferences: [],
      ...(locked.integrity ? { hashes: [hashOf(locked.integrity)] } : {}),
    };
  });
  const refs = new Set(sbom.components.map((c) => c['bom-ref']));
  const added = bundled.filter((c) => !refs.has(c['bom-ref']));
  const rootRef = sbom.metadata.component['bom-ref'];
  return {
    ...sbom,
    components: [...sbom.components, ...added],
    dependencies: [
      ...sbom.dependencies.map((d) =>
        d.ref === rootRef ? { ...d, dependsOn: [...d.dependsOn, ...added.map((c) => c['bom-ref'])] } : d,
      ),
      ...added.map((c) => ({ ref: c['bom-ref'], dependsOn: [] })),
    ],
  };
}

/**
 * Every component's licences, as the lockfile or the package's own package.json names them: npm's
 * SBOM reads only the lockfile's `license`, which npm leaves out for a package that names its
 * licence in the older `licenses` list (busboy, streamsearch), and a bundled package has none from
 * npm at all. A component whose licence is named nowhere stops the release: an SBOM is read for
 * what may be redistributed, and a silent gap reads as no constraint.
 */
function withLicences(sbom) {
  const unnamed = [];
  const licensed = (component) => {
    if (component.licenses?.length) return component;
    const names = licenceNames(component);
    if (!names.length) unnamed.push(component['bom-ref']);
    return { ...component, licenses: names.map((name) => ({ license: licenseOf(name) })) };
  };
  const bom = {
    ...sbom,
    metadata: { ...sbom.metadata, component: licensed(sbom.metadata.component) },
    components: sbom.components.map(licensed),
  };
  if (unnamed.length)
    fail(
      `no licence is named for ${unnamed.join(', ')}, in package-lock.json or in its package.json: the SBOM would ` +
        'not say what may be redistributed',
      1,
    );
  return bom;
}

/** The licences the lockfile entries and installed manifests of a component name, each once. */
function licenceNames({ name, version }) {
  const dirs =
    name === pkg.name
      ? ['']
      : Object.keys(lock.packages).filter(
          (dir) => dir.endsWith(`node_modules/${name}`) && lock.packages[dir].version === version,
        );
  const names = [];
  for (const dir of dirs) {
    const file = join(root, dir, 'package.json');
    const manifest = dir === '' ? pkg : existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
    // Only the installed copy of the version the SBOM names.
    const own = dir === '' || manifest.version === version ? manifest : {};
    for (const named of [
      lock.packages[dir]?.license,
      own.license,
      ...(Array.isArray(own.licenses) ? own.licenses : [own.licenses]),
    ]) {
      // `license` is SPDX text; older manifests wrote { type, url }, alone or in a `licenses` list.
      const text = typeof named === 'string' ? named : typeof named?.type === 'string' ? named.type : undefined;
      if (text && !names.includes(text)) names.push(text);
    }
  }
  return names;
}

/**
 * What npm draws from the clock and from chance, taken from the release instead: the timestamp is
 * SOURCE_DATE_EPOCH, the serial number a name-based UUID (RFC 4122 version 5) of the tarball's
 * digest and the rest of the document. npm also names the root component after the directory it
 * runs in; the package's name is what was released.
 */
function reproducible(sbom, tarballSha256) {
  const bom = {
    ...sbom,
    metadata: {
      ...sbom.metadata,
      timestamp: new Date(Number(epoch) * 1000).toISOString(),
      component: { ...sbom.metadata.component, name: pkg.name },
    },
  };
  delete bom.serialNumber;
  const serial = uuidV5(`${tarballSha256}\n${JSON.stringify(bom)}`);
  return {
    $schema: bom.$schema,
    bomFormat: bom.bomFormat,
    specVersion: bom.specVersion,
    serialNumber: `urn:uuid:${serial}`,
    ...bom,
  };
}

/** RFC 4122 version 5, in the URL namespace. */
function uuidV5(name) {
  const namespace = Buffer.from('6ba7b8119dad11d180b400c04fd430c8', 'hex');
  const bytes = createHash('sha1').update(namespace).update(name).digest().subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x50;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A lockfile integrity (`sha512-<base64>`) as CycloneDX writes a hash. */
function hashOf(integrity) {
  const [alg, digest] = integrity.split(' ')[0].split('-');
  return { alg: alg.toUpperCase().replace(/^SHA/, 'SHA-'), content: Buffer.from(digest, 'base64').toString('hex') };
}

/** An SPDX id as an id, anything else (an expression, "SEE LICENSE IN …") as a name, as npm does. */
function licenseOf(license) {
  return /^[A-Za-z0-9.+-]+$/.test(license) ? { id: license } : { name: license };
}

function sha256(bytes) {
  return createHash('sha256').update(bytes).digest('hex');
}

function run(command, commandArgs) {
  return execFileSync(command, commandArgs, {
    cwd: root,
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 * 1024 * 1024,
  });
}

function git(gitArgs) {
  try {
    return execFileSync('git', gitArgs, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return '';
  }
}

function fail(message, code) {
  process.stderr.write(`release: ${message}\n`);
  process.exit(code);
}
