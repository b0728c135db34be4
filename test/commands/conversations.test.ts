// lms conv and lms recipients from the command line, against the in-memory mock: output, usage
// errors, and the live following of async sends and batch updates (bar on a TTY, lines with -v).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Context } from '../../src/model/context.js';
import { watchBatch } from '../../src/model/watch-progress.js';
import type { ApiClient } from '../../src/client/client.js';
import type { ConversationBatch } from '../../src/spec/types/conversations.js';
import { generateSchool } from '../../src/mock/generate.js';
import { fakeIO } from '../helpers/fake-io.js';
import { session } from '../helpers/run-lms.js';

const json = (s: string) => JSON.parse(s) as unknown;
const TEACHER = { env: { LMS_TOKEN: '3~mock-tteacher' } };

function file(name: string, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'lms-conv-'));
  writeFileSync(join(dir, name), text);
  return join(dir, name);
}

describe('lms conv list / get / update / delete / unread', () => {
  it('lists the inbox as a table and by scope as JSON', async () => {
    const lms = session();
    const table = await lms.run('conv list', { ...TEACHER, tty: true });
    expect(table.exitCode).toBe(0);
    expect(table.stdout).toContain('Lab report feedback');
    expect(table.stdout).toContain('Department meeting');
    const starred = await lms.run('conv list --scope starred -o json --fields id,subject', TEACHER);
    expect(json(starred.stdout)).toEqual([{ id: 3, subject: 'Question about the midterm' }]);
    const filtered = await lms.run(
      'conv list --filter user_9 --filter group_1 --filter-mode or -o json --fields id',
      TEACHER,
    );
    expect(json(filtered.stdout)).toEqual([{ id: 3 }, { id: 2 }]);
  });

  it(
    'reads a conversation (marking it read unless ' + "--no-mark-read), changes and deletes the caller's view",
    async () => {
      const lms = session();
      expect(json((await lms.run('conv unread -o json', TEACHER)).stdout)).toEqual({ unread_count: 3 });
      expect(
        json((await lms.run('conv get 1 --no-mark-read -o json --fields workflow_state', TEACHER)).stdout),
      ).toEqual({
        workflow_state: 'unread',
      });
      const read = json((await lms.run('conv get 1 -o json', TEACHER)).stdout) as {
        workflow_state: string;
        messages: { body: string }[];
      };
      expect(read.workflow_state).toBe('read');
      expect(read.messages.map((m) => m.body)).toEqual([
        'Thanks, I will add it tonight.',
        'Your lab report is missing the data table from week 3.',
      ]);
      expect(
        json(
          (await lms.run('conv update 1 --state archived --star -o json --fields workflow_state,starred', TEACHER))
            .stdout,
        ),
      ).toEqual({ workflow_state: 'archived', starred: true });
      const refused = await lms.run('conv delete 1', TEACHER);
      expect(refused.exitCode).toBe(2);
      expect(
        json((await lms.run('conv delete 1 --yes -o json --fields visible,message_count', TEACHER)).stdout),
      ).toEqual({ visible: false, message_count: 0 });
      expect((await lms.run('conv get 1', TEACHER)).exitCode).toBe(4);
      expect(json((await lms.run('conv mark-all-read -o json', TEACHER)).stdout)).toEqual({ unread_count: '0' });
    },
  );

  it('replies, adds recipients and removes messages', async () => {
    const lms = session();
    const reply = json(
      (await lms.run(['conv', 'reply', '2', '--body', 'Bench 2 moved.', '--to', '7', '-o', 'json'], TEACHER)).stdout,
    ) as { messages: { participating_user_ids: number[] }[] };
    expect(reply.messages[0].participating_user_ids).toEqual([3, 7]);
    const added = json((await lms.run('conv add-recipients 2 --to 12 -o json --fields audience', TEACHER)).stdout);
    expect(added).toEqual({ audience: [7, 8, 11, 12] });
    const c = json((await lms.run('conv get 1 -o json', TEACHER)).stdout) as { messages: { id: number }[] };
    const removed = json(
      (await lms.run(`conv remove-messages 1 --message ${c.messages[0].id} -o json --fields message_count`, TEACHER))
        .stdout,
    );
    expect(removed).toEqual({ message_count: 1 });
  });

  it.each([
    ['an unknown scope', 'conv list --scope spam', "argument 'spam' is invalid"],
    [
      'a filter of no known kind',
      'conv list --filter course1',
      '--filter "course1" is not course_N, group_N or user_N',
    ],
    ['nothing to change', 'conv update 1', 'nothing to change'],
    ['--star with --unstar', 'conv update 1 --star --unstar', 'give --star or --unstar, not both'],
    ['a bad message id', 'conv remove-messages 1 --message x', '--message "x" is not a message id'],
  ])('refuses %s with exit 2', async (_what, line, message) => {
    const r = await session().run(line, TEACHER);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(message);
  });
});

