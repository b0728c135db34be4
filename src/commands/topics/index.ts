// `lms topics`: discussion topics of courses, groups and collection items — the topics themselves,
// their entries and replies, read state and subscriptions. `lms announcements` is the same code
// with announcements fixed on (src/commands/announcements).
import type { Verbs } from '../../cli/command.js';
import { topicVerbs } from './verbs.js';

export const topicsVerbs: Verbs = topicVerbs(false);
