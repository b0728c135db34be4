// `lms conv`: the inbox of whoever the token belongs to — list, read, send (sync or async, followed
// live), reply, recipients, per-user state, batch updates through a Progress.
import { item, list, withFailure, type Verbs } from '../../model/command.js';
import type { Context } from '../../model/context.js';
import { command } from '../../model/define.js';
import { watchProgress } from '../../model/watch-progress.js';
import {
  BATCH_EVENTS,
  CONVERSATION_SCOPES,
  type Conversation,
  type UpdateConversationParams,
} from '../../spec/types/conversations.js';
import type { Progress } from '../../spec/types/progress.js';
import { FailureError, UsageError } from '../../errors.js';
import { attach, bodyOf, CONVERSATION_COLUMNS, messageFlags, readText, recipientsOf, send } from './send.js';
import { recipientColumns, recipientFlags, recipientParams } from '../recipients/index.js';

/** The API takes at most this many conversation ids a batch update; more are sent as several batches. */
const BATCH_LIMIT = 500;

const listConversations = command({
  name: 'list',
  summary: 'List your conversations, most recent first (the inbox unless --scope says otherwise)',
  aliases: ['ls'],
  routes: ['conversations.list'],
  columns: CONVERSATION_COLUMNS,
  options: {
    scope: {
      long: 'scope',
      value: 'scope',
      description: 'unread, starred, archived or sent (default: the inbox, read and unread)',
      choices: CONVERSATION_SCOPES,
    },
    filter: {
      long: 'filter',
      value: 'code',
      description: 'only conversations of course_N, group_N or with user_N (repeatable)',
      repeatable: true,
    },
    filterMode: {
      long: 'filter-mode',
      value: 'mode',
      description: 'with several --filter: any (or) or all (and) must match',
      choices: ['or', 'and'],
    },
  },
  examples: ['lms conv list', 'lms conv list --scope sent --filter course_1 -o json'],
  async run({ opts, ctx }) {
    for (const f of opts.filter ?? [])
      if (!/^(course|group|user)_\d+$/.test(f))
        throw new UsageError(`--filter "${f}" is not course_N, group_N or user_N`);
    const client = await ctx.client();
    return list(
      client.ops.conversations.list(
        { scope: opts.scope, filter: opts.filter, filter_mode: opts.filterMode },
        { limit: ctx.pageLimit() },
      ),
    );
  },
});

const getConversation = command({
  name: 'get',
  args: [{ name: 'id' }],
  summary: 'Show a conversation with its messages, newest first (marks it read unless --no-mark-read)',
  routes: ['conversations.get'],
  // A GET that changes the conversation's state: read-only surfaces (lms mcp) read it unmarked.
  options: { markRead: { long: 'mark-read', negated: true, description: 'leave it unread', writesUnless: false } },
  examples: ['lms conv get 5', 'lms conv get 5 --no-mark-read -o json'],
  async run({ args, opts, ctx }) {
    const client = await ctx.client();
    return item(await client.ops.conversations.get({ id: args[0], auto_mark_as_read: opts.markRead }));
  },
});

const reply = command({
  name: 'reply',
  args: [{ name: 'id' }],
  summary: 'Add a message to a conversation (to everyone in it, or to some with --to)',
  routes: ['conversations.addMessage', 'users.uploadFile', 'files.upload', 'files.confirm'],
  options: {
    ...messageFlags,
    to: {
      long: 'to',
      value: 'user-id',
      description: 'only these participants (repeatable, or comma-separated)',
      repeatable: true,
    },
  },
  examples: ['lms conv reply 5 --body "Thanks, noted."'],
  async run({ args, opts, ctx }) {
    if (opts.mediaCommentId && !opts.mediaCommentType)
      throw new UsageError('--media-comment-id needs --media-comment-type audio|video');
    const body = await bodyOf(ctx, opts);
    const to = recipientsOf(opts.to);
    const client = await ctx.client();
    return item(
      await client.ops.conversations.addMessage({
        id: args[0],
        body,
        recipients: to.length ? to : undefined,
        attachment_ids: await attach(client, opts.attach),
        media_comment_id: opts.mediaCommentId,
        media_comment_type: opts.mediaCommentType,
      }),
    );
  },
});

const addRecipients = command({
  name: 'add-recipients',
  args: [{ name: 'id' }],
  summary: 'Add people to a group conversation (they see it from the start)',
  routes: ['conversations.addRecipients'],
  options: {
    to: {
      long: 'to',
      value: 'recipient',
      description: 'user id, course_N, section_N, group_N … (repeatable, or comma-separated)',
      repeatable: true,
      required: true,
    },
  },
  examples: ['lms conv add-recipients 8 --to 5'],
  async run({ args, opts, ctx }) {
    const client = await ctx.client();
    return item(await client.ops.conversations.addRecipients({ id: args[0], recipients: recipientsOf(opts.to) }));
  },
});

