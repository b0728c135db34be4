// Gradebook history of a course: days, a day's graders, a grader's changes, and the feed.
import { op } from '../operation.js';
import type { Id } from '../../spec/types/common.js';
import type { FeedFilter, Grader, HistoryDay, SubmissionHistory, SubmissionVersion } from '../../spec/types/history.js';

export const history = {
  days: op('history.days').as<{ course_id: Id }, HistoryDay[]>(),
  day: op('history.day').as<{ course_id: Id; date: string }, Grader[]>(),
  submissions: op('history.submissions').as<{ course_id: Id; date: string; grader_id: Id; assignment_id: Id }, SubmissionHistory[]>(),
  feed: op('history.feed').as<{ course_id: Id } & FeedFilter, SubmissionVersion>(),
};
