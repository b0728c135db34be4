// `lms sections`: a course's sections, and moving a section into another course (cross-listing).
import { item, list, type Verbs } from '../../model/command.js';
import { clearableDates, command } from '../../model/define.js';
import type { SectionFields } from '../../spec/types/roster.js';
import { UsageError } from '../../errors.js';
import { importSections } from './import.js';

const COLUMNS = ['id', 'name', 'course_id', 'nonxlist_course_id', 'sis_section_id', 'start_at', 'end_at'];

const fieldFlags = {
  name: { long: 'name', value: 'name', description: 'section name', field: { name: 'name' } },
  sisId: {
    long: 'sis-id',
    value: 'id',
    description: 'SIS id (applied only for callers who manage SIS data; "" clears it)',
    field: { name: 'sis_section_id', clears: true },
  },
  ...clearableDates,
} as const;

function sectionFields(opts: { name?: string; sisId?: string; startAt?: string; endAt?: string }): SectionFields {
  const fields: SectionFields = {};
  if (opts.name !== undefined) fields.name = opts.name;
  if (opts.sisId !== undefined) fields.sis_section_id = opts.sisId;
  if (opts.startAt !== undefined) fields.start_at = opts.startAt;
  if (opts.endAt !== undefined) fields.end_at = opts.endAt;
  return fields;
}

const listSections = command({
  name: 'list',
  summary: "List a course's sections (cross-listed ones show their original course)",
  aliases: ['ls'],
  routes: ['sections.list'],
  columns: COLUMNS,
  options: {
    course: { long: 'course', value: 'id', ids: 'course', description: 'course id or sis_course_id:X', required: true },
    withStudents: { long: 'with-students', description: "include each section's students" },
  },
  examples: [
    'lms sections list --course sis_course_id:BIO-101',
    'lms sections list --course 1 --with-students -o json',
  ],
  async run({ opts, ctx }) {
    const client = await ctx.client();
    return list(
      client.ops.sections.list(
        { course_id: opts.course, include: opts.withStudents ? ['students'] : undefined },
        { limit: ctx.pageLimit() },
      ),
    );
  },
});

const getSection = command({
  name: 'get',
  args: [{ name: 'id' }],
  argIds: { id: 'section' },
  summary: 'Show a section (with --course, only if it is in that course)',
  routes: ['sections.get', 'sections.getInCourse'],
  columns: COLUMNS,
  options: { course: { long: 'course', value: 'id', ids: 'course', description: 'the course it must be in' } },
  examples: ['lms sections get sis_section_id:BIO-101-A'],
  async run({ args, opts, ctx }) {
    const client = await ctx.client();
    const s = client.ops.sections;
    return item(
      opts.course ? await s.getInCourse({ course_id: opts.course, id: args[0] }) : await s.get({ id: args[0] }),
    );
  },
});

const createSection = command({
  name: 'create',
  summary: 'Create a section in a course',
  routes: ['sections.create'],
  writes: 'create',
  columns: COLUMNS,
  options: {
    course: { long: 'course', value: 'id', ids: 'course', description: 'course id or sis_course_id:X', required: true },
    ...fieldFlags,
    name: { ...fieldFlags.name, required: true },
  },
  examples: ['lms sections create --course 1 --name "Lab C" --sis-id BIO-101-C'],
  async run({ opts, ctx }) {
    const client = await ctx.client();
    return item(await client.ops.sections.create({ course_id: opts.course, course_section: sectionFields(opts) }));
  },
});

const updateSection = command({
  name: 'update',
  args: [{ name: 'id' }],
  argIds: { id: 'section' },
  summary: "Change a section's name, SIS id or dates",
  routes: ['sections.update'],
  writes: 'update',
  columns: COLUMNS,
  options: fieldFlags,
  examples: ['lms sections update 7 --name "Lab C (online)"'],
  async run({ args, opts, ctx }) {
    const fields = sectionFields(opts);
    if (Object.keys(fields).length === 0)
      throw new UsageError('nothing to change: give --name, --sis-id, --start-at or --end-at');
    const client = await ctx.client();
    return item(await client.ops.sections.update({ id: args[0], course_section: fields }));
  },
});

const deleteSection = command({
  name: 'delete',
  args: [{ name: 'id' }],
  argIds: { id: 'section' },
  summary: 'Delete a section (refused while it has enrollments)',
  routes: ['sections.delete'],
  writes: 'delete',
  columns: COLUMNS,
  examples: ['lms sections delete sis_section_id:BIO-101-SPARE --yes'],
  async run({ args, ctx }) {
    await ctx.confirm(`Delete section ${args[0]}`);
    const client = await ctx.client();
    return item(await client.ops.sections.delete({ id: args[0] }));
  },
});

const crosslist = command({
  name: 'crosslist',
  args: [{ name: 'id' }],
  summary: 'Move a section, with its enrollments, into another course of the same root account',
  routes: ['sections.crosslist'],
  writes: 'update',
  columns: COLUMNS,
  options: {
    to: {
      long: 'to',
      value: 'course',
      description: 'the course to move it into (id or sis_course_id:X)',
      required: true,
      field: { name: 'crosslist_to', type: 'ref' },
    },
  },
  examples: ['lms sections crosslist sis_section_id:BIO-101-B --to sis_course_id:BIO-101L'],
  async run({ args, opts, ctx }) {
    const client = await ctx.client();
    return item(await client.ops.sections.crosslist({ id: args[0], new_course_id: opts.to }));
  },
});

const uncrosslist = command({
  name: 'uncrosslist',
  args: [{ name: 'id' }],
  summary: 'Move a cross-listed section back into its original course',
  routes: ['sections.uncrosslist'],
  writes: 'update',
  sets: { crosslist_to: null },
  columns: COLUMNS,
  examples: ['lms sections uncrosslist 7 --yes'],
  async run({ args, ctx }) {
    // Its students leave the course it was cross-listed into, as Canvas warns when asked.
    await ctx.confirm(
      `Move section ${args[0]} back into its original course (its students leave the course it is cross-listed into)`,
    );
    const client = await ctx.client();
    return item(await client.ops.sections.uncrosslist({ id: args[0] }));
  },
});

export const sectionsVerbs: Verbs = [
  listSections,
  getSection,
  createSection,
  updateSection,
  deleteSection,
  crosslist,
  uncrosslist,
  importSections,
] as Verbs;
