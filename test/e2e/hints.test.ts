// Every command lms hints at is one that runs. The sources are scanned for `lms NOUN …` in the
// text lms says (help and examples are held to the command model elsewhere): each mention is a
// hint of the table below, which gives it realistic values and says how it is proven — run against
// `lms mock serve` (or --mock) and exiting 0, or, for a command that needs a browser, a terminal
// or never ends, read against the command model (no unknown verb or flag, nothing required
// missing) — or it is named as no hint, with why. A new hint that is not in the table fails here.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flagsOf, isNoun, type CommandSpec, type Verbs } from '../../src/model/command.js';
import { alternatives } from '../../src/cli/explain-failure.js';
import { GLOBAL_FLAGS, PROGRAM_DESCRIPTION } from '../../src/model/global-flags.js';
import { lazyNouns, loadAllNouns, topLevelCommands, topLevelNames } from '../../src/commands/index.js';
import { ADMIN, e2eWorkspace, ensureBuilt, root, serveMock, spawnLms, type Served } from '../helpers/e2e.js';
import { readLine } from '../helpers/read-line.js';

interface Hint {
  /** A piece of the hint's text as the source writes it: what finds it there. */
  source: string;
  /** The command it gives, after `lms`, its placeholders filled as a reader would (SERVED: the mock's address). */
  line: string;
  /**
   * run: against the mock, exit 0 (the mock's seeded admin unless `token` says whose); read: only
   * read against the command model, for a command that needs a browser, a terminal, or never ends.
   */
  how: 'run' | 'read';
  token?: string;
  stdin?: string;
}

const TEACHER = '3~mock-tteacher';
const STUDENT = '7~mock-sam';

