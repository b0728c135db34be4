// lms topics and lms announcements from the command line, against the in-memory mock.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { session } from '../helpers/run-lms.js';

const json = (s: string) => JSON.parse(s) as unknown;
const TEACHER = { env: { LMS_TOKEN: '3~mock-tteacher' } };
const SAM = { env: { LMS_TOKEN: '7~mock-sam' } };
const RAVI = { env: { LMS_TOKEN: '9~mock-ravi' } };

function file(name: string, content: string | Uint8Array): string {
  const dir = mkdtempSync(join(tmpdir(), 'lms-topics-'));
  writeFileSync(join(dir, name), content);
  return join(dir, name);
}

describe('lms topics list / get', () => {
  it.each([
    ['the topics of a course, as a student sees them', 'topics list --course 1', SAM, [2, 3, 4, 5, 6, 7, 9]],
    [
      'with drafts, as the teacher sees them',
      'topics list --course sis_course_id:BIO-101',
      TEACHER,
      [2, 3, 4, 5, 6, 7, 8, 9],
    ],
    ['announcements, through topics', 'topics list --course 1 --announcements', SAM, [1]],
    ['announcements, through their own noun', 'announcements list --course 2', SAM, [12]],
    ['a group', 'topics list --group 1', SAM, [10, 13]],
    ['by recent activity, locked only', 'topics list --course 1 --order-by recent_activity --scope locked', SAM, [7]],
    ['a search', 'topics list --course 1 --search safety', SAM, [4]],
  ])('lists %s', async (_what, line, options, ids) => {
    const r = await session().run(`${line} -o json --fields id`, options);
    expect(r.stderr).toBe('');
    expect(json(r.stdout)).toEqual(ids.map((id) => ({ id })));
  });

  it('shows a topic with the caller\u2019s own state, in any context', async () => {
    const lms = session();
    const t = json(
      (
        await lms.run(
          'topics get 4 --course 1 -o json --fields subscription_hold,user_can_see_posts,require_initial_post',
          RAVI,
        )
      ).stdout,
    );
    expect(t).toEqual({
      subscription_hold: 'initial_post_required',
      user_can_see_posts: false,
      require_initial_post: true,
    });
    expect(json((await lms.run('topics get 14 --collection-item 1 -o json --fields title')).stdout)).toEqual({
      title: 'Is this video accurate?',
    });
    expect(json((await lms.run('topics get 10 --group 1 -o json --fields root_topic_id', SAM)).stdout)).toEqual({
      root_topic_id: 9,
    });
  });

  it.each([
    ['no context', 'topics get 2', 'give one of --course, --group or --collection-item'],
    [
      'two contexts',
      'topics get 2 --course 1 --group 1',
      'give only one of --course, --group or --collection-item, not --course and --group',
    ],
    ['a collection item for a list', 'topics list --collection-item 1', "unknown option '--collection-item"],
    ['an unknown type', 'topics create --course 1 --title x --discussion-type flat', "argument 'flat' is invalid"],
    [
      'both message flags',
      'topics post 2 --course 1 --message a --message-file b',
      'give --message or --message-file, not both',
    ],
    ['no message', 'topics post 2 --course 1', 'give the message with --message or --message-file'],
    ['nothing to change', 'topics update 2 --course 1', 'nothing to change'],
    [
      '--due-at without --points',
      'topics create --course 1 --title x --due-at 2026-12-01',
      '--due-at goes with --points',
    ],
    ['--forced on a topic', 'topics read 2 --course 1 --forced', '--forced goes with an entry'],
    ['an entry delete without --yes', 'topics delete-entry 2 1 --course 1', 'pass --yes to confirm'],
  ])('refuses %s with exit 2', async (_what, line, message) => {
    const r = await session().run(line);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(message);
  });
});

