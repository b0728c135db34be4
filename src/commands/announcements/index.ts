// `lms announcements`: the verbs of `lms topics` with announcements fixed on — listing only
// announcements, creating with is_announcement. One set of code (src/commands/topics/verbs.ts).
import type { Verbs } from '../../cli/command.js';
import { topicVerbs } from '../topics/verbs.js';

export const announcementsVerbs: Verbs = topicVerbs(true);