const HINTS: Hint[] = [
  // Logging in again needs a browser.
  { source: 'hint: `lms auth login -p ${name}`', line: 'auth login -p prod', how: 'read' },
  { source: 'run lms auth login again', line: 'auth login -p prod', how: 'read' },
  { source: 'log in again: lms auth login -p ${profile}', line: 'auth login -p prod', how: 'read' },
  { source: 'log in again: lms auth login -p ${name}', line: 'auth login -p prod', how: 'read' },
  { source: 'log in with \\`lms auth login -p ${name}\\`', line: 'auth login -p prod', how: 'read' },
  {
    source: 'log in again with \\`lms auth login -p ${name} --insecure-storage\\`',
    line: 'auth login -p prod --insecure-storage',
    how: 'read',
  },
  {
    source:
      'log in again: \\`lms auth login -p ${name}\\`, or store a token: \\`lms profile add ${name} --url ${url} ' +
      '--token-stdin\\`',
    line: 'profile add prod --url SERVED --token-stdin',
    how: 'run',
    stdin: ADMIN,
  },
  {
    source: 'lms auth login -p ${name} --url https://lms.example.edu --client-id ID',
    line: 'auth login -p prod --url https://lms.example.edu --client-id 170000000000042',
    how: 'read',
  },
  {
    source: "'lms auth login -p prod --url https://lms.example.edu --client-id ID'",
    line: 'auth login -p prod --url https://lms.example.edu --client-id 170000000000042',
    how: 'read',
  },
  {
    source: 'lms auth login -p ${k.name} --url ${k.baseUrl} --client-id ${k.clientId} --client-secret-stdin',
    line: 'auth login -p prod --url https://lms.example.edu --client-id 170000000000042 --client-secret-stdin',
    how: 'read',
  },
  // Storing a token: against the served mock, with a token of its own.
  {
    source: 'then store it: lms profile add ${shellWord(name)}',
    line: 'profile add prod --url SERVED --token-stdin',
    how: 'run',
    stdin: ADMIN,
  },
  {
    source: 'store one with \\`lms profile add ${name} --url ${redactUrl(baseUrl)} --token-stdin\\`',
    line: 'profile add prod --url SERVED --token-stdin',
    how: 'run',
    stdin: ADMIN,
  },
  {
    source: "'store one with `lms profile add NAME --url URL --token-stdin`, or set LMS_TOKEN'",
    line: 'profile add prod --url SERVED --token-stdin',
    how: 'run',
    stdin: ADMIN,
  },
  {
    source: "'add a profile with `lms profile add NAME --url URL --token-stdin`",
    line: 'profile add prod --url SERVED --token-stdin',
    how: 'run',
    stdin: ADMIN,
  },
  {
    source: "'set LMS_TOKEN, or store one with `lms profile add NAME --url URL --token-stdin`'",
    line: 'profile add prod --url SERVED --token-stdin',
    how: 'run',
    stdin: ADMIN,
  },
  {
    source: 'store it with `lms profile add NAME --url URL --token-stdin` (or set LMS_TOKEN)',
    line: 'profile add prod --url SERVED --token-stdin',
    how: 'run',
    stdin: ADMIN,
  },
  // Without --token-stdin, profile add asks for the token at a terminal.
  {
    source: 'fix it with \\`lms profile add ${name} --url https://lms.example.edu\\`',
    line: 'profile add prod --url https://lms.example.edu',
    how: 'read',
  },
  {
    source: "'add one with `lms profile add NAME --url https://lms.example.edu`, set LMS_BASE_URL, or use --mock'",
    line: 'profile add prod --url https://lms.example.edu',
    how: 'read',
  },
  {
    source: "{ hint: 'lms profile add NAME --url URL' }",
    line: 'profile add prod --url https://lms.example.edu',
    how: 'read',
  },
  {
    source: '`lms profile add NAME --url URL --ca-file FILE`',
    line: 'profile add prod --url https://lms.example.edu --ca-file school-ca.pem',
    how: 'read',
  },
  // The rest of the profile's life.
  { source: "'lms profile list shows the profiles'", line: 'profile list', how: 'run' },
  { source: "{ hint: 'lms auth logout -p NAME' }", line: 'auth logout -p prod', how: 'run' },
  {
    source: '\\`lms profile remove ${name}\\` forgets it without revoking',
    line: 'profile remove prod --yes',
    how: 'read',
  },
  { source: 'lms auth status says where it came from', line: 'auth status -p prod', how: 'run' },
  // The mock's own.
  {
    source: 'LMS_TOKEN is not a token of the mock: lms mock tokens lists them',
    line: '--mock mock tokens',
    how: 'run',
  },
  { source: 'its tokens are seeded (lms mock tokens lists them)', line: '--mock mock tokens', how: 'run' },
  { source: "\\`lms mock tokens\\` lists its users' tokens", line: '--mock mock tokens', how: 'run' },
  { source: '<code>lms mock tokens</code> lists them', line: '--mock mock tokens', how: 'run' },
  // Reads that a hint points to.
  { source: '(lms accounts list shows yours)', line: '--mock accounts list', how: 'run' },
  { source: "hint: 'lms todo lists it'", line: '--mock todo', how: 'run', token: STUDENT },
  { source: 'check the id (lms users get ${flag})', line: '--mock users get 7', how: 'run' },
  {
    source: '`lms submissions list ${where} --assignment ${opts.assignment[0]}`',
    line: '--mock submissions list --course 1 --assignment 1 --user self',
    how: 'run',
    token: STUDENT,
  },
  // lms mcp is a server: read only.
  {
    source: "'start the server with lms mcp --allow-destructive to allow it",
    line: 'mcp --allow-destructive',
    how: 'read',
  },
  { source: '`start the server with lms mcp ${flag} to allow it`', line: 'mcp --allow-writes', how: 'read' },
  { source: 'destructiveHint need lms mcp --allow-destructive', line: 'mcp --allow-destructive', how: 'read' },
  { source: 'run the file with lms sis import', line: '--mock sis list', how: 'run', token: ADMIN },
  { source: 'run the file with lms enrollments import', line: 'enrollments import enrollments.csv', how: 'read' },
  { source: 'follow it with lms sis status ${started.id}', line: 'sis status 1', how: 'read' },
  { source: 'lms sis status ${b.id} shows how it ended', line: 'sis status 1', how: 'read' },
  {
    source: 'set it once they exist: lms assignment-groups update --never-drop',
    line: 'assignment-groups update 1 --course 1 --never-drop 3',
    how: 'read',
  },
  {
    source: 'associate it with one first (lms rubrics associate)',
    line: 'rubrics associate 1 --course 1 --assignment 1',
    how: 'read',
  },
  { source: 'start the server with lms mcp --toolsets ${tool.toolset}', line: 'mcp --toolsets roster', how: 'read' },
  // The verb that reads a SIS file of another kind than the one given.
  { source: "user: 'lms users import',", line: 'users import users.csv', how: 'read' },
  { source: "enrollment: 'lms enrollments import',", line: 'enrollments import enrollments.csv', how: 'read' },
  { source: "course: 'lms courses import',", line: 'courses import courses.csv', how: 'read' },
  { source: "section: 'lms sections import',", line: 'sections import sections.csv', how: 'read' },
  { source: "READER[found] ?? 'lms sis import'", line: 'sis import terms.csv --account 1', how: 'read' },
  // Verbs named in passing, as a pointer: the verb is read with the arguments it needs.
  { source: 'a tree as lms outcomes import reads it', line: 'outcomes import tree.yaml --account 1', how: 'read' },
  {
    source: 'unlink or delete with lms outcomes unlink / groups delete',
    line: 'outcomes unlink 6 2 --course 1',
    how: 'read',
  },
  { source: "'--exit-code goes with --plan (or lms diff)'", line: 'diff -f course.yaml --exit-code', how: 'read' },
];