describe('lms topics create / update / delete', () => {
  it("makes a teacher's topic a draft unless --publish, and publishes it later", async () => {
    const lms = session();
    const draft = json(
      (
        await lms.run(
          'topics create --course 1 --title "Week 10" --message "<p>Ch. 12</p>" --discussion-type threaded -o json',
          TEACHER,
        )
      ).stdout,
    ) as { id: number; published: boolean };
    expect(draft).toMatchObject({ published: false, discussion_type: 'threaded', posted_at: null });
    const live = json(
      (
        await lms.run(
          `topics update ${draft.id} --course 1 --publish --pinned -o json --fields published,pinned,posted_at`,
          TEACHER,
        )
      ).stdout,
    );
    expect(live).toEqual({ published: true, pinned: true, posted_at: '2026-11-02T12:00:00.000Z' });
    const published = json(
      (
        await lms.run(
          'topics create --course 1 --title Now --publish --require-initial-post --lock-at 2026-12-20T00:00:00Z -o ' +
            'json --fields published,require_initial_post,lock_at',
          TEACHER,
        )
      ).stdout,
    );
    expect(published).toEqual({ published: true, require_initial_post: true, lock_at: '2026-12-20T00:00:00.000Z' });
  });

  it('grades a topic with a new assignment, or with an existing one, and removes it', async () => {
    const lms = session();
    const graded = json(
      (
        await lms.run(
          'topics create --course 1 --title Debate --points 12 --due-at 2026-12-01T23:59:00Z --publish -o json',
          TEACHER,
        )
      ).stdout,
    ) as { id: number; assignment: { points_possible: number; due_at: string } };
    expect(graded.assignment).toMatchObject({
      points_possible: 12,
      due_at: '2026-12-01T23:59:00.000Z',
      name: 'Debate',
    });
    const linked = json(
      (
        await lms.run(
          'topics create --course 1 --title Essay --assignment-id 3 --publish -o json --fields assignment_id',
          TEACHER,
        )
      ).stdout,
    );
    expect(linked).toEqual({ assignment_id: 3 });
    const plain = json(
      (await lms.run(`topics update ${graded.id} --course 1 --ungraded -o json --fields assignment_id`, TEACHER))
        .stdout,
    );
    expect(plain).toEqual({ assignment_id: null });
  });

  it('posts an announcement with lms announcements create', async () => {
    const r = await session().run(
      'announcements create --course 1 --title "Lab moved" --message "<p>Room 204</p>" -o json --fields ' +
        'is_announcement,published',
      TEACHER,
    );
    expect(json(r.stdout)).toEqual({ is_announcement: true, published: true });
  });

  it(
    'warns when an announcement came out as a plain topic, ' + 'as the API makes it for those who may not post one',
    async () => {
      const r = await session().run(
        'announcements create --course 1 --title "Party" -o json --fields is_announcement',
        SAM,
      );
      expect(r.exitCode).toBe(0);
      expect(json(r.stdout)).toEqual({ is_announcement: false });
      expect(r.stderr).toMatch(
        /warning: you may not post announcements here, so the API created topic \d+ as a discussion topic instead/,
      );
    },
  );

  it('deletes a topic with --yes, answering the deleted record', async () => {
    const lms = session();
    const r = await lms.run('topics delete 7 --course 1 --yes -o json', TEACHER);
    expect(r.exitCode).toBe(0);
    expect(json(r.stdout)).toMatchObject({
      deleted_at: '2026-11-02T12:00:00.000Z',
      discussion_topic: { id: 7, workflow_state: 'deleted' },
    });
    expect((await lms.run('topics get 7 --course 1', TEACHER)).exitCode).toBe(4);
  });

  it(
    'maps refusals to exit codes: a student editing the ' + 'teacher\u2019s topic (3), a draft by a student (5)',
    async () => {
      const lms = session();
      expect((await lms.run('topics update 2 --course 1 --title Mine', SAM)).exitCode).toBe(3);
      const r = await lms.run('topics update 2 --course 1 --unpublish', SAM);
      expect(r.exitCode).toBe(3);
    },
  );
});

describe('lms topics post / reply / edit-entry / delete-entry / entries / replies', () => {
  it('posts from a file, from stdin and with an attachment, then replies and edits', async () => {
    const lms = session();
    const body = file('reply.html', '<p>A long answer</p>\n<p>in two paragraphs</p>\n');
    const fromFile = json((await lms.run(`topics post 3 --course 1 --message-file ${body} -o json`, SAM)).stdout) as {
      id: number;
      message: string;
    };
    expect(fromFile.message).toBe('<p>A long answer</p>\n<p>in two paragraphs</p>\n');
    const fromStdin = json(
      (
        await lms.run('topics post 3 --course 1 --message-file - -o json --fields message', {
          ...SAM,
          stdin: '<p>piped</p>',
        })
      ).stdout,
    );
    expect(fromStdin).toEqual({ message: '<p>piped</p>' });
    const attached = json(
      (await lms.run(`topics post 3 --course 1 --attach ${file('data.csv', 'a,b\n1,2\n')} -o json`, SAM)).stdout,
    ) as { attachment: Record<string, unknown> };
    expect(attached.attachment).toMatchObject({ 'content-type': 'text/csv', size: 8 });
    const reply = json(
      (
        await lms.run(
          `topics reply 3 ${fromFile.id} --course 1 --message "<p>Thanks</p>" -o json --fields parent_id,user_id`,
          TEACHER,
        )
      ).stdout,
    );
    expect(reply).toEqual({ parent_id: fromFile.id, user_id: 3 });
    const edited = json(
      (
        await lms.run(
          `topics edit-entry 3 ${fromFile.id} --course 1 --message "<p>Shorter</p>" -o json --fields message`,
          SAM,
        )
      ).stdout,
    );
    expect(edited).toEqual({ message: '<p>Shorter</p>' });
    const d = await lms.run(`topics delete-entry 3 ${fromFile.id} --course 1 --yes`, SAM);
    expect(d.stderr).toContain(`Deleted entry ${fromFile.id}.`);
    const listed = json(
      (await lms.run(`topics entries 3 --course 1 --id ${fromFile.id} -o json --fields id,deleted`, SAM)).stdout,
    );
    expect(listed).toEqual([{ id: fromFile.id, deleted: true }]);
  });

  it('lists entries newest first and replies of one entry', async () => {
    const lms = session();
    expect(json((await lms.run('topics entries 2 --course 1 -o json --fields id', SAM)).stdout)).toEqual([
      { id: 6 },
      { id: 4 },
      { id: 1 },
    ]);
    expect(json((await lms.run('topics replies 2 1 --course 1 -o json --fields id,parent_id', SAM)).stdout)).toEqual([
      { id: 3, parent_id: 2 },
      { id: 2, parent_id: 1 },
    ]);
  });

  it(
    'refuses a reply to a reply in a side_comment topic (exit 5), and a student\u2019s edit of another\u2019s ' +
      'entry (exit 3)',
    async () => {
      const lms = session();
      const deep = await lms.run('topics reply 3 8 --course 1 --message nested', SAM);
      expect(deep.exitCode).toBe(5);
      expect(deep.stderr).toContain('side_comment');
      expect((await lms.run('topics edit-entry 2 4 --course 1 --message mine', SAM)).exitCode).toBe(3);
    },
  );

  it('answers require_initial_post with exit 3 until the student has posted', async () => {
    const lms = session();
    const gated = await lms.run('topics entries 4 --course 1', RAVI);
    expect(gated.exitCode).toBe(3);
    expect(gated.stderr).toContain('require_initial_post');
    expect((await lms.run('topics post 4 --course 1 --message "<p>Gloves!</p>"', RAVI)).exitCode).toBe(0);
    expect(json((await lms.run('topics entries 4 --course 1 -o json --fields user_id', RAVI)).stdout)).toEqual([
      { user_id: 9 },
      { user_id: 8 },
      { user_id: 7 },
    ]);
  });
});

