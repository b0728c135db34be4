// Bundles the CLI into CommonJS files, dist/lms.cjs and the parts only some commands load (see
// buildFile), which bin/lms requires through Node's own CommonJS loader.
//   node scripts/build.mjs            build
//   node scripts/build.mjs --analyze  build, then print each file's largest inputs
//   node scripts/build.mjs --inputs=FILE  build, then write to FILE (JSON) every source file the
//                                        build's outputs hold: the release's SBOM names the packages
//                                        bundled into dist/ from it
//
// Within a file, a command still runs only the modules it uses: every module the source imports
// dynamically (each mock area's handlers and seed, the renderers, prompts, CSV, SQLite) becomes a
// lazy initialiser, evaluated on its first use.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
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
      if (!text.includes(eager)) throw new Error(`${args.path} no longer requires node:child_process as the build expects; update the lazy-child-process plugin`);
      return { contents: text.replace(eager, "const childProcess = { spawn: (...a) => require('node:child_process').spawn(...a) };"), loader: 'js' };
    });
  },
};

/**
 * The MCP SDK (for `lms mcp`) is a file of its own for the same reason as the packages below:
 * dist/mcp-sdk.cjs, required only when the server starts. src/mcp/sdk.ts is the one module that
 * names the SDK.
 */
const mcpApart = {
  name: 'mcp-apart',
  setup(b) {
    b.onResolve({ filter: /^\.\/sdk\.js$/ }, (args) => (/[\\/]src[\\/]mcp[\\/]/.test(args.importer) ? { path: './mcp-sdk.cjs', external: true } : undefined));
  },
};

/**
 * The mock's schema version, computed here from the same sources the bundle is built from, so that
 * no command hashes the schema text at run time (src/mock/areas/index.ts).
 */