describe('lms conv send', () => {
  it('sends to one person and prints the conversation; to several, one conversation each', async () => {
    const lms = session();
    const one = json(
      (
        await lms.run(
          'conv send --to 8 --subject Safety --body "Goggles on Monday." -o json --fields ' +
            'subject,audience,message_count',
          TEACHER,
        )
      ).stdout,
    );
    expect(one).toEqual([{ subject: 'Safety', audience: [8], message_count: 1 }]);
    const body = file('note.txt', 'Reports are due Friday.\n');
    const many = json(
      (await lms.run(`conv send --to 7,9 --to 12 --body-file ${body} -o json --fields audience`, TEACHER)).stdout,
    ) as { audience: number[] }[];
    expect(many.map((c) => c.audience[0]).sort((a, b) => a - b)).toEqual([7, 9, 12]);
  });

  it('sends a group conversation with an attachment uploaded on the way', async () => {
    const lms = session();
    const path = file('plan.txt', 'Bench plan\n');
    const r = await lms.run(
      `conv send --to group_1 --group --context group_1 --subject Plan --body "See the plan." --attach ${path} -o json`,
      TEACHER,
    );
    expect(r.exitCode).toBe(0);
    const [c] = json(r.stdout) as {
      private: boolean;
      audience: number[];
      messages: { attachments: { display_name: string }[] }[];
    }[];
    expect(c.private).toBe(false);
    expect(c.audience).toEqual([7, 8, 11]);
    expect(c.messages[0].attachments.map((a) => a.display_name)).toEqual(['plan.txt']);
  });

  it('reads the body from stdin with --body-file -', async () => {
    const r = await session().run('conv send --to 7 --body-file - -o json --fields last_message', {
      ...TEACHER,
      stdin: 'From a pipe.',
    });
    expect(json(r.stdout)).toEqual([{ last_message: 'From a pipe.' }]);
  });

  it.each([
    ['no --to', 'conv send --body x', "required option '--to <recipient>' not specified"],
    ['a recipient of no known form', 'conv send --to bob --body x', 'recipient "bob" is not a user id'],
    ['no body', 'conv send --to 7', 'give the message as --body TEXT or --body-file FILE'],
    ['both body flags', 'conv send --to 7 --body x --body-file y', 'give --body or --body-file, not both'],
    ['--bulk without --group', 'conv send --to 7,8 --bulk --body x', '--bulk goes with --group'],
    ['--no-wait without --async', 'conv send --to 7,8 --no-wait --body x', '--no-wait goes with --async'],
    [
      '--async with one group conversation',
      'conv send --to 7,8 --group --async --body x',
      '--async sends one conversation per recipient',
    ],
    ['a missing attachment', 'conv send --to 7 --body x --attach /no/such/file', 'no such file: /no/such/file'],
  ])('refuses %s with exit 2, sending nothing', async (_what, line, message) => {
    const lms = session();
    const r = await lms.run(line, TEACHER);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(message);
    expect(json((await lms.run('conv list --scope sent -o json --fields id', TEACHER)).stdout)).toEqual([
      { id: 3 },
      { id: 2 },
      { id: 1 },
    ]);
  });

  it("exits 5 with the API's reason when it refuses the message", async () => {
    const r = await session().run('conv send --to course_4 --body x', { env: { LMS_TOKEN: '7~mock-sam' } });
    expect(r.exitCode).toBe(5);
    expect(r.stderr).toContain('restricted by role');
  });

  it(
    "messages the whole course as its teacher, and refuses a student's whole-course message with exit 5, sending " +
      'nothing',
    async () => {
      const lms = session();
      const SAM = { env: { LMS_TOKEN: '7~mock-sam' } };
      const sent = async () => json((await lms.run('conv list --scope sent -o json --fields id', SAM)).stdout);
      const before = await sent();
      for (const to of ['course_1_students', 'course_1']) {
        const r = await lms.run(`conv send --to ${to} --body Hello`, SAM);
        expect(r.exitCode, to).toBe(5);
        expect(r.stderr).toBe('error: POST /api/v1/conversations failed with 400: recipients: restricted by role\n');
        expect(r.stdout).toBe('');
      }
      expect(await sent()).toEqual(before);
      const teacher = await lms.run('conv send --to course_1_students --body Hello -o json --fields id', TEACHER);
      expect(teacher.exitCode, teacher.stderr).toBe(0);
      expect((json(teacher.stdout) as unknown[]).length).toBeGreaterThan(1);
    },
  );
});

