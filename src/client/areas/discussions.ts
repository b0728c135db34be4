// Discussion topics and announcements, their entries and replies, read state and subscriptions.
import { op } from '../operation.js';
import type { Id } from '../../spec/types/common.js';
import type { DeletedTopic, Entry, EntryFields, FullTopicView, ListTopicsParams, Topic, TopicContext, TopicFields } from '../../spec/types/discussions.js';

type OnTopic = TopicContext & { topic_id: Id };
type OnEntry = OnTopic & { entry_id: Id };
type Forced = { forced_read_state?: boolean };

export const discussions = {
  listTopics: op('discussions.listTopics').as<{ course_id: Id } & ListTopicsParams, Topic>(),
  listGroupTopics: op('discussions.listGroupTopics').as<{ group_id: Id } & ListTopicsParams, Topic>(),
  createTopic: op('discussions.createTopic').as<TopicContext & TopicFields, Topic>(),
  updateTopic: op('discussions.updateTopic').as<OnTopic & TopicFields, Topic>(),
  deleteTopic: op('discussions.deleteTopic').as<OnTopic, DeletedTopic>(),
  getTopic: op('discussions.getTopic').as<OnTopic, Topic>(),
  // The full view is cached by the server and answers 503 until its structure is rebuilt after a
  // write: the client asks again by itself, a few times, before giving up.
  viewTopic: op('discussions.viewTopic', undefined, { retryUnavailable: true }).as<OnTopic & { include_new_entries?: 1 }, FullTopicView>(),
  createEntry: op('discussions.createEntry').as<OnTopic & EntryFields, Entry>(),
  listEntries: op('discussions.listEntries').as<OnTopic, Entry>(),
  createReply: op('discussions.createReply').as<OnEntry & EntryFields, Entry>(),
  listReplies: op('discussions.listReplies').as<OnEntry, Entry>(),
  entryList: op('discussions.entryList').as<OnTopic & { ids: Id[] }, Entry>(),
  updateEntry: op('discussions.updateEntry').as<OnTopic & { id: Id; message: string }, Entry>(),
  deleteEntry: op('discussions.deleteEntry').as<OnTopic & { id: Id }, undefined>(),
  markTopicRead: op('discussions.markTopicRead').as<OnTopic, undefined>(),
  markTopicUnread: op('discussions.markTopicUnread').as<OnTopic, undefined>(),
  markAllRead: op('discussions.markAllRead').as<OnTopic & Forced, undefined>(),
  markAllUnread: op('discussions.markAllUnread').as<OnTopic & Forced, undefined>(),
  markEntryRead: op('discussions.markEntryRead').as<OnEntry & Forced, undefined>(),
  markEntryUnread: op('discussions.markEntryUnread').as<OnEntry & Forced, undefined>(),
  subscribe: op('discussions.subscribe').as<OnTopic, undefined>(),
  unsubscribe: op('discussions.unsubscribe').as<OnTopic, undefined>(),
};
