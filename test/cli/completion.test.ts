import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CommandSpec, NounSpec, Verbs } from '../../src/model/command.js';
import { completionScript, SHELLS, type Shell } from '../../src/commands/completion/scripts.js';
import { FORMATS } from '../../src/output/formats.js';

const run = async () => undefined;
// A noun's flags are its verbs': --account is declared on each of users' verbs.
const account = { long: 'account', value: 'id', description: 'Account id' };
const users: NounSpec = {
  name: 'users',
  summary: 'Manage users',
  aliases: ['u'],
  commands: [
    {
      name: 'list',
      summary: 'List users',
      aliases: ['ls'],
      options: [account, { long: 'search', value: 'term', description: "Search: name or email, e.g. 'ada'" }],
      run,
    },
    { name: 'get', args: [{ name: 'id' }], summary: 'Show one user', options: [account], argIds: { id: 'user' }, run },
  ] satisfies CommandSpec<never>[],
};
const mock: NounSpec = {
  name: 'mock',
  summary: 'Run the mock API',
  commands: [
    {
      name: 'serve',
      summary: 'Serve over HTTP',
      options: [{ long: 'port', value: 'n', description: 'Port to listen on' }],
      run,
    } satisfies CommandSpec<never>,
  ],
};

function declared(order: 'forward' | 'reverse' = 'forward'): { commands: Verbs } {
  const commands = [users, mock];
  return { commands: order === 'forward' ? commands : commands.reverse() };
}

/** What -o completes to: the output formats, as the global flag declares them. */
const formats = FORMATS.join(' ');

function shellAvailable(shell: string): boolean {
  return !spawnSync(shell, ['--version'], { stdio: 'ignore' }).error;
}

interface ShellResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