describe('lms conv send --async', () => {
  it('follows the batch to its end and prints its outcome; -v prints lines with sent / total', async () => {
    const lms = session();
    generateSchool(lms.mock.db, { users: 200, courses: 1, now: '2026-11-01T00:00:00Z' });
    const r = await lms.run('conv send --to course_6_students --subject Welcome --body Hello --async -v -o json');
    expect(r.exitCode).toBe(0);
    expect(json(r.stdout)).toMatchObject({ workflow_state: 'sent', recipient_count: 200, completion: 1 });
    expect(r.stderr).toMatch(/batch \d+ 100% sent, 200\/200 sent/);
    expect(
      json((await lms.run('conv list --scope sent --filter course_6 --all -o json --fields id')).stdout),
    ).toHaveLength(200);
    expect(json((await lms.run('conv batches -o json')).stdout)).toEqual([]);
  });

  it('draws a bar on a terminal (sent / total, rate) and clears it at the end', async () => {
    const lms = session();
    generateSchool(lms.mock.db, { users: 100, courses: 1, now: '2026-11-01T00:00:00Z' });
    const r = await lms.run('conv send --to course_6 --body Hello --async -o json', { tty: true });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(/batch \d+ \[-+\] 0% created, 0\/100 sent/);
    expect(r.stderr).toMatch(/batch \d+ \[#+\] 100% sent, 100\/100 sent, \d+\/s/);
    expect(r.stderr.endsWith('\r\x1b[K')).toBe(true);
  });

  it.each(['conv send --to 7 --body Hello --async -o json', 'conv send --to 7 --body Hello --async --no-wait -o json'])(
    'to one recipient, %s: sent at once, the conversation printed, and a note saying so',
    async (line) => {
      const lms = session();
      const r = await lms.run(line, TEACHER);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stderr).toBe(
        'note: sent at once, with no batch: the instance delivers a message to one recipient (or one group ' +
          'conversation) right away, even with --async\n',
      );
      expect(json(r.stdout)).toEqual([expect.objectContaining({ id: expect.any(Number) })]);
    },
  );

  it('with --no-wait prints the batch id at once, and lms conv batches lists it while it runs', async () => {
    const lms = session();
    const r = await lms.run('conv send --to 7,8,9 --body Hello --async --no-wait -o json', TEACHER);
    expect(r.exitCode).toBe(0);
    const out = json(r.stdout) as { batch_id: number; workflow_state: string; recipient_count: number };
    expect(out).toMatchObject({ workflow_state: 'created', recipient_count: 3 });
    const running = json((await lms.run('conv batches -o json --fields id,workflow_state', TEACHER)).stdout);
    expect(running).toEqual([{ id: out.batch_id, workflow_state: 'created' }]);
    await lms.mock.jobs.idle();
    expect(json((await lms.run('conv batches -o json', TEACHER)).stdout)).toEqual([]);
  });
});

describe('following a batch', () => {
  it(
    'draws sent / total, the rate and the ETA from the ' + 'batches it reads, until the batch leaves the list',
    async () => {
      const io = fakeIO({ tty: true });
      const ctx = {
        io,
        env: {},
        globals: { verbose: false },
        activity: { pause: () => () => undefined },
      } as unknown as Context;
      const batch = (completion: number, state: ConversationBatch['workflow_state']) =>
        ({ id: 9, completion, workflow_state: state, recipient_count: 500 }) as ConversationBatch;
      const reads = [[batch(0, 'created')], [batch(0.5, 'sending')], []];
      const client = { ops: { conversations: { batches: async () => reads.shift() } } } as unknown as ApiClient;
      const clock = [0, 0, 0, 10_000, 10_000, 20_000, 20_000];
      const outcome = await watchBatch(ctx, client, 9, {
        label: 'batch 9',
        now: () => clock.shift() ?? 20_000,
        intervalMs: 1,
      });
      expect(outcome.state).toBe('sent');
      const lines = io.stderrText().split('\r\x1b[K').filter(Boolean);
      expect(lines).toEqual([
        'batch 9 [------------------------] 0% created, 0/500 sent',
        'batch 9 [############------------] 50% sending, 250/500 sent, 25/s, ETA 10s',
        'batch 9 [########################] 100% sent, 500/500 sent, 25/s',
      ]);
    },
  );
});

describe('lms conv batch', () => {
  it('applies an event through a Progress followed to the end', async () => {
    const lms = session();
    const r = await lms.run(
      'conv batch --ids 1,2 --ids 8 --event archive -v -o json --fields workflow_state,message',
      TEACHER,
    );
    expect(r.exitCode).toBe(0);
    expect(json(r.stdout)).toEqual({ workflow_state: 'completed', message: '3 items processed' });
    expect(r.stderr).toMatch(/archive 3 100% completed/);
    expect(json((await lms.run('conv list --scope archived -o json --fields id', TEACHER)).stdout)).toEqual([
      { id: 8 },
      { id: 2 },
      { id: 1 },
    ]);
  });

  it('exits 1 when no conversation could be changed, and returns at once with --no-wait', async () => {
    const lms = session();
    const r = await lms.run('conv batch --ids 4,6 --event star', TEACHER);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('The user is not participating in this conversation: 4, 6');
    const queued = await lms.run(
      'conv batch --ids 1 --event star --no-wait -o json --fields workflow_state,tag',
      TEACHER,
    );
    expect(json(queued.stdout)).toEqual({ workflow_state: 'queued', tag: 'conversation_batch_update' });
  });

  it('sends more than 500 ids from a file as several batches', async () => {
    const lms = session();
    generateSchool(lms.mock.db, { users: 520, courses: 1, now: '2026-11-01T00:00:00Z' });
    expect((await lms.run('conv send --to course_6_students --body Hello -o json --fields id')).exitCode).toBe(0);
    const ids = (
      json((await lms.run('conv list --filter course_6 --all -o json --fields id')).stdout) as { id: number }[]
    ).map((c) => c.id);
    expect(ids).toHaveLength(520);
    const path = file('ids.txt', ids.join('\n'));
    const r = await lms.run(`conv batch --ids-file ${path} --event mark_as_unread -o json --fields message`);
    expect(r.exitCode).toBe(0);
    expect(json(r.stdout)).toEqual([{ message: '500 items processed' }, { message: '20 items processed' }]);
  });

  it.each([
    ['no ids', 'conv batch --event star', 'give the conversations as --ids 1,2,3 or --ids-file FILE'],
    ['an id that is not one', 'conv batch --ids 1,x --event star', '"x" is not a conversation id'],
    ['an unknown event', 'conv batch --ids 1 --event explode', "argument 'explode' is invalid"],
  ])('refuses %s with exit 2', async (_what, line, message) => {
    const r = await session().run(line, TEACHER);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(message);
  });
});

describe('lms recipients search', () => {
  it('finds people and contexts, as a table or JSON', async () => {
    const lms = session();
    const table = await lms.run('recipients search lab', { ...TEACHER, tty: true });
    expect(table.stdout).toContain('BIO-101 Lab Online');
    expect(table.stdout).toContain('Lab Group 1');
    const people = json(
      (await lms.run('recipients search --context course_1_teachers -o json --fields id,full_name', TEACHER)).stdout,
    );
    expect(people).toEqual([{ id: 3, full_name: 'Tess Teacher' }]);
    const excluded = json(
      (await lms.run('recipients search --context section_2 --exclude 10,12 -o json --fields id', TEACHER)).stdout,
    );
    expect(excluded).toEqual([{ id: 9 }]);
    const deprecated = json((await lms.run('conv find-recipients sam -o json --fields id', TEACHER)).stdout);
    expect(deprecated).toEqual([{ id: 7 }]);
  });

  it('asks for a term, a context or a user', async () => {
    const r = await session().run('recipients search');
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('give a search term, --context or --user-id');
  });
});
