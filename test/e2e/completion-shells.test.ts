// The completion scripts of completions/ in real shells, asking the built `lms` on PATH for the
// mock's ids (LMS_MOCK=1), as a TAB would.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { e2eWorkspace, ensureBuilt, spawnLms } from '../helpers/e2e.js';

const root = resolve(import.meta.dirname, '../..');
const { dir, env: base } = e2eWorkspace('e2e-completion');
const env = { ...process.env, ...base, LMS_MOCK: '1', LMS_CACHE_DIR: join(dir, 'cache') };
// `lms` as the scripts call it: the launcher of this checkout, with this Node.
const binDir = join(dir, 'bin');

const has = (shell: string) => spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;
let courses: string[] = [];

beforeAll(async () => {
  await ensureBuilt();
  mkdirSync(binDir, { recursive: true });
  writeFileSync(join(binDir, 'lms'), `#!/bin/sh\nexec "${process.execPath}" "${join(root, 'bin/lms')}" "$@"\n`, {
    mode: 0o755,
  });
  const listed = await spawnLms(['courses', 'list', '--account', 'self', '--all', '-o', 'json'], {
    ...base,
    LMS_MOCK: '1',
  });
  expect(listed.exitCode, listed.stderr).toBe(0);
  courses = (JSON.parse(listed.stdout) as { id: number }[]).map((c) => String(c.id));
  expect(courses.length).toBeGreaterThan(0);
});

const shellEnv = () => ({ ...env, PATH: `${binDir}:${process.env.PATH}` });

function bash(words: string[]): { stdout: string; stderr: string } {
  const quoted = words.map((w) => `'${w}'`).join(' ');
  const script =
    `source completions/lms.bash; COMP_WORDS=(${quoted}); COMP_CWORD=${words.length - 1}; _lms; printf ` +
    `'%s\\n' "\${COMPREPLY[@]}"`;
  const r = spawnSync('bash', ['-c', script], { cwd: root, env: shellEnv(), encoding: 'utf8' });
  return { stdout: r.stdout, stderr: r.stderr };
}

describe('bash, sourcing completions/lms.bash', () => {
  it.each<[string, string[]]>([
    ['--course of a verb', ['lms', 'sections', 'list', '--course', '']],
    ['--course of a noun with a default verb', ['lms', 'grade', '--course', '']],
    ['the id of courses get', ['lms', 'courses', 'get', '']],
  ])("%s: the mock's course ids", (_what, words) => {
    expect(bash(words)).toEqual({ stdout: courses.map((id) => `${id}\n`).join(''), stderr: '' });
  });

  it("course 1's assignments after --course 1, and no verb for a flag's value", async () => {
    const listed = await spawnLms(['assignments', 'list', '--course', '1', '--all', '-o', 'json'], {
      ...base,
      LMS_MOCK: '1',
    });
    const assignments = (JSON.parse(listed.stdout) as { id: number }[]).map((a) => String(a.id));
    expect(bash(['lms', 'grade', '--course', '1', '--assignment', ''])).toEqual({
      stdout: assignments.map((id) => `${id}\n`).join(''),
      stderr: '',
    });
    expect(bash(['lms', 'grade', '--comment', ''])).toEqual({ stdout: '\n', stderr: '' });
  });

  it('nothing, and no error, when the instance refuses the token', () => {
    const r = spawnSync(
      'bash',
      [
        '-c',
        `source completions/lms.bash; COMP_WORDS=(lms courses get ''); COMP_CWORD=3; _lms; printf '[%s]' ` +
          `"\${COMPREPLY[*]}"`,
      ],
      {
        cwd: root,
        env: { ...shellEnv(), LMS_TOKEN: 'not-a-token', LMS_CACHE_DIR: join(dir, 'cache-refused') },
        encoding: 'utf8',
      },
    );
    expect({ stdout: r.stdout, stderr: r.stderr }).toEqual({ stdout: '[]', stderr: '' });
  });
});

describe.skipIf(!has('zsh'))('zsh', () => {
  it('asks lms __complete zsh for ids with their names', () => {
    const r = spawnSync(
      'zsh',
      [
        '-c',
        `words=(lms courses get ''); CURRENT=4; source <(sed -n '/^_lms_ids()/,/^}/p' completions/_lms); _lms_ids`,
      ],
      { cwd: root, env: shellEnv(), encoding: 'utf8' },
    );
    expect(
      r.stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => line.split(':')[0]),
    ).toEqual(courses);
    expect(r.stdout).toMatch(/^\d+:.+/);
  });
});

describe.skipIf(!has('fish'))('fish', () => {
  it('completes course ids with their names', () => {
    const r = spawnSync('fish', ['-c', `source completions/lms.fish; complete -C 'lms courses get '`], {
      cwd: root,
      env: shellEnv(),
      encoding: 'utf8',
    });
    expect(
      r.stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => line.split('\t')[0])
        .sort(),
    ).toEqual([...courses].sort());
  });
});
