// The verbs of `lms topics` and of `lms announcements`, which are the same commands with
// announcements fixed on: one set of code, built twice.
import { item, list, text, type CommandSpec, type Verbs } from '../../cli/command.js';
import type { Context } from '../../cli/context.js';
import { command, contextFlags } from '../../cli/define.js';
import type { DiscussionType, FullTopicView, TopicContext, TopicFields } from '../../spec/types/discussions.js';
import { DISCUSSION_TYPES } from '../../spec/vocabulary.js';
import { UsageError } from '../../errors.js';
import { listOf, oneLine, recordsOf, textOf } from '../../output/text.js';

const TOPIC_COLUMNS = ['id', 'title', 'posted_at', 'published', 'locked', 'pinned', 'discussion_subentry_count', 'unread_count', 'read_state'];
const ENTRY_COLUMNS = ['id', 'user_name', 'parent_id', 'created_at', 'read_state', 'message'];

const where = {
  course: contextFlags.course,
  group: contextFlags.group,
  collectionItem: { flags: '--collection-item <id>', description: 'collection item id' },
} as const;
const listWhere = { course: contextFlags.course, group: contextFlags.group } as const;

type Where = { course?: string; group?: string; collectionItem?: string };

/** The one context the flags name, as the client takes it. */
function topicContext(opts: Where, names: (keyof Where)[] = ['course', 'group', 'collectionItem']): TopicContext {
  const flag = (n: keyof Where) => (n === 'collectionItem' ? '--collection-item' : `--${n}`);
  const given = names.filter((n) => opts[n] !== undefined && opts[n] !== '');
  if (given.length !== 1) {
    const all = names.map(flag);
    const choices = `${all.slice(0, -1).join(', ')} or ${all.at(-1)}`;
    throw new UsageError(given.length === 0 ? `give one of ${choices}` : `give only one of ${choices}, not ${given.map(flag).join(' and ')}`);
  }
  const id = opts[given[0]]!;
  return given[0] === 'course' ? { course_id: id } : given[0] === 'group' ? { group_id: id } : { collection_item_id: id };
}

const messageFlags = {
  message: { flags: '--message <html>', description: 'the message (HTML)', field: { name: 'message' } },
  messageFile: { file: 'read', flags: '--message-file <file>', description: 'read the message from a file, or - for stdin (long HTML bodies)' },
} as const;

/** The message from --message or --message-file (one of them; `required` when the verb needs one). */
async function messageOf(ctx: Context, opts: { message?: string; messageFile?: string }, required: boolean): Promise<string | undefined> {
  if (opts.message !== undefined && opts.messageFile !== undefined) throw new UsageError('give --message or --message-file, not both');
  if (opts.messageFile !== undefined) {
    const { readBoundedText, MAX_TEXT_BYTES } = await import('../../io/bounded.js');
    return readBoundedText(opts.messageFile, ctx.io.stdin, { limit: MAX_TEXT_BYTES, what: '--message-file' });
  }
  if (required && (opts.message === undefined || opts.message.trim() === '')) throw new UsageError('give the message with --message or --message-file');
  return opts.message;
}

async function attachmentOf(path: string | undefined): Promise<File | undefined> {
  if (path === undefined) return undefined;
  const [{ readFile, stat }, { basename }, { contentTypeFor }] = await Promise.all([import('node:fs/promises'), import('node:path'), import('../../mime.js')]);
  const info = await stat(path).catch(() => undefined);
  if (!info?.isFile()) throw new UsageError(`no such file: ${path}`);
  const name = basename(path);
  return new File([new Uint8Array(await readFile(path))], name, { type: contentTypeFor(name) });
}

/** A group discussion: one topic per group of a course's group set (lms groups list shows each group's group_category_id). */
const groupSet = { flags: '--group-set <id>', description: 'split it into a topic per group of this group set ("" for none, while nobody has posted)', field: { name: 'group_category_id', type: 'integer', clears: true } } as const;

