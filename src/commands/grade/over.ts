// A grade worth more than the assignment's points possible. Canvas stores it (extra credit), so lms
// grades it too; it is said on stderr, since a 95 typed for a 9.5 looks the same to the server.
import type { GradedAssignment } from '../../spec/types/submissions.js';
import { interpretGrade } from '../../spec/grading.js';

/** What to say of `grade` when it scores above the assignment's points possible; undefined otherwise. */
export function aboveMaximum(
  assignment: Pick<GradedAssignment, 'id' | 'grading_type' | 'points_possible' | 'grading_scheme'>,
  grade: string,
): string | undefined {
  const points: unknown = assignment.points_possible;
  if (typeof points !== 'number' || !Number.isFinite(points)) return undefined;
  const read = interpretGrade(assignment, grade);
  if ('error' in read || read.score === null || read.score <= points) return undefined;
  const given = grade.trim();
  return (
    `${given === String(read.score) ? given : `${given} (${read.score} points)`} is above the ${points} points ` +
    `possible of assignment ${assignment.id}`
  );
}
