// The verbs that delete as a side effect ask first: lms conv batch --event destroy, lms conv
// remove-messages when it removes the last messages of the caller's view, lms outcomes unlink.
import { describe, expect, it, vi } from 'vitest';
import type { Prompter } from '../../src/model/context.js';
import { session, type Session } from '../helpers/run-lms.js';

const json = (s: string) => JSON.parse(s) as unknown;
const TEACHER = { LMS_TOKEN: '3~mock-tteacher' };

function answering(yes: boolean) {
  const confirm = vi.fn(async (_message: string) => yes);
  const prompter: Prompter = { secret: async () => '', confirm };
  return { confirm, prompter };
}

/** Tess's view of a conversation, read without marking it read. */
async function view(lms: Session, id: number) {
  const r = await lms.run(`conv get ${id} --no-mark-read -o json --fields workflow_state,message_count`, {
    env: TEACHER,
  });
  return r.exitCode === 0 ? json(r.stdout) : r.exitCode;
}

describe('lms conv remove-messages', () => {
  it('does not ask while messages are left in the view, and asks for the last of them', async () => {
    const lms = session();
    // Conversation 1 holds two messages for Tess, newest first: Sam's reply, then her own.
    const c = json((await lms.run('conv get 1 --no-mark-read -o json', { env: TEACHER })).stdout) as {
      messages: { id: number }[];
    };
    const [reply, first] = c.messages.map((m) => m.id);
    const keep = answering(true);
    const partial = await lms.run(`conv remove-messages 1 --message ${reply} -o json --fields message_count`, {
      env: TEACHER,
      tty: true,
      prompter: keep.prompter,
    });
    expect(partial).toEqual({ exitCode: 0, stdout: '{\n  "message_count": 1\n}\n', stderr: '' });
    expect(keep.confirm).not.toHaveBeenCalled();

    const last = answering(true);
    const r = await lms.run(`conv remove-messages 1 --message ${first} -o json --fields message_count`, {
      env: TEACHER,
      tty: true,
      prompter: last.prompter,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(json(r.stdout)).toEqual({ message_count: 0 });
    expect(last.confirm).toHaveBeenCalledWith(
      'Remove the last messages of conversation 1, deleting it from your view?',
    );
    expect(await view(lms, 1)).toBe(4);
  });

  it('in a script needs --yes to remove them all; refused, it changes nothing, not even the read state', async () => {
    const lms = session();
    const refused = await lms.run('conv remove-messages 1 --message 1,2', { env: TEACHER });
    expect(refused.exitCode).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(
      /^error: Remove the last messages of conversation 1, deleting it from your view: pass --yes to confirm/,
    );
    expect(await view(lms, 1)).toEqual({ workflow_state: 'unread', message_count: 2 });

    const declined = answering(false);
    expect(
      (await lms.run('conv remove-messages 1 --message 1,2', { env: TEACHER, tty: true, prompter: declined.prompter }))
        .exitCode,
    ).toBe(130);
    expect(await view(lms, 1)).toEqual({ workflow_state: 'unread', message_count: 2 });

    expect((await lms.run('conv remove-messages 1 --message 1,2 --yes', { env: TEACHER })).exitCode).toBe(0);
    expect(await view(lms, 1)).toBe(4);
  });

  it('in a script removes a message that is not the last without --yes', async () => {
    const lms = session();
    const r = await lms.run('conv remove-messages 1 --message 2 -o json --fields message_count', { env: TEACHER });
    expect(r).toEqual({ exitCode: 0, stdout: '{\n  "message_count": 1\n}\n', stderr: '' });
  });
});

describe('lms conv batch --event destroy', () => {
  it('asks on a terminal, naming how many; no keeps them all', async () => {
    const lms = session();
    const declined = answering(false);
    const r = await lms.run('conv batch --ids 1,2 --event destroy', {
      env: TEACHER,
      tty: true,
      prompter: declined.prompter,
    });
    expect(r.exitCode).toBe(130);
    expect(declined.confirm).toHaveBeenCalledWith('Delete 2 conversations from your view?');
    expect(await view(lms, 1)).toEqual({ workflow_state: 'unread', message_count: 2 });
    expect(await view(lms, 2)).toMatchObject({ message_count: 1 });

    const one = answering(true);
    expect(
      (
        await lms.run('conv batch --ids 2 --event destroy -o json --fields workflow_state', {
          env: TEACHER,
          tty: true,
          prompter: one.prompter,
        })
      ).exitCode,
    ).toBe(0);
    expect(one.confirm).toHaveBeenCalledWith('Delete conversation 2 from your view?');
    expect(await view(lms, 2)).toBe(4);
  });

  it('in a script needs --yes, and with it deletes them', async () => {
    const lms = session();
    expect((await lms.run('conv batch --ids 1,2 --event destroy', { env: TEACHER })).exitCode).toBe(2);
    expect(await view(lms, 1)).toEqual({ workflow_state: 'unread', message_count: 2 });
    const r = await lms.run('conv batch --ids 1,2 --event destroy --yes -o json --fields workflow_state,message', {
      env: TEACHER,
    });
    expect(json(r.stdout)).toEqual({ workflow_state: 'completed', message: '2 items processed' });
    expect([await view(lms, 1), await view(lms, 2)]).toEqual([4, 4]);
  });

  it('asks nothing for the events that delete nothing', async () => {
    const lms = session();
    const r = await lms.run('conv batch --ids 1 --event archive -o json --fields workflow_state', { env: TEACHER });
    expect(r).toEqual({ exitCode: 0, stdout: '{\n  "workflow_state": "completed"\n}\n', stderr: '' });
  });
});

describe('lms outcomes unlink', () => {
  const linked = async (lms: Session) =>
    (json((await lms.run('outcomes links list 6 --course 1 -o json')).stdout) as { outcome: { id: number } }[])
      .map((l) => l.outcome.id)
      .sort();

  it('asks on a terminal, saying the outcome goes with its last link; no keeps the link', async () => {
    const lms = session();
    const before = await linked(lms);
    expect(before).toEqual([1, 2, 5]);
    const declined = answering(false);
    expect((await lms.run('outcomes unlink 6 5 --course 1', { tty: true, prompter: declined.prompter })).exitCode).toBe(
      130,
    );
    expect(declined.confirm).toHaveBeenCalledWith(
      'Unlink outcome 5 from outcome group 6 (the outcome is deleted if this is its last link)?',
    );
    expect(await linked(lms)).toEqual(before);
  });

  it('in a script needs --yes, and with it unlinks', async () => {
    const lms = session();
    const refused = await lms.run('outcomes unlink 6 2 --course 1');
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/pass --yes to confirm/);
    expect(await linked(lms)).toEqual([1, 2, 5]);
    const r = await lms.run('outcomes unlink 6 2 --course 1 --yes -o json');
    expect(r.exitCode, r.stderr).toBe(0);
    expect(json(r.stdout)).toMatchObject({ outcome: { id: 2 }, outcome_group: { id: 6 } });
    expect(await linked(lms)).toEqual([1, 5]);
  });

  it('checks its flags before asking', async () => {
    const { confirm, prompter } = answering(true);
    const r = await session().run('outcomes unlink 6 2', { tty: true, prompter });
    expect(r.exitCode).toBe(2);
    expect(confirm).not.toHaveBeenCalled();
  });
});
