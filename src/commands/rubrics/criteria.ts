// A criterion as a flag gives it, `DESCRIPTION:POINTS[:RATING=POINTS,RATING=POINTS…]`, and the
// indexed hash canvas-lms takes (`rubric[criteria][0][ratings][1][points]`).
import { UsageError } from '../../errors.js';
import type { CriterionFields, RatingFields } from '../../spec/types/rubrics.js';

function pointsOf(text: string, what: string): number {
  const n = Number(text.trim());
  if (text.trim() === '' || !Number.isFinite(n) || n < 0)
    throw new UsageError(`${what}: "${text}" is not a number of points (0 or more)`);
  return n;
}

/** `Analysis:10:Thorough=10,Partial=6,Missing=0` → the criterion's fields. */
function parseCriterion(spec: string): CriterionFields {
  const at = spec.indexOf(':');
  if (at <= 0)
    throw new UsageError(
      `--criterion "${spec}": give DESCRIPTION:POINTS, with ratings after a second colon (NAME=POINTS,…)`,
    );
  const description = spec.slice(0, at).trim();
  const rest = spec.slice(at + 1);
  const colon = rest.indexOf(':');
  const points = pointsOf(colon < 0 ? rest : rest.slice(0, colon), `--criterion "${description}"`);
  const fields: CriterionFields = { description, points };
  if (colon >= 0) {
    const ratings: Record<string, RatingFields> = {};
    rest
      .slice(colon + 1)
      .split(',')
      .forEach((r, i) => {
        const eq = r.lastIndexOf('=');
        if (eq <= 0) throw new UsageError(`--criterion "${description}": rating "${r}" is not NAME=POINTS`);
        const ratingPoints = pointsOf(r.slice(eq + 1), `rating "${r.slice(0, eq).trim()}"`);
        if (ratingPoints > points)
          throw new UsageError(
            `--criterion "${description}": rating "${r}" is worth more than the criterion (${points})`,
          );
        ratings[String(i)] = { description: r.slice(0, eq).trim(), points: ratingPoints };
      });
    fields.ratings = ratings;
  }
  return fields;
}

export function criteriaHash(specs: readonly string[]): Record<string, CriterionFields> {
  return Object.fromEntries(specs.map((s, i) => [String(i), parseCriterion(s)]));
}