/** Mentions of `lms NOUN` that are no hint: what they are instead. */
const NOT_HINTS: { source: string; why: string }[] = [
  { source: "value: 'lms mock serve' }", why: "the organisation named in the mock's self-signed certificate" },
  { source: '`lms mock serving ${mock.path} at ${url}', why: 'what the server says it is doing' },
  { source: "'lms mock serve: stopped\\n'", why: 'what the server says it did' },
  { source: 'lms apply keeps its locks there', why: 'what lms apply does, in an error about a directory' },
  { source: '`another lms apply${holder}', why: 'another run of lms apply, in a message about waiting for it' },
  {
    source: '`waiting for another lms apply${holder}',
    why: 'another run of lms apply, in a message about waiting for it',
  },
  { source: "startsWith('lms users ')", why: "code reading a tool's command" },
  { source: "startsWith('lms conv ')", why: "code reading a tool's command" },
  { source: "'lms mcp asks for no input'", why: 'what the server answers a client asking for input' },
  { source: 'src/cli/man.ts', why: 'the man page: help, generated and compared by its own test' },
  { source: 'not an lms mock database', why: 'what a database is not' },
];

const srcFiles = (dir: string): string[] =>
  readdirSync(dir).flatMap((f) =>
    statSync(join(dir, f)).isDirectory() ? srcFiles(join(dir, f)) : f.endsWith('.ts') ? [join(dir, f)] : [],
  );

/** The help lms prints: the command model's summaries, examples and flag descriptions, which other tests hold to it. */
async function helpTexts(): Promise<string[]> {
  const texts = [PROGRAM_DESCRIPTION, ...GLOBAL_FLAGS.map((f) => f.description), ...lazyNouns.map((n) => n.summary)];
  const walk = (verbs: Verbs | readonly CommandSpec<never>[]) => {
    for (const spec of verbs) {
      texts.push(spec.summary);
      if (isNoun(spec)) walk(spec.commands);
      else texts.push(...(spec.examples ?? []), ...flagsOf(spec).map((o) => o.description));
    }
  };
  walk(await loadAllNouns());
  walk(topLevelCommands());
  return texts.filter((t) => t.includes('lms '));
}

/** The strings `line` may hold around `at`: from each kind of quote before it to the same quote after. */
function stringsAround(line: string, at: number): string[] {
  return ["'", '"', '`'].flatMap((quote) => {
    const open = line.lastIndexOf(quote, at);
    const close = open < 0 ? -1 : line.indexOf(quote, at);
    return close < 0 ? [] : [line.slice(open + 1, close)];
  });
}

let scanned: Promise<{ at: string; text: string }[]> | undefined;

/**
 * A file's lines, trimmed, with a string literal the formatter cut into a concatenation across lines (`'… ' +` then
 * `'…'`) read as the one line it says, numbered by the line it starts on; `value` is what a whole literal so cut says.
 */
