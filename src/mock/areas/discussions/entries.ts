// Entries and replies, the read state of topics and entries, subscriptions, and the full topic
// view, whose cached structure is unavailable (503) for a while after each write.
import type { FullTopicView, UserDisplay, ViewEntry } from '../../../spec/types/discussions.js';
import {
  bool,
  created,
  crypto,
  file,
  HttpError,
  invalid,
  list,
  noContent,
  notFound,
  numericId,
  Reply,
  str,
  type Handler,
  type MockCtx,
} from '../../kit.js';
import { permit } from '../access.js';
import { safeFileName } from '../files/upload.js';
import { attachmentJson } from '../files/present.js';
import { attachmentById, createPendingAttachment, makeAvailable, storeUpload } from '../files/repo.js';
import { contentTypeFor } from '../../../mime.js';
import {
  countFound,
  createEntry,
  deleteEntry,
  entriesAfter,
  entryById,
  entryListQuery,
  entryStatesOf,
  markViewedRead,
  recordReply,
  repliesQuery,
  saveViewSnapshot,
  setAllEntriesRead,
  setEntryRead,
  setSubscribed,
  setTopicRead,
  subscribeUnlessChosen,
  threadOf,
  topicById,
  topLevelEntriesQuery,
  touchThread,
  updateEntryMessage,
  viewSnapshot,
  type EntryRow,
  type TopicRow,
} from './repo.js';
import { mayEditEntry, mayPostIn, type Place } from './policy.js';
import { userFileBytes } from '../files/repo.js';
import {
  FREE_ATTACHMENT_BYTES,
  USER_QUOTA_BYTES,
  readableTopic,
  topicIdsOf,
  requireInitialPost,
  subscriptionHold,
} from './place.js';
import { userDisplay, oneEntry, paginateEntries } from './present.js';
import { publishTopic } from './stream.js';

// ---- entries ----------------------------------------------------------------------------------

export function staleUntil(ctx: MockCtx): number {
  const rebuild = ctx.viewRebuild;
  return rebuild && rebuild.delayMs > 0 ? rebuild.wallClock() + rebuild.delayMs : 0;
}

/** An entry of the topic (or of its group topics the caller takes part in). */
function entryOf(ctx: MockCtx, p: Place, t: TopicRow, raw: string, options: { live: boolean }): EntryRow {
  const id = numericId(raw);
  const e = id === undefined ? undefined : entryById(ctx.db, id);
  if (!e || !topicIdsOf(ctx, p, t).includes(e.topic_id) || (options.live && e.workflow_state === 'deleted'))
    throw notFound();
  return e;
}

/** Entries can be posted where the caller may post and the topic is not locked for them. */
function postable(ctx: MockCtx): { p: Place; t: TopicRow } {
  const { p, t } = readableTopic(ctx);
  permit(mayPostIn(ctx, p, t));
  return { p, t };
}

function post(ctx: MockCtx, t: TopicRow, parent?: EntryRow): Reply {
  const message = str(ctx.params, 'message') ?? '';
  const upload = file(ctx.params, 'attachment');
  if (!message.trim() && !upload) throw invalid(undefined, 'message', 'blank', "can't be blank");
  const now = ctx.now();
  let attachment: number | null = null;
  if (upload) {
    // Larger files count against the poster's quota, as real instances do.
    if (
      upload.data.byteLength > FREE_ATTACHMENT_BYTES &&
      userFileBytes(ctx.db, ctx.caller.id) + upload.data.byteLength > USER_QUOTA_BYTES
    ) {
      throw new HttpError(400, { errors: { base: 'User storage quota exceeded' } });
    }
    attachment = storeEntryAttachment(ctx, upload.filename, upload.contentType, upload.data, now);
  }
  const id = createEntry(ctx.db, {
    topic: parent?.topic_id ?? t.id,
    user: ctx.caller.id,
    parent,
    message,
    attachment,
    now,
  });
  setEntryRead(ctx.db, id, ctx.caller.id, 'read');
  // Posting subscribes the author, unless they chose otherwise before.
  if (t.is_announcement === 0) subscribeUnlessChosen(ctx.db, parent?.topic_id ?? t.id, ctx.caller.id);
  recordReply(ctx.db, parent?.topic_id ?? t.id, now);
  publishTopic(ctx, topicById(ctx.db, parent?.topic_id ?? t.id)!, ctx.caller.id);
  touchThread(ctx.db, parent?.topic_id ?? t.id, staleUntil(ctx));
  return created(oneEntry(ctx, entryById(ctx.db, id)!));
}

