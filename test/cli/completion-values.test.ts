// Values the completion scripts offer beyond the command tree: profile names (asked of
// `lms profile list`) for -p/--profile and `profile use|show|remove`, and the shells for `lms completion`.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { completionScript, SHELLS } from '../../src/commands/completion/scripts.js';
import { loadAllNouns } from '../../src/commands/index.js';
import { session } from '../helpers/run-lms.js';

const program = { commands: await loadAllNouns() };

// Stands in for the real `lms` the scripts call: answers `profile list` as lms does.
const fakeLms =
  `
lms() {
  if [[ "$*" == 'profile list --output csv --fields name --no-input' ]]; then printf 'name\\nprod\\nstaging\\n'; ` +
  `return 0; fi
  return 1
}
`;

function bashComplete(words: string[]): string {
  const driver = `
COMP_WORDS=(${words.map((word) => `'${word}'`).join(' ')})
COMP_CWORD=${words.length - 1}
_lms
printf '%s' "\${COMPREPLY[*]}"
`;
  const result = spawnSync('bash', [], {
    input: fakeLms + completionScript(program, 'bash') + driver,
    encoding: 'utf8',
  });
  expect(result.stderr).toBe('');
  return result.stdout;
}

describe('bash completes values from the command tree and the profile list', () => {
  it.each<[string[], string]>([
    [['lms', '-p', ''], 'prod staging'],
    [['lms', '--profile', 's'], 'staging'],
    [['lms', '--profile', '=', 'p'], 'prod'],
    [['lms', 'users', 'list', '-p', ''], 'prod staging'],
    [['lms', 'profile', 'use', ''], 'prod staging'],
    [['lms', 'profile', 'show', 'st'], 'staging'],
    [['lms', 'profile', 'remove', ''], 'prod staging'],
    [['lms', 'profile', 'rm', ''], 'prod staging'],
    [['lms', '-o', 'json', 'profile', 'use', 'p'], 'prod'],
    [['lms', 'profile', 'use', 'prod', ''], ''],
    [['lms', 'completion', ''], 'bash zsh fish'],
    [['lms', 'completion', 'z'], 'zsh'],
    [['lms', 'completion', 'bash', ''], ''],
    [['lms', 'profile', 'add', ''], ''],
  ])('%j -> %s', (words, expected) => {
    expect(bashComplete(words)).toBe(expected);
  });

  it('offers no profiles, and no error, when lms fails', () => {
    const driver = `
lms() { echo 'error: broken' >&2; return 1; }
COMP_WORDS=('lms' 'profile' 'use' '')
COMP_CWORD=3
_lms
printf '[%s]' "\${COMPREPLY[*]}"
`;
    const result = spawnSync('bash', [], { input: completionScript(program, 'bash') + driver, encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('[]');
  });
});

describe('every shell asks lms for the profile names', () => {
  it.each(SHELLS.map((shell) => [shell]))('%s', (shell) => {
    const script = completionScript(program, shell);
    expect(script).toContain('lms profile list --output csv --fields name --no-input 2>/dev/null | tail -n +2');
  });

  it('zsh maps the profile flag and arguments to the profile names, and completion to the shells', () => {
    const script = completionScript(program, 'zsh');
    expect(script).toContain("*':--profile'|*':-p') _lms_words=( '@profiles' ); return 0 ;;");
    expect(script).toContain("'profile use:'0) _lms_words=( '@profiles' ); return 0 ;;");
    expect(script).toContain("'completion:'0) _lms_words=( 'bash' 'zsh' 'fish' ); return 0 ;;");
  });

  it('fish offers the profile names for -p and profile use|show|remove, and the shells for completion', () => {
    const script = completionScript(program, 'fish');
    expect(script).toContain("complete -c lms -l 'profile' -s 'p' -x -a '(__lms_profiles)'");
    expect(script).toContain(
      "complete -c lms -n '__fish_seen_subcommand_from profile; and __fish_seen_subcommand_from use' -x -a " +
        "'(__lms_profiles)'",
    );
    expect(script).toContain(
      "complete -c lms -n '__fish_seen_subcommand_from profile; and __fish_seen_subcommand_from remove rm' -x -a " +
        "'(__lms_profiles)'",
    );
    expect(script).toContain("complete -c lms -n '__fish_seen_subcommand_from completion' -x -a 'bash zsh fish'");
  });
});

describe('what the scripts call', () => {
  it('lms profile list --output csv --fields name prints a header, then one name a line', async () => {
    const lms = session();
    expect((await lms.run('profile list --output csv --fields name --no-input')).stdout).toBe('name\n');
    await lms.run('profile add staging --url https://s.example --token-stdin --no-verify', { stdin: 't' });
    await lms.run('profile add prod --url https://p.example --token-stdin --no-verify', { stdin: 't' });
    const r = await lms.run('profile list --output csv --fields name --no-input', { env: { LMS_OUTPUT: 'table' } });
    expect(r).toEqual({ exitCode: 0, stdout: 'name\nprod\nstaging\n', stderr: '' });
  });

  it('lms completion takes only bash, zsh or fish', async () => {
    const r = await session().run('completion tcsh');
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('Allowed choices are bash, zsh, fish');
  });
});