const removeMessages = command({
  name: 'remove-messages',
  args: [{ name: 'id' }],
  summary: 'Remove messages from your view of a conversation (removing the last one deletes it for you)',
  routes: ['conversations.get', 'conversations.removeMessages'],
  writes: 'delete',
  destroys: 'asks',
  options: {
    message: {
      long: 'message',
      value: 'id',
      description: 'a message id (repeatable, or comma-separated)',
      repeatable: true,
      required: true,
    },
  },
  examples: ['lms conv remove-messages 5 --message 9', 'lms conv remove-messages 6 --message 8 --yes'],
  async run({ args, opts, ctx }) {
    const ids = (opts.message ?? [])
      .flatMap((m) => m.split(','))
      .map((m) => m.trim())
      .filter(Boolean);
    for (const id of ids) if (!/^\d+$/.test(id)) throw new UsageError(`--message "${id}" is not a message id`);
    const client = await ctx.client();
    // Only removing every message still in the caller's view deletes the conversation, and only a read
    // tells whether this does; it must not mark the conversation read.
    const current = await client.ops.conversations.get({ id: args[0], auto_mark_as_read: false });
    if (emptiesView(current, ids))
      await ctx.confirm(`Remove the last messages of conversation ${args[0]}, deleting it from your view`);
    return item(await client.ops.conversations.removeMessages({ id: args[0], remove: ids }));
  },
});

/** Would removing these messages leave the caller's view of the conversation empty? */
function emptiesView(c: Conversation, ids: readonly string[]): boolean {
  const removing = new Set(ids);
  const messages = c.messages ?? [];
  // Without every message in hand, removing as many as there are might be removing them all.
  if (messages.length < c.message_count) return removing.size >= c.message_count;
  return messages.every((m) => removing.has(String(m.id)));
}

const updateConversation = command({
  name: 'update',
  args: [{ name: 'id' }],
  summary: 'Change your view of a conversation: read state, star, subscription',
  routes: ['conversations.update'],
  columns: CONVERSATION_COLUMNS,
  options: {
    state: {
      long: 'state',
      value: 'state',
      description: 'read, unread or archived',
      choices: ['read', 'unread', 'archived'],
    },
    star: { long: 'star', description: 'star it' },
    unstar: { long: 'unstar', description: 'unstar it' },
    subscribe: { long: 'subscribe', description: 'be told of new messages (group conversations)' },
    unsubscribe: { long: 'unsubscribe', description: 'stop being told of new messages (group conversations)' },
  },
  examples: ['lms conv update 5 --state archived --star'],
  async run({ args, opts, ctx }) {
    if (opts.star && opts.unstar) throw new UsageError('give --star or --unstar, not both');
    if (opts.subscribe && opts.unsubscribe) throw new UsageError('give --subscribe or --unsubscribe, not both');
    const conversation: UpdateConversationParams['conversation'] = {};
    if (opts.state) conversation.workflow_state = opts.state;
    if (opts.star || opts.unstar) conversation.starred = !!opts.star;
    if (opts.subscribe || opts.unsubscribe) conversation.subscribed = !!opts.subscribe;
    if (Object.keys(conversation).length === 0)
      throw new UsageError('nothing to change: give --state, --star, --unstar, --subscribe or --unsubscribe');
    const client = await ctx.client();
    return item(await client.ops.conversations.update({ id: args[0], conversation }));
  },
});

const deleteConversation = command({
  name: 'delete',
  args: [{ name: 'id' }],
  summary: 'Delete a conversation from your view (the others keep theirs)',
  routes: ['conversations.delete'],
  examples: ['lms conv delete 5 --yes'],
  async run({ args, ctx }) {
    await ctx.confirm(`Delete conversation ${args[0]} from your view`);
    const client = await ctx.client();
    return item(await client.ops.conversations.delete({ id: args[0] }));
  },
});

async function idsOf(ctx: Context, opts: { ids?: string[]; idsFile?: string }): Promise<string[]> {
  if (!opts.ids?.length && opts.idsFile === undefined)
    throw new UsageError('give the conversations as --ids 1,2,3 or --ids-file FILE');
  let raw = (opts.ids ?? []).join(',');
  if (opts.idsFile !== undefined) {
    raw += `,${await readText(ctx, opts.idsFile, '--ids-file')}`;
  }
  const ids = [...new Set(raw.split(/[\s,]+/).filter(Boolean))];
  const bad = ids.find((id) => !/^\d+$/.test(id));
  if (bad) throw new UsageError(`"${bad}" is not a conversation id`);
  if (ids.length === 0) throw new UsageError('no conversation ids given');
  return ids;
}