describe('lms topics view', () => {
  it('draws the thread as a tree on a terminal, unread marked', async () => {
    const lms = session();
    const r = await lms.run('topics view 2 --course 1', { ...SAM, tty: true });
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('  #1 2026-09-01 22:38  Sam: Hi, I am Sam, a second-year biology major.');
    expect(lines[1]).toBe('●   #2 2026-09-01 23:15  Sofia: Welcome Sam! Which lab section are you in?');
    expect(lines[2]).toBe('      #3 2026-09-01 23:52  Sam: Section A, Tuesday mornings.');
    expect(r.stdout).toContain('6 entries, 4 unread');
    // Viewing marked them read (Sam does not mark by hand).
    expect((await lms.run('topics view 2 --course 1', { ...SAM, tty: true })).stdout).toContain('6 entries, 0 unread');
  });

  it('gives the API\u2019s full view as JSON when piped', async () => {
    const r = await session().run('topics view 2 --course 1', SAM);
    const v = json(r.stdout) as { participants: unknown[]; view: { id: number }[]; unread_entries: number[] };
    expect(v.view.map((e) => e.id)).toEqual([1, 4, 6]);
    expect(v.unread_entries).toEqual([2, 4, 5, 6]);
    expect(v.participants).toHaveLength(5);
  });
});

describe('lms topics read / unread / read-all / unread-all / subscribe / unsubscribe', () => {
  it('changes the caller\u2019s state, seen in the next get', async () => {
    const lms = session();
    const hana = { env: { LMS_TOKEN: '12~mock-hana' } };
    const state = async () =>
      json((await lms.run('topics get 2 --course 1 -o json --fields read_state,unread_count,subscribed', hana)).stdout);
    expect(await state()).toEqual({ read_state: 'unread', unread_count: 5, subscribed: true });
    expect((await lms.run('topics read 2 --course 1', hana)).stderr).toBe('Marked topic 2 read.\n');
    expect((await lms.run('topics read 2 1 --course 1 --forced', hana)).stderr).toBe('Marked entry 1 read.\n');
    expect(await state()).toEqual({ read_state: 'read', unread_count: 4, subscribed: true });
    await lms.run('topics read-all 2 --course 1', hana);
    expect(await state()).toEqual({ read_state: 'read', unread_count: 0, subscribed: true });
    await lms.run('topics unread-all 2 --course 1 --forced', hana);
    await lms.run('topics unsubscribe 2 --course 1', hana);
    expect(await state()).toEqual({ read_state: 'unread', unread_count: 6, subscribed: false });
    expect((await lms.run('topics subscribe 2 --course 1', hana)).stderr).toBe('Subscribed to topic 2.\n');
    await lms.run('topics unread 2 --course 1', hana);
    expect(await state()).toEqual({ read_state: 'unread', unread_count: 6, subscribed: true });
  });

  it('refuses to subscribe to an announcement (exit 5): announcements have no subscribe verb', async () => {
    const lms = session();
    expect((await lms.run('topics subscribe 1 --course 1', SAM)).exitCode).toBe(5);
    expect((await lms.run('announcements subscribe 1 --course 1', SAM)).exitCode).toBe(2);
  });
});