const topicFlags = {
  ...messageFlags,
  discussionType: { flags: '--discussion-type <type>', description: 'threaded, or side_comment (one level of replies)', choices: DISCUSSION_TYPES, field: { name: 'discussion_type' } },
  requireInitialPost: { flags: '--require-initial-post', description: 'students see the others\' posts only after posting', field: { name: 'require_initial_post' } },
  pinned: { flags: '--pinned', description: 'pin it', field: { name: 'pinned' } },
  delayedPostAt: { flags: '--delayed-post-at <time>', description: 'post it at this time (ISO 8601; "" posts now)', field: { name: 'delayed_post_at', type: 'time', clears: true } },
  lockAt: { flags: '--lock-at <time>', description: 'lock it at this time (ISO 8601; "" removes the lock date)', field: { name: 'lock_at', type: 'time', clears: true } },
  assignmentId: { flags: '--assignment-id <id>', description: 'grade it with an existing assignment of the course', field: { name: 'assignment_id', type: 'integer' } },
  points: { flags: '--points <n>', description: 'grade it with a new assignment worth this many points' },
  dueAt: { flags: '--due-at <time>', description: 'due date of that new assignment' },
} as const;

type TopicOpts = {
  title?: string;
  message?: string;
  messageFile?: string;
  discussionType?: DiscussionType;
  requireInitialPost?: boolean;
  pinned?: boolean;
  delayedPostAt?: string;
  lockAt?: string;
  assignmentId?: string;
  points?: string;
  dueAt?: string;
  /** Topics only (announcements have no group set), so typed loosely where both meet. */
  groupSet?: unknown;
};

async function topicFields(ctx: Context, opts: TopicOpts): Promise<TopicFields> {
  const fields: TopicFields = {};
  if (opts.title !== undefined) fields.title = opts.title;
  const message = await messageOf(ctx, opts, false);
  if (message !== undefined) fields.message = message;
  if (opts.discussionType !== undefined) fields.discussion_type = opts.discussionType;
  if (opts.requireInitialPost) fields.require_initial_post = true;
  if (opts.pinned) fields.pinned = true;
  if (opts.delayedPostAt !== undefined) fields.delayed_post_at = opts.delayedPostAt;
  if (opts.lockAt !== undefined) fields.lock_at = opts.lockAt;
  if (typeof opts.groupSet === 'string') fields.group_category_id = opts.groupSet;
  if (opts.assignmentId !== undefined && opts.points !== undefined) throw new UsageError('give --assignment-id or --points, not both');
  if (opts.dueAt !== undefined && opts.points === undefined) throw new UsageError('--due-at goes with --points (a new assignment)');
  if (opts.assignmentId !== undefined) fields.assignment = { id: opts.assignmentId };
  if (opts.points !== undefined) {
    const points = Number(opts.points);
    if (opts.points.trim() === '' || !Number.isFinite(points) || points < 0) throw new UsageError(`--points takes a number of points, not "${opts.points}"`);
    fields.assignment = { points_possible: points, ...(opts.dueAt !== undefined ? { due_at: opts.dueAt } : {}) };
  }
  return fields;
}

/** First line of an HTML message as plain text, for a terminal. */
function firstLine(html: unknown, width = 72): string {
  const plain = textOf(html)
    .replace(/<br\s*\/?>|<\/p>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l !== '') ?? '';
  const characters = [...plain];
  return characters.length > width ? `${characters.slice(0, width - 1).join('')}…` : plain;
}

/**
 * The thread as an indented tree: author, time, first line, unread marked with a dot. Read as real
 * instances send it: entries of the documented shape have no created_at, deleted ones no user or
 * message, ids may be strings (in the entries and in unread_entries alike).
 */
export function renderThread(view: FullTopicView): string {
  const names = new Map(recordsOf(view.participants).map((p) => [textOf(p.id), textOf(p.display_name ?? p.name)]));
  const unread = new Set(listOf(view.unread_entries).map(textOf));
  const lines: string[] = [];
  const walk = (entries: unknown, depth: number) => {
    for (const e of recordsOf(entries)) {
      const id = textOf(e.id);
      const mark = unread.has(id) ? '●' : ' ';
      const when = textOf(e.created_at).slice(0, 16).replace('T', ' ');
      const author = e.user_id === null || e.user_id === undefined ? textOf(e.user_name) || 'unknown author' : names.get(textOf(e.user_id)) || textOf(e.user_name) || `user ${textOf(e.user_id)}`;
      const body = e.deleted === true ? '[deleted]' : `${author}: ${firstLine(e.message)}`;
      lines.push(oneLine(`${mark} ${'  '.repeat(depth)}#${id}${when ? ` ${when}` : ''}  ${body}`));
      walk(e.replies, depth + 1);
    }
  };
  walk(view.view, 0);
  if (listOf(view.new_entries).length) {
    lines.push('', 'new since the view was built:');
    walk(view.new_entries, 1);
  }
  const count = (es: unknown): number => recordsOf(es).reduce((n, e) => n + 1 + count(e.replies), 0);
  lines.push('', `${count(view.view)} entries, ${unread.size} unread (● marks unread)`);
  return `${lines.join('\n')}\n`;
}

