// Rubrics: list and read a course's (include[]=assessments / associations, style), create one with
// its criteria and ratings and an association (rubrics_controller.rb answers
// `{ rubric, rubric_association }`), change it, delete it with its associations.
import type { RubricInclude } from '../../../spec/types/rubrics.js';
import type { ParamsObject } from '../../decode.js';
import {
  badRequest,
  bool,
  keysetSource,
  list,
  notFound,
  numericId,
  obj,
  paginate,
  rejected,
  str,
  type Handler,
  type MockCtx,
} from '../../kit.js';
import { checkText, text } from '../../fields.js';
import { demand, readableCourse } from '../access.js';
import { assignmentById, setPointsPossible } from '../assignments/repo.js';
import type { CourseRow } from '../../school/courses/repo.js';
import { rubricsPolicy } from './policy.js';
import { assessmentJson, associationJson, rubricJson } from './present.js';
import {
  type AssociationFields,
  type AssociationRow,
  type CriterionData,
  type RatingData,
  type RubricRow,
  assessmentsOf,
  associationById,
  associationWith,
  associationsOf,
  createAssociation,
  createRubric,
  criteriaOf,
  deleteRubric,
  pointsOf,
  rubricById,
  rubricsOfCourseQuery,
  updateAssociation,
  updateRubric,
} from './repo.js';

const ASSESSMENTS = ['assessments', 'graded_assessments', 'peer_assessments'] as const;
const ASSOCIATIONS = [
  'associations',
  'assignment_associations',
  'course_associations',
  'account_associations',
] as const;
const TITLE = text({ max: 255, required: true });
const DESCRIPTION = text({ max: 255 });

/** The course of the path, which the caller must manage rubrics in (canvas-lms asks it of every call). */
export function managedCourse(ctx: MockCtx): CourseRow {
  const course = readableCourse(ctx, ctx.path.course_id);
  demand(ctx, rubricsPolicy.manage, { course });
  return course;
}

/** The course's rubric the path (or the id given) names, not deleted. */
export function rubricIn(ctx: MockCtx, course: CourseRow, raw = ctx.path.id): RubricRow {
  const id = raw === undefined ? undefined : numericId(raw);
  const r = id === undefined ? undefined : rubricById(ctx.db, id);
  if (!r || r.course_id !== course.id || r.workflow_state !== 'active') throw notFound('Rubric not found');
  return r;
}

const listRubrics: Handler = (ctx) => {
  const course = managedCourse(ctx);
  return paginate(ctx, keysetSource<RubricRow>(ctx.db, rubricsOfCourseQuery(course.id)), (r) => rubricJson(r));
};

function includes(ctx: MockCtx): RubricInclude[] {
  const asked = list(ctx.params, 'include').map(String);
  const known: readonly string[] = [...ASSESSMENTS, ...ASSOCIATIONS];
  const unknown = asked.filter((i) => !known.includes(i));
  if (unknown.length)
    throw badRequest(`invalid include value requested. Must be one of the following: ${known.join(', ')}`);
  for (const group of [ASSESSMENTS, ASSOCIATIONS] as const)
    if (asked.filter((i) => (group as readonly string[]).includes(i)).length > 1)
      throw badRequest(`cannot list multiple ${group === ASSESSMENTS ? 'assessment' : 'association'} includes`);
  return asked as RubricInclude[];
}

const get: Handler = (ctx) => {
  const course = managedCourse(ctx);
  const r = rubricIn(ctx, course);
  const include = includes(ctx);
  const style = str(ctx.params, 'style');
  if (style !== undefined && style !== 'full' && style !== 'comments_only')
    throw badRequest('invalid style requested. Must be one of the following: full, comments_only');
  const assessing = include.find((i) => (ASSESSMENTS as readonly string[]).includes(i));
  if (style !== undefined && !assessing)
    throw badRequest('invalid parameters. Style parameter passed without requesting assessments');
  const associating = include.find((i) => (ASSOCIATIONS as readonly string[]).includes(i));
  const extra: Parameters<typeof rubricJson>[1] = {};
  if (assessing) {
    const type =
      assessing === 'graded_assessments' ? 'grading' : assessing === 'peer_assessments' ? 'peer_review' : undefined;
    extra.assessments = assessmentsOf(ctx.db, r.id, course.id, type).map((s) =>
      assessmentJson(s, style as 'full' | 'comments_only' | undefined),
    );
  }
  if (associating) {
    const type = {
      assignment_associations: 'Assignment',
      course_associations: 'Course',
      account_associations: 'Account',
    }[associating as string];
    extra.associations = associationsOf(ctx.db, r.id)
      .filter((a) => !type || a.association_type === type)
      .map(associationJson);
  }
  return rubricJson(r, extra);
};

const idOf = (raw: string | undefined) => (raw === undefined ? undefined : numericId(raw));

function number(raw: string | undefined, what: string): number | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n)) throw rejected(`${what} must be a number`);
  return n;
}