async function mockSchemaVersion() {
  const probe = await build({
    stdin: { contents: "export { mockSchema } from './src/mock/areas/index.ts';", resolveDir: fileURLToPath(new URL('..', import.meta.url)), loader: 'ts' },
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
  new Function('module', 'exports', 'require', probe.outputFiles[0].text)(module, module.exports, createRequire(import.meta.url));
  const { version } = module.exports.mockSchema;
  if (!Number.isInteger(version) || version <= 0) throw new Error(`the mock schema's version came out as ${version}`);
  return version;
}

/**
 * Packages only some commands load, each a file of its own beside the bundle (dist/<file>.cjs),
 * which the bundle requires when a command first needs it (the launcher's require finds it there).
 * Inside the bundle they cost every command start-up time though few ran them: jq (--jq), 1.3 MB
 * of inlined WebAssembly and the JavaScript that runs it, about 3 ms on Node 20 and 24 for `lms
 * --mock users list`; yaml (-o yaml, apply, export) and conf (writing the profile file, with the
 * schema validator it brings), 450 KB that every command read and deserialised. Each is bundled
 * rather than copied, so whatever it requires comes too.
 */
const packagesApart = {
  'jq-wasm/inline': { file: 'jq-wasm', exports: "require('jq-wasm/inline')" },
  yaml: { file: 'yaml', exports: "require('yaml')" },
  // An ES module whose one export is its default: the bundle imports it as Node would a CommonJS
  // file (its package is "type": "module"), which takes module.exports as the default.
  conf: { file: 'conf', exports: "require('conf').default" },
  // `lms mock serve --tls-self-signed` alone writes a certificate.
  'node-forge': { file: 'node-forge', exports: "require('node-forge')" },
};
/**
 * --jq prints jq's output as jq writes it through an option patches/ gives jq-wasm (`npm ci` and
 * `npm install` apply it, in prepare): a build from a jq-wasm without it would print a run's output
 * only when the run ended.
 */
const jqWasmFile = createRequire(import.meta.url).resolve('jq-wasm/inline');
if (!readFileSync(jqWasmFile, 'utf8').includes('moduleArg.onStdout')) throw new Error(`${jqWasmFile} lacks the onStdout option of patches/jq-wasm+*.patch: run npx patch-package`);
const packageApart = {
  name: 'packages-apart',
  setup(b) {
    b.onResolve({ filter: new RegExp(`^(${Object.keys(packagesApart).join('|')})$`) }, (args) => ({ path: `./${packagesApart[args.path].file}.cjs`, external: true }));
  },
};

/** How the CLI's files are built: one CommonJS file each, which Node's loader requires. */
const cliOptions = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  // Dynamic imports of builtins become require(): a builtin is there already, and import() would
  // start Node's ESM loader for it.
  supported: { 'dynamic-import': false },
  // Whitespace and syntax only: names stay, so stack traces and error names read as in the source.
  minifyWhitespace: true,
  minifySyntax: true,
  define: { __LMS_VERSION__: JSON.stringify(pkg.version), __LMS_JQ_WASM__: JSON.stringify(`${packagesApart['jq-wasm/inline'].file}.cjs`), __LMS_MOCK_SCHEMA_VERSION__: String(await mockSchemaVersion()) },
  // The keychain binding and @photostructure/sqlite (the mock's SQLite on Node 20) stay packages of
  // their own: each loader picks the prebuilt addon for this platform from beside it (optional
  // packages, or the package's prebuilds/), which a bundle would cut it off from. An install (global or not) puts them in the node_modules the
  // launcher requires from; an install without them (optional dependencies) keeps tokens in the
  // profile file, and runs everything but Node 20's mock.
  external: ['@napi-rs/keyring', '@photostructure/sqlite'],
  logLevel: 'warning',
  metafile: true,
};
const root = fileURLToPath(new URL('..', import.meta.url));
const cliPlugins = [lazyChildProcess, mcpApart, packageApart];

/**
 * The CLI in several files, split where the source already loads lazily: dist/lms.cjs (the
 * command line, the client, the renderers: what every command runs) and a file for each part only
 * some commands load: each noun's verbs, the mock and its SQLite layer, apply, the MCP server,
 * the bulk engine, OAuth. A file costs its reading and compiling whole: in one bundle, `lms users
 * list` read and compiled the mock, apply and every other noun it never ran.
 *
 * Every module of the source belongs to exactly one file, so each is evaluated once and every
 * class and every module's state stays one: a file requires from another the modules it imports
 * from it, through the table of modules each file exports (`__lmsModules`). Which file a module
 * goes in: src/mock/ the mock, src/apply/ apply, src/mcp/ the MCP server, src/bulk/ the bulk
 * engine, src/auth/ but the token session OAuth, src/commands/<noun>/ that noun, and the modules
 * of lazyParts theirs; whatever the command line evaluates as it starts (its static imports) stays
 * in lms.cjs; any other module (a package, a shared helper) goes with the one part that imports it,
 * or in lms.cjs when several do.
 */
function partOf(path) {
  if (lazyParts[path]) return lazyParts[path];
  // The outermost package: what a package of its own needs comes with it. node_modules may be a link
  // (a worktree's), which esbuild follows to a path outside the checkout.
  const pkg = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path);
  if (pkg) return lazyParts[pkg[1]];
  if (path.startsWith('src/mock/')) return 'mock';
  if (path.startsWith('src/apply/')) return 'apply';
  if (path.startsWith('src/mcp/')) return 'mcp';
  if (path.startsWith('src/bulk/')) return 'bulk';
  if (path.startsWith('src/auth/') && path !== 'src/auth/session.ts') return 'oauth';
  const noun = /^src\/commands\/([a-z]+)\//.exec(path);
  return noun ? `verbs-${noun[1]}` : undefined;
}
const CORE = 'lms';
/**
 * What the command line loads only for some commands, each a file of its own though every noun may
 * use it: by module, or by package (with the packages it alone brings): in lms.cjs these were
 * half of what every command read. A package two parts would share stays in lms.cjs unless it is named here, with one of them.
 */
