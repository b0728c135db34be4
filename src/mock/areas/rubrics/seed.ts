// BIO-101's lab report rubric: three criteria with their ratings, bookmarked in the course and
// grading the lab report (use_for_grading), and its assessment of Sam's graded report.
import type { SeedOptions } from '../../area.js';
import type { Db } from '../../db/open.js';
import { assignmentById } from '../assignments/repo.js';
import { ensureSubmission } from '../submissions/repo.js';
import { createAssociation, createRubric, saveAssessment, type CriterionData } from './repo.js';

const rating = (id: string, description: string, points: number) => ({
  id,
  description,
  long_description: null,
  points,
});

const LAB_REPORT: CriterionData[] = [
  {
    id: 'hypothesis',
    description: 'Hypothesis',
    long_description: 'A testable statement, with its variables named',
    points: 5,
    criterion_use_range: false,
    ratings: [
      rating('hyp_full', 'Clear and testable', 5),
      rating('hyp_part', 'Vague', 3),
      rating('hyp_none', 'Missing', 0),
    ],
  },
  {
    id: 'method',
    description: 'Method',
    long_description: null,
    points: 5,
    criterion_use_range: false,
    ratings: [rating('met_full', 'Repeatable', 5), rating('met_none', 'Incomplete', 0)],
  },
  {
    id: 'analysis',
    description: 'Analysis',
    long_description: 'Results, their uncertainty, and what they show',
    points: 10,
    criterion_use_range: true,
    ratings: [rating('ana_full', 'Thorough', 10), rating('ana_part', 'Partial', 6), rating('ana_none', 'Missing', 0)],
  },
];

export function seedRubrics(db: Db, { minimal, now }: SeedOptions): void {
  if (minimal) return;
  const rubric = createRubric(db, {
    id: 1,
    course: 1,
    title: 'Lab Report Rubric',
    criteria: LAB_REPORT,
    freeForm: false,
    now,
  });
  const fields = {
    purpose: 'bookmark' as const,
    use_for_grading: false,
    hide_score_total: false,
    hide_points: false,
    hide_outcome_results: false,
  };
  createAssociation(db, { id: 1, rubric, course: 1, type: 'Course', objectId: 1, fields, now });
  const association = createAssociation(db, {
    id: 2,
    rubric,
    course: 1,
    type: 'Assignment',
    objectId: 1,
    fields: { ...fields, purpose: 'grading', use_for_grading: true },
    now,
  });
  const at = '2026-09-18T15:30:00Z';
  const sub = ensureSubmission(db, assignmentById(db, 1)!, 7, at);
  const rated = (
    criterion: string,
    id: string,
    points: number,
    description: string,
    comments: string | null = null,
  ) => ({
    criterion_id: criterion,
    id,
    points,
    description,
    comments,
    comments_enabled: true,
  });
  saveAssessment(db, {
    rubric,
    association,
    submission: sub.id,
    user: 7,
    assessor: 3,
    score: 19,
    ratings: [
      rated('hypothesis', 'hyp_full', 5, 'Clear and testable'),
      rated('method', 'met_full', 5, 'Repeatable'),
      rated('analysis', 'ana_full', 9, 'Thorough', 'Discuss the error bars.'),
    ],
    attempt: sub.attempt,
    now: at,
  });
}
