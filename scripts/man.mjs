// Writes man/: lms.1 and a page per noun, generated from the command declarations by src/cli/man.ts.
//   node scripts/man.mjs     (npm run generate runs it, after the build and the completions)
// test/cli/man.test.ts fails while the committed pages differ from what this writes.
import { execFileSync } from 'node:child_process';
import { build } from 'esbuild';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

// The generator and the command declarations, bundled as the CLI is and evaluated here; no command
// runs, and no program is built.
const bundle = await build({
  stdin: {
    contents: `
      import { loadAllNouns } from './src/commands/index.ts';
      import { commandModel } from './src/commands/index.ts';
      import { manPages } from './src/cli/man.ts';
      import { toolsetsLine, toolsetsMarkdown } from './src/mcp/toolsets-help.ts';
      export async function pages() {
        return manPages({ commands: await loadAllNouns() });
      }
      export const toolsets = { table: () => toolsetsMarkdown(commandModel), line: () => toolsetsLine(commandModel) };`,
    resolveDir: root,
    loader: 'ts',
  },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  define: { __LMS_VERSION__: JSON.stringify(pkg.version), __LMS_MOCK_SCHEMA_VERSION__: '0' },
  external: ['@napi-rs/keyring', '@photostructure/sqlite', 'node:sqlite'],
  write: false,
  logLevel: 'warning',
});
const module = { exports: {} };
new Function('module', 'exports', 'require', bundle.outputFiles[0].text)(
  module,
  module.exports,
  createRequire(import.meta.url),
);
const pages = await module.exports.pages();

const dir = new URL('../man/', import.meta.url);
mkdirSync(dir, { recursive: true });
const written = new Set(pages.map((page) => page.file));
// A noun that left the tree takes its page with it.
for (const file of readdirSync(dir)) if (file.endsWith('.1') && !written.has(file)) rmSync(new URL(file, dir));
for (const { file, text } of pages) writeFileSync(new URL(file, dir), text);

// npm installs the pages package.json lists under "man" (into <prefix>/share/man/man1): the list
// follows the pages, so a new noun's page is installed too.
const listed = pages.map((page) => `man/${page.file}`).sort();
if (JSON.stringify(pkg.man) !== JSON.stringify(listed)) {
  const text = readFileSync(new URL('../package.json', import.meta.url), 'utf8');
  const updated = JSON.parse(text);
  updated.man = listed;
  writeFileSync(new URL('../package.json', import.meta.url), `${JSON.stringify(updated, null, 2)}\n`);
  console.log('package.json: "man" lists the pages');
}
console.log(`man/: ${pages.length} pages`);

// The toolsets of lms mcp and their tools, in the README and docs/mcp.md between their markers.
const generated = {
  '../README.md': await module.exports.toolsets.line(),
  '../docs/mcp.md': await module.exports.toolsets.table(),
};
for (const [doc, table] of Object.entries(generated)) {
  const url = new URL(doc, import.meta.url);
  const text = readFileSync(url, 'utf8');
  const start = text.indexOf('<!-- toolsets: generated');
  const end = text.indexOf('<!-- toolsets: end -->');
  if (start < 0 || end < 0) throw new Error(`${doc}: no toolsets markers`);
  const updated = text.slice(0, start) + table + text.slice(end + '<!-- toolsets: end -->'.length);
  if (updated !== text) {
    writeFileSync(url, updated);
    // Biome pads the table's columns, as it formats every Markdown file of the checkout.
    execFileSync(
      fileURLToPath(new URL('../node_modules/.bin/biome', import.meta.url)),
      ['format', '--write', fileURLToPath(url)],
      {
        stdio: 'ignore',
      },
    );
    console.log(`${doc.slice(3)}: the toolsets table`);
  }
}