/** An indexed hash (`criteria[0]`, `criteria[1]`, …, or an array) as a list, in its keys' order. */
function indexed(p: ParamsObject, name: string): ParamsObject[] {
  const raw = p[name];
  if (raw === undefined) return [];
  if (Array.isArray(raw)) return raw.map((v) => (typeof v === 'object' && v !== null ? (v as ParamsObject) : {}));
  const o = obj(p, name);
  return Object.keys(o)
    .sort((a, b) => Number(a) - Number(b) || a.localeCompare(b))
    .map((k) => obj(o, k));
}

/** The criteria of `rubric[criteria]`: each rating's points, the criterion's (its top rating's when not given). */
function criteriaFrom(rubricId: number, p: ParamsObject, current: CriterionData[]): CriterionData[] {
  const taken = new Set<string>();
  return indexed(p, 'criteria').map((c, n) => {
    const description =
      checkText(DESCRIPTION, str(c, 'description')?.trim(), 'rubric', 'description') ?? 'No Description';
    const givenId = str(c, 'id')?.trim();
    // An existing criterion keeps its id, so the assessments made with it still name it.
    let id = givenId && current.some((x) => x.id === givenId) ? givenId : `${rubricId}_${n + 1}`;
    while (taken.has(id)) id = `${id}_`;
    taken.add(id);
    const ratings: RatingData[] = indexed(c, 'ratings').map((r, m) => ({
      id: str(r, 'id')?.trim() || `${id}_${m + 1}`,
      description: checkText(DESCRIPTION, str(r, 'description')?.trim(), 'rubric', 'description') ?? 'No Description',
      long_description: str(r, 'long_description') ?? null,
      points: number(str(r, 'points'), "a rating's points") ?? 0,
    }));
    let points = number(str(c, 'points'), "a criterion's points");
    if (points === undefined) points = ratings.length ? Math.max(...ratings.map((r) => r.points)) : 0;
    if (points < 0) throw rejected("a criterion's points cannot be negative");
    const outcome = idOf(str(c, 'learning_outcome_id'));
    return {
      id,
      description,
      long_description: str(c, 'long_description') ?? null,
      points,
      criterion_use_range: bool(c, 'criterion_use_range') ?? false,
      ...(outcome !== undefined ? { learning_outcome_id: outcome } : {}),
      // Without ratings, the two canvas-lms gives a new criterion: full marks and none.
      ratings: (ratings.length
        ? ratings
        : [
            { id: `${id}_1`, description: 'Full Marks', long_description: null, points },
            { id: `${id}_2`, description: 'No Marks', long_description: null, points: 0 },
          ]
      ).sort((a, b) => b.points - a.points),
    };
  });
}

/** The object `rubric_association[association_type/association_id]` names, in the course. */
function associationObject(
  ctx: MockCtx,
  course: CourseRow,
  a: ParamsObject,
): { type: AssociationRow['association_type']; id: number } | undefined {
  const type = str(a, 'association_type');
  const rawId = str(a, 'association_id');
  if (type === undefined && rawId === undefined) return undefined;
  if (type === 'Course' || (type === undefined && rawId === undefined)) {
    if (rawId !== undefined && idOf(rawId) !== course.id) throw notFound();
    return { type: 'Course', id: course.id };
  }
  if (type !== undefined && type !== 'Assignment')
    throw rejected('rubric_association[association_type] must be Assignment or Course');
  const id = idOf(rawId);
  const assignment = id === undefined ? undefined : assignmentById(ctx.db, id);
  if (!assignment || assignment.course_id !== course.id) throw notFound();
  return { type: 'Assignment', id: assignment.id };
}

export function associationFields(a: ParamsObject, type: string, current?: AssociationRow): AssociationFields {
  const purpose = str(a, 'purpose') ?? current?.purpose ?? (type === 'Assignment' ? 'grading' : 'bookmark');
  if (purpose !== 'grading' && purpose !== 'bookmark')
    throw rejected('rubric_association[purpose] must be grading or bookmark');
  const useForGrading = bool(a, 'use_for_grading') ?? (current ? current.use_for_grading === 1 : false);
  if (useForGrading && type !== 'Assignment')
    throw rejected('only a rubric associated with an assignment can be used for grading');
  return {
    use_for_grading: useForGrading,
    purpose,
    // canvas-lms offers to hide the total only of a rubric not used for grading.
    hide_score_total: !useForGrading && (bool(a, 'hide_score_total') ?? current?.hide_score_total === 1),
    hide_points: bool(a, 'hide_points') ?? current?.hide_points === 1,
    hide_outcome_results: bool(a, 'hide_outcome_results') ?? current?.hide_outcome_results === 1,
  };
}

/** A rubric used for grading sets its assignment's points, unless asked not to (skip_updating_points_possible). */
export function followPoints(ctx: MockCtx, association: AssociationRow, rubric: RubricRow): void {
  const skip =
    bool(ctx.params, 'skip_updating_points_possible') ??
    bool(obj(ctx.params, 'rubric'), 'skip_updating_points_possible');
  if (association.association_type === 'Assignment' && association.use_for_grading === 1 && !skip)
    setPointsPossible(ctx.db, association.association_id, rubric.points_possible, ctx.now());
}

