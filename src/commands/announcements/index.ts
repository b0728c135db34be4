// `lms announcements`: the verbs of `lms topics` (src/commands/topics/verbs.ts) for announcements —
// listing only announcements, creating with is_announcement, with no drafts, grading, group sets or
// subscriptions, which announcements do not have.
import type { Verbs } from '../../model/command.js';
import { topicVerbs, type TopicNoun } from '../topics/verbs.js';

const ANNOUNCEMENTS: TopicNoun = {
  name: 'announcements',
  one: 'announcement',
  aOne: 'an announcement',
  summaries: {
    list: 'List the announcements of a course or group',
    create: 'Post an announcement (needs the right to post announcements)',
    update: 'Change an announcement: title, message, type, dates, pin, lock',
    delete: 'Delete an announcement',
  },
  flags: { list: {}, create: {}, update: {} },
  onlyAnnouncements: true,
  created: { is_announcement: true },
  // Announcements hold every subscription (subscription_hold topic_is_announcement).
  subscribable: false,
  seeded: { topic: '1', entry: '33', entryIds: '33', replies: '1 33' },
  examples: {
    list: [],
    get: [],
    create: ['create --course 1 --title "Lab moved to room 204" --message "<p>From Tuesday.</p>"'],
    update: [],
  },
};

export const announcementsVerbs: Verbs = topicVerbs(ANNOUNCEMENTS);
