// The verbs of `lms topics` and of `lms announcements`, which are the same commands with
// announcements fixed on: one set of code, built twice.
import { shownFormat, item, list, text, type CommandSpec, type Verbs } from '../../model/command.js';
import type { Context } from '../../model/context.js';
import { command, contextFlags } from '../../model/define.js';
import type { DiscussionType, FullTopicView, TopicContext, TopicFields } from '../../spec/types/discussions.js';
import { DISCUSSION_TYPES } from '../../spec/vocabulary.js';
import { UsageError } from '../../errors.js';
import { listOf, oneLine, recordsOf, textOf } from '../../output/text.js';

const TOPIC_COLUMNS = [
  'id',
  'title',
  'posted_at',
  'published',
  'locked',
  'pinned',
  'discussion_subentry_count',
  'unread_count',
  'read_state',
];
const ENTRY_COLUMNS = ['id', 'user_name', 'parent_id', 'created_at', 'read_state', 'message'];

const where = {
  course: contextFlags.course,
  group: contextFlags.group,
  collectionItem: { long: 'collection-item', value: 'id', description: 'collection item id' },
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
    throw new UsageError(
      given.length === 0
        ? `give one of ${choices}`
        : `give only one of ${choices}, not ${given.map(flag).join(' and ')}`,
    );
  }
  const id = opts[given[0]]!;
  return given[0] === 'course'
    ? { course_id: id }
    : given[0] === 'group'
      ? { group_id: id }
      : { collection_item_id: id };
}

const messageFlags = {
  message: { long: 'message', value: 'html', description: 'the message (HTML)', field: { name: 'message' } },
  messageFile: {
    file: 'read',
    long: 'message-file',
    value: 'file',
    description: 'read the message from a file, or - for stdin (long HTML bodies)',
  },
} as const;

/** The message from --message or --message-file (one of them; `required` when the verb needs one). */
async function messageOf(
  ctx: Context,
  opts: { message?: string; messageFile?: string },
  required: boolean,
): Promise<string | undefined> {
  if (opts.message !== undefined && opts.messageFile !== undefined)
    throw new UsageError('give --message or --message-file, not both');
  if (opts.messageFile !== undefined) {
    const { readBoundedText, MAX_TEXT_BYTES } = await import('../../io/bounded.js');
    return readBoundedText(ctx.input(opts.messageFile), ctx.io.stdin, {
      limit: MAX_TEXT_BYTES,
      what: '--message-file',
    });
  }
  if (required && (opts.message === undefined || opts.message.trim() === ''))
    throw new UsageError('give the message with --message or --message-file');
  return opts.message;
}

async function attachmentOf(path: string | undefined): Promise<File | undefined> {
  if (path === undefined) return undefined;
  const [{ readFile, stat }, { basename }, { contentTypeFor }] = await Promise.all([
    import('node:fs/promises'),
    import('node:path'),
    import('../../mime.js'),
  ]);
  const info = await stat(path).catch(() => undefined);
  if (!info?.isFile()) throw new UsageError(`no such file: ${path}`);
  const name = basename(path);
  return new File([new Uint8Array(await readFile(path))], name, { type: contentTypeFor(name) });
}

/**
 * A group discussion: one topic per group of a course's group set (lms groups list shows each group's
 * group_category_id).
 */
const groupSet = {
  long: 'group-set',
  value: 'id',
  description: 'split it into a topic per group of this group set ("" for none, while nobody has posted)',
  field: { name: 'group_category_id', type: 'integer', clears: true },
} as const;