const batch = command({
  name: 'batch',
  summary: `Apply an event to many conversations in the background (${BATCH_LIMIT} a request), followed to the end`,
  routes: ['conversations.batchUpdate', 'progress.get'],
  columns: ['id', 'workflow_state', 'completion', 'message'],
  options: {
    ids: { long: 'ids', value: 'ids', description: 'conversation ids, comma-separated (repeatable)', repeatable: true },
    idsFile: {
      file: 'read',
      long: 'ids-file',
      value: 'file',
      description: 'a file of conversation ids, one a line or comma-separated (- for stdin)',
    },
    event: {
      long: 'event',
      value: 'event',
      description: BATCH_EVENTS.join(', '),
      choices: BATCH_EVENTS,
      required: true,
    },
    wait: { long: 'wait', negated: true, description: 'print the Progress and return at once' },
  },
  examples: [
    'lms conv batch --ids 5,6,8 --event archive',
    'lms conv batch --ids 5 --event star --no-wait -o json',
    'lms conv batch --ids 5,6 --event destroy --yes',
  ],
  async run({ opts, ctx }) {
    const ids = await idsOf(ctx, opts);
    if (opts.event === 'destroy')
      await ctx.confirm(
        `Delete ${ids.length === 1 ? `conversation ${ids[0]}` : `${ids.length} conversations`} from your view`,
      );
    const client = await ctx.client();
    const results: Progress[] = [];
    for (let i = 0; i < ids.length; i += BATCH_LIMIT) {
      const chunk = ids.slice(i, i + BATCH_LIMIT);
      const started = await client.ops.conversations.batchUpdate({ conversation_ids: chunk, event: opts.event });
      const label =
        ids.length > BATCH_LIMIT
          ? `${opts.event} ${i + 1}-${i + chunk.length} of ${ids.length}`
          : `${opts.event} ${chunk.length}`;
      results.push(opts.wait ? await watchProgress(ctx, client, started.id, { label }) : started);
    }
    const failed = results.filter((p) => p.workflow_state === 'failed');
    const output = results.length === 1 ? item(results[0]) : list(results);
    return failed.length
      ? withFailure(
          output,
          new FailureError(`${opts.event} failed: ${failed.map((p) => p.message ?? `progress ${p.id}`).join('; ')}`),
        )
      : output;
  },
});

const batches = command({
  name: 'batches',
  summary: 'Your async sends still being delivered',
  routes: ['conversations.batches'],
  columns: ['id', 'subject', 'workflow_state', 'completion', 'recipient_count'],
  examples: ['lms conv batches'],
  async run({ ctx }) {
    const client = await ctx.client();
    return list(await client.ops.conversations.batches({}));
  },
});

const markAllRead = command({
  name: 'mark-all-read',
  summary: 'Mark every conversation of yours read',
  routes: ['conversations.markAllRead', 'conversations.unreadCount'],
  examples: ['lms conv mark-all-read'],
  async run({ ctx }) {
    const client = await ctx.client();
    await client.ops.conversations.markAllRead({});
    return item(await client.ops.conversations.unreadCount({}));
  },
});

const unread = command({
  name: 'unread',
  summary: 'How many of your conversations are unread',
  routes: ['conversations.unreadCount'],
  examples: ['lms conv unread -o json'],
  async run({ ctx }) {
    const client = await ctx.client();
    const { unread_count } = await client.ops.conversations.unreadCount({});
    // The API sends the count as a string; a number here. Anything else is shown as it came.
    const count: unknown = unread_count;
    return item({ unread_count: typeof count === 'string' && /^\s*\d+\s*$/.test(count) ? Number(count) : count });
  },
});

const findRecipients = command({
  name: 'find-recipients',
  args: [{ name: 'term', optional: true, variadic: true }],
  summary:
    'Deprecated by the API (use `lms recipients search`): the same search, through /conversations/find_recipients',
  routes: ['conversations.findRecipients'],
  columns: recipientColumns,
  options: recipientFlags,
  examples: ['lms conv find-recipients sam'],
  async run({ args, opts, ctx }) {
    const client = await ctx.client();
    return list(client.ops.conversations.findRecipients(recipientParams(args, opts), { limit: ctx.pageLimit() }));
  },
});

export type { Conversation };
export const convVerbs: Verbs = [
  listConversations,
  getConversation,
  send,
  reply,
  addRecipients,
  removeMessages,
  updateConversation,
  deleteConversation,
  batch,
  batches,
  markAllRead,
  unread,
  findRecipients,
] as Verbs;
