import {
  invalid,
  rejected,
  list,
  notFound,
  obj,
  paginate,
  keysetSource,
  str,
  timestamp,
  type Handler,
  type MockCtx,
} from '../../kit.js';
import { checkText, text } from '../../fields.js';
import { find, findCourse, findSection } from '../lookup.js';
import { canReadCourse } from '../permissions.js';
import { allows, demand, permit, readableCourse } from '../access.js';
import { sectionsPolicy } from '../../school/sections/policy.js';
import { courseById, courses, type CourseRow } from '../../school/courses/repo.js';
import { liveEnrollmentsInSection, moveSectionEnrollments } from '../../school/enrollments/repo.js';
import {
  createSection,
  deleteSection,
  moveSection,
  sectionById,
  sectionSisTaken,
  sectionsOfCourseQuery,
  updateSection,
  type SectionRow,
} from '../../school/sections/repo.js';
import { sectionJson } from '../../school/sections/present.js';

/** The section's current course, which the caller may read; `manage` also needs the right to change its sections. */
function sectionInContext(ctx: MockCtx, options: { manage: boolean }): { section: SectionRow; course: CourseRow } {
  const section = findSection(ctx, ctx.path.id);
  const course = courseById(ctx.db, section.course_id)!;
  if (ctx.path.course_id !== undefined && findCourse(ctx, ctx.path.course_id).id !== course.id) throw notFound();
  permit(
    options.manage
      ? allows(ctx, sectionsPolicy.manage, { course, sections: [section.id] })
      : canReadCourse(ctx.db, ctx.caller.id, course),
  );
  return { section, course };
}

const NAME = text({ required: true });

function sectionFields(
  ctx: MockCtx,
  course: CourseRow,
  current?: SectionRow,
): Pick<SectionRow, 'name' | 'sis_section_id' | 'start_at' | 'end_at'> {
  const p = obj(ctx.params, 'course_section');
  const name = checkText(NAME, str(p, 'name')?.trim() ?? current?.name, 'course_section', 'name');
  let sis = current?.sis_section_id ?? null;
  const sisRaw = str(p, 'sis_section_id');
  // Real instances apply a SIS id only for callers who may manage SIS data; an empty one clears it.
  if (sisRaw !== undefined && allows(ctx, sectionsPolicy.setSis, { course })) {
    sis = sisRaw.trim() || null;
    if (sis && sectionSisTaken(ctx.db, course.root_account_id, sis, current?.id))
      throw invalid('course_section', 'sis_source_id', 'taken', `SIS ID "${sis}" is already in use`);
  }
  const startAt = str(p, 'start_at') === '' ? null : (timestamp(p, 'start_at') ?? current?.start_at ?? null);
  const endAt = str(p, 'end_at') === '' ? null : (timestamp(p, 'end_at') ?? current?.end_at ?? null);
  if (startAt && endAt && startAt > endAt)
    throw invalid('course_section', 'end_at', 'invalid', 'end_at must be after start_at');
  return { name, sis_section_id: sis, start_at: startAt, end_at: endAt };
}

const listSections: Handler = (ctx) => {
  const course = readableCourse(ctx, ctx.path.course_id);
  const include = list(ctx.params, 'include').map(String);
  // Listing students needs the right to see the roster.
  if (include.includes('students')) demand(ctx, sectionsPolicy.listStudents, { course });
  return paginate(ctx, keysetSource<SectionRow>(ctx.db, sectionsOfCourseQuery(course.id)), (s) =>
    sectionJson(ctx, s, course, include),
  );
};

const create: Handler = (ctx) => {
  const course = readableCourse(ctx, ctx.path.course_id);
  demand(ctx, sectionsPolicy.manage, { course });
  const fields = sectionFields(ctx, course);
  const id = createSection(ctx.db, {
    course: course.id,
    root: course.root_account_id,
    name: fields.name,
    sis: fields.sis_section_id,
    startAt: fields.start_at,
    endAt: fields.end_at,
    now: ctx.now(),
  });
  return sectionJson(ctx, sectionById(ctx.db, id)!, course);
};

const get: Handler = (ctx) => {
  const { section, course } = sectionInContext(ctx, { manage: false });
  return sectionJson(ctx, section, course, list(ctx.params, 'include').map(String));
};

const update: Handler = (ctx) => {
  const { section, course } = sectionInContext(ctx, { manage: true });
  updateSection(ctx.db, section.id, sectionFields(ctx, course, section));
  return sectionJson(ctx, sectionById(ctx.db, section.id)!, course);
};

const remove: Handler = (ctx) => {
  const { section, course } = sectionInContext(ctx, { manage: true });
  if (liveEnrollmentsInSection(ctx.db, section.id) > 0)
    throw rejected("You can't delete a section that has enrollments");
  deleteSection(ctx.db, section.id);
  return sectionJson(ctx, section, course);
};

const crosslist: Handler = (ctx) => {
  const { section, course } = sectionInContext(ctx, { manage: true });
  const target = find(ctx, courses, ctx.path.new_course_id);
  // The new course must be in the same root account; elsewhere it does not exist as far as this section is concerned.
  if (target.root_account_id !== course.root_account_id) throw notFound();
  demand(ctx, sectionsPolicy.manage, { course: target });
  if (target.id === course.id) throw rejected('the section is already in that course');
  const now = ctx.now();
  moveSection(ctx.db, section.id, target.id, section.nonxlist_course_id ?? course.id);
  moveSectionEnrollments(ctx.db, section.id, target.id, now);
  return sectionJson(ctx, sectionById(ctx.db, section.id)!, target);
};

const uncrosslist: Handler = (ctx) => {
  const { section } = sectionInContext(ctx, { manage: true });
  if (section.nonxlist_course_id === null) throw rejected('section is not cross-listed');
  const original = courseById(ctx.db, section.nonxlist_course_id)!;
  demand(ctx, sectionsPolicy.manage, { course: original });
  moveSection(ctx.db, section.id, original.id, null);
  moveSectionEnrollments(ctx.db, section.id, original.id, ctx.now());
  return sectionJson(ctx, sectionById(ctx.db, section.id)!, original);
};

export const sectionsHandlers = {
  'sections.list': listSections,
  'sections.create': create,
  'sections.get': get,
  'sections.getInCourse': get,
  'sections.update': update,
  'sections.delete': remove,
  'sections.crosslist': crosslist,
  'sections.uncrosslist': uncrosslist,
};