export function topicVerbs(announcements: boolean): Verbs {
  const noun = announcements ? 'announcements' : 'topics';
  const what = announcements ? 'announcement' : 'topic';
  const aWhat = announcements ? 'an announcement' : 'a topic';
  const ex = (rest: string) => `lms ${noun} ${rest}`;
  // Help examples run against the seeded school: topic 2 (or announcement 1) of course 1.
  const T = announcements ? '1' : '2';
  const E = announcements ? '33' : '1';

  const listTopics = command({
    name: 'list',
    summary: announcements ? 'List the announcements of a course or group' : 'List the discussion topics of a course or group',
    aliases: ['ls'],
    routes: ['discussions.listTopics', 'discussions.listGroupTopics'],
    columns: TOPIC_COLUMNS,
    options: {
      ...listWhere,
      search: { flags: '--search <text>', description: 'titles containing this text' },
      orderBy: { flags: '--order-by <order>', description: 'position (default) or recent_activity', choices: ['position', 'recent_activity'] },
      scope: { flags: '--scope <scope>', description: 'only locked or only unlocked ones', choices: ['locked', 'unlocked'] },
      ...(announcements ? {} : { announcements: { flags: '--announcements', description: 'list announcements instead (as lms announcements list)' } }),
    },
    examples: [ex('list --course 1'), ex('list --course sis_course_id:BIO-101 --order-by recent_activity -o json'), ...(announcements ? [] : [ex('list --group 1')])],
    async run({ opts, ctx }) {
      const c = topicContext(opts, ['course', 'group']);
      const filter = {
        search_term: opts.search,
        order_by: opts.orderBy,
        scope: opts.scope,
        only_announcements: announcements || (opts as { announcements?: boolean }).announcements ? true : undefined,
      };
      const d = (await ctx.client()).ops.discussions;
      const items = 'course_id' in c ? d.listTopics({ ...c, ...filter }, { limit: ctx.pageLimit() }) : d.listGroupTopics({ ...(c as { group_id: string }), ...filter }, { limit: ctx.pageLimit() });
      return list(items);
    },
  });

  const getTopic = command({
    name: `get <${what}>`,
    argIds: { [what]: what },
    summary: `Show one ${what} with your read state, unread count and subscription`,
    routes: ['discussions.getTopic@courses', 'discussions.getTopic@groups', 'discussions.getTopic@collection_items'],
    columns: TOPIC_COLUMNS,
    options: where,
    examples: [ex(`get ${T} --course 1`), ...(announcements ? [] : [ex('get 14 --collection-item 1')])],
    async run({ args, opts, ctx }) {
      return item(await (await ctx.client()).ops.discussions.getTopic({ ...topicContext(opts), topic_id: args[0] }));
    },
  });

  const createTopic = command({
    name: 'create',
    summary: announcements ? 'Post an announcement (needs the right to post announcements)' : "Create a topic (a teacher's is a draft unless --publish)",
    routes: ['discussions.createTopic@courses', 'discussions.createTopic@groups', 'discussions.createTopic@collection_items'],
    writes: 'create',
    columns: TOPIC_COLUMNS,
    options: {
      ...where,
      title: { flags: '--title <title>', description: 'the title', required: true, field: { name: 'title' } },
      ...topicFlags,
      ...(announcements ? {} : { publish: { flags: '--publish', description: 'publish it now (without it a teacher\'s topic is a draft)', field: { name: 'published' } }, groupSet }),
    },
    examples: announcements
      ? [ex('create --course 1 --title "Lab moved to room 204" --message "<p>From Tuesday.</p>"')]
      : [
          ex('create --course 1 --title "Week 10 reading" --message "<p>Chapter 12</p>" --discussion-type threaded --publish'),
          ex('create --course 1 --title "Peer review" --points 10 --due-at 2026-12-01T23:59:00Z --require-initial-post --publish'),
          ex('create --course 1 --title "Bench plans" --group-set 1 --publish'),
        ],
    async run({ opts, ctx }) {
      const fields = await topicFields(ctx, opts);
      if (announcements) fields.is_announcement = true;
      else if ((opts as { publish?: boolean }).publish) fields.published = true;
      const created = await (await ctx.client()).ops.discussions.createTopic({ ...topicContext(opts), ...fields });
      // The API does not refuse an announcement from someone who may not post one: it makes a topic.
      if (announcements && !created.is_announcement) ctx.warn(`you may not post announcements here, so the API created topic ${created.id} as a discussion topic instead`);
      return item(created);
    },
  });

  const updateTopic = command({
    name: `update <${what}>`,
    argIds: { [what]: what },
    summary: announcements ? 'Change an announcement: title, message, type, dates, pin, lock' : 'Change a topic: title, message, type, dates, pin, lock, publication, grading',
    routes: ['discussions.updateTopic@courses', 'discussions.updateTopic@groups', 'discussions.updateTopic@collection_items'],
    writes: 'update',
    columns: TOPIC_COLUMNS,
    options: {
      ...where,
      title: { flags: '--title <title>', description: 'a new title', field: { name: 'title' } },
      ...topicFlags,
      unpin: { flags: '--unpin', description: 'unpin it', field: { name: 'pinned', value: false } },
      lock: { flags: '--lock', description: 'lock it now', field: { name: 'locked' } },
      unlock: { flags: '--unlock', description: 'unlock it', field: { name: 'locked', value: false } },
      ...(announcements
        ? {}
        : {
            publish: { flags: '--publish', description: 'publish a draft', field: { name: 'published' } },
            unpublish: { flags: '--unpublish', description: 'make it a draft again (only while nobody has posted)', field: { name: 'published', value: false } },
            ungraded: { flags: '--ungraded', description: 'remove its assignment: a plain discussion again', field: { name: 'assignment_id', value: null } },
            groupSet,
          }),
    },
    examples: [ex(`update ${T} --course 1 --title "Introductions" --pinned`), ...(announcements ? [] : [ex('update 8 --course 1 --publish')])],
    async run({ args, opts, ctx }) {
      const o = opts as typeof opts & { publish?: boolean; unpublish?: boolean; ungraded?: boolean };
      if (o.pinned && o.unpin) throw new UsageError('give --pinned or --unpin, not both');
      if (o.lock && o.unlock) throw new UsageError('give --lock or --unlock, not both');
      if (o.publish && o.unpublish) throw new UsageError('give --publish or --unpublish, not both');
      if (o.ungraded && (o.points !== undefined || o.assignmentId !== undefined)) throw new UsageError('--ungraded cannot go with --points or --assignment-id');
      const fields = await topicFields(ctx, o);
      if (o.unpin) fields.pinned = false;
      if (o.lock) fields.locked = true;
      if (o.unlock) fields.locked = false;
      if (o.publish) fields.published = true;
      if (o.unpublish) fields.published = false;
      if (o.ungraded) fields.assignment = { set_assignment: false };
      if (Object.keys(fields).length === 0) throw new UsageError('nothing to change: give at least one flag (see --help)');
      return item(await (await ctx.client()).ops.discussions.updateTopic({ ...topicContext(o), topic_id: args[0], ...fields }));
    },
  });

  const deleteTopic = command({
    name: `delete <${what}>`,
    argIds: { [what]: what },
    summary: announcements ? 'Delete an announcement' : 'Delete a topic (and its assignment, if graded)',
    routes: ['discussions.deleteTopic@courses', 'discussions.deleteTopic@groups', 'discussions.deleteTopic@collection_items'],
    writes: 'delete',
    options: where,
    examples: [ex(`delete ${T} --course 1 --yes`)],
    async run({ args, opts, ctx }) {
      const c = topicContext(opts);
      await ctx.confirm(`Delete ${what} ${args[0]}`);
      return item(await (await ctx.client()).ops.discussions.deleteTopic({ ...c, topic_id: args[0] }));
    },
  });

  const view = command({
    name: `view <${what}>`,
    summary: 'The whole thread: an indented tree on a terminal (unread marked), the API\'s full view as JSON otherwise',
    routes: ['discussions.viewTopic@courses', 'discussions.viewTopic@groups', 'discussions.viewTopic@collection_items'],
    options: { ...where, newEntries: { flags: '--new-entries', description: 'while the server rebuilds the view, take it with the entries posted since' } },
    examples: [ex(`view ${T} --course 1`), ex(`view ${T} --course 1 -o json`)],
    async run({ args, opts, ctx }) {
      const v = await (await ctx.client()).ops.discussions.viewTopic({ ...topicContext(opts), topic_id: args[0], include_new_entries: opts.newEntries ? 1 : undefined });
      const format = ctx.globals.output ?? (ctx.io.stdoutIsTTY ? 'table' : 'json');
      return format === 'table' ? text(renderThread(v)) : item(v);
    },
  });

  const entries = command({
    name: `entries <${what}>`,
    summary: 'Top-level entries, newest first, each with its ten newest replies; with --id, those entries (deleted ones too)',
    routes: [
      'discussions.listEntries@courses', 'discussions.listEntries@groups', 'discussions.listEntries@collection_items',
      'discussions.entryList@courses', 'discussions.entryList@groups', 'discussions.entryList@collection_items',
    ],
    columns: ENTRY_COLUMNS,
    options: { ...where, id: { flags: '--id <entry>', description: 'only this entry (repeatable), in id order', repeatable: true } },
    examples: [ex(`entries ${T} --course 1`), ex(`entries ${T} --course 1 --id ${E}${announcements ? '' : ' --id 4'} -o json`)],
    async run({ args, opts, ctx }) {
      const d = (await ctx.client()).ops.discussions;
      const on = { ...topicContext(opts), topic_id: args[0] };
      return list(opts.id?.length ? d.entryList({ ...on, ids: opts.id }, { limit: ctx.pageLimit() }) : d.listEntries(on, { limit: ctx.pageLimit() }));
    },
  });

  const replies = command({
    name: `replies <${what}> <entry>`,
    summary: 'Every reply under a top-level entry, newest first',
    routes: ['discussions.listReplies@courses', 'discussions.listReplies@groups', 'discussions.listReplies@collection_items'],
    columns: ENTRY_COLUMNS,
    options: where,
    examples: [ex(`replies ${announcements ? '1' : '3'} ${announcements ? E : '7'} --course 1`)],
    async run({ args, opts, ctx }) {
      return list((await ctx.client()).ops.discussions.listReplies({ ...topicContext(opts), topic_id: args[0], entry_id: args[1] }, { limit: ctx.pageLimit() }));
    },
  });

  const postFlags = { ...where, ...messageFlags, attach: { file: 'uploaded', flags: '--attach <file>', description: 'attach a file' } } as const;

  const post = command({
    name: `post <${what}>`,
    summary: 'Post an entry (the initial post a topic may require), optionally with a file',
    routes: ['discussions.createEntry@courses', 'discussions.createEntry@groups', 'discussions.createEntry@collection_items'],
    columns: ENTRY_COLUMNS,
    options: postFlags,
    examples: [ex(`post ${T} --course 1 --message "<p>Hello from section A</p>"`), ex(`post ${T} --course 1 --message-file notes.txt --attach avatar.png`)],
    async run({ args, opts, ctx }) {
      const message = await messageOf(ctx, opts, opts.attach === undefined);
      const attachment = await attachmentOf(opts.attach);
      return item(await (await ctx.client()).ops.discussions.createEntry({ ...topicContext(opts), topic_id: args[0], message, attachment }));
    },
  });

  const reply = command({
    name: `reply <${what}> <entry>`,
    summary: 'Reply to an entry (a side_comment topic takes replies to top-level entries only)',
    routes: ['discussions.createReply@courses', 'discussions.createReply@groups', 'discussions.createReply@collection_items'],
    columns: ENTRY_COLUMNS,
    options: postFlags,
    examples: [ex(`reply ${T} ${E} --course 1 --message "<p>Agreed.</p>"`)],
    async run({ args, opts, ctx }) {
      const message = await messageOf(ctx, opts, opts.attach === undefined);
      const attachment = await attachmentOf(opts.attach);
      return item(await (await ctx.client()).ops.discussions.createReply({ ...topicContext(opts), topic_id: args[0], entry_id: args[1], message, attachment }));
    },
  });

  const editEntry = command({
    name: `edit-entry <${what}> <entry>`,
    summary: 'Change an entry\'s message (its author, or a moderator)',
    routes: ['discussions.updateEntry@courses', 'discussions.updateEntry@groups', 'discussions.updateEntry@collection_items'],
    columns: ENTRY_COLUMNS,
    options: { ...where, ...messageFlags },
    examples: [ex(`edit-entry ${T} ${E} --course 1 --message "<p>Edited</p>"`)],
    async run({ args, opts, ctx }) {
      const message = (await messageOf(ctx, opts, true))!;
      return item(await (await ctx.client()).ops.discussions.updateEntry({ ...topicContext(opts), topic_id: args[0], id: args[1], message }));
    },
  });

  const deleteEntry = command({
    name: `delete-entry <${what}> <entry>`,
    summary: 'Delete an entry (its author, or a moderator); its replies stay',
    routes: ['discussions.deleteEntry@courses', 'discussions.deleteEntry@groups', 'discussions.deleteEntry@collection_items'],
    options: where,
    examples: [ex(`delete-entry ${T} ${E} --course 1 --yes`)],
    async run({ args, opts, ctx }) {
      const c = topicContext(opts);
      await ctx.confirm(`Delete entry ${args[1]} of ${what} ${args[0]}`);
      await (await ctx.client()).ops.discussions.deleteEntry({ ...c, topic_id: args[0], id: args[1] });
      ctx.io.stderr.write(`Deleted entry ${args[1]}.\n`);
      return undefined;
    },
  });

  const forcedFlag = { forced: { flags: '--forced', description: 'set forced_read_state: viewing will not change it' } } as const;

  const mark = (state: 'read' | 'unread') =>
    command({
      name: `${state} <${what}> [entry]`,
      summary: `Mark the ${what}'s own text ${state}, or with ENTRY that entry`,
      routes: (['courses', 'groups', 'collection_items'] as const).flatMap((c) => [
        `discussions.markTopic${state === 'read' ? 'Read' : 'Unread'}@${c}` as const,
        `discussions.markEntry${state === 'read' ? 'Read' : 'Unread'}@${c}` as const,
      ]),
      options: { ...where, ...forcedFlag },
      examples: [ex(`${state} ${T} --course 1`), ex(`${state} ${T} ${E} --course 1 --forced`)],
      async run({ args, opts, ctx }) {
        const d = (await ctx.client()).ops.discussions;
        const on = { ...topicContext(opts), topic_id: args[0] };
        if (args[1] === undefined) {
          if (opts.forced) throw new UsageError('--forced goes with an entry');
          await (state === 'read' ? d.markTopicRead(on) : d.markTopicUnread(on));
          ctx.io.stderr.write(`Marked ${what} ${args[0]} ${state}.\n`);
        } else {
          const entry = { ...on, entry_id: args[1], forced_read_state: opts.forced ? true : undefined };
          await (state === 'read' ? d.markEntryRead(entry) : d.markEntryUnread(entry));
          ctx.io.stderr.write(`Marked entry ${args[1]} ${state}.\n`);
        }
        return undefined;
      },
    });

  const markAll = (state: 'read' | 'unread') =>
    command({
      name: `${state}-all <${what}>`,
      summary: `Mark the ${what} and all its entries ${state}`,
      routes: (['courses', 'groups', 'collection_items'] as const).map((c) => `discussions.markAll${state === 'read' ? 'Read' : 'Unread'}@${c}` as const),
      options: { ...where, ...forcedFlag },
      examples: [ex(`${state}-all ${T} --course 1`)],
      async run({ args, opts, ctx }) {
        const d = (await ctx.client()).ops.discussions;
        const on = { ...topicContext(opts), topic_id: args[0], forced_read_state: opts.forced ? true : undefined };
        await (state === 'read' ? d.markAllRead(on) : d.markAllUnread(on));
        ctx.io.stderr.write(`Marked ${what} ${args[0]} and its entries ${state}.\n`);
        return undefined;
      },
    });

  const subscription = (on: boolean) =>
    command({
      name: `${on ? 'subscribe' : 'unsubscribe'} <${what}>`,
      summary: on ? `Be notified of new entries in ${aWhat}` : `Stop notifications of new entries in ${aWhat}`,
      routes: (['courses', 'groups', 'collection_items'] as const).map((c) => `discussions.${on ? 'subscribe' : 'unsubscribe'}@${c}` as const),
      options: where,
      examples: [ex(`${on ? 'subscribe' : 'unsubscribe'} ${T} --course 1`)],
      async run({ args, opts, ctx }) {
        const d = (await ctx.client()).ops.discussions;
        const target = { ...topicContext(opts), topic_id: args[0] };
        await (on ? d.subscribe(target) : d.unsubscribe(target));
        ctx.io.stderr.write(`${on ? 'Subscribed to' : 'Unsubscribed from'} ${what} ${args[0]}.\n`);
        return undefined;
      },
    });

  return [
    listTopics, getTopic, createTopic, updateTopic, deleteTopic, view, entries, replies, post, reply, editEntry, deleteEntry,
    mark('read'), mark('unread'), markAll('read'), markAll('unread'),
    // Announcements hold every subscription (subscription_hold topic_is_announcement): no verbs for it there.
    ...(announcements ? [] : [subscription(true), subscription(false)]),
  ] as CommandSpec<never>[] as Verbs;
}
