// A conversation as an item of a participant's activity stream.
import type { StreamPresenter } from '../../area.js';
import { conversationById, lastMessageFor, participant, participantsOf } from './repo.js';

export const conversationStreamItem: StreamPresenter = (ctx, item) => {
  const c = conversationById(ctx.db, item.asset_id);
  const mine = c && participant(ctx.db, c.id, ctx.caller.id);
  // Deleted from the caller's view (no message left to them): gone from their stream too.
  if (!c || !mine || mine.message_count === 0) return undefined;
  return {
    title: c.subject ?? '',
    message: lastMessageFor(ctx.db, c.id, ctx.caller.id, false)?.body ?? null,
    html_url: `${ctx.origin}/conversations/${c.id}`,
    read_state: mine.workflow_state !== 'unread',
    conversation_id: c.id,
    private: c.private === 1,
    participant_count: participantsOf(ctx.db, c.id).length,
  };
};
