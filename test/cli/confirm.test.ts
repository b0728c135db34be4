// "No" at a confirmation: the terminal prompt itself, fed keys, stops the command with the exit code
// the README documents (130, as Ctrl-C at the same prompt), and nothing is changed.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { promptOn } from '../../src/model/prompter.js';
import { session, type Session } from '../helpers/run-lms.js';

/** The real prompt, reading `keys` as if typed at it. */
function typing(keys: string) {
  const input = new PassThrough();
  const output = new PassThrough();
  output.resume();
  input.write(keys);
  return promptOn({ input, output });
}

interface Case {
  setup?: string[];
  line: string;
  /** What the command would have changed, read afterwards. */
  still(lms: Session): Promise<boolean>;
}

const exists = async (lms: Session, line: string) => (await lms.run(line)).exitCode === 0;

const cases: [string, Case][] = [
  ['users delete', { line: 'users delete 7 --account 1', still: (lms) => exists(lms, 'users get 7') }],
  [
    'sections delete',
    {
      setup: ['sections create --course 1 --name Spare --sis-id SPARE-1'],
      line: 'sections delete sis_section_id:SPARE-1',
      still: (lms) => exists(lms, 'sections get sis_section_id:SPARE-1'),
    },
  ],
  [
    'profile remove',
    {
      setup: ['profile add prod --url https://lms.example.edu --token-stdin --no-verify'],
      line: 'profile remove prod',
      still: (lms) => exists(lms, 'profile show prod'),
    },
  ],
];

async function prepared(c: Case): Promise<Session> {
  const lms = session();
  for (const line of c.setup ?? []) expect((await lms.run(line, { stdin: 'tok\n' })).exitCode).toBe(0);
  return lms;
}

describe('answering "n" to a confirmation', () => {
  it.each(cases)('%s: exit 130, cancelled, nothing changed', async (_what, c) => {
    const lms = await prepared(c);
    const r = await lms.run(c.line, { tty: true, prompter: typing('n\r') });
    expect(r).toEqual({ exitCode: 130, stdout: '', stderr: 'error: cancelled; nothing was changed\n' });
    expect(await c.still(lms)).toBe(true);
  });

  it.each(cases)('%s, -o json: one JSON object naming the cancellation', async (_what, c) => {
    const lms = await prepared(c);
    const r = await lms.run(`${c.line} -o json`, { tty: true, prompter: typing('n\r') });
    expect(r.exitCode).toBe(130);
    expect(JSON.parse(r.stderr)).toEqual({
      error: 'CancelledError',
      message: 'cancelled; nothing was changed',
      exit_code: 130,
    });
  });

  it('the default answer, Enter alone, is no', async () => {
    const lms = session();
    const r = await lms.run('users delete 7 --account 1', { tty: true, prompter: typing('\r') });
    expect(r.exitCode).toBe(130);
    expect(await exists(lms, 'users get 7')).toBe(true);
  });

  it.each(cases)('%s: "y" goes ahead', async (_what, c) => {
    const lms = await prepared(c);
    const r = await lms.run(c.line, { tty: true, prompter: typing('y\r') });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(await c.still(lms)).toBe(false);
  });
});

describe('what a confirmation names', () => {
  /** A prompter that records the question and answers no. */
  const recording = () => {
    const asked: string[] = [];
    return {
      asked,
      prompter: {
        confirm: async (message: string) => {
          asked.push(message);
          return false;
        },
        secret: async () => '',
      },
    };
  };

  it.each([
    ['users delete 7 --account 1', 'Delete user 7 (Sam Student, sam) from account 1?'],
    ['users delete sis_user_id:S-007', 'Delete user 7 (Sam Student, sam) from the root account?'],
    ['users delete 99999 --account 1', 'Delete user 99999 from account 1?'],
  ])('%s asks "%s"', async (line, question) => {
    const { asked, prompter } = recording();
    const r = await session().run(line, { tty: true, prompter });
    expect(r.exitCode).toBe(130);
    expect(asked).toEqual([question]);
  });

  it('in a script, names the target as given without asking the instance', async () => {
    const r = await session().run('users delete 7');
    expect(r).toMatchObject({
      exitCode: 2,
      stderr: 'error: Delete user 7 from the root account: pass --yes to confirm when not running interactively\n',
    });
  });
});