const lazyParts = {
  // `lms mock serve` alone: the server, its certificate, and busboy for the uploads it receives.
  'src/mock/serve.ts': 'mock-serve',
  'src/mock/tls.ts': 'mock-serve',
  'src/mock/multipart-stream.ts': 'mock-serve',
  // -o csv, and the bulk engine's input and report.
  'src/output/csv.ts': 'csv',
  'csv-parse': 'csv',
  'csv-stringify': 'csv',
  // What only a terminal shows: -o table (its default there) and the activity spinner (ora, drawn
  // while a request is slow). One file, as both colour with chalk: ora takes chalk's default
  // export, which the check below refuses from another file. string-width (and what it requires)
  // and signal-exit also serve the prompts, which load this file for them.
  'src/output/table.ts': 'terminal',
  'cli-table3': 'terminal',
  'string-width': 'terminal',
  'strip-ansi': 'terminal',
  'ansi-regex': 'terminal',
  chalk: 'terminal',
  ora: 'terminal',
  'signal-exit': 'terminal',
  // Confirmations and secrets typed at a terminal.
  'src/cli/prompter.ts': 'prompts',
  // `lms completion` and the shells' `lms __complete`.
  'src/cli/completion.ts': 'completion',
  'src/cli/complete.ts': 'completion',
  // --jq (jq itself is dist/jq-wasm.cjs).
  'src/output/jq.ts': 'jq',
  // A proxy from the environment or the profile.
  'src/transport/proxy.ts': 'proxy',
};

/** Which file each module of the whole CLI goes in (see partOf), from the graph of a build of it whole. */
function assignFiles(metafile) {
  const { inputs } = metafile;
  const importers = new Map(Object.keys(inputs).map((path) => [path, []]));
  for (const [path, { imports }] of Object.entries(inputs)) for (const i of imports) if (!i.external && importers.has(i.path)) importers.get(i.path).push({ path, kind: i.kind });
  const owner = new Map();
  // What the command line evaluates as it starts: the entry and its static imports.
  const eager = ['src/cli/entry.ts'];
  for (const path of eager) {
    if (owner.has(path)) continue;
    owner.set(path, CORE);
    for (const i of inputs[path].imports) if (!i.external && i.kind !== 'dynamic-import' && inputs[i.path]) eager.push(i.path);
  }
  for (const path of Object.keys(inputs)) if (!owner.has(path) && partOf(path)) owner.set(path, partOf(path));
  const reaching = new Map();
  const reach = (path, seen) => {
    if (owner.has(path)) return new Set([owner.get(path)]);
    if (reaching.has(path)) return reaching.get(path);
    if (seen.has(path)) return new Set();
    seen.add(path);
    const from = new Set(importers.get(path).flatMap((i) => [...reach(i.path, seen)]));
    seen.delete(path);
    return from;
  };
  for (const path of Object.keys(inputs)) {
    if (owner.has(path)) continue;
    const from = reach(path, new Set());
    reaching.set(path, from);
  }
  for (const [path, from] of reaching) owner.set(path, from.size === 1 ? [...from][0] : CORE);
  return owner;
}

const whole = await build({ ...cliOptions, entryPoints: ['src/cli/entry.ts'], plugins: cliPlugins, write: false });
const owners = assignFiles(whole.metafile);
const files = [...new Set(owners.values())];
/** For each file, the modules of it that other files import. */
const exported = new Map(files.map((file) => [file, new Set()]));
for (const [path, { imports }] of Object.entries(whole.metafile.inputs)) {
  for (const i of imports) if (!i.external && owners.has(i.path) && owners.get(i.path) !== owners.get(path)) exported.get(owners.get(i.path)).add(i.path);
}

