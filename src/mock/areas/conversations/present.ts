// Conversations, their messages and batches as the API shows them: each the caller's own view.
import type { Conversation, ConversationBatch, ConversationMessage } from '../../../spec/types/conversations.js';
import type { MockCtx } from '../../kit.js';
import { attachmentById } from '../files/repo.js';
import { attachmentJson } from '../files/present.js';
import { AVATAR } from '../search/audience.js';
import { userById } from '../../school/users/repo.js';
import {
  contextName,
  enrollmentTypesIn,
  hasAttachments,
  lastMessageFor,
  messageById,
  participantsOf,
  participatingUsers,
  tagsOf,
  type BatchRow,
  type ConversationRow,
  type MessageRow,
  type ParticipantRow,
} from './repo.js';

// ---- presenters -------------------------------------------------------------------------------

function messageJson(ctx: MockCtx, m: MessageRow, depth = 0): ConversationMessage {
  const forwarded =
    depth < 5
      ? (JSON.parse(m.forwarded_message_ids) as number[])
          .map((id) => messageById(ctx.db, id))
          .filter((x): x is MessageRow => !!x)
      : [];
  const attachments = (JSON.parse(m.attachment_ids) as number[])
    .map((id) => attachmentById(ctx.db, id))
    .filter((a) => a !== undefined && a.workflow_state !== 'deleted')
    .map((a) => attachmentJson(ctx, a!));
  return {
    id: m.id,
    created_at: m.created_at,
    body: m.body,
    author_id: m.author_id,
    generated: m.generated === 1,
    media_comment: m.media_comment_id
      ? {
          display_name: `Media comment ${m.media_comment_id}`,
          'content-type': m.media_comment_type === 'audio' ? 'audio/mp4' : 'video/mp4',
          media_id: m.media_comment_id,
          media_type: m.media_comment_type === 'audio' ? 'audio' : 'video',
          url:
            `${ctx.origin}/users/${m.author_id}/media_download?entryId=${encodeURIComponent(m.media_comment_id)}` +
            '&type=mp4&redirect=1',
        }
      : null,
    forwarded_messages: forwarded.map((f) => messageJson(ctx, f, depth + 1)),
    attachments,
    participating_user_ids: participatingUsers(ctx.db, m.id),
  };
}

export interface JsonOptions {
  messages?: MessageRow[];
  submissions?: boolean;
  avatars?: boolean;
  /** Participants include the authors of forwarded messages (show). */
  extended?: boolean;
}

export function conversationJson(
  ctx: MockCtx,
  c: ConversationRow,
  p: ParticipantRow,
  o: JsonOptions = {},
): Conversation {
  const me = ctx.caller.id;
  const people = participantsOf(ctx.db, c.id);
  const others = people.filter((x) => x.user_id !== me).map((x) => x.user_id);
  const audience = others.length ? others : [me];
  const last = lastMessageFor(ctx.db, c.id, me, false);
  const lastAuthored = lastMessageFor(ctx.db, c.id, me, true);
  const tags = tagsOf(ctx.db, c.id);
  const courseIds = tags.filter((t) => t.startsWith('course_')).map((t) => Number(t.slice(7)));
  const courses: Record<string, string[]> = {};
  for (const r of enrollmentTypesIn(ctx.db, audience, courseIds)) {
    courses[r.course_id] ??= [];
    courses[r.course_id]!.push(r.type);
  }
  const groups = Object.fromEntries(tags.filter((t) => t.startsWith('group_')).map((t) => [t.slice(6), ['Member']]));
  const flags = hasAttachments(ctx.db, c.id, me);
  const properties = [
    ...(last && last.author_id === me ? ['last_author'] : []),
    ...(flags.attachments ? ['attachments'] : []),
    ...(flags.media ? ['media_objects'] : []),
  ];
  const participants = people.map((x) => ({
    id: x.user_id,
    name: x.short_name,
    full_name: x.name,
    ...(o.avatars ? { avatar_url: x.avatar_url ?? `${ctx.origin}${AVATAR}` } : {}),
  }));
  if (o.extended && o.messages) {
    const known = new Set(people.map((x) => x.user_id));
    const walk = (m: MessageRow, depth: number) => {
      for (const id of JSON.parse(m.forwarded_message_ids) as number[]) {
        const f = messageById(ctx.db, id);
        if (!f) continue;
        if (!known.has(f.author_id)) {
          known.add(f.author_id);
          const u = userById(ctx.db, f.author_id);
          if (u) participants.push({ id: u.id, name: u.short_name, full_name: u.name });
        }
        if (depth < 5) walk(f, depth + 1);
      }
    };
    for (const m of o.messages) walk(m, 0);
  }
  const preview = (m: MessageRow | undefined) => (m ? Array.from(m.body).slice(0, 100).join('') : null);
  const json: Conversation = {
    id: c.id,
    subject: c.subject,
    workflow_state: p.workflow_state,
    last_message: preview(last),
    last_message_at: p.last_message_at,
    last_authored_message: preview(lastAuthored),
    last_authored_message_at: p.last_authored_at,
    message_count: p.message_count,
    subscribed: p.subscribed === 1,
    private: c.private === 1,
    starred: p.starred === 1,
    properties,
    audience,
    audience_contexts: { courses, groups },
    avatar_url: `${ctx.origin}${AVATAR}`,
    participants,
    visible: p.message_count > 0,
    context_code: c.context_code,
    context_name: contextName(ctx.db, c.context_code),
  };
  if (o.messages) json.messages = o.messages.map((m) => messageJson(ctx, m));
  if (o.submissions) json.submissions = [];
  return json;
}

export function batchJson(ctx: MockCtx, b: BatchRow): ConversationBatch {
  const completion =
    b.workflow_state === 'sent'
      ? 1
      : b.workflow_state === 'created'
        ? 0
        : b.recipient_count
          ? b.sent_count / b.recipient_count
          : 1;
  return {
    id: b.id,
    subject: b.subject,
    workflow_state: b.workflow_state,
    completion,
    recipient_count: b.recipient_count,
    message: messageJson(ctx, messageById(ctx.db, b.root_message_id)!),
    tags: JSON.parse(b.tags) as string[],
  };
}
