// Discussion topics and announcements in courses, groups and collection items: topics with every
// per-user field computed from state (read state, unread counts, subscriptions and their holds,
// locks, drafts, delayed posting, group children), entries and replies (side_comment allows one
// level), require_initial_post, read state and subscriptions per user, and the full topic view,
// whose cached structure is unavailable (503) for a while after each write. The handler of each
// operation: topics in topics.ts, entries, read state and the view in entries.ts.
import {
  createEntryHandler,
  createReply,
  listEntries,
  listReplies,
  entryList,
  updateEntryHandler,
  deleteEntryHandler,
  topicRead,
  allRead,
  entryRead,
  subscribe,
  unsubscribe,
  viewTopic,
} from './entries.js';
import { listTopics, createTopicHandler, updateTopicHandler, deleteTopicHandler, getTopic } from './topics.js';

export const discussionsHandlers = {
  'discussions.listTopics': listTopics,
  'discussions.listGroupTopics': listTopics,
  'discussions.createTopic': createTopicHandler,
  'discussions.updateTopic': updateTopicHandler,
  'discussions.deleteTopic': deleteTopicHandler,
  'discussions.getTopic': getTopic,
  'discussions.viewTopic': viewTopic,
  'discussions.createEntry': createEntryHandler,
  'discussions.listEntries': listEntries,
  'discussions.createReply': createReply,
  'discussions.listReplies': listReplies,
  'discussions.entryList': entryList,
  'discussions.updateEntry': updateEntryHandler,
  'discussions.deleteEntry': deleteEntryHandler,
  'discussions.markTopicRead': topicRead('read'),
  'discussions.markTopicUnread': topicRead('unread'),
  'discussions.markAllRead': allRead('read'),
  'discussions.markAllUnread': allRead('unread'),
  'discussions.markEntryRead': entryRead('read'),
  'discussions.markEntryUnread': entryRead('unread'),
  'discussions.subscribe': subscribe,
  'discussions.unsubscribe': unsubscribe,
};
