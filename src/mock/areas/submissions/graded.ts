// A change of a submission's grade, and the grade a rubric used for grading gives it: what grading
// a submission (grading.ts) and assessing one through the rubric assessments API both do, once.
import { scoreToGrade } from '../../../spec/grading.js';
import type { Db } from '../../db/open.js';
import { gradeNotice } from '../activity/notifications.js';
import { assignmentById, type AssignmentRow } from '../assignments/repo.js';
import { courseById } from '../../school/courses/repo.js';
import { courseDay, gradable } from './present.js';
import { setGrade, submissionById, type SubmissionRow } from './repo.js';

/** Sets the grade (a version of it, and a notice to the student) unless it is the one there. */
export function applyGrade(
  db: Db,
  sub: SubmissionRow,
  change: { score: number | null; grade: string | null; excused?: boolean },
  graderId: number,
  now: string,
): void {
  if (!setGrade(db, sub, { ...change, graderId, now, day: courseDay(now, courseById(db, sub.course_id)!.time_zone) }))
    return;
  const graded = submissionById(db, sub.id)!;
  gradeNotice(db, graded, assignmentById(db, graded.assignment_id)!.name, graderId, now);
}

/**
 * After an assessment, as canvas-lms's RubricAssessment#update_artifact: a rubric used for grading
 * gives the submission the assessment's score (and the grade that score is), by the assessor.
 */
export function gradeFromRubric(
  db: Db,
  a: AssignmentRow,
  submissionId: number,
  assessed: { score: number | null; useForGrading: boolean } | undefined,
  graderId: number,
  now: string,
): void {
  const sub = submissionById(db, submissionId)!;
  if (!assessed?.useForGrading || assessed.score === null || assessed.score === sub.score) return;
  applyGrade(db, sub, { score: assessed.score, grade: scoreToGrade(gradable(db, a), assessed.score) }, graderId, now);
}
