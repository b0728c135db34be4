// Bundles the CLI with esbuild into dist/lms.cjs, one CommonJS file that bin/lms requires, and
// beside it a file for each package only some commands load (see packagesApart), built on its own.
//   node scripts/build.mjs            build
//   node scripts/build.mjs --analyze  build, then print each file's largest inputs
//   node scripts/build.mjs --inputs=FILE  build, then write to FILE (JSON) every source file the
//                                        build's outputs hold: the release's SBOM names the packages
//                                        bundled into dist/ from it
//
// Within the bundle a command still runs only the modules it uses: every module the source imports
// dynamically becomes an initialiser that runs on first use. Node's compile cache (bin/lms, Node
// 22 and later) keeps the bundle's compiled code between runs.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const root = fileURLToPath(new URL('..', import.meta.url));
const analyze = process.argv.includes('--analyze');
const inputsFile = process.argv.find((arg) => arg.startsWith('--inputs='))?.slice('--inputs='.length);
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });

/**
 * commander requires node:child_process when it loads, for subcommands that are executables of
 * their own, which lms has none of; Node's child_process brings net, dgram and their helpers with
 * it. The bundle gives commander a child_process that loads on first use instead.
 */
const lazyChildProcess = {
  name: 'commander-lazy-child-process',
  setup(b) {
    b.onLoad({ filter: /commander[\\/]lib[\\/]command\.js$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      const eager = "const childProcess = require('node:child_process');";
      if (!text.includes(eager))
        throw new Error(
          `${args.path} no longer requires node:child_process as the build expects; update the lazy-child-process ` +
            'plugin',
        );
      return {
        contents: text.replace(
          eager,
          "const childProcess = { spawn: (...a) => require('node:child_process').spawn(...a) };",
        ),
        loader: 'js',
      };
    });
  },
};

/**
 * Packages only some commands load, each bundled on its own into dist/<file>.cjs, which the bundle
 * requires (as an external module) when a command first imports it. In the bundle they would be
 * read and compiled by every command though few run them: jq (--jq: 1.3 MB of inlined
 * WebAssembly, and its thread requires the file by name), node-forge (`mock serve
 * --tls-self-signed`), conf (writing the profile file, with the schema validator it brings), yaml
 * (-o yaml, apply, export) and the MCP SDK (`lms mcp`; src/mcp/sdk.ts is the one module naming it).
 * None holds state the CLI shares, so a copy of its own is safe.
 */
const packagesApart = {
  'jq-wasm/inline': { file: 'jq-wasm', source: "module.exports = require('jq-wasm/inline');" },
  'node-forge': { file: 'node-forge', source: "module.exports = require('node-forge');" },
  // An ES module whose one export is its default: the bundle imports it as Node would a CommonJS
  // file (its package is "type": "module"), which takes module.exports as the default.
  conf: { file: 'conf', source: "module.exports = require('conf').default;" },
  yaml: { file: 'yaml', source: "module.exports = require('yaml');" },
};

/**
 * Modules of lms's own, each a file of its own that the others require (as an external module):
 * - the MCP SDK's one importer (src/mcp/sdk.ts), for `lms mcp` alone;
 * - the mock's front door (src/mock/index.ts), and the mock behind it: a third of the CLI's code,
 *   which a command against an instance never runs;
 * - the errors (src/errors.ts), which the mock throws and the CLI tells apart by their classes:
 *   one file, so one class of each, wherever it was thrown.
 * Within its own folder a module is bundled as usual; layers.test.ts holds that nothing outside
 * the mock imports from it but its front door, which would otherwise bundle a second mock.
 */
const sourcesApart = {
  'src/mcp/sdk.ts': { file: 'mcp-sdk', folder: 'src/mcp/sdk.ts' },
  'src/mock/index.ts': { file: 'mock', folder: 'src/mock/' },
  'src/errors.ts': { file: 'errors', folder: 'src/errors.ts' },
};
const packageApart = {
  name: 'packages-apart',
  setup(b) {
    for (const [name, { file }] of Object.entries(packagesApart)) {
      const filter = new RegExp(`^${name.replace(/[./]/g, '\\$&')}$`);
      b.onResolve({ filter }, () => ({ path: `./${file}.cjs`, external: true }));
    }
    b.onResolve({ filter: /^\.\.?\/.*\.js$/ }, (args) => {
      const source = relative(root, resolve(args.resolveDir, args.path)).replaceAll('\\', '/').replace(/\.js$/, '.ts');
      const apart = sourcesApart[source];
      const from = relative(root, args.importer).replaceAll('\\', '/');
      return apart && !from.startsWith(apart.folder) ? { path: `./${apart.file}.cjs`, external: true } : undefined;
    });
  },
};
/**
 * --jq prints jq's output as jq writes it through an option patches/ gives jq-wasm (`npm ci` and
 * `npm install` apply it, in prepare): a build from a jq-wasm without it would print a run's output
 * only when the run ended.
 */
const jqWasmSource = createRequire(import.meta.url).resolve('jq-wasm/inline');
if (!readFileSync(jqWasmSource, 'utf8').includes('moduleArg.onStdout'))
  throw new Error(`${jqWasmSource} lacks the onStdout option of patches/jq-wasm+*.patch: run npx patch-package`);

/**
 * The SDK's server validates with ajv (with its formats and URI parser: a third of its code) only
 * what a client answers to an elicitation, which lms never asks for; the server is given a
 * validator of its own (src/mcp/server.ts), and the bundle leaves ajv out.
 */