/** Creates or changes the association the request names; the course's bookmark when it names none. */
export function associate(
  ctx: MockCtx,
  course: CourseRow,
  rubric: RubricRow,
  creating: boolean,
): AssociationRow | undefined {
  const a = obj(ctx.params, 'rubric_association');
  const named = idOf(str(ctx.params, 'rubric_association_id'));
  let existing = named === undefined ? undefined : associationById(ctx.db, named);
  if (named !== undefined && (!existing || existing.rubric_id !== rubric.id || existing.workflow_state !== 'active'))
    existing = undefined;
  const target =
    associationObject(ctx, course, a) ??
    (existing ? { type: existing.association_type, id: existing.association_id } : undefined);
  if (!target) {
    // A new rubric is bookmarked in its course, as canvas-lms lists a course's rubrics by their bookmarks.
    if (!creating) return undefined;
    const id = createAssociation(ctx.db, {
      rubric: rubric.id,
      course: course.id,
      type: 'Course',
      objectId: course.id,
      fields: associationFields({}, 'Course'),
      now: ctx.now(),
    });
    return associationById(ctx.db, id);
  }
  existing ??= associationWith(ctx.db, rubric.id, target.type, target.id);
  const fields = associationFields(a, target.type, existing);
  let id: number;
  if (existing && existing.purpose === fields.purpose) {
    updateAssociation(ctx.db, existing.id, fields);
    id = existing.id;
  } else {
    id = createAssociation(ctx.db, {
      rubric: rubric.id,
      course: course.id,
      type: target.type,
      objectId: target.id,
      fields,
      now: ctx.now(),
    });
  }
  if (creating && target.type !== 'Course' && !associationWith(ctx.db, rubric.id, 'Course', course.id))
    createAssociation(ctx.db, {
      rubric: rubric.id,
      course: course.id,
      type: 'Course',
      objectId: course.id,
      fields: associationFields({}, 'Course'),
      now: ctx.now(),
    });
  const association = associationById(ctx.db, id)!;
  followPoints(ctx, association, rubricById(ctx.db, rubric.id)!);
  return association;
}

export function answer(ctx: MockCtx, rubric: RubricRow, association: AssociationRow | undefined) {
  const r = rubricById(ctx.db, rubric.id)!;
  const json = rubricJson(r);
  return {
    rubric: { ...json, criteria: json.data },
    ...(association ? { rubric_association: associationJson(associationById(ctx.db, association.id)!) } : {}),
  };
}

const create: Handler = (ctx) => {
  const course = managedCourse(ctx);
  const p = obj(ctx.params, 'rubric');
  const title = checkText(TITLE, str(p, 'title')?.trim(), 'rubric', 'title');
  const now = ctx.now();
  // The criteria's ids are made from the rubric's: made first, then given its criteria.
  const id = createRubric(ctx.db, { course: course.id, title, criteria: [], freeForm: false, now });
  const criteria = criteriaFrom(id, p, []);
  updateRubric(ctx.db, id, { title, criteria, freeForm: bool(p, 'free_form_criterion_comments') ?? false, now });
  const rubric = rubricById(ctx.db, id)!;
  return answer(ctx, rubric, associate(ctx, course, rubric, true));
};

const update: Handler = (ctx) => {
  const course = managedCourse(ctx);
  const current = rubricIn(ctx, course);
  const p = obj(ctx.params, 'rubric');
  const title =
    str(p, 'title') === undefined ? current.title : checkText(TITLE, str(p, 'title')?.trim(), 'rubric', 'title');
  const criteria = p.criteria === undefined ? criteriaOf(current) : criteriaFrom(current.id, p, criteriaOf(current));
  updateRubric(ctx.db, current.id, {
    title,
    criteria,
    freeForm: bool(p, 'free_form_criterion_comments') ?? current.free_form_criterion_comments === 1,
    now: ctx.now(),
  });
  const rubric = rubricById(ctx.db, current.id)!;
  let association = associate(ctx, course, rubric, false);
  // Changed criteria change the points of the assignment that grades by it.
  if (!association && p.criteria !== undefined && pointsOf(criteria) !== current.points_possible)
    for (const a of associationsOf(ctx.db, rubric.id)) followPoints(ctx, a, rubric);
  association ??= undefined;
  return answer(ctx, rubric, association);
};

const remove: Handler = (ctx) => {
  const course = managedCourse(ctx);
  const r = rubricIn(ctx, course);
  deleteRubric(ctx.db, r.id, ctx.now());
  return rubricJson(rubricById(ctx.db, r.id)!);
};

export const rubricsHandlers = {
  'rubrics.list': listRubrics,
  'rubrics.get': get,
  'rubrics.create': create,
  'rubrics.update': update,
  'rubrics.delete': remove,
};
