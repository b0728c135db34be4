// Rebuilds dist/ and rewrites every committed file made from the source:
//   man/*.1 and package.json's "man" list (scripts/man.mjs, from the command declarations)
//   completions/lms.bash, completions/_lms, completions/lms.fish (`lms completion <shell>`)
//   src/mcp/result-shapes.ts (scripts/mcp-shapes.mjs, from the result types of src/spec/types)
//   node scripts/generate.mjs     (npm run generate)
// test/cli/man.test.ts and test/cli/completions-sync.test.ts fail while a committed file differs
// from what this writes; run it after changing a command, a flag, a description or an example.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const node = (...args) =>
  execFileSync(process.execPath, args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });

process.stdout.write(node('scripts/mcp-shapes.mjs'));

// The completions come from the built binary, so the build goes first; e2e tests spawn it too.
process.stdout.write(node('scripts/build.mjs'));

const completions = { bash: 'lms.bash', zsh: '_lms', fish: 'lms.fish' };
for (const [shell, file] of Object.entries(completions))
  writeFileSync(new URL(`../completions/${file}`, import.meta.url), node('bin/lms', 'completion', shell));
console.log(`completions/: ${Object.values(completions).join(', ')}`);

process.stdout.write(node('scripts/man.mjs'));