/** An entry's file, stored as the files area stores uploads: in the poster's files, available at once. */
function storeEntryAttachment(
  ctx: MockCtx,
  filename: string,
  contentType: string,
  data: Uint8Array,
  now: string,
): number {
  const name = safeFileName(filename) || 'attachment';
  const type = contentType && contentType !== 'application/octet-stream' ? contentType : contentTypeFor(name);
  const token = crypto().randomUUID().replace(/-/g, '');
  const id = createPendingAttachment(ctx.db, {
    uuid: crypto().randomUUID().replace(/-/g, ''),
    owner: { type: 'User', id: ctx.caller.id },
    folderPath: 'discussion attachments',
    name,
    contentType: type,
    size: data.byteLength,
    onDuplicate: 'rename',
    uploadToken: token,
    now,
  });
  const row = attachmentById(ctx.db, id)!;
  storeUpload(ctx.db, row, data, type, now);
  makeAvailable(ctx.db, id, `${id}-${name}`.slice(0, 255), now);
  return id;
}

export const createEntryHandler: Handler = (ctx) => {
  // Posting the initial entry is what require_initial_post asks for: no gate here.
  const { t } = postable(ctx);
  return post(ctx, t);
};

export const createReply: Handler = (ctx) => {
  const { p, t } = postable(ctx);
  requireInitialPost(ctx, p, t);
  const parent = entryOf(ctx, p, t, ctx.path.entry_id, { live: true });
  if (t.discussion_type === 'side_comment' && parent.parent_id !== null) {
    throw invalid(
      undefined,
      'parent_id',
      'invalid',
      'a side_comment discussion has one level of replies: reply to the top-level entry',
    );
  }
  return post(ctx, t, parent);
};

export const listEntries: Handler = (ctx) => {
  const { p, t } = readableTopic(ctx);
  requireInitialPost(ctx, p, t);
  return paginateEntries(ctx, topLevelEntriesQuery(topicIdsOf(ctx, p, t)), true);
};

export const listReplies: Handler = (ctx) => {
  const { p, t } = readableTopic(ctx);
  requireInitialPost(ctx, p, t);
  const entry = entryOf(ctx, p, t, ctx.path.entry_id, { live: false });
  if (entry.parent_id !== null) throw notFound();
  return paginateEntries(ctx, repliesQuery(entry.id), false);
};

export const entryList: Handler = (ctx) => {
  const { p, t } = readableTopic(ctx);
  requireInitialPost(ctx, p, t);
  const raw = list(ctx.params, 'ids').map(String);
  const ids = [...new Set(raw.map((r) => numericId(r)))];
  if (ids.includes(undefined)) throw notFound();
  if (!ids.length) return [];
  const topicIds = topicIdsOf(ctx, p, t);
  if (countFound(ctx.db, topicIds, ids as number[]) !== ids.length) throw notFound();
  return paginateEntries(ctx, entryListQuery(topicIds, ids as number[]), false);
};

function editableEntry(ctx: MockCtx): { p: Place; t: TopicRow; e: EntryRow } {
  const { p, t } = readableTopic(ctx);
  const e = entryOf(ctx, p, t, ctx.path.id, { live: true });
  // Only the author or a moderator of the author's posts; anyone else is answered 401, as the spec says.
  permit(mayEditEntry(ctx, p, e));
  return { p, t, e };
}

export const updateEntryHandler: Handler = (ctx) => {
  const { e } = editableEntry(ctx);
  const message = str(ctx.params, 'message');
  if (message === undefined || !message.trim()) throw invalid(undefined, 'message', 'blank', "can't be blank");
  updateEntryMessage(ctx.db, e.id, message, e.user_id === ctx.caller.id ? null : ctx.caller.id, ctx.now());
  touchThread(ctx.db, e.topic_id, staleUntil(ctx));
  return oneEntry(ctx, entryById(ctx.db, e.id)!);
};

export const deleteEntryHandler: Handler = (ctx) => {
  const { e } = editableEntry(ctx);
  deleteEntry(ctx.db, e.id, e.user_id === ctx.caller.id ? null : ctx.caller.id, ctx.now());
  touchThread(ctx.db, e.topic_id, staleUntil(ctx));
  return noContent();
};

// ---- read state and subscriptions -------------------------------------------------------------

const forced = (ctx: MockCtx) => bool(ctx.params, 'forced_read_state');

export const topicRead =
  (state: 'read' | 'unread'): Handler =>
  (ctx) => {
    const { t } = readableTopic(ctx);
    setTopicRead(ctx.db, t.id, ctx.caller.id, state);
    return noContent();
  };

export const allRead =
  (state: 'read' | 'unread'): Handler =>
  (ctx) => {
    const { p, t } = readableTopic(ctx);
    requireInitialPost(ctx, p, t);
    setTopicRead(ctx.db, t.id, ctx.caller.id, state);
    setAllEntriesRead(ctx.db, t.id, ctx.caller.id, state, forced(ctx));
    return noContent();
  };

export const entryRead =
  (state: 'read' | 'unread'): Handler =>
  (ctx) => {
    const { p, t } = readableTopic(ctx);
    requireInitialPost(ctx, p, t);
    const e = entryOf(ctx, p, t, ctx.path.entry_id, { live: false });
    setEntryRead(ctx.db, e.id, ctx.caller.id, state, forced(ctx));
    return noContent();
  };