function logicalLines(source: string): { text: string; at: number; value?: string }[] {
  const out: { text: string; at: number; value?: string }[] = [];
  const lines = source.split('\n').map((l) => l.trim());
  const unescaped = (piece: string) => piece.replace(/\\(.)/g, '$1');
  for (let i = 0; i < lines.length; i++) {
    const at = i + 1;
    let text = lines[i] ?? '';
    const pieces = [text];
    while (/['"`] \+$/.test(text) && /^['"`]/.test(lines[i + 1] ?? '')) {
      const next = lines[++i] ?? '';
      text = text.slice(0, -3) + next.slice(1);
      pieces.push(next);
    }
    const last = /^(.*)['"`][,;)]*$/.exec(pieces.at(-1) ?? '');
    const whole = pieces.length > 1 && /^['"`]/.test(pieces[0] ?? '') && last;
    const value = whole
      ? unescaped([...pieces.slice(0, -1).map((p) => p.slice(1, -3)), (last[1] ?? '').slice(1)].join(''))
      : undefined;
    out.push({ text, at, value });
  }
  return out;
}

/**
 * Each source line that mentions `lms NOUN` outside a comment and outside the help (a string that is a summary, an
 * example, a flag's description).
 */
function mentions(): Promise<{ at: string; text: string }[]> {
  scanned ??= (async () => {
    const names = [...lazyNouns.map((n) => n.name), ...topLevelNames];
    const mention = new RegExp(`\\blms (?:${names.join('|')})\\b`, 'g');
    const help = new Set(await helpTexts());
    const found: { at: string; text: string }[] = [];
    for (const file of srcFiles(join(root, 'src'))) {
      const path = relative(root, file);
      logicalLines(readFileSync(file, 'utf8')).forEach(({ text: line, at, value }) => {
        if (line.startsWith('//') || line.startsWith('*') || line.startsWith('/*') || /\bexamples: \[/.test(line))
          return;
        if (value !== undefined && help.has(value)) return;
        if ([...line.matchAll(mention)].some((m) => !stringsAround(line, m.index).some((string) => help.has(string))))
          found.push({ at: `${path}:${at}`, text: line });
      });
    }
    return found;
  })();
  return scanned;
}

describe('the hints', () => {
  it('are every mention of a command in what lms says, each in the table or named as no hint', async () => {
    // The commands a refusal names instead are run below, from their table.
    const instead = alternatives().map((a) => a.command);
    const unknown = (await mentions()).filter(
      ({ at, text }) =>
        ![...HINTS.map((h) => h.source), ...instead].some((source) => text.includes(source)) &&
        !NOT_HINTS.some((n) => text.includes(n.source) || at.startsWith(n.source)),
    );
    expect(unknown, 'add each to HINTS (with a line to run) or to NOT_HINTS (with why)').toEqual([]);
  });

  it('each give every flag their source gives', () => {
    // The command ends where the sentence goes on: at a quote, a comma, a semicolon or a parenthesis.
    const flagsOf = (text: string) =>
      new Set(
        text
          .slice(text.indexOf('lms '))
          .split(/[`,;()]/)[0]
          .match(/--[a-z][\w-]*/g) ?? [],
      );
    const short = HINTS.filter((h) => [...flagsOf(h.source)].some((flag) => !flagsOf(`lms ${h.line}`).has(flag)));
    expect(short.map((h) => `${h.source} → ${h.line}`)).toEqual([]);
  });

  it('each name a source that is still there', async () => {
    const lines = (await mentions()).map((m) => `${m.at} ${m.text}`);
    const stale = [...HINTS, ...NOT_HINTS].filter((h) => !lines.some((l) => l.includes(h.source)));
    expect(stale.map((h) => h.source)).toEqual([]);
  });
});

describe('each hinted command', () => {
  const { dir, env } = e2eWorkspace('hints');
  let served: Served;
  // What the runs need: a served mock with a profile "prod" on it, as the hints about it assume.
  beforeAll(async () => {
    await ensureBuilt();
    served = await serveMock(env);
    const r = await lms(['profile', 'add', 'prod', '--url', served.url, '--token-stdin'], ADMIN, ADMIN);
    expect(r.exitCode, String(r.stderr)).toBe(0);
  });
  afterAll(() => served?.stop());
  const lms = (argv: string[], token = ADMIN, stdin?: string) =>
    spawnLms(argv, { ...env, LMS_TOKEN: token, LMS_CONFIG_DIR: join(dir, 'config') }, stdin);
  const words = (line: string) => line.replace('SERVED', served.url).split(' ');

  /** Each line once: several hints give the same command. */
  const once = (hints: Hint[]) => [
    ...new Map(hints.map((h) => [`${h.line} ${h.token ?? ''} ${h.stdin ?? ''}`, h])).values(),
  ];

  it.each(once(HINTS).map((h) => [h.line, h] as const))('%s reads as a whole command', async (_line, hint) => {
    const read = await readLine(words(hint.line).filter((w) => w !== '--mock'));
    expect('error' in read ? read.error.message : read.verb).not.toMatch(
      /^(unknown|missing|required|too many|no verb)/,
    );
  });

  it.each(once(HINTS.filter((h) => h.how === 'run')).map((h) => [h.line, h] as const))(
    '%s runs against the mock',
    async (_line, hint) => {
      const r = await lms(words(hint.line), hint.token, hint.stdin);
      expect(r.exitCode, String(r.stderr)).toBe(0);
      // A profile that a run replaced is put back for the next.
      if (hint.line.startsWith('profile add') || hint.line.startsWith('auth logout'))
        expect(
          (await lms(['profile', 'add', 'prod', '--url', served.url, '--token-stdin'], ADMIN, ADMIN)).exitCode,
        ).toBe(0);
    },
  );

  // The commands a refusal names instead (explain-failure.ts), as the teacher they are for.
  it.each(alternatives().map((a) => [a.command, a] as const))(
    '%s, which a refusal names, runs for a teacher',
    async (command) => {
      const line = command
        .replace(/^lms /, '')
        .replace('COURSE', '1')
        .replace(/\{user\}/, '7');
      const r = await lms(['--mock', ...line.split(' ')], TEACHER);
      expect(r.exitCode, String(r.stderr)).toBe(0);
    },
  );
});
