// How a posted grade becomes a score and a grade string, as real instances interpret it
// (Assignment#interpret_grade, GradingStandard#grade_to_score, score_to_grade). Pure and shared:
// the mock grades with it, and `lms grade --csv` checks a whole file with it before sending a row.

/** A letter scheme: names with their lower bounds (fractions of points_possible), highest first. */
export interface SchemeEntry {
  name: string;
  value: number;
}

/** The built-in scheme real instances fall back to. */
export const DEFAULT_GRADING_SCHEME: readonly SchemeEntry[] = [
  { name: 'A', value: 0.94 },
  { name: 'A-', value: 0.9 },
  { name: 'B+', value: 0.87 },
  { name: 'B', value: 0.84 },
  { name: 'B-', value: 0.8 },
  { name: 'C+', value: 0.77 },
  { name: 'C', value: 0.74 },
  { name: 'C-', value: 0.7 },
  { name: 'D+', value: 0.67 },
  { name: 'D', value: 0.64 },
  { name: 'D-', value: 0.61 },
  { name: 'F', value: 0 },
];

export interface Gradable {
  grading_type: string;
  points_possible: number | null;
  /** The assignment's letter scheme (letter_grade, gpa_scale); the default one when absent. */
  grading_scheme?: readonly SchemeEntry[] | null;
}

export type Interpreted = { score: number | null; grade: string | null } | { error: string };

const PERCENT = /^[+-]?\d*\.?\d+%$/;
const POINTS = /^[+-]?\d*\.?\d+$/;

const usesLetters = (a: Gradable) => a.grading_type === 'letter_grade' || a.grading_type === 'gpa_scale';

function schemeOf(a: Gradable): readonly SchemeEntry[] {
  return a.grading_scheme?.length ? [...a.grading_scheme].sort((x, y) => y.value - x.value) : DEFAULT_GRADING_SCHEME;
}

/** Rounds away float noise (0.1 + 0.2) without hiding real decimals. */
const tidy = (n: number) => Math.round(n * 1e6) / 1e6;

/** The percentage a letter stands for: the top of its range (100 for the top letter). */
export function letterToPercent(scheme: readonly SchemeEntry[], letter: string): number | undefined {
  const i = scheme.findIndex((e) => e.name.toLowerCase() === letter.toLowerCase());
  if (i < 0) return undefined;
  if (i === 0) return 100;
  const above = scheme[i - 1].value * 100;
  const gap = above - scheme[i].value * 100;
  return tidy(above - (gap >= 1 ? 1 : 0.1));
}

/** A score as the assignment's grading type shows it. */
export function scoreToGrade(a: Gradable, score: number | null): string | null {
  if (score === null) return null;
  const points = a.points_possible ?? 0;
  switch (a.grading_type) {
    case 'percent': {
      const pct = points > 0 ? (score / points) * 100 : 0;
      return `${Math.round(pct * 100) / 100}%`;
    }
    case 'pass_fail':
      return score > 0 ? 'complete' : 'incomplete';
    case 'letter_grade':
    case 'gpa_scale': {
      const pct = points > 0 ? Math.max(0, score / points) : 0;
      const scheme = schemeOf(a);
      // Compared in whole hundredths of a percent, so 89.99…% from float noise still reads as 90%.
      const found = scheme.find((e) => Math.round(pct * 10000) >= Math.round(e.value * 10000));
      return (found ?? scheme[scheme.length - 1]).name;
    }
    case 'not_graded':
      return null;
    default:
      return String(tidy(score));
  }
}

/**
 * A posted grade as a score and a grade, or why it cannot be one. An empty value removes the grade.
 * Points above points_possible and percentages above 100 are allowed; pass_fail takes only 0 or full
 * marks; a letter needs a letter-graded assignment and a letter of its scheme.
 */
export function interpretGrade(a: Gradable, posted: string): Interpreted {
  const raw = posted.trim();
  if (raw === '') return { score: null, grade: null };
  if (a.grading_type === 'not_graded') return { error: 'this assignment is not graded' };
  const points = a.points_possible ?? 0;
  const lower = raw.toLowerCase();
  let score: number;
  if (PERCENT.test(raw)) score = tidy((points * Number(raw.slice(0, -1))) / 100);
  else if (POINTS.test(raw)) score = tidy(Number(raw));
  else if (lower === 'pass' || lower === 'complete') score = points;
  else if (lower === 'fail' || lower === 'incomplete') score = 0;
  else if (usesLetters(a)) {
    const pct = letterToPercent(schemeOf(a), raw);
    if (pct === undefined)
      return {
        error: `"${raw}" is not a grade of this assignment's scheme (${schemeOf(a)
          .map((e) => e.name)
          .join(', ')})`,
      };
    score = tidy((points * pct) / 100);
  } else {
    return {
      error:
        `"${raw}" is not a grade for a ${a.grading_type} assignment: give points, a percentage, pass/complete ` +
        'or fail/incomplete',
    };
  }
  if (a.grading_type === 'pass_fail' && score !== 0 && score !== points) {
    return { error: `a pass_fail assignment takes only 0 or ${points} (complete or incomplete), not "${raw}"` };
  }
  // The grade is what the scheme shows for the score; letters keep the letter given, as posted.
  if (usesLetters(a) && !POINTS.test(raw) && !PERCENT.test(raw) && letterToPercent(schemeOf(a), raw) !== undefined) {
    return { score, grade: schemeOf(a).find((e) => e.name.toLowerCase() === lower)!.name };
  }
  return { score, grade: scoreToGrade(a, score) };
}
