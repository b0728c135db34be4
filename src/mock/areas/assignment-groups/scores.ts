// A course's grades of one student from its groups as they are now: what the submissions list's
// totals and an enrollment's grades show.
import type { Db } from '../../db/open.js';
import { courseScores, type GradedWork } from '../../../spec/course-grades.js';
import { gradedWorkOf, groupsOfCourse, rulesOf, weighsGroups } from './repo.js';

export function courseScoresOf(
  db: Db,
  courseId: number,
  work: GradedWork[],
): { current_score: number | null; final_score: number | null } {
  const groups = groupsOfCourse(db, courseId).map((g) => ({
    id: g.id,
    group_weight: g.group_weight,
    rules: rulesOf(g),
  }));
  return courseScores(work, groups, weighsGroups(db, courseId));
}

/** The student's scores over every published, graded assignment of the course. */
export function studentScores(db: Db, courseId: number, userId: number) {
  return courseScoresOf(db, courseId, gradedWorkOf(db, courseId, userId));
}
