// Bundles the CLI into dist/ with code splitting, so commands load only the chunks they import.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });

await build({
  entryPoints: { lms: 'src/cli/entry.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Native addon: must stay a real package import.
  external: ['better-sqlite3'],
  define: { __LMS_VERSION__: JSON.stringify(pkg.version) },
  // Some bundled CommonJS dependencies call require(); give ESM chunks one.
  banner: { js: "import { createRequire as __lmsCreateRequire } from 'node:module'; const require = __lmsCreateRequire(import.meta.url);" },
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
});
