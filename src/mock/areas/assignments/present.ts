// An assignment as the API shows it: in its own listings, the calendar, to-dos, topics and submissions.
import type { MockCtx } from '../../kit.js';
import { DEFAULT_GRADING_SCHEME } from '../../../spec/grading.js';
import { needsGradingCount } from '../submissions/repo.js';
import { criterionJson } from '../rubrics/present.js';
import { criteriaOf, gradingAssociationOf, rubricById } from '../rubrics/repo.js';
import { gradingSchemeOf, type AssignmentRow } from './repo.js';

export function assignmentJson(ctx: Pick<MockCtx, 'origin' | 'db'>, a: AssignmentRow) {
  const letters = a.grading_type === 'letter_grade' || a.grading_type === 'gpa_scale';
  return {
    id: a.id,
    name: a.name,
    description: a.description,
    created_at: a.created_at,
    updated_at: a.updated_at,
    due_at: a.due_at,
    lock_at: a.lock_at,
    unlock_at: a.unlock_at,
    points_possible: a.points_possible,
    grading_type: a.grading_type,
    grading_standard_id: a.grading_standard_id,
    assignment_group_id: a.assignment_group_id,
    group_category_id: null,
    automatic_peer_reviews: false,
    grade_group_students_individually: false,
    peer_reviews: false,
    position: a.position,
    course_id: a.course_id,
    submission_types: JSON.parse(a.submission_types) as string[],
    muted: false,
    published: a.published === 1,
    needs_grading_count: needsGradingCount(ctx.db, a.id),
    html_url: `${ctx.origin}/courses/${a.course_id}/assignments/${a.id}`,
    // The letters a letter-graded assignment takes (its grading standard's, or the default scheme),
    // so a client can check grades before sending them.
    ...(letters ? { grading_scheme: gradingSchemeOf(ctx.db, a) ?? [...DEFAULT_GRADING_SCHEME] } : {}),
    ...rubricOfAssignment(ctx, a),
  };
}

/** The rubric grading the assignment, as canvas-lms's assignment shows it: its criteria, settings and use. */
function rubricOfAssignment(ctx: Pick<MockCtx, 'db'>, a: AssignmentRow) {
  const association = gradingAssociationOf(ctx.db, a.id);
  if (!association) return {};
  const r = rubricById(ctx.db, association.rubric_id)!;
  return {
    use_rubric_for_grading: association.use_for_grading === 1,
    free_form_criterion_comments: r.free_form_criterion_comments === 1,
    rubric: criteriaOf(r).map(criterionJson),
    rubric_settings: {
      id: r.id,
      title: r.title,
      points_possible: r.points_possible,
      free_form_criterion_comments: r.free_form_criterion_comments === 1,
      hide_score_total: association.hide_score_total === 1,
      hide_points: association.hide_points === 1,
    },
  };
}