/** Builds one of the CLI's files: its own modules bundled, another file's required from it. */
function buildFile(file) {
  const table = [...exported.get(file)].sort().map((path) => `${JSON.stringify(path)}: () => require(${JSON.stringify(`./${path}`)})`);
  // The table first: a file that another requires while it loads finds it there already.
  const contents = `exports.__lmsModules = { ${table.join(', ')} };${file === CORE ? " Object.defineProperties(exports, Object.getOwnPropertyDescriptors(require('./src/cli/entry.ts')));" : ''}`;
  const elsewhere = {
    name: 'modules-elsewhere',
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => {
        if (args.namespace === 'elsewhere') return { path: args.path, external: true };
        if (args.kind === 'entry-point' || !args.importer) return undefined;
        // Where the whole build resolved the same import (build.resolve here, in 36 builds at once,
        // can stall esbuild). A package's importer too, which a linked node_modules puts outside
        // the checkout: one package requires another that a file of its own holds.
        const importer = relative(root, args.importer).split(sep).join('/');
        const path = whole.metafile.inputs[importer]?.imports.find((i) => i.original === args.path && !i.external)?.path;
        const home = path && owners.get(path);
        if (home === undefined || home === file) return undefined;
        if (!exported.get(home).has(path)) throw new Error(`${path} (in ${home}.cjs) is imported from ${file}.cjs, which the split did not foresee`);
        return { path, namespace: 'elsewhere', pluginData: home };
      });
      b.onLoad({ filter: /.*/, namespace: 'elsewhere' }, (args) => ({ contents: `module.exports = require(${JSON.stringify(`./${args.pluginData}.cjs`)}).__lmsModules[${JSON.stringify(args.path)}]();`, loader: 'js' }));
    },
  };
  return build({ ...cliOptions, stdin: { contents, resolveDir: root, loader: 'js', sourcefile: `${file}.cjs` }, plugins: [elsewhere, ...cliPlugins], outfile: `dist/${file}.cjs` });
}
const built = await Promise.all(files.map(buildFile));
// Every module in exactly one file: a module bundled twice would be two modules at run time.
const placed = new Map();
for (const [i, { metafile }] of built.entries()) {
  for (const [path, input] of Object.entries(Object.values(metafile.outputs)[0].inputs)) {
    if (!whole.metafile.inputs[path] || input.bytesInOutput === 0) continue;
    if (placed.has(path)) throw new Error(`${path} is in both ${placed.get(path)}.cjs and ${files[i]}.cjs`);
    placed.set(path, files[i]);
  }
}
// A default import of an ES module another file holds would, as esbuild writes it, be that
// module's whole namespace: the stub above is CommonJS, and an import in this package's node mode
// takes a CommonJS module's exports as its default. The build refuses one rather than lean on the
// rewrite below: named imports only across files.
//
// Then each file hands out its ES modules, and takes another file's, as the module's own export
// object: esbuild would copy every export into a new object of getters twice over (once as the
// table gives a module out, once as an importer takes it in), for every module crossing files in
// every run, a millisecond of a listing's start on Node 24, and the copies' getters on every call
// after. A named import reads the export object's own getter, so bindings stay live. A CommonJS
// package crossing files keeps esbuild's wrapping, which gives its default export as Node would.
const texts = new Map(files.map((file) => [file, readFileSync(`dist/${file}.cjs`, 'latin1')]));
const esModules = new Set();
for (const [file, text] of texts) {
  const table = /exports\.__lmsModules=\{("[^"]+":\(\)=>(\(init_\w+\(\),__toCommonJS\(\w+\)\)|require_\w+\(\)),?)*\}/.exec(text);
  if (!table) throw new Error(`${file}.cjs: the table of its modules is not where the build writes it`);
  for (const [, path] of table[0].matchAll(/"([^"]+)":\(\)=>\(init_\w+\(\),__toCommonJS\(\w+\)\)/g)) esModules.add(path);
  texts.set(file, text.replace(table[0], table[0].replace(/__toCommonJS\((\w+)\)/g, '$1')));
}
for (const [file, original] of texts) {
  let text = original;
  for (const [, stub, path] of original.matchAll(/var (require_\w+)=__commonJS\(\{"elsewhere:([^"]+)"/g)) {
    for (const [, binding] of original.matchAll(new RegExp(`(import_\\w+)=__toESM\\(${stub}\\(\\),1\\)`, 'g'))) {
      if (new RegExp(`\\b${binding}\\.default\\b`).test(original)) throw new Error(`${file}.cjs takes the default export of ${path}, which ${owners.get(path)}.cjs holds: import a named export instead`);
    }
    if (esModules.has(path)) text = text.replaceAll(`__toESM(${stub}(),1)`, `${stub}()`);
  }
  const { text: written, moved } = exportsOnFirstUse(text);
  // A file of the CLI's whose export objects all stayed put: esbuild writes them some other way now.
  if (file === 'lms' && moved === 0) throw new Error('lms.cjs: no export object was moved into its initialiser: esbuild no longer writes them as this build expects');
  writeFileSync(`dist/${file}.cjs`, written, 'latin1');
}

/**
 * A module esbuild evaluates on first use (`init_x`) gets the getters of its export object (`x_exports`)
 * there too, not as the file is evaluated: each export's getter is a closure and a new shape of the
 * object, made for every module of the file at every start, most of them modules the command never
 * loads (4% of a --mock listing's time on Node 24). Only where every use of the export object comes
 * right after the module's initialisation, as esbuild writes a dynamic import, a require and the
 * file's table of modules (`init_x(),x_exports`); any other use keeps the module as esbuild wrote it.
 */
function exportsOnFirstUse(text) {
  const moved = [];
  let out = text.replace(/var ((\w+)_exports(\d*))=\{\};__export\(\1,(\{[^{}]*\})\);/g, (whole, object, name, n, getters) => {
    const init = `init_${name}${n}`;
    const uses = text.split(new RegExp(`\\b${object}\\b`)).length - 1;
    const afterInit = text.split(`${init}(),${object}`).length - 1 + text.split(`${init}(),__toCommonJS(${object})`).length - 1;
    const body = new RegExp(`\\b${init}=__esm\\(\\{"[^"]+"\\(\\)\\{("use strict";)?`);
    if (uses !== afterInit + 2 || !body.test(text)) return whole;
    moved.push({ object, body, getters });
    return `var ${object}={};`;
  });
  for (const { object, body, getters } of moved) out = out.replace(body, (head) => `${head}__export(${object},${getters});`);
  return { text: out, moved: moved.length };
}

/** How each file of its own (the packages apart, the MCP SDK) is built: as the bundle is, without its plugins. */
const part = { bundle: true, format: 'cjs', platform: 'node', target: 'node20', minifyWhitespace: true, minifySyntax: true, logLevel: 'warning', metafile: true };
const metafiles = built.map((b) => b.metafile);

for (const { file, exports } of Object.values(packagesApart)) {
  const built = await build({
    ...part,
    stdin: { contents: `module.exports = ${exports};`, resolveDir: fileURLToPath(new URL('..', import.meta.url)), loader: 'js' },
    outfile: `dist/${file}.cjs`,
  });
  metafiles.push(built.metafile);
}

/**
 * The SDK's server validates with ajv (with its formats and URI parser: a third of the file) only
 * what a client answers to an elicitation, which lms never asks for; the server is given a
 * validator of its own (src/mcp/server.ts), and the bundle leaves ajv out.
 */
const noAjv = {
  name: 'mcp-no-ajv',
  setup(b) {
    b.onResolve({ filter: /[\\/]validation[\\/]ajv-provider\.js$/ }, () => ({ path: 'ajv-provider', namespace: 'no-ajv' }));
    b.onLoad({ filter: /.*/, namespace: 'no-ajv' }, () => ({
      contents: "export class AjvJsonSchemaValidator { constructor() { throw new Error('lms mcp validates no elicitation answers'); } }",
      loader: 'js',
    }));
  },
};

metafiles.push((await build({ ...part, entryPoints: ['src/mcp/sdk.ts'], plugins: [noAjv], outfile: 'dist/mcp-sdk.cjs' })).metafile);

/** The CLI as the launcher loads it, for asking the built CLI what it says. */
const launcher = fileURLToPath(new URL('../bin/lms', import.meta.url));

// `lms --help` as the built CLI prints it off a terminal (80 columns): the launcher prints this file
// instead of loading the CLI, as it does for --version. A test checks that the two stay the same.
const help = execFileSync(process.execPath, ['-e', `require(${JSON.stringify(launcher)}).loadCli().run(['--help']).then((code) => { process.exitCode = code; })`], {
  env: { ...process.env, NO_COLOR: '1' },
  encoding: 'utf8',
});
writeFileSync(new URL('../dist/help.txt', import.meta.url), help);

if (analyze) for (const { metafile } of built) printInputs(metafile);
if (inputsFile) {
  // Only what some output holds bytes of: a module tree-shaken away to nothing is not shipped; a
  // module another file holds (the split's `elsewhere:` requires) is counted where it is.
  const held = new Set(metafiles.flatMap((m) => Object.values(m.outputs).flatMap((o) => Object.entries(o.inputs).filter(([path, i]) => i.bytesInOutput > 0 && !path.startsWith('elsewhere:')).map(([path]) => path))));
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
  for (const [key, bytes] of [...inputs].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`  ${key.padEnd(36)} ${kb(bytes).padStart(9)}`);
}
