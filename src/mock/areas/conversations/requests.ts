// What a conversations request says: the caller's conversation in its path, a message's content and
// attachments, the recipients named and the tags they bring.
import type { Db } from '../../db/open.js';
import { HttpError, list, notFound, numericId, str, type MockCtx } from '../../kit.js';
import { attachmentById } from '../files/repo.js';
import type { MessagingScope } from '../search/audience.js';
import { commonContextsOf } from '../search/repo.js';
import type { MessageContent } from './deliver.js';
import { conversationById, participant, visibleMessages, type ConversationRow, type ParticipantRow } from './repo.js';

/** The array-shaped 400 real instances answer conversation validation with. */
export const refused = (attribute: string, message: string) => new HttpError(400, [{ attribute, message }]);

// ---- reading requests -------------------------------------------------------------------------

/** The conversation of the path, as the caller sees it; 404 unless they take part and still see a message. */
export function mine(ctx: MockCtx): { c: ConversationRow; p: ParticipantRow } {
  const id = numericId(ctx.path.id ?? '');
  const c = id === undefined ? undefined : conversationById(ctx.db, id);
  const p = c && participant(ctx.db, c.id, ctx.caller.id);
  if (!c || !p || p.message_count === 0) throw notFound();
  return { c, p };
}

export const fresh = (ctx: MockCtx, c: ConversationRow) => participant(ctx.db, c.id, ctx.caller.id)!;

/** Body, attachments (the caller's own uploaded files), media comment and forwarded messages of a new message. */
export function messageContent(ctx: MockCtx, onBlank: () => HttpError): MessageContent {
  const p = ctx.params;
  const body = str(p, 'body')?.trim();
  if (!body) throw onBlank();
  const attachmentIds = list(p, 'attachment_ids').map((raw) => {
    const id = numericId(String(raw));
    const a = id === undefined ? undefined : attachmentById(ctx.db, id);
    if (a?.context_type !== 'User' || a.context_id !== ctx.caller.id || a.workflow_state !== 'available')
      throw refused('attachment_ids', 'invalid');
    return a.id;
  });
  const mediaCommentId = str(p, 'media_comment_id')?.trim() || null;
  const mediaCommentType = str(p, 'media_comment_type') ?? null;
  if (mediaCommentId && mediaCommentType !== 'audio' && mediaCommentType !== 'video')
    throw refused('media_comment_type', 'invalid');
  const forwardedIds = list(p, 'forwarded_message_ids').map((raw) => numericId(String(raw)) ?? -1);
  if (forwardedIds.length) {
    const seen = visibleMessages(ctx.db, ctx.caller.id, forwardedIds);
    if (forwardedIds.some((id) => !seen.has(id))) throw refused('forwarded_message_ids', 'invalid');
  }
  return {
    body,
    attachmentIds,
    mediaCommentId,
    mediaCommentType: mediaCommentId ? mediaCommentType : null,
    forwardedIds,
  };
}

export function recipientTokens(ctx: MockCtx): string[] {
  return list(ctx.params, 'recipients')
    .flatMap((v) => (typeof v === 'string' || typeof v === 'number' ? String(v).split(',') : []))
    .map((t) => t.trim())
    .filter(Boolean);
}

/** The contexts a conversation with this recipient belongs to: those named, and the ones the two share. */
export function tagsFor(db: Db, scope: MessagingScope, named: readonly string[], recipient: number): string[] {
  const shared = commonContextsOf(db, recipient, scope.people);
  return [
    ...new Set([
      ...named,
      ...shared.courses.map((c) => `course_${c.course_id}`),
      ...shared.groups.map((g) => `group_${g}`),
    ]),
  ];
}
