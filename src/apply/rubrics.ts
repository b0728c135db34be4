// Rubrics as a kind of the apply file: a rubric's criteria are one field, `criteria`, whose value is
// the list of them (each a description, its points, its ratings in order), compared as a whole, and
// written back by the repeatable `--criterion` flag that replaces every criterion at once. The
// assignment it grades, and how (use_for_grading, purpose), are read off its association with that
// assignment, so a rubric as the API lists it reads as the fields a file gives.
import type { ApiClient } from '../client/client.js';
import type { ApiObject } from '../spec/types/common.js';

interface Rating {
  description: string;
  points: number;
}

export interface Criterion {
  description: string;
  points: number;
  ratings?: Rating[];
}

/** What a rubric of a file asks that its verbs refuse: how it grades, without what it grades. */
export function rubricProblems(fields: Record<string, unknown>, refs: Record<string, string>): string[] {
  const grades = 'assignment' in refs || 'assignment_id' in fields;
  const how = ['use_for_grading', 'purpose'].filter((f) => f in fields);
  return how.length && !grades ? [`a rubric with ${how.join(' or ')} needs the assignment it grades`] : [];
}

/** The fields of a rubric's association: sent together, since the verb sets them as one. */
export const ASSOCIATION_FIELDS = ['assignment_id', 'use_for_grading', 'purpose'] as const;

const isPoints = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/**
 * What `--criterion DESCRIPTION:POINTS:RATING=POINTS,…` can say: a description without a colon, a
 * rating without a comma. The first colon ends a description, a comma a rating.
 */
const sayable = (c: Criterion) =>
  !c.description.includes(':') && (c.ratings ?? []).every((r) => !r.description.includes(','));

function textOf(v: unknown): string | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

function rating(raw: unknown, most: number): Rating | undefined {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  const { description, points, ...rest } = raw as Record<string, unknown>;
  const text = textOf(description);
  if (text === undefined || !isPoints(points) || points > most || !onlyApiExtras(rest)) return undefined;
  return { description: text, points };
}

/** What the API adds to a criterion or a rating that a file does not give: ids, long descriptions. */
function onlyApiExtras(rest: Record<string, unknown>): boolean {
  return Object.keys(rest).every((k) =>
    ['id', 'criterion_id', 'long_description', 'criterion_use_range', 'learning_outcome_id'].includes(k),
  );
}

/** The ratings canvas-lms gives a criterion given none: full marks and none. */
const madeWithNone = (ratings: Rating[], points: number) =>
  ratings.length === 2 &&
  ratings[0].description === 'Full Marks' &&
  ratings[0].points === points &&
  ratings[1].description === 'No Marks' &&
  ratings[1].points === 0;

/**
 * A list of criteria as a file gives it, or as the API lists a rubric's `data`; undefined when it is
 * not one. Ratings are read highest first, and a criterion's made-for-it two as none.
 */
export function criteriaOf(raw: unknown): Criterion[] | undefined {
  const read = readCriteria(raw);
  return typeof read === 'string' ? undefined : read;
}

/** The criteria, or why they are not a list of criteria, in words that name the criterion. */
export function readCriteria(raw: unknown): Criterion[] | string {
  if (!Array.isArray(raw) || raw.length === 0) return 'criteria must be a list of one criterion or more';
  const out: Criterion[] = [];
  for (const [i, item] of raw.entries()) {
    const which = `criterion ${i + 1}`;
    if (item === null || typeof item !== 'object' || Array.isArray(item))
      return `${which} must be a map of its description, points and ratings`;
    const { description, points, ratings, ...rest } = item as Record<string, unknown>;
    const text = textOf(description);
    if (text === undefined) return `${which} needs a description`;
    if (!isPoints(points)) return `${which} ("${text}") needs its points, a number of 0 or more`;
    if (!onlyApiExtras(rest)) {
      const unknown = Object.keys(rest).filter((k) => !onlyApiExtras({ [k]: true }));
      return `${which} ("${text}") has ${unknown.join(', ')}; a criterion takes description, points, ratings`;
    }
    const c: Criterion = { description: text, points };
    if (ratings !== undefined && ratings !== null) {
      if (!Array.isArray(ratings)) return `${which} ("${text}"): ratings must be a list`;
      const rs = ratings.map((r) => rating(r, points));
      const bad = rs.indexOf(undefined);
      if (bad >= 0)
        return (
          `${which} ("${text}"): rating ${bad + 1} must be a description and points from 0 to the criterion's ` +
          `${points}`
        );
      // Highest first, as a rubric keeps them; the two a criterion given none is made with are none.
      const sorted = (rs as Rating[])
        .map((r, j) => [r, j] as const)
        .sort((x, y) => y[0].points - x[0].points || x[1] - y[1]);
      const kept = sorted.map(([r]) => r);
      if (kept.length && !madeWithNone(kept, points)) c.ratings = kept;
    }
    if (!sayable(c)) return `${which} ("${text}"): a description has no colon, and a rating's no comma`;
    out.push(c);
  }
  return out;
}

/** Whether two lists of criteria are the same: in order, each criterion and its ratings alike. */
export function sameCriteria(current: unknown, wanted: Criterion[]): boolean {
  const now = criteriaOf(current);
  if (!now || now.length !== wanted.length) return false;
  return now.every((c, i) => {
    const w = wanted[i];
    const [a, b] = [c.ratings ?? [], w.ratings ?? []];
    return (
      c.description === w.description &&
      c.points === w.points &&
      a.length === b.length &&
      a.every((r, j) => r.description === b[j].description && r.points === b[j].points)
    );
  });
}

/** The criteria as `--criterion` takes them, one flag each. */
export function criterionSpecs(criteria: Criterion[]): string[] {
  return criteria.map(
    (c) =>
      `${c.description}:${c.points}` +
      `${c.ratings?.length ? `:${c.ratings.map((r) => `${r.description}=${r.points}`).join(',')}` : ''}`,
  );
}

/**
 * A rubric as a file's fields read it: its criteria, and the assignment it grades with how, from its
 * newest association with an assignment. What `rubrics create` and `update` answer reads alike.
 */
export function readRubric(o: ApiObject): ApiObject {
  const rubric = (o.rubric && typeof o.rubric === 'object' ? o.rubric : o) as ApiObject;
  // The newest association with an assignment: a change of purpose makes another beside the first.
  const associations = (Array.isArray(rubric.associations) ? (rubric.associations as ApiObject[]) : [])
    .filter((a) => a.association_type === 'Assignment')
    .sort((x, y) => Number(y.id) - Number(x.id));
  const association = (
    o.rubric_association && typeof o.rubric_association === 'object' ? o.rubric_association : associations[0]
  ) as ApiObject | undefined;
  const graded = association?.association_type === 'Assignment' ? association : undefined;
  return {
    ...rubric,
    // As a file gives them, so a plan shows what changes and not the API's ids; as listed when no file could.
    criteria: criteriaOf(rubric.data ?? rubric.criteria) ?? rubric.data ?? rubric.criteria ?? null,
    assignment_id: graded?.association_id ?? null,
    use_for_grading: graded ? graded.use_for_grading === true : null,
    purpose: graded?.purpose ?? null,
  };
}

/** A course's rubrics, each read with its associations to assignments (the listing has none). */
export async function* listRubrics(client: ApiClient, course: string): AsyncIterable<ApiObject> {
  for await (const r of client.ops.rubrics.list({ course_id: course })) {
    const full = await client.ops.rubrics.get({
      course_id: course,
      id: String(r.id),
      include: ['assignment_associations'],
    });
    yield readRubric(full);
  }
}
