// Assessing a submission with its assignment's rubric, as canvas-lms's RubricAssociation#assess
// does: each criterion given is rated (its rating found by points), the points of those given are
// summed into the assessment's score (none given, no score), and a criterion made from an outcome
// gives at most its own points. The grading handler then, with use_for_grading, gives the
// submission that score (RubricAssessment#update_artifact).
import type { Db } from '../../db/open.js';
import { obj, rejected, str } from '../../kit.js';
import type { ParamsObject } from '../../decode.js';
import {
  type AssessedRating,
  type AssessmentType,
  type AssociationRow,
  type CriterionData,
  criteriaOf,
  gradingAssociationOf,
  rubricById,
  saveAssessment,
} from './repo.js';

/** Points as canvas-lms rounds a rubric's (Rubric::POINTS_POSSIBLE_PRECISION). */
const round = (n: number) => Math.round(n * 100) / 100;

function rate(criterion: CriterionData, given: ParamsObject): AssessedRating {
  const raw = str(given, 'points');
  let points: number | null = raw === undefined || raw.trim() === '' ? null : Number(raw);
  if (points !== null && !Number.isFinite(points)) throw rejected('invalid rubric_assessment');
  if (points !== null && criterion.learning_outcome_id !== undefined) points = Math.min(criterion.points, points);
  // The rating whose points these are (or, for a range, the range they fall in).
  const rating =
    points === null
      ? undefined
      : criterion.ratings.find(
          (r, i) =>
            Math.abs(r.points - points!) < Number.EPSILON ||
            (criterion.criterion_use_range && r.points > points! && (criterion.ratings[i + 1]?.points ?? 0) < points!),
        );
  const description = str(given, 'description') ?? rating?.description;
  return {
    criterion_id: criterion.id,
    id: str(given, 'rating_id') ?? rating?.id ?? null,
    points,
    description: description?.trim() ? description : 'No details',
    comments: str(given, 'comments') ?? null,
    comments_enabled: true,
  };
}

/**
 * Assesses the submission under an association from its criteria's parameters, keyed by criterion
 * id (`{ hypothesis: { points, comments } }`); refused when a criterion is not the rubric's,
 * nothing written. Both the submissions API's `rubric_assessment` and the assessments API come here.
 */
export function assess(
  db: Db,
  association: AssociationRow,
  params: ParamsObject,
  s: { submissionId: number; userId: number; attempt: number | null },
  by: { assessor: number; type: AssessmentType },
  now: string,
): { id: number; score: number | null; useForGrading: boolean } {
  const rubric = rubricById(db, association.rubric_id)!;
  const criteria = criteriaOf(rubric);
  for (const id of Object.keys(params))
    if (!criteria.some((c) => c.id === id)) throw rejected(`invalid rubric_assessment: no criterion ${id}`);
  let score: number | null = null;
  const ratings: AssessedRating[] = [];
  for (const criterion of criteria) {
    const given = obj(params, criterion.id);
    if (params[criterion.id] === undefined) continue;
    const rating = rate(criterion, given);
    if (rating.points !== null) score = (score ?? 0) + rating.points;
    ratings.push(rating);
  }
  if (score !== null) score = round(score);
  const id = saveAssessment(db, {
    rubric: rubric.id,
    association: association.id,
    submission: s.submissionId,
    user: s.userId,
    assessor: by.assessor,
    type: by.type,
    score,
    ratings,
    attempt: s.attempt,
    now,
  });
  return { id, score, useForGrading: association.use_for_grading === 1 };
}

/**
 * Assesses the submission from `rubric_assessment[criterion_id][points|comments]`. Undefined when
 * the assignment has no grading rubric (canvas-lms then ignores the parameter).
 */
export function assessSubmission(
  db: Db,
  params: ParamsObject,
  s: { assignmentId: number; submissionId: number; userId: number; attempt: number | null },
  assessor: number,
  now: string,
): { score: number | null; useForGrading: boolean } | undefined {
  const association = gradingAssociationOf(db, s.assignmentId);
  if (!association) return undefined;
  return assess(db, association, params, s, { assessor, type: 'grading' }, now);
}