const noAjv = {
  name: 'mcp-no-ajv',
  setup(b) {
    b.onResolve({ filter: /[\\/]validation[\\/]ajv-provider\.js$/ }, () => ({
      path: 'ajv-provider',
      namespace: 'no-ajv',
    }));
    b.onLoad({ filter: /.*/, namespace: 'no-ajv' }, () => ({
      contents:
        "export class AjvJsonSchemaValidator { constructor() { throw new Error('lms mcp validates no elicitation " +
        "answers'); } }",
      loader: 'js',
    }));
  },
};

/**
 * The mock's schema version, computed here from the same sources the bundle is built from, so that
 * no command hashes the schema text at run time (src/mock/areas/index.ts).
 */
async function mockSchemaVersion() {
  const probe = await build({
    stdin: { contents: "export { mockSchema } from './src/mock/areas/index.ts';", resolveDir: root, loader: 'ts' },
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    // The schema is text; nothing that opens a database runs, so neither SQLite driver is needed.
    external: ['@photostructure/sqlite', 'node:sqlite'],
    write: false,
    logLevel: 'warning',
  });
  const module = { exports: {} };
  new Function('module', 'exports', 'require', probe.outputFiles[0].text)(
    module,
    module.exports,
    createRequire(import.meta.url),
  );
  const { version } = module.exports.mockSchema;
  if (!Number.isInteger(version) || version <= 0) throw new Error(`the mock schema's version came out as ${version}`);
  return version;
}

// Whitespace and syntax only are minified: names stay, so stack traces and error names read as in the source.
const common = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
  metafile: true,
};

const ours = {
  ...common,
  // Dynamic imports become require() inside the bundle: Node's CommonJS loader, no ESM loader for them.
  supported: { 'dynamic-import': false },
  define: {
    __LMS_VERSION__: JSON.stringify(pkg.version),
    __LMS_JQ_WASM__: JSON.stringify(`${packagesApart['jq-wasm/inline'].file}.cjs`),
    __LMS_MOCK_SCHEMA_VERSION__: String(await mockSchemaVersion()),
  },
  // The keychain binding and @photostructure/sqlite (the mock's SQLite on Node 20) stay packages of
  // their own: each loader picks the prebuilt addon for this platform from beside it (optional
  // packages, or the package's prebuilds/), which a bundle would cut it off from. An install without
  // them (optional dependencies) keeps tokens in the profile file, and runs everything but Node 20's mock.
  external: ['@napi-rs/keyring', '@photostructure/sqlite'],
  plugins: [lazyChildProcess, packageApart],
};
const cli = await build({ ...ours, entryPoints: ['src/cli/entry.ts'], outfile: 'dist/lms.cjs' });
const apart = await Promise.all([
  ...Object.values(packagesApart).map(({ file, source }) =>
    build({ ...common, stdin: { contents: source, resolveDir: root, loader: 'js' }, outfile: `dist/${file}.cjs` }),
  ),
  ...Object.entries(sourcesApart).map(([entry, { file }]) =>
    build({ ...ours, entryPoints: [entry], outfile: `dist/${file}.cjs`, plugins: [packageApart, noAjv] }),
  ),
]);
// One character past ASCII makes V8 hold a whole file as two-byte text, which every start then
// reads and checks at twice the size; esbuild escapes strings and identifiers but not regular
// expression literals, so a source writes those characters as \u escapes.
for (const file of ['lms', ...Object.values(sourcesApart).map((a) => a.file)]) {
  const text = readFileSync(new URL(`../dist/${file}.cjs`, import.meta.url), 'latin1');
  const wide = text.search(/[^\x00-\x7f]/);
  if (wide >= 0)
    throw new Error(
      `dist/${file}.cjs is not ASCII at ${JSON.stringify(text.slice(Math.max(0, wide - 40), wide + 10))}: ` +
        'write the character as a \\u escape in its source',
    );
}

// `lms --help` as the built CLI prints it off a terminal (80 columns): the launcher prints this file
// instead of loading the CLI, as it does for --version. A test checks that the two stay the same.
const launcher = fileURLToPath(new URL('../bin/lms', import.meta.url));
const help = execFileSync(
  process.execPath,
  ['-e', `require(${JSON.stringify(launcher)}).loadCli().run(['--help']).then((code) => { process.exitCode = code; })`],
  {
    env: { ...process.env, NO_COLOR: '1' },
    encoding: 'utf8',
  },
);
writeFileSync(new URL('../dist/help.txt', import.meta.url), help);

const metafiles = [cli.metafile, ...apart.map((b) => b.metafile)];
if (analyze) for (const metafile of metafiles) printInputs(metafile);
if (inputsFile) {
  // Only what some output holds bytes of: a module tree-shaken away to nothing is not shipped.
  const held = new Set(
    metafiles.flatMap((m) =>
      Object.values(m.outputs).flatMap((o) =>
        Object.entries(o.inputs)
          .filter(([, i]) => i.bytesInOutput > 0)
          .map(([path]) => path),
      ),
    ),
  );
  writeFileSync(inputsFile, `${JSON.stringify([...held].sort(), null, 2)}\n`);
}

/** A file's size and its largest inputs, by package or source folder. */
function printInputs(metafile) {
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  const [[name, output]] = Object.entries(metafile.outputs);
  const inputs = new Map();
  for (const [path, { bytesInOutput }] of Object.entries(output.inputs)) {
    const key = path.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1] ?? path.split('/').slice(0, 3).join('/');
    inputs.set(key, (inputs.get(key) ?? 0) + bytesInOutput);
  }
  console.log(`${name}: ${kb(output.bytes)}`);
  for (const [key, bytes] of [...inputs].sort((a, b) => b[1] - a[1]).slice(0, 25))
    console.log(`  ${key.padEnd(36)} ${kb(bytes).padStart(9)}`);
}