const topicFlags = {
  ...messageFlags,
  discussionType: {
    long: 'discussion-type',
    value: 'type',
    description: 'threaded, or side_comment (one level of replies)',
    choices: DISCUSSION_TYPES,
    field: { name: 'discussion_type' },
  },
  requireInitialPost: {
    long: 'require-initial-post',
    description: "students see the others' posts only after posting",
    field: { name: 'require_initial_post' },
  },
  pinned: { long: 'pinned', description: 'pin it', field: { name: 'pinned' } },
  delayedPostAt: {
    long: 'delayed-post-at',
    value: 'time',
    description: 'post it at this time (ISO 8601; "" posts now)',
    field: { name: 'delayed_post_at', type: 'time', clears: true },
  },
  lockAt: {
    long: 'lock-at',
    value: 'time',
    description: 'lock it at this time (ISO 8601; "" removes the lock date)',
    field: { name: 'lock_at', type: 'time', clears: true },
  },
  assignmentId: {
    long: 'assignment-id',
    value: 'id',
    description: 'grade it with an existing assignment of the course',
    field: { name: 'assignment_id', type: 'integer' },
  },
  points: {
    long: 'points',
    value: 'n',
    description: 'grade it with a new assignment worth this many points',
    type: 'number',
    min: 0,
  },
  dueAt: { long: 'due-at', value: 'time', description: 'due date of that new assignment' },
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
  points?: number;
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
  if (opts.assignmentId !== undefined && opts.points !== undefined)
    throw new UsageError('give --assignment-id or --points, not both');
  if (opts.dueAt !== undefined && opts.points === undefined)
    throw new UsageError('--due-at goes with --points (a new assignment)');
  if (opts.assignmentId !== undefined) fields.assignment = { id: opts.assignmentId };
  if (opts.points !== undefined)
    fields.assignment = { points_possible: opts.points, ...(opts.dueAt !== undefined ? { due_at: opts.dueAt } : {}) };
  return fields;
}

