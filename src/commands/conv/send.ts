// `lms conv send`: a message to people, sections, groups or whole courses. Synchronously it prints
// the conversations made; with --async the server delivers in the background and the command follows
// the batch with a live bar (sent / total, rate, ETA) until it is sent, or returns its id (--no-wait).
import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { item, list, withFailure } from '../../model/command.js';
import type { Context } from '../../model/context.js';
import { command } from '../../model/define.js';
import { watchBatch } from '../../model/watch-progress.js';
import type { ApiClient } from '../../client/client.js';
import type { CreateConversationParams } from '../../spec/types/conversations.js';
import { FailureError, UsageError } from '../../errors.js';
import { readBoundedText, MAX_TEXT_BYTES } from '../../io/bounded.js';
import { err } from '../../io/streams.js';
import { contentTypeFor } from '../../mime.js';

export const CONVERSATION_COLUMNS = [
  'id',
  'subject',
  'workflow_state',
  'starred',
  'message_count',
  'last_message_at',
  'audience',
  'last_message',
];

/** `--to 7,8 --to course_1_students` → each recipient once, in order. */
export function recipientsOf(values: readonly string[] | undefined): string[] {
  const out = [
    ...new Set(
      (values ?? [])
        .flatMap((v) => v.split(','))
        .map((v) => v.trim())
        .filter(Boolean),
    ),
  ];
  for (const r of out) {
    if (!/^(\d+|(course|section)_\d+(_(students|teachers|tas|observers))?|group_\d+)$/.test(r)) {
      throw new UsageError(
        `recipient "${r}" is not a user id, course_N, section_N, group_N or course_N_students|teachers|tas|observers`,
      );
    }
  }
  return out;
}

/** A file's text, or stdin's for `-`. */
export async function readText(ctx: Context, path: string, flag: string): Promise<string> {
  return readBoundedText(ctx.input(path), ctx.io.stdin, { limit: MAX_TEXT_BYTES, what: flag });
}

export async function bodyOf(ctx: Context, opts: { body?: string; bodyFile?: string }): Promise<string> {
  if (opts.body !== undefined && opts.bodyFile !== undefined)
    throw new UsageError('give --body or --body-file, not both');
  const body = opts.bodyFile !== undefined ? await readText(ctx, opts.bodyFile, '--body-file') : opts.body;
  if (body === undefined || body.trim() === '')
    throw new UsageError('give the message as --body TEXT or --body-file FILE');
  return body;
}

/** Uploads each file into the caller's "conversation attachments" folder; returns the file ids. */
export async function attach(client: ApiClient, paths: readonly string[] | undefined): Promise<number[] | undefined> {
  if (!paths?.length) return undefined;
  for (const path of paths) {
    const info = await stat(path).catch(() => undefined);
    if (!info?.isFile()) throw new UsageError(`no such file: ${path}`);
  }
  const { uploadFile } = await import('../../client/upload.js');
  const ids: number[] = [];
  for (const path of paths) {
    const data = new Uint8Array(await readFile(path));
    const name = basename(path);
    const contentType = contentTypeFor(name);
    const ticket = await client.ops.users.uploadFile({
      user_id: 'self',
      name,
      size: data.byteLength,
      content_type: contentType,
      parent_folder_path: 'conversation attachments',
      on_duplicate: 'rename',
    });
    const file = await uploadFile(client, ticket, { name, data, contentType });
    ids.push(Number(file.id));
  }
  return ids;
}

export const messageFlags = {
  body: { long: 'body', value: 'text', description: 'the message' },
  bodyFile: {
    file: 'read',
    long: 'body-file',
    value: 'file',
    description: 'read the message from a file (- for stdin)',
  },
  attach: {
    file: 'uploaded',
    long: 'attach',
    value: 'file',
    description: 'attach a file (uploaded to your conversation attachments; repeatable)',
    repeatable: true,
  },
  mediaCommentId: { long: 'media-comment-id', value: 'id', description: 'a media comment to include' },
  mediaCommentType: {
    long: 'media-comment-type',
    value: 'type',
    description: 'the media comment is audio or video',
    choices: ['audio', 'video'],
  },
} as const;

