// Bundles the CLI into dist/ with code splitting, so commands load only the chunks they import.
//   node scripts/build.mjs            build
//   node scripts/build.mjs --analyze  build, then print what `lms` loads before any command runs
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const analyze = process.argv.includes('--analyze');
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });

// Bundled CommonJS dependencies call require(); give every chunk one. Builtins come straight from
// process.getBuiltinModule (Node >= 20.16; engines asks for 20.18.1), so starting up does not load
// node:module, which drags in the source-map support. Anything else goes through a real require,
// made on first use.
const requireShim = [
  'const require = (() => {',
  '  let real;',
  "  const load = () => (real ??= process.getBuiltinModule('node:module').createRequire(import.meta.url));",
  '  const req = (id) => process.getBuiltinModule(id) ?? load()(id);',
  '  req.resolve = (id, options) => load().resolve(id, options);',
  '  return req;',
  '})();',
].join(' ');

/**
 * better-sqlite3 is CommonJS and stays external (native addon). Imported from ESM, Node would run
 * its CommonJS export scanner over it on every mock command; require it instead, which gives the
 * same default import (module.exports) without the scan.
 */
const requireBetterSqlite = {
  name: 'require-better-sqlite3',
  setup(b) {
    b.onResolve({ filter: /^better-sqlite3$/ }, (args) =>
      args.namespace === 'require-cjs' ? { path: args.path, external: true } : { path: args.path, namespace: 'require-cjs' },
    );
    b.onLoad({ filter: /.*/, namespace: 'require-cjs' }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)});`, loader: 'js' }));
  },
};

const result = await build({
  entryPoints: { lms: 'src/cli/entry.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  define: { __LMS_VERSION__: JSON.stringify(pkg.version) },
  banner: { js: requireShim },
  plugins: [requireBetterSqlite],
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
  metafile: analyze,
});

// `lms --help` as the built CLI prints it off a terminal (80 columns): the launcher prints this file
// instead of loading commander and the command tree, as it does for --version. A test checks that
// the two stay the same.
const entry = new URL('../dist/lms.js', import.meta.url).href;
const help = execFileSync(process.execPath, ['--input-type=module', '-e', `const { run } = await import(${JSON.stringify(entry)}); process.exitCode = await run(['--help']);`], {
  env: { ...process.env, NO_COLOR: '1' },
  encoding: 'utf8',
});
writeFileSync(new URL('../dist/help.txt', import.meta.url), help);

if (analyze) printStartupGraph(result.metafile);

/** The chunks `dist/lms.js` imports statically (loaded on every run), their biggest inputs, and the builtins they import. */
function printStartupGraph(metafile) {
  const seen = new Set();
  const builtins = new Set();
  const stack = ['dist/lms.js'];
  while (stack.length) {
    const file = stack.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    for (const imp of metafile.outputs[file].imports) {
      if (imp.kind !== 'import-statement') continue;
      if (imp.external) builtins.add(imp.path);
      else stack.push(imp.path);
    }
  }
  const inputs = new Map();
  let total = 0;
  for (const file of seen) {
    total += metafile.outputs[file].bytes;
    for (const [path, { bytesInOutput }] of Object.entries(metafile.outputs[file].inputs)) {
      const key = path.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1] ?? path;
      inputs.set(key, (inputs.get(key) ?? 0) + bytesInOutput);
    }
  }
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  console.log(`Loaded at startup: ${seen.size} files, ${kb(total)}`);
  for (const file of [...seen].sort()) console.log(`  ${file.padEnd(36)} ${kb(metafile.outputs[file].bytes).padStart(9)}`);
  console.log('Largest inputs in them:');
  for (const [key, bytes] of [...inputs].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`  ${key.padEnd(36)} ${kb(bytes).padStart(9)}`);
  console.log('Builtins imported at startup, and by what:');
  const startupInputs = new Set([...seen].flatMap((file) => Object.keys(metafile.outputs[file].inputs)));
  for (const builtin of [...builtins].sort()) {
    const by = [...startupInputs].filter((path) => metafile.inputs[path]?.imports.some((i) => i.path === builtin && i.kind === 'import-statement'));
    console.log(`  ${builtin.padEnd(20)} ${by.join(', ')}`);
  }
}
