// `lms topics`: discussion topics of courses, groups and collection items — the topics themselves,
// their entries and replies, read state and subscriptions. `lms announcements` shares the verbs
// (src/commands/topics/verbs.ts); what differs is described here and there.
import type { Verbs } from '../../model/command.js';
import { TOPIC_ONLY_FLAGS, topicVerbs, type TopicNoun } from './verbs.js';

const TOPICS: TopicNoun = {
  name: 'topics',
  one: 'topic',
  aOne: 'a topic',
  summaries: {
    list: 'List the discussion topics of a course or group',
    create: "Create a topic (a teacher's is a draft unless --publish)",
    update: 'Change a topic: title, message, type, dates, pin, lock, publication, grading',
    delete: 'Delete a topic (and its assignment, if graded)',
  },
  flags: TOPIC_ONLY_FLAGS,
  onlyAnnouncements: false,
  created: {},
  subscribable: true,
  seeded: { topic: '2', entry: '1', entryIds: '1 --id 4', replies: '3 7' },
  examples: {
    list: ['list --group 1'],
    get: ['get 14 --collection-item 1'],
    create: [
      'create --course 1 --title "Week 10 reading" --message "<p>Chapter 12</p>" --discussion-type threaded --publish',
      'create --course 1 --title "Peer review" --points 10 --due-at 2026-12-01T23:59:00Z --require-initial-post ' +
        '--publish',
      'create --course 1 --title "Bench plans" --group-set 1 --publish',
    ],
    update: ['update 8 --course 1 --publish'],
  },
};

export const topicsVerbs: Verbs = topicVerbs(TOPICS);
