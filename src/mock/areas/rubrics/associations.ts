// A rubric's associations and assessments through their own routes: rubric_associations_controller.rb
// (associate a course's rubric with an assignment or the course, change it, delete it) and
// rubric_assessments_controller.rb (assess a student's submission under an association, change the
// assessment, delete it). An assessment goes through assess.ts, as the submissions API's
// `rubric_assessment` does, and a rubric used for grading then grades the submission (graded.ts).
import type { ParamsObject } from '../../decode.js';
import { bool, notFound, numericId, obj, rejected, str, type Handler, type MockCtx } from '../../kit.js';
import { checkText, text } from '../../fields.js';
import { demand, permit, readableCourse } from '../access.js';
import { assignmentById } from '../assignments/repo.js';
import type { CourseRow } from '../../school/courses/repo.js';
import { gradeFromRubric } from '../submissions/graded.js';
import { mayGrade } from '../submissions/policy.js';
import { ensureSubmission, isStudentOf } from '../submissions/repo.js';
import { assess } from './assess.js';
import { answer, associate, associationFields, followPoints, managedCourse, rubricIn } from './handlers.js';
import { rubricsPolicy } from './policy.js';
import { assessmentJson, associationJson } from './present.js';
import {
  type AssessmentRow,
  type AssessmentType,
  type AssociationRow,
  assessmentById,
  associationById,
  associationWith,
  associationsOf,
  createAssociation,
  deleteAssessment,
  deleteAssociation,
  deleteRubric,
  retireOtherGrading,
  rubricById,
  updateAssociation,
} from './repo.js';

/** The course of the path, read by the caller: who may assess is asked of the student assessed. */
const readable = (ctx: MockCtx): CourseRow => readableCourse(ctx, ctx.path.course_id);

/** canvas-lms keeps an association's title (the name of what it is with) but no model shows it. */
const TITLE = text({ max: 255 });
const TYPES: readonly AssessmentType[] = ['grading', 'peer_review', 'provisional_grade'];

/** The course's active association the path names (`:id`, or `:rubric_association_id` under it). */
function associationIn(ctx: MockCtx, course: CourseRow, raw: string): AssociationRow {
  const id = numericId(raw);
  const a = id === undefined ? undefined : associationById(ctx.db, id);
  if (!a || a.course_id !== course.id || a.workflow_state !== 'active') throw notFound();
  return a;
}

/** `rubric_association[bookmarked]`: true keeps the rubric in the course's list, false takes it out. */
function bookmark(ctx: MockCtx, course: CourseRow, rubricId: number, keep: AssociationRow): void {
  const asked = bool(obj(ctx.params, 'rubric_association'), 'bookmarked');
  if (asked === undefined) return;
  const held = associationWith(ctx.db, rubricId, 'Course', course.id);
  if (asked && !held)
    createAssociation(ctx.db, {
      rubric: rubricId,
      course: course.id,
      type: 'Course',
      objectId: course.id,
      fields: associationFields({}, 'Course'),
      now: ctx.now(),
    });
  if (!asked && held && held.id !== keep.id) deleteAssociation(ctx.db, held.id);
}

const createLink: Handler = (ctx) => {
  const course = managedCourse(ctx);
  const a = obj(ctx.params, 'rubric_association');
  checkText(TITLE, str(a, 'title'), 'rubric_association', 'title');
  // Rubric.find: a rubric the request does not name, or not the course's, is not found.
  const rubric = rubricIn(ctx, course, str(a, 'rubric_id') ?? '');
  if (str(a, 'association_id') === undefined && str(a, 'association_type') === undefined)
    throw rejected('rubric_association[association_type] and [association_id] name what the rubric is with');
  const association = associate(ctx, course, rubric, false)!;
  bookmark(ctx, course, rubric.id, association);
  return answer(ctx, rubric, association);
};

const updateLink: Handler = (ctx) => {
  const course = managedCourse(ctx);
  const current = associationIn(ctx, course, ctx.path.id);
  const a = obj(ctx.params, 'rubric_association');
  checkText(TITLE, str(a, 'title'), 'rubric_association', 'title');
  // An association keeps its rubric and what it is with; the rest changes in place.
  const fields = associationFields(a, current.association_type, current);
  if (fields.purpose === 'grading' && current.association_type !== 'Assignment')
    throw rejected('only a rubric associated with an assignment can be for grading');
  updateAssociation(ctx.db, current.id, fields);
  if (fields.purpose === 'grading') retireOtherGrading(ctx.db, current.association_id, current.id);
  const rubric = rubricById(ctx.db, current.rubric_id)!;
  const association = associationById(ctx.db, current.id)!;
  followPoints(ctx, association, rubric);
  bookmark(ctx, course, rubric.id, association);
  return answer(ctx, rubric, association);
};

