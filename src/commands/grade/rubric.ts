// Grading by rubric: a criterion named by its id or its description, its points checked against
// the criterion's range (0 to its points) before anything is sent, and the submissions API's
// `rubric_assessment[criterion_id][points|comments]` made from them. `lms grade --rubric` gives
// one student's; `grade --csv` reads them from columns named by criterion (rubric-csv.ts).
import { UsageError } from '../../errors.js';
import type { GradedAssignment } from '../../spec/types/submissions.js';
import type { RubricCriterion } from '../../spec/types/rubrics.js';

export type RubricAssessmentParam = Record<string, { points?: number; comments?: string }>;

/** The assignment's rubric criteria; a usage error when it has none. */
function criteriaOf(a: GradedAssignment): RubricCriterion[] {
  if (!a.rubric?.length) throw new UsageError(`assignment ${a.id} (${a.name}) has no rubric to grade by`);
  return a.rubric;
}

/** The criterion a name means: its id, or its description (any case), which must name only one. */
export function criterionNamed(criteria: readonly RubricCriterion[], name: string): RubricCriterion | string {
  const key = name.trim().toLowerCase();
  const byId = criteria.find((c) => c.id.toLowerCase() === key);
  if (byId) return byId;
  const found = criteria.filter((c) => c.description.trim().toLowerCase() === key);
  if (found.length === 1) return found[0];
  if (found.length > 1) return `"${name}" names ${found.length} criteria (use its id)`;
  return `"${name}" is not a criterion of the rubric (${criteria.map((c) => `${c.id} "${c.description}"`).join(', ')})`;
}

/** The points given a criterion, or why they cannot be. */
export function pointsFor(c: RubricCriterion, raw: string): number | string {
  const n = Number(raw.trim());
  if (raw.trim() === '' || !Number.isFinite(n)) return `"${raw}" is not a number of points (${c.description})`;
  if (n < 0 || n > c.points) return `${n} is outside ${c.description}'s range, 0 to ${c.points}`;
  return n;
}

/** `criterion=points[,comment]`, as many as given, into the rubric_assessment parameter. */
export function rubricFromFlags(a: GradedAssignment, specs: readonly string[]): RubricAssessmentParam {
  return assessmentOf(criteriaOf(a), specs, '--rubric');
}

/** `criterion=points[,comment]` against a rubric's criteria, each checked, by criterion id. */
export function assessmentOf(
  criteria: readonly RubricCriterion[],
  specs: readonly string[],
  flag: string,
): RubricAssessmentParam {
  const out: RubricAssessmentParam = {};
  for (const spec of specs) {
    const eq = spec.indexOf('=');
    if (eq <= 0) throw new UsageError(`${flag} "${spec}": give CRITERION=POINTS[,COMMENT]`);
    const c = criterionNamed(criteria, spec.slice(0, eq));
    if (typeof c === 'string') throw new UsageError(`${flag}: ${c}`);
    const rest = spec.slice(eq + 1);
    const comma = rest.indexOf(',');
    const points = pointsFor(c, comma < 0 ? rest : rest.slice(0, comma));
    if (typeof points === 'string') throw new UsageError(`${flag}: ${points}`);
    if (out[c.id]) throw new UsageError(`${flag}: ${c.description} is given twice`);
    const comment = comma < 0 ? undefined : rest.slice(comma + 1).trim();
    out[c.id] = { points, ...(comment ? { comments: comment } : {}) };
  }
  return out;
}