export const send = command({
  name: 'send',
  summary:
    'Send a message to people, sections, groups or whole courses (--async: delivered in the background, followed live)',
  routes: ['conversations.create', 'conversations.batches', 'users.uploadFile', 'files.upload', 'files.confirm'],
  columns: CONVERSATION_COLUMNS,
  options: {
    to: {
      long: 'to',
      value: 'recipient',
      description:
        'user id, course_N, section_N, group_N or course_N_students|teachers|tas|observers (repeatable, or ' +
        'comma-separated)',
      repeatable: true,
      required: true,
    },
    subject: {
      long: 'subject',
      value: 'text',
      description: 'subject (kept as it was when a private conversation is reused)',
    },
    ...messageFlags,
    group: {
      long: 'group',
      description: 'one group conversation everyone shares (at most 100 recipients), rather than a private one each',
    },
    bulk: { long: 'bulk', description: 'with --group: a separate copy of the group conversation for each recipient' },
    context: {
      long: 'context',
      value: 'code',
      description: 'the course or group the conversation belongs to (course_1, group_2)',
    },
    async: {
      long: 'async',
      description: 'deliver in the background (one conversation per recipient) and follow the batch to its end',
    },
    wait: { long: 'wait', negated: true, description: 'with --async: print the batch id and return at once' },
    forward: {
      long: 'forward',
      value: 'message-id',
      description: 'include a message you can see (repeatable)',
      repeatable: true,
    },
  },
  examples: [
    'lms conv send --to 3 --subject "Office hours" --body "Are you in on Friday?"',
    'lms conv send --to course_1_students --subject "Lab closed" --body-file notes.txt --async',
    'lms conv send --to 7,8,11 --group --context group_1 --subject "Bench 1" --body "Meet at 9" --attach notes.txt',
  ],
  async run({ opts, ctx }) {
    const recipients = recipientsOf(opts.to);
    if (recipients.length === 0) throw new UsageError('give at least one recipient with --to');
    if (opts.bulk && !opts.group)
      throw new UsageError(
        '--bulk goes with --group (without --group every recipient already gets a private conversation)',
      );
    if (opts.async && opts.group && !opts.bulk)
      throw new UsageError(
        '--async sends one conversation per recipient: it does not go with --group unless --bulk is given',
      );
    if (!opts.wait && !opts.async) throw new UsageError('--no-wait goes with --async');
    if (opts.mediaCommentId && !opts.mediaCommentType)
      throw new UsageError('--media-comment-id needs --media-comment-type audio|video');
    const body = await bodyOf(ctx, opts);
    const client = await ctx.client();
    const params: CreateConversationParams = {
      recipients,
      subject: opts.subject,
      body,
      group_conversation: opts.group || undefined,
      bulk_message: opts.bulk || undefined,
      context_code: opts.context,
      attachment_ids: await attach(client, opts.attach),
      media_comment_id: opts.mediaCommentId,
      media_comment_type: opts.mediaCommentType,
      forwarded_message_ids: opts.forward,
    };
    if (!opts.async) return list(await client.ops.conversations.create(params));
    return sendAsync(ctx, client, params, opts.wait);
  },
});

/** A message sent as a batch (send --async): the batch and how far it got. */
export interface SentBatch {
  batch_id: number;
  workflow_state: string;
  recipient_count: number | null;
  completion: number;
}

async function sendAsync(ctx: Context, client: ApiClient, params: CreateConversationParams, wait: boolean) {
  const { createConversationAsync } = await import('../../client/conversations.js');
  const sent = await createConversationAsync(client, params);
  // One recipient (or one group conversation) is sent at once even when asked for async, as real
  // instances do: say so, since a script may be waiting for a batch id.
  if (sent.batchId === undefined) {
    err(
      ctx.io,
      'note: sent at once, with no batch: the instance delivers a message to one recipient (or one group ' +
        'conversation) right away, even with --async\n',
    );
    return list(sent.conversations);
  }
  const batchId = sent.batchId;
  if (!wait) {
    const running = (await client.ops.conversations.batches({})).find((b) => b.id === batchId);
    return item({
      batch_id: batchId,
      workflow_state: running?.workflow_state ?? 'sent',
      recipient_count: running?.recipient_count ?? null,
      completion: running?.completion ?? 1,
    });
  }
  const outcome = await watchBatch(ctx, client, batchId, { label: `batch ${batchId}` });
  const total = outcome.last?.recipient_count ?? null;
  const result = item({
    batch_id: batchId,
    workflow_state: outcome.state,
    recipient_count: total,
    completion: outcome.state === 'sent' ? 1 : (outcome.last?.completion ?? 0),
  });
  return outcome.state === 'error'
    ? withFailure(result, new FailureError(`batch ${batchId} failed: its messages could not be delivered`))
    : result;
}
