// Assignment groups of a course (assignment_groups_controller.rb, assignment_groups_api_controller.rb):
// list (include[]=assignments), read, create, change (name, position, weight, drop rules), delete
// (its assignments moved to another group, or deleted with it). Every reader of the course reads
// them, with the published assignments only unless they manage its content; those who manage its
// content write them.
import type { ParamsObject } from '../../decode.js';
import { checkText, text } from '../../fields.js';
import {
  invalid,
  keysetSource,
  list,
  notFound,
  numericId,
  obj,
  paginate,
  str,
  type Handler,
  type MockCtx,
} from '../../kit.js';
import { canManageContent, permit, readableCourse } from '../access.js';
import { findCourse, type CourseRow } from '../lookup.js';
import { assignmentById } from '../assignments/repo.js';
import { assignmentJson } from '../assignments/present.js';
import type { AssignmentGroup, GradingRules } from '../../../spec/types/pages.js';
import {
  assignmentIdsOfGroup,
  changeGroup,
  createGroup,
  deleteGroup,
  groupById,
  groupsQuery,
  rulesOf,
  type AssignmentGroupRow,
} from './repo.js';

const NAME = text();

function groupJson(ctx: MockCtx, course: CourseRow, g: AssignmentGroupRow, withAssignments: boolean): AssignmentGroup {
  return {
    id: g.id,
    name: g.name,
    position: g.position,
    group_weight: g.group_weight,
    sis_source_id: g.sis_source_id,
    integration_data: {},
    rules: rulesOf(g),
    ...(withAssignments
      ? {
          assignments: assignmentIdsOfGroup(ctx.db, g.id, canManageContent(ctx, course)).map((id) =>
            assignmentJson(ctx, assignmentById(ctx.db, id)!),
          ),
        }
      : {}),
  };
}

const includesAssignments = (ctx: MockCtx) => list(ctx.params, 'include').map(String).includes('assignments');

const groupNotFound = () => notFound('The specified resource does not exist.');

function groupIn(ctx: MockCtx, course: CourseRow): AssignmentGroupRow {
  const id = numericId(ctx.path.assignment_group_id);
  const g = id === undefined ? undefined : groupById(ctx.db, course.id, id);
  if (!g) throw groupNotFound();
  return g;
}

const listGroups: Handler = (ctx) => {
  const course = readableCourse(ctx, ctx.path.course_id);
  const withAssignments = includesAssignments(ctx);
  return paginate(ctx, keysetSource<AssignmentGroupRow>(ctx.db, groupsQuery(course.id)), (g) =>
    groupJson(ctx, course, g, withAssignments),
  );
};

const get: Handler = (ctx) => {
  const course = readableCourse(ctx, ctx.path.course_id);
  return groupJson(ctx, course, groupIn(ctx, course), includesAssignments(ctx));
};

/** A count of scores to drop: a whole number, 0 or more. */
function dropCount(rules: ParamsObject, name: 'drop_lowest' | 'drop_highest'): number | undefined {
  const raw = str(rules, name);
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0)
    throw invalid('assignment_group', `rules.${name}`, 'invalid', 'must be a whole number, 0 or more');
  return n;
}

/** `rules[...]`, as the API reads them: each of the three replaces what the group had; none given keeps them. */
function rulesFrom(params: ParamsObject, current: GradingRules): GradingRules {
  if (!('rules' in params)) return current;
  const raw = params.rules;
  if (raw === '' || raw === null) return {};
  const r = obj(params, 'rules');
  const next: GradingRules = {};
  const lowest = dropCount(r, 'drop_lowest');
  const highest = dropCount(r, 'drop_highest');
  // Kept when 0, as Canvas keeps `drop_lowest:0` in the group's rules and answers it.
  if (lowest !== undefined) next.drop_lowest = lowest;
  if (highest !== undefined) next.drop_highest = highest;
  const never = list(r, 'never_drop').map((v) => numericId(String(v)));
  if (never.some((v) => v === undefined))
    throw invalid('assignment_group', 'rules.never_drop', 'invalid', 'must list assignment ids');
  if (never.length) next.never_drop = [...new Set(never as number[])];
  return next;
}

function weightFrom(params: ParamsObject, current: number): number {
  const raw = str(params, 'group_weight');
  if (raw === undefined) return current;
  if (raw === '') return 0;
  const n = Number(raw);
  if (!Number.isFinite(n)) throw invalid('assignment_group', 'group_weight', 'invalid', 'must be a number');
  return n;
}

function positionFrom(params: ParamsObject): number | undefined {
  const raw = str(params, 'position');
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1)
    throw invalid('assignment_group', 'position', 'invalid', 'must be a whole number, 1 or more');
  return n;
}

/** The parameters at the top level, or inside `assignment_group[...]` as the web form sends them. */
const fieldsOf = (ctx: MockCtx): ParamsObject =>
  'assignment_group' in ctx.params ? obj(ctx.params, 'assignment_group') : ctx.params;

function managedCourse(ctx: MockCtx): CourseRow {
  const course = findCourse(ctx, ctx.path.course_id);
  permit(canManageContent(ctx, course));
  return course;
}

const create: Handler = (ctx) => {
  const course = managedCourse(ctx);
  const p = fieldsOf(ctx);
  const name = checkText(NAME, str(p, 'name')?.trim(), 'assignment_group', 'name') || 'Assignments';
  const weight = weightFrom(p, 0);
  const rules = rulesFrom(p, {});
  const position = positionFrom(p);
  const now = ctx.now();
  const id = createGroup(ctx.db, { courseId: course.id, name, weight, rules, now });
  const g = groupById(ctx.db, course.id, id)!;
  if (position !== undefined) changeGroup(ctx.db, g, { name, weight, rules, position }, now);
  return groupJson(ctx, course, groupById(ctx.db, course.id, id)!, false);
};

const update: Handler = (ctx) => {
  const course = managedCourse(ctx);
  const g = groupIn(ctx, course);
  const p = fieldsOf(ctx);
  const given = str(p, 'name');
  const name = given === undefined ? g.name : checkText(NAME, given.trim(), 'assignment_group', 'name') || g.name;
  changeGroup(
    ctx.db,
    g,
    { name, weight: weightFrom(p, g.group_weight), rules: rulesFrom(p, rulesOf(g)), position: positionFrom(p) },
    ctx.now(),
  );
  return groupJson(ctx, course, groupById(ctx.db, course.id, g.id)!, false);
};

/** Deletes the group; `move_assignments_to` names the live group of the course its assignments go to. */
const remove: Handler = (ctx) => {
  const course = managedCourse(ctx);
  const g = groupIn(ctx, course);
  const raw = str(ctx.params, 'move_assignments_to');
  let target: number | undefined;
  if (raw !== undefined && raw !== '') {
    const id = numericId(raw);
    if (id === undefined || id === g.id || !groupById(ctx.db, course.id, id))
      throw invalid(
        'assignment_group',
        'move_assignments_to',
        'invalid',
        'must name another assignment group of the course',
      );
    target = id;
  }
  deleteGroup(ctx.db, g, target, ctx.now());
  return { ...groupJson(ctx, course, g, false), workflow_state: 'deleted' };
};

export const assignmentGroupsHandlers = {
  'assignmentGroups.list': listGroups,
  'assignmentGroups.get': get,
  'assignmentGroups.create': create,
  'assignmentGroups.update': update,
  'assignmentGroups.delete': remove,
};