const deleteLink: Handler = (ctx) => {
  const course = managedCourse(ctx);
  const current = associationIn(ctx, course, ctx.path.id);
  deleteAssociation(ctx.db, current.id);
  // As canvas-lms: a rubric left bookmarked nowhere and grading nothing in the course goes with it.
  if (associationsOf(ctx.db, current.rubric_id).length === 0) deleteRubric(ctx.db, current.rubric_id, ctx.now());
  return associationJson({ ...current, workflow_state: 'deleted' });
};

/** `rubric_assessment[criterion_<id>]` as assess.ts reads them: by criterion id. */
function criteriaGiven(ra: ParamsObject): ParamsObject {
  const out: ParamsObject = {};
  for (const key of Object.keys(ra))
    if (key.startsWith('criterion_')) out[key.slice('criterion_'.length)] = obj(ra, key);
  return out;
}

function typeOf(ra: ParamsObject, current?: AssessmentRow): AssessmentType {
  const given = str(ra, 'assessment_type') ?? current?.assessment_type;
  if (!given || !(TYPES as readonly string[]).includes(given))
    throw rejected(`rubric_assessment[assessment_type] must be one of ${TYPES.join(', ')}`);
  return given as AssessmentType;
}

/**
 * Assesses a student's submission under the association of the path: the student must be the
 * course's (404), the caller one who may grade them (401: a student may not, nor an observer, since
 * the mock has no peer review assignments to let one assess a classmate).
 */
function assessUnder(ctx: MockCtx, current?: AssessmentRow) {
  const course = readable(ctx);
  const association = associationIn(ctx, course, ctx.path.rubric_association_id);
  const ra = obj(ctx.params, 'rubric_assessment');
  const student = current?.user_id ?? numericId(str(ra, 'user_id') ?? '');
  if (student === undefined || !isStudentOf(ctx.db, student, course.id)) throw notFound();
  permit(mayGrade(ctx, course, student));
  if (association.association_type !== 'Assignment')
    throw rejected("a rubric bookmarked in the course assesses no submission: use its assignment's association");
  const type = typeOf(ra, current);
  const a = assignmentById(ctx.db, association.association_id)!;
  const now = ctx.now();
  const sub = ensureSubmission(ctx.db, a, student, now);
  const assessed = assess(
    ctx.db,
    association,
    criteriaGiven(ra),
    { submissionId: sub.id, userId: student, attempt: sub.attempt },
    { assessor: ctx.caller.id, type },
    now,
  );
  // Only a grading assessment grades: a peer review's score is the reviewer's opinion.
  if (type === 'grading') gradeFromRubric(ctx.db, a, sub.id, assessed, ctx.caller.id, now);
  return assessmentJson(assessmentById(ctx.db, assessed.id)!, 'full');
}

const createAssessment: Handler = (ctx) => assessUnder(ctx);

/** The assessment of the path, under the association of the path's rubric. */
function assessmentIn(ctx: MockCtx, course: CourseRow): AssessmentRow {
  const association = associationIn(ctx, course, ctx.path.rubric_association_id);
  const id = numericId(ctx.path.id);
  const s = id === undefined ? undefined : assessmentById(ctx.db, id);
  if (!s || s.rubric_id !== association.rubric_id) throw notFound();
  return s;
}

const updateAssessment: Handler = (ctx) => {
  const current = assessmentIn(ctx, readable(ctx));
  return assessUnder(ctx, current);
};

/** Deleting an assessment is managing the rubric's association (RubricAssessment's :delete). */
const removeAssessment: Handler = (ctx) => {
  const course = readable(ctx);
  const s = assessmentIn(ctx, course);
  demand(ctx, rubricsPolicy.manage, { course });
  deleteAssessment(ctx.db, s.id);
  return assessmentJson(s, 'full');
};

export const associationHandlers = {
  'rubrics.createAssociation': createLink,
  'rubrics.updateAssociation': updateLink,
  'rubrics.deleteAssociation': deleteLink,
  'rubrics.createAssessment': createAssessment,
  'rubrics.updateAssessment': updateAssessment,
  'rubrics.deleteAssessment': removeAssessment,
};
