// man/ holds the generated pages; `npm run generate` rewrites them (and package.json's "man") when commands change.
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { flagsOf, isNoun, wordOf, type Verbs } from '../../src/model/command.js';
import { GLOBAL_FLAGS, VERSION_FLAG } from '../../src/model/global-flags.js';
import { ENVIRONMENT, escapeRoff, manPages, type ManPage } from '../../src/cli/man.js';
import { loadAllNouns } from '../../src/commands/index.js';
import { ExitCode } from '../../src/errors.js';
import { syntaxOf } from '../../src/model/options.js';

const manDir = new URL('../../man/', import.meta.url);
/** What a failure says: the committed output is behind the commands. */
const STALE = 'out of step with the commands; run `npm run generate` and commit what it writes';
const groff = spawnSync('groff', ['--version']).status === 0;

let commands: Verbs;
let pages: ManPage[];

beforeAll(async () => {
  commands = await loadAllNouns();
  pages = manPages({ commands });
});

const page = (name: string) => pages.find((p) => p.name === name)!;
/**
 * Every verb under a first word, nested nouns walked, with the flags it takes: [['users', 'list'], ['--account <id>',
 * …]], ….
 */
function verbs(spec: Verbs[number], path: string[]): [path: string[], flags: string[]][] {
  if (!isNoun(spec)) return [[path, flagsOf(spec).map(syntaxOf)]];
  return spec.commands.flatMap((child) => verbs(child, [...path, wordOf(child)]));
}

/** A page as man shows it, with groff's hyphen and minus characters read back as ASCII. */
function rendered(text: string): string {
  const out = execFileSync('groff', ['-man', '-Tutf8', '-rLL=200n'], { input: text, encoding: 'utf8' });
  return out.replace(/.\x08/g, '').replace(/[\u2010\u2212]/g, '-');
}

describe('man/', () => {
  it('holds exactly the generated pages (run `npm run generate` if not)', () => {
    const committed = readdirSync(manDir)
      .filter((f) => f.endsWith('.1'))
      .sort();
    expect(committed, STALE).toEqual(pages.map((p) => p.file).sort());
    for (const { file, text } of pages)
      expect(readFileSync(new URL(file, manDir), 'utf8'), `man/${file}: ${STALE}`).toBe(text);
  });

  it('are the pages package.json gives npm to install (run `npm run generate` if not)', async () => {
    const pkg = (await import('../../package.json', { with: { type: 'json' } })).default as {
      man: string[];
      files: string[];
    };
    expect(pkg.man, `package.json's "man": ${STALE}`).toEqual(pages.map((p) => `man/${p.file}`).sort());
    expect(pkg.files).toContain('man');
  });

  it('has lms(1) and a page for every first word of a command', () => {
    expect(pages.map((p) => p.name)).toEqual(['lms', ...commands.map((c) => `lms-${wordOf(c)}`)]);
    expect(commands.map(wordOf)).toEqual(
      expect.arrayContaining(['users', 'enrollments', 'grade', 'apply', 'completion']),
    );
  });
});

describe('escapeRoff', () => {
  it.each([
    ['--account', '\\-\\-account'],
    ['C:\\path', 'C:\\epath'],
    ["it's", 'it\\(aqs'],
    ['say "hi"', 'say \\(dqhi\\(dq'],
    ['`lms` ~/x a^b', '\\(galms\\(ga \\(ti/x a\\(hab'],
    ['old → new', 'old \\[u2192] new'],
    ['ü😀', '\\[u00FC]\\[u1F600]'],
  ])('%s', (input, expected) => {
    expect(escapeRoff(input)).toBe(expected);
  });
});

describe.runIf(groff)(
  groff
    ? 'the pages rendered by groff'
    : 'the pages rendered by groff: skipped, groff is not installed (apt-get install groff-base)',
  () => {
    it('render with no warning', () => {
      for (const { file, text } of pages) {
        const run = spawnSync('groff', ['-man', '-ww', '-z'], { input: text, encoding: 'utf8' });
        expect({ file, status: run.status, stderr: run.stderr }).toEqual({ file, status: 0, stderr: '' });
      }
    });

    it("name every noun in lms(1), and every verb with each of its flags and examples on its noun's page", () => {
      const main = rendered(page('lms').text);
      for (const noun of commands) {
        expect(main).toContain(`lms-${wordOf(noun)}(1)`);
        const text = rendered(page(`lms-${wordOf(noun)}`).text);
        for (const [path, flags] of verbs(noun, [wordOf(noun)])) {
          expect(text, path.join(' ')).toContain(`lms ${path.join(' ')}`);
          for (const flag of flags) expect(text, `${path.join(' ')} ${flag}`).toContain(flag);
        }
      }
    });

    it('lms(1) gives the global flags, the environment, the files and the exit codes', () => {
      const main = rendered(page('lms').text);
      for (const flag of [VERSION_FLAG, ...GLOBAL_FLAGS]) expect(main).toContain(syntaxOf(flag));
      for (const { name } of ENVIRONMENT) expect(main).toMatch(new RegExp(`^ {7}${name}( |$)`, 'm'));
      for (const code of Object.values(ExitCode)) expect(main).toMatch(new RegExp(`^ {7}${code} `, 'm'));
      expect(main).toContain('~/.config/lms/config.json');
    });

    it('print what roff would take for requests, quotes and escapes as written', () => {
      const grade = rendered(page('lms-grade').text);
      expect(grade).toContain('$ lms grade --course 1 --assignment 1 --user 9 17 --comment "Solid method section"');
      const main = rendered(page('lms').text);
      expect(main).toContain("lms users list --account 1 -o json | jq -r '.[].login_id'");
    });
  },
);

describe('ENVIRONMENT in lms(1)', () => {
  /** Every variable name the source reads: env.NAME, and every LMS_ name however it is read. */
  function namesRead(): Set<string> {
    const names = new Set<string>();
    const files = [
      new URL('../../bin/lms', import.meta.url),
      ...readdirSync(new URL('../../src/', import.meta.url), { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.ts'))
        .map((f) => new URL(`../../src/${f}`, import.meta.url)),
    ];
    for (const file of files) {
      const source = readFileSync(file, 'utf8');
      for (const [, name] of source.matchAll(/\benv\.([A-Z][A-Z0-9_]+)\b/g)) names.add(name);
      for (const [, name] of source.matchAll(/\b(LMS_[A-Z0-9_]+)\b/g)) names.add(name);
      // The proxy variables are read by a name the target's scheme picks.
      for (const [, name] of source.matchAll(/'((?:https?|all|no)_proxy|(?:HTTPS?|ALL|NO)_PROXY)'/g)) names.add(name);
      // So are curl's CA variables, in the order of a list (CURL_CA_VARIABLES).
      for (const [, list] of source.matchAll(/_VARIABLES = \[([^\]]*)\]/g))
        for (const [, name] of list.matchAll(/'([A-Z][A-Z0-9_]+)'/g)) names.add(name);
    }
    return names;
  }

  it('names every variable the source reads', () => {
    const text = page('lms').text.replace(/\\-/g, '-');
    const found = namesRead();
    expect(found.size).toBeGreaterThan(15);
    expect([...found].filter((name) => !new RegExp(`\\b${name}\\b`).test(text))).toEqual([]);
  });

  it('names none the source does not read', () => {
    const found = namesRead();
    // Node.js reads it; lms names it where a certificate fails.
    const byNode = ['NODE_EXTRA_CA_CERTS'];
    expect(ENVIRONMENT.map((e) => e.name).filter((name) => !found.has(name) && !byNode.includes(name))).toEqual([]);
  });
});