export const subscribe: Handler = (ctx) => {
  const { p, t } = readableTopic(ctx);
  requireInitialPost(ctx, p, t);
  const hold = subscriptionHold(ctx, p, t);
  if (hold) throw invalid(undefined, 'subscribed', hold, `cannot subscribe to this topic: ${hold}`);
  setSubscribed(ctx.db, t.id, ctx.caller.id, true);
  return noContent();
};

export const unsubscribe: Handler = (ctx) => {
  const { t } = readableTopic(ctx);
  setSubscribed(ctx.db, t.id, ctx.caller.id, false);
  return noContent();
};

// ---- the full topic view ----------------------------------------------------------------------

/** What the cache holds of an entry: no URLs (they depend on the origin asked), the attachment by id. */
interface CachedEntry {
  id: number;
  user_id?: number;
  parent_id: number | null;
  created_at: string;
  updated_at: string;
  message?: string;
  editor_id?: number;
  deleted?: boolean;
  attachment_id?: number;
  replies?: CachedEntry[];
}

function cachedEntry(e: EntryRow): CachedEntry {
  const base: CachedEntry = { id: e.id, parent_id: e.parent_id, created_at: e.created_at, updated_at: e.updated_at };
  if (e.editor_id !== null) base.editor_id = e.editor_id;
  if (e.workflow_state === 'deleted') return { ...base, deleted: true };
  return {
    ...base,
    user_id: e.user_id,
    message: e.message,
    ...(e.attachment_id !== null ? { attachment_id: e.attachment_id } : {}),
  };
}

function buildView(entries: EntryRow[]): CachedEntry[] {
  const byId = new Map<number, CachedEntry>();
  const roots: CachedEntry[] = [];
  for (const e of entries) byId.set(e.id, cachedEntry(e));
  for (const e of entries) {
    const node = byId.get(e.id)!;
    const parent = e.parent_id === null ? undefined : byId.get(e.parent_id);
    if (parent) {
      parent.replies ??= [];
      parent.replies.push(node);
    } else roots.push(node);
  }
  return roots;
}

function served(ctx: MockCtx, node: CachedEntry, users: Set<number>): ViewEntry {
  const { attachment_id, replies, ...rest } = node;
  const out: ViewEntry = { ...rest };
  if (rest.user_id !== undefined) users.add(rest.user_id);
  const a = attachment_id === undefined ? undefined : attachmentById(ctx.db, attachment_id);
  if (a) out.attachment = attachmentJson(ctx, a) as ViewEntry['attachment'] & object;
  if (replies) out.replies = replies.map((r) => served(ctx, r, users));
  return out;
}

export const viewTopic: Handler = (ctx) => {
  const { p, t } = readableTopic(ctx);
  requireInitialPost(ctx, p, t);
  const stale = (ctx.viewRebuild?.wallClock() ?? 0) < t.view_stale_until;
  const withNew = str(ctx.params, 'include_new_entries') === '1' || bool(ctx.params, 'include_new_entries') === true;
  let snapshot = viewSnapshot(ctx.db, t.id);
  if (!stale && snapshot?.version !== t.view_version) {
    const thread = threadOf(ctx.db, t.id);
    snapshot = {
      version: t.view_version,
      max_entry_id: thread.at(-1)?.id ?? 0,
      view: JSON.stringify(buildView(thread)),
    };
    saveViewSnapshot(ctx.db, t.id, snapshot);
  }
  // Being rebuilt after a write: nothing to serve, unless the caller takes the last structure with what came since.
  if (!snapshot || (stale && !withNew)) return new Reply(503, undefined);
  const users = new Set<number>();
  const view = (JSON.parse(snapshot.view) as CachedEntry[]).map((e) => served(ctx, e, users));
  const fresh = withNew
    ? entriesAfter(ctx.db, t.id, snapshot.max_entry_id).map((e) => served(ctx, cachedEntry(e), users))
    : undefined;
  const thread = threadOf(ctx.db, t.id).filter((e) => e.workflow_state === 'active');
  const states = entryStatesOf(
    ctx.db,
    thread.map((e) => e.id),
    ctx.caller.id,
  );
  const json: FullTopicView = {
    participants: [...users]
      .sort((a, b) => a - b)
      .map((id) => userDisplay(ctx, id))
      .filter((u): u is UserDisplay => 'id' in u),
    unread_entries: thread.filter((e) => (states.get(e.id)?.read_state ?? 'unread') === 'unread').map((e) => e.id),
    forced_entries: thread.filter((e) => states.get(e.id)?.forced === 1).map((e) => e.id),
    view,
  };
  if (fresh) json.new_entries = fresh;
  // Viewing marks what was seen as read, unless the user marks by hand (manual_mark_as_read).
  if (ctx.caller.manual_mark_as_read === 0) {
    markViewedRead(ctx.db, t.id, ctx.caller.id);
    setTopicRead(ctx.db, t.id, ctx.caller.id, 'read');
  }
  return json;
};