/** First line of an HTML message as plain text, for a terminal. */
function firstLine(html: unknown, width = 72): string {
  const plain =
    textOf(html)
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
function renderThread(view: FullTopicView): string {
  const names = new Map(recordsOf(view.participants).map((p) => [textOf(p.id), textOf(p.display_name ?? p.name)]));
  const unread = new Set(listOf(view.unread_entries).map(textOf));
  const lines: string[] = [];
  const walk = (entries: unknown, depth: number) => {
    for (const e of recordsOf(entries)) {
      const id = textOf(e.id);
      const mark = unread.has(id) ? '●' : ' ';
      const when = textOf(e.created_at).slice(0, 16).replace('T', ' ');
      const author =
        e.user_id === null || e.user_id === undefined
          ? textOf(e.user_name) || 'unknown author'
          : names.get(textOf(e.user_id)) || textOf(e.user_name) || `user ${textOf(e.user_id)}`;
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

/** Flags only `lms topics` has: announcements are never drafts, graded or split by group set. */
export const TOPIC_ONLY_FLAGS = {
  list: {
    announcements: { long: 'announcements', description: 'list announcements instead (as lms announcements list)' },
  },
  create: {
    publish: {
      long: 'publish',
      description: "publish it now (without it a teacher's topic is a draft)",
      field: { name: 'published' },
    },
    groupSet,
  },
  update: {
    publish: { long: 'publish', description: 'publish a draft', field: { name: 'published' } },
    unpublish: {
      long: 'unpublish',
      description: 'make it a draft again (only while nobody has posted)',
      field: { name: 'published', value: false },
    },
    ungraded: {
      long: 'ungraded',
      description: 'remove its assignment: a plain discussion again',
      field: { name: 'assignment_id', value: null },
    },
    groupSet,
  },
} as const;

type NoFlags = Record<never, never>;

/**
 * What tells one noun of discussion topics from the other. An announcement is a topic the API marks
 * as one, so `lms topics` and `lms announcements` share every verb below and differ only in this.
 */
export interface TopicNoun {
  name: 'topics' | 'announcements';
  /** What one is called in arguments, summaries and messages. */
  one: 'topic' | 'announcement';
  /** The same with its article. */
  aOne: string;
  summaries: { list: string; create: string; update: string; delete: string };
  /** Flags after the shared ones. */
  flags: {
    list: NoFlags | typeof TOPIC_ONLY_FLAGS.list;
    create: NoFlags | typeof TOPIC_ONLY_FLAGS.create;
    update: NoFlags | typeof TOPIC_ONLY_FLAGS.update;
  };
  /** Lists hold only these (`lms topics list --announcements` asks for the same). */
  onlyAnnouncements: boolean;
  /** Set on what it creates. The API may quietly not honour it, which create then says. */
  created: Pick<TopicFields, 'is_announcement'>;
  /** Subscriptions can be changed (announcements hold every one: subscription_hold topic_is_announcement). */
  subscribable: boolean;
  /**
   * Help examples run against the seeded school: `topic` and its `entry` in course 1; `entryIds`
   * for `entries --id`, `replies` the topic and entry that `replies` shows.
   */
  seeded: { topic: string; entry: string; entryIds: string; replies: string };
  /** Examples after the shared ones (create's are all its own); each is what follows `lms NOUN`. */
  examples: { list: string[]; get: string[]; create: string[]; update: string[] };
}

const example = (n: TopicNoun) => (rest: string) => `lms ${n.name} ${rest}`;

/** Every verb of one noun, in the order help lists them. */
export function topicVerbs(n: TopicNoun): Verbs {
  return [
    listVerb(n),
    getVerb(n),
    createVerb(n),
    updateVerb(n),
    deleteVerb(n),
    viewVerb(n),
    entriesVerb(n),
    repliesVerb(n),
    postVerb(n),
    replyVerb(n),
    editEntryVerb(n),
    deleteEntryVerb(n),
    markVerb(n, 'read'),
    markVerb(n, 'unread'),
    markAllVerb(n, 'read'),
    markAllVerb(n, 'unread'),
    ...(n.subscribable ? [subscriptionVerb(n, true), subscriptionVerb(n, false)] : []),
  ] as CommandSpec<never>[] as Verbs;
}

function listVerb(n: TopicNoun) {
  const ex = example(n);
  return command({
    name: 'list',
    summary: n.summaries.list,
    aliases: ['ls'],
    routes: ['discussions.listTopics', 'discussions.listGroupTopics'],
    columns: TOPIC_COLUMNS,
    options: {
      ...listWhere,
      search: { long: 'search', value: 'text', description: 'titles containing this text' },
      orderBy: {
        long: 'order-by',
        value: 'order',
        description: 'position (default) or recent_activity',
        choices: ['position', 'recent_activity'],
      },
      scope: {
        long: 'scope',
        value: 'scope',
        description: 'only locked or only unlocked ones',
        choices: ['locked', 'unlocked'],
      },
      ...n.flags.list,
    },
    examples: [
      ex('list --course 1'),
      ex('list --course sis_course_id:BIO-101 --order-by recent_activity -o json'),
      ...n.examples.list.map(ex),
    ],
    async run({ opts, ctx }) {
      const c = topicContext(opts, ['course', 'group']);
      const filter = {
        search_term: opts.search,
        order_by: opts.orderBy,
        scope: opts.scope,
        only_announcements:
          n.onlyAnnouncements || (opts as { announcements?: boolean }).announcements ? true : undefined,
      };
      const d = (await ctx.client()).ops.discussions;
      const items =
        'course_id' in c
          ? d.listTopics({ ...c, ...filter }, { limit: ctx.pageLimit() })
          : d.listGroupTopics({ ...(c as { group_id: string }), ...filter }, { limit: ctx.pageLimit() });
      return list(items);
    },
  });
}

function getVerb(n: TopicNoun) {
  const ex = example(n);
  return command({
    name: 'get',
    args: [{ name: n.one }],
    argIds: { [n.one]: n.one },
    summary: `Show one ${n.one} with your read state, unread count and subscription`,
    routes: ['discussions.getTopic@courses', 'discussions.getTopic@groups', 'discussions.getTopic@collection_items'],
    columns: TOPIC_COLUMNS,
    options: where,
    examples: [ex(`get ${n.seeded.topic} --course 1`), ...n.examples.get.map(ex)],
    async run({ args, opts, ctx }) {
      return item(await (await ctx.client()).ops.discussions.getTopic({ ...topicContext(opts), topic_id: args[0] }));
    },
  });
}

function createVerb(n: TopicNoun) {
  return command({
    name: 'create',
    summary: n.summaries.create,
    routes: [
      'discussions.createTopic@courses',
      'discussions.createTopic@groups',
      'discussions.createTopic@collection_items',
    ],
    writes: 'create',
    columns: TOPIC_COLUMNS,
    options: {
      ...where,
      title: { long: 'title', value: 'title', description: 'the title', required: true, field: { name: 'title' } },
      ...topicFlags,
      ...n.flags.create,
    },
    examples: n.examples.create.map(example(n)),
    async run({ opts, ctx }) {
      const fields = await topicFields(ctx, opts);
      if ((opts as { publish?: boolean }).publish) fields.published = true;
      Object.assign(fields, n.created);
      const created = await (await ctx.client()).ops.discussions.createTopic({ ...topicContext(opts), ...fields });
      // The API does not refuse an announcement from someone who may not post one: it makes a topic.
      if (n.created.is_announcement && !created.is_announcement)
        ctx.warn(
          `you may not post announcements here, so the API created topic ${created.id} as a discussion topic instead`,
        );
      return item(created);
    },
  });
}

type UpdateOpts = TopicOpts & {
  unpin?: boolean;
  lock?: boolean;
  unlock?: boolean;
  publish?: boolean;
  unpublish?: boolean;
  ungraded?: boolean;
};

function updateVerb(n: TopicNoun) {
  const ex = example(n);
  return command({
    name: 'update',
    args: [{ name: n.one }],
    argIds: { [n.one]: n.one },
    summary: n.summaries.update,
    routes: [
      'discussions.updateTopic@courses',
      'discussions.updateTopic@groups',
      'discussions.updateTopic@collection_items',
    ],
    writes: 'update',
    columns: TOPIC_COLUMNS,
    options: {
      ...where,
      title: { long: 'title', value: 'title', description: 'a new title', field: { name: 'title' } },
      ...topicFlags,
      unpin: { long: 'unpin', description: 'unpin it', field: { name: 'pinned', value: false } },
      lock: { long: 'lock', description: 'lock it now', field: { name: 'locked' } },
      unlock: { long: 'unlock', description: 'unlock it', field: { name: 'locked', value: false } },
      ...n.flags.update,
    },
    examples: [
      ex(`update ${n.seeded.topic} --course 1 --title "Introductions" --pinned`),
      ...n.examples.update.map(ex),
    ],
    async run({ args, opts, ctx }) {
      const fields = await updatedFields(ctx, opts);
      return item(
        await (await ctx.client()).ops.discussions.updateTopic({ ...topicContext(opts), topic_id: args[0], ...fields }),
      );
    },
  });
}

/** The fields an update sends; flags that contradict each other, or none at all, are usage errors. */
async function updatedFields(ctx: Context, o: UpdateOpts): Promise<TopicFields> {
  if (o.pinned && o.unpin) throw new UsageError('give --pinned or --unpin, not both');
  if (o.lock && o.unlock) throw new UsageError('give --lock or --unlock, not both');
  if (o.publish && o.unpublish) throw new UsageError('give --publish or --unpublish, not both');
  if (o.ungraded && (o.points !== undefined || o.assignmentId !== undefined))
    throw new UsageError('--ungraded cannot go with --points or --assignment-id');
  const fields = await topicFields(ctx, o);
  if (o.unpin) fields.pinned = false;
  if (o.lock) fields.locked = true;
  if (o.unlock) fields.locked = false;
  if (o.publish) fields.published = true;
  if (o.unpublish) fields.published = false;
  if (o.ungraded) fields.assignment = { set_assignment: false };
  if (Object.keys(fields).length === 0) throw new UsageError('nothing to change: give at least one flag (see --help)');
  return fields;
}

function deleteVerb(n: TopicNoun) {
  return command({
    name: 'delete',
    args: [{ name: n.one }],
    argIds: { [n.one]: n.one },
    summary: n.summaries.delete,
    routes: [
      'discussions.deleteTopic@courses',
      'discussions.deleteTopic@groups',
      'discussions.deleteTopic@collection_items',
    ],
    writes: 'delete',
    options: where,
    examples: [example(n)(`delete ${n.seeded.topic} --course 1 --yes`)],
    async run({ args, opts, ctx }) {
      const c = topicContext(opts);
      await ctx.confirm(`Delete ${n.one} ${args[0]}`);
      return item(await (await ctx.client()).ops.discussions.deleteTopic({ ...c, topic_id: args[0] }));
    },
  });
}

function viewVerb(n: TopicNoun) {
  const ex = example(n);
  return command({
    name: 'view',
    args: [{ name: n.one }],
    summary: "The whole thread: an indented tree on a terminal (unread marked), the API's full view as JSON otherwise",
    routes: ['discussions.viewTopic@courses', 'discussions.viewTopic@groups', 'discussions.viewTopic@collection_items'],
    options: {
      ...where,
      newEntries: {
        long: 'new-entries',
        description: 'while the server rebuilds the view, take it with the entries posted since',
      },
    },
    examples: [ex(`view ${n.seeded.topic} --course 1`), ex(`view ${n.seeded.topic} --course 1 -o json`)],
    async run({ args, opts, ctx }) {
      const v = await (await ctx.client()).ops.discussions.viewTopic({
        ...topicContext(opts),
        topic_id: args[0],
        include_new_entries: opts.newEntries ? 1 : undefined,
      });
      const format = shownFormat(ctx);
      return format === 'table' ? text(renderThread(v)) : item(v);
    },
  });
}

function entriesVerb(n: TopicNoun) {
  const ex = example(n);
  return command({
    name: 'entries',
    args: [{ name: n.one }],
    summary:
      'Top-level entries, newest first, each with its ten newest replies; with --id, those entries (deleted ones too)',
    routes: [
      'discussions.listEntries@courses',
      'discussions.listEntries@groups',
      'discussions.listEntries@collection_items',
      'discussions.entryList@courses',
      'discussions.entryList@groups',
      'discussions.entryList@collection_items',
    ],
    columns: ENTRY_COLUMNS,
    options: {
      ...where,
      id: { long: 'id', value: 'entry', description: 'only this entry (repeatable), in id order', repeatable: true },
    },
    examples: [
      ex(`entries ${n.seeded.topic} --course 1`),
      ex(`entries ${n.seeded.topic} --course 1 --id ${n.seeded.entryIds} -o json`),
    ],
    async run({ args, opts, ctx }) {
      const d = (await ctx.client()).ops.discussions;
      const on = { ...topicContext(opts), topic_id: args[0] };
      return list(
        opts.id?.length
          ? d.entryList({ ...on, ids: opts.id }, { limit: ctx.pageLimit() })
          : d.listEntries(on, { limit: ctx.pageLimit() }),
      );
    },
  });
}

function repliesVerb(n: TopicNoun) {
  return command({
    name: 'replies',
    args: [{ name: n.one }, { name: 'entry' }],
    summary: 'Every reply under a top-level entry, newest first',
    routes: [
      'discussions.listReplies@courses',
      'discussions.listReplies@groups',
      'discussions.listReplies@collection_items',
    ],
    columns: ENTRY_COLUMNS,
    options: where,
    examples: [example(n)(`replies ${n.seeded.replies} --course 1`)],
    async run({ args, opts, ctx }) {
      return list(
        (await ctx.client()).ops.discussions.listReplies(
          { ...topicContext(opts), topic_id: args[0], entry_id: args[1] },
          { limit: ctx.pageLimit() },
        ),
      );
    },
  });
}

const postFlags = {
  ...where,
  ...messageFlags,
  attach: { file: 'uploaded', long: 'attach', value: 'file', description: 'attach a file' },
} as const;

function postVerb(n: TopicNoun) {
  const ex = example(n);
  return command({
    name: 'post',
    args: [{ name: n.one }],
    summary: 'Post an entry (the initial post a topic may require), optionally with a file',
    routes: [
      'discussions.createEntry@courses',
      'discussions.createEntry@groups',
      'discussions.createEntry@collection_items',
    ],
    columns: ENTRY_COLUMNS,
    options: postFlags,
    examples: [
      ex(`post ${n.seeded.topic} --course 1 --message "<p>Hello from section A</p>"`),
      ex(`post ${n.seeded.topic} --course 1 --message-file notes.txt --attach avatar.png`),
    ],
    async run({ args, opts, ctx }) {
      const message = await messageOf(ctx, opts, opts.attach === undefined);
      const attachment = await attachmentOf(opts.attach);
      return item(
        await (await ctx.client()).ops.discussions.createEntry({
          ...topicContext(opts),
          topic_id: args[0],
          message,
          attachment,
        }),
      );
    },
  });
}

function replyVerb(n: TopicNoun) {
  return command({
    name: 'reply',
    args: [{ name: n.one }, { name: 'entry' }],
    summary: 'Reply to an entry (a side_comment topic takes replies to top-level entries only)',
    routes: [
      'discussions.createReply@courses',
      'discussions.createReply@groups',
      'discussions.createReply@collection_items',
    ],
    columns: ENTRY_COLUMNS,
    options: postFlags,
    examples: [example(n)(`reply ${n.seeded.topic} ${n.seeded.entry} --course 1 --message "<p>Agreed.</p>"`)],
    async run({ args, opts, ctx }) {
      const message = await messageOf(ctx, opts, opts.attach === undefined);
      const attachment = await attachmentOf(opts.attach);
      return item(
        await (await ctx.client()).ops.discussions.createReply({
          ...topicContext(opts),
          topic_id: args[0],
          entry_id: args[1],
          message,
          attachment,
        }),
      );
    },
  });
}

function editEntryVerb(n: TopicNoun) {
  return command({
    name: 'edit-entry',
    args: [{ name: n.one }, { name: 'entry' }],
    summary: "Change an entry's message (its author, or a moderator)",
    routes: [
      'discussions.updateEntry@courses',
      'discussions.updateEntry@groups',
      'discussions.updateEntry@collection_items',
    ],
    columns: ENTRY_COLUMNS,
    options: { ...where, ...messageFlags },
    examples: [example(n)(`edit-entry ${n.seeded.topic} ${n.seeded.entry} --course 1 --message "<p>Edited</p>"`)],
    async run({ args, opts, ctx }) {
      const message = (await messageOf(ctx, opts, true))!;
      return item(
        await (await ctx.client()).ops.discussions.updateEntry({
          ...topicContext(opts),
          topic_id: args[0],
          id: args[1],
          message,
        }),
      );
    },
  });
}

function deleteEntryVerb(n: TopicNoun) {
  return command({
    name: 'delete-entry',
    args: [{ name: n.one }, { name: 'entry' }],
    summary: 'Delete an entry (its author, or a moderator); its replies stay',
    routes: [
      'discussions.deleteEntry@courses',
      'discussions.deleteEntry@groups',
      'discussions.deleteEntry@collection_items',
    ],
    options: where,
    examples: [example(n)(`delete-entry ${n.seeded.topic} ${n.seeded.entry} --course 1 --yes`)],
    async run({ args, opts, ctx }) {
      const c = topicContext(opts);
      await ctx.confirm(`Delete entry ${args[1]} of ${n.one} ${args[0]}`);
      await (await ctx.client()).ops.discussions.deleteEntry({ ...c, topic_id: args[0], id: args[1] });
      ctx.io.stderr.write(`Deleted entry ${args[1]}.\n`);
      return undefined;
    },
  });
}

const forcedFlag = {
  forced: { long: 'forced', description: 'set forced_read_state: viewing will not change it' },
} as const;

function markVerb(n: TopicNoun, state: 'read' | 'unread') {
  const ex = example(n);
  const { topic, entry } = n.seeded;
  return command({
    name: state,
    args: [{ name: n.one }, { name: 'entry', optional: true }],
    summary: `Mark the ${n.one}'s own text ${state}, or with ENTRY that entry`,
    routes: (['courses', 'groups', 'collection_items'] as const).flatMap((c) => [
      `discussions.markTopic${state === 'read' ? 'Read' : 'Unread'}@${c}` as const,
      `discussions.markEntry${state === 'read' ? 'Read' : 'Unread'}@${c}` as const,
    ]),
    // Unread is a DELETE of the read mark: it ends nothing.
    destroys: false,
    options: { ...where, ...forcedFlag },
    examples: [ex(`${state} ${topic} --course 1`), ex(`${state} ${topic} ${entry} --course 1 --forced`)],
    async run({ args, opts, ctx }) {
      const d = (await ctx.client()).ops.discussions;
      const on = { ...topicContext(opts), topic_id: args[0] };
      if (args[1] === undefined) {
        if (opts.forced) throw new UsageError('--forced goes with an entry');
        await (state === 'read' ? d.markTopicRead(on) : d.markTopicUnread(on));
        ctx.io.stderr.write(`Marked ${n.one} ${args[0]} ${state}.\n`);
      } else {
        const marked = { ...on, entry_id: args[1], forced_read_state: opts.forced ? true : undefined };
        await (state === 'read' ? d.markEntryRead(marked) : d.markEntryUnread(marked));
        ctx.io.stderr.write(`Marked entry ${args[1]} ${state}.\n`);
      }
      return undefined;
    },
  });
}

function markAllVerb(n: TopicNoun, state: 'read' | 'unread') {
  return command({
    name: `${state}-all`,
    args: [{ name: n.one }],
    summary: `Mark the ${n.one} and all its entries ${state}`,
    routes: (['courses', 'groups', 'collection_items'] as const).map(
      (c) => `discussions.markAll${state === 'read' ? 'Read' : 'Unread'}@${c}` as const,
    ),
    destroys: false,
    options: { ...where, ...forcedFlag },
    examples: [example(n)(`${state}-all ${n.seeded.topic} --course 1`)],
    async run({ args, opts, ctx }) {
      const d = (await ctx.client()).ops.discussions;
      const on = { ...topicContext(opts), topic_id: args[0], forced_read_state: opts.forced ? true : undefined };
      await (state === 'read' ? d.markAllRead(on) : d.markAllUnread(on));
      ctx.io.stderr.write(`Marked ${n.one} ${args[0]} and its entries ${state}.\n`);
      return undefined;
    },
  });
}

function subscriptionVerb(n: TopicNoun, on: boolean) {
  return command({
    name: `${on ? 'subscribe' : 'unsubscribe'}`,
    args: [{ name: n.one }],
    summary: on ? `Be notified of new entries in ${n.aOne}` : `Stop notifications of new entries in ${n.aOne}`,
    routes: (['courses', 'groups', 'collection_items'] as const).map(
      (c) => `discussions.${on ? 'subscribe' : 'unsubscribe'}@${c}` as const,
    ),
    destroys: false,
    options: where,
    examples: [example(n)(`${on ? 'subscribe' : 'unsubscribe'} ${n.seeded.topic} --course 1`)],
    async run({ args, opts, ctx }) {
      const d = (await ctx.client()).ops.discussions;
      const target = { ...topicContext(opts), topic_id: args[0] };
      await (on ? d.subscribe(target) : d.unsubscribe(target));
      ctx.io.stderr.write(`${on ? 'Subscribed to' : 'Unsubscribed from'} ${n.one} ${args[0]}.\n`);
      return undefined;
    },
  });
}
