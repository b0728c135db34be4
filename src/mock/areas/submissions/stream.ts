// A submission as an item of its student's activity stream: the submission with its comments,
// assignment and course, titled by the assignment.
import type { StreamPresenter } from '../../area.js';
import { assignmentById } from '../assignments/repo.js';
import { courseJson } from '../../school/courses/present.js';
import { courseById } from '../../school/courses/repo.js';
import { submissionJson } from './present.js';
import { commentsOf, submissionById } from './repo.js';

export const submissionStreamItem: StreamPresenter = (ctx, item) => {
  const s = submissionById(ctx.db, item.asset_id);
  if (!s || s.user_id !== ctx.caller.id) return undefined;
  const a = assignmentById(ctx.db, s.assignment_id);
  const course = courseById(ctx.db, s.course_id);
  if (!a || !course) return undefined;
  const json = submissionJson(ctx, s, ['submission_comments', 'assignment']);
  const last = commentsOf(ctx.db, s.id).at(-1);
  return {
    ...json,
    title: a.name,
    message: last?.comment ?? null,
    html_url: `${ctx.origin}/courses/${s.course_id}/assignments/${a.id}/submissions/${s.user_id}`,
    submission_id: s.id,
    course: courseJson(course),
  };
};