function runShell(shell: string, args: string[], input?: string): ShellResult {
  const result = spawnSync(shell, args, { input, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

// fish cannot read a script from Node's stdin pipe, and only checks syntax when reading a file.
function checkFishSyntax(script: string): ShellResult {
  const directory = mkdtempSync(join(tmpdir(), 'lms-completion-'));
  try {
    const file = join(directory, 'lms.fish');
    writeFileSync(file, script);
    return runShell('fish', ['--no-execute', file]);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

const program = declared();

describe('completionScript', () => {
  it('supports bash, zsh and fish', () => {
    expect(SHELLS).toEqual(['bash', 'zsh', 'fish']);
  });

  it.each(SHELLS)('%s: deterministic, newline-terminated, independent of registration order', (shell: Shell) => {
    const script = completionScript(program, shell);
    expect(script.endsWith('\n')).toBe(true);
    expect(completionScript(declared('reverse'), shell)).toBe(script);
    expect(script).not.toMatch(/\d{4}-\d{2}-\d{2}/);
  });

  it.each(SHELLS)('%s: names every command and flag', (shell: Shell) => {
    const script = completionScript(program, shell);
    for (const word of ['users', 'list', 'get', 'mock', 'serve', 'output', 'fields', 'port', 'search', 'account']) {
      expect(script).toContain(word);
    }
  });

  it('bash: registers _lms and carries aliases, flags and choices', () => {
    const script = completionScript(program, 'bash');
    expect(script).toContain('complete -F _lms lms\n');
    expect(script).toContain("':users'|':u') _lms_next='users'");
    expect(script).toContain("'users:list'|'users:ls') _lms_next='users list'");
    expect(script).toContain(`*':--output'|*':-o') _lms_words='${formats}'`);
  });

  it('bash: bash -n accepts the script, and would reject a broken one', () => {
    expect(runShell('bash', ['-n'], 'if true; then\n').status).not.toBe(0);
    const result = runShell('bash', ['-n'], completionScript(program, 'bash'));
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  describe('bash: completes like a shell would', () => {
    // COMP_WORDS as bash builds them; bash splits `--output=` at the `=`.
    const cases: Array<[line: string[], expected: string]> = [
      [['lms', ''], 'help mock users'],
      [['lms', 'u'], 'users'],
      [['lms', 'users', ''], 'get help list'],
      [['lms', 'u', 'l'], 'list'],
      [['lms', 'users', 'list', '--s'], '--search'],
      [['lms', 'mock', 'serve', '--p'], '--per-page --port --profile'],
      [['lms', 'mock', 'serve', '--o'], '--output'],
      [['lms', '-o', ''], formats],
      [['lms', '-o', 'json', 'us'], 'users'],
      [['lms', '--fields', 'id', 'mo'], 'mock'],
      [['lms', 'users', 'list', '--output', '=', 'nd'], 'ndjson'],
      [['lms', '--output', '=', 'json', 'users', 'g'], 'get'],
      [['lms', 'se'], ''],
    ];
    it.each(cases)('%j -> %s', (words, expected) => {
      const driver = `
COMP_WORDS=(${words.map((word) => `'${word}'`).join(' ')})
COMP_CWORD=${words.length - 1}
_lms
printf '%s' "\${COMPREPLY[*]}"
`;
      const result = runShell('bash', [], completionScript(program, 'bash') + driver);
      expect(result.stderr).toBe('');
      expect(result.stdout).toBe(expected);
    });
  });

  it('zsh: a #compdef script that registers or runs _lms', () => {
    const script = completionScript(program, 'zsh');
    expect(script.startsWith('#compdef lms\n')).toBe(true);
    expect(script).toContain('compdef _lms lms');
    expect(script).toContain("'users:Manage users'");
  });

  describe.skipIf(!shellAvailable('zsh'))('zsh (installed)', () => {
    it('zsh -n accepts the script, and would reject a broken one', () => {
      expect(runShell('zsh', ['-n'], 'if true; then\n').status).not.toBe(0);
      const result = runShell('zsh', ['-n'], completionScript(program, 'zsh'));
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
    });

    // The completion system's builtins are stubbed to print what they were given.
    const stubs = `
compdef() { :; }
compset() { :; }
_describe() { print -r -- "\${(j: :)\${(@P)4}}"; }
compadd() { shift; print -r -- "$*"; }
_files() { print -r -- files; }
lms() { print -r -- '7:Ada Lovelace'; }
`;
    const cases: Array<[line: string[], expected: string]> = [
      [['lms', ''], 'help:display help for command mock:Run the mock API users:Manage users'],
      [['lms', 'u', ''], 'get:Show one user help:display help for command list:List users'],
      [['lms', '-o', ''], formats],
      [['lms', 'users', 'list', '--output=j'], formats],
      [['lms', 'users', 'get', ''], '7:Ada Lovelace'],
    ];
    it.each(cases)('%j -> %s', (words, expected) => {
      const driver = `
words=(${words.map((word) => `'${word}'`).join(' ')})
CURRENT=${words.length}
_lms
`;
      const result = runShell('zsh', ['-f'], stubs + completionScript(program, 'zsh') + driver);
      expect(result.stderr).toBe('');
      expect(result.stdout).toBe(`${expected}\n`);
    });
  });

  it('fish: complete lines with subcommand conditions and descriptions', () => {
    const script = completionScript(program, 'fish');
    expect(script).toContain("complete -c lms -n '__fish_use_subcommand' -a 'users' -d 'Manage users'\n");
    expect(script).toContain(
      "complete -c lms -n '__fish_seen_subcommand_from users u; and not __fish_seen_subcommand_from get help list " +
        "ls' -a 'list' -d 'List users'\n",
    );
    expect(script).toContain(
      `complete -c lms -l 'output' -s 'o' -x -a '${formats}' -d 'output format (env LMS_OUTPUT); table on a ` +
        `terminal, json when piped'\n`,
    );
    expect(script).toContain("-d 'Search: name or email, e.g. \\'ada\\''");
  });

  describe.skipIf(!shellAvailable('fish'))('fish (installed)', () => {
    it('fish --no-execute accepts the script, and would reject a broken one', () => {
      expect(checkFishSyntax("complete -c lms -d 'unbalanced\n").status).not.toBe(0);
      const result = checkFishSyntax(completionScript(program, 'fish'));
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
    });

    const cases: Array<[line: string, expected: string[]]> = [
      ['lms ', ['help', 'mock', 'users']],
      ['lms u ', ['get', 'help', 'list']],
      ['lms mock serve --p', ['--per-page', '--port', '--profile']],
      ['lms users list --se', ['--search']],
      ['lms -o ', [...FORMATS].sort()],
    ];
    it.each(cases)('%j -> %j', (line, expected) => {
      const driver = `\ncomplete -C '${line}'\n`;
      const result = runShell('fish', ['--no-config', '-c', completionScript(program, 'fish') + driver]);
      expect(result.stderr).toBe('');
      const candidates = result.stdout
        .trim()
        .split('\n')
        .map((entry) => entry.split('\t')[0]);
      expect(candidates.sort()).toEqual(expected);
    });
  });
});
