// `lms sections import FILE`: Canvas's SIS sections.csv (canvas-lms doc/api/sis_csv.md) through the
// API, one row a section: found by its SIS id and changed where it differs, else created in the
// course its course_id names; a deleted row deletes the section, asked first.
import { command } from '../../model/define.js';
import type { BulkRow, BulkTask, Difference } from '../../bulk/job.js';
import { bulkFlags, resultColumns } from '../../bulk/options.js';
import type { ApiClient } from '../../client/client.js';
import type { Section, SectionFields } from '../../spec/types/roster.js';
import type { Problem } from '../../bulk/csv-input.js';
import { SIS_FILES } from '../../spec/sis-csv.js';
import { changedDates, sisChecks, sisParser, unsupportedCells } from '../../bulk/sis-rows.js';

/** What `PUT /api/v1/sections/:id` changes (spec, Sections): an update applies these. */
const UPDATABLE = ['name', 'start_at', 'end_at'] as const;

interface SectionRow extends BulkRow {
  /** The section's SIS id (section_id). */
  sis: string;
  /** Its course as the API's path reads it: sis_course_id:X. */
  course: string;
  name: string;
  start_at?: string;
  end_at?: string;
  deleted: boolean;
}

const SCHEMA = {
  columns: SIS_FILES.section.columns,
  required: SIS_FILES.section.required,
  check: sisChecks('section', (v) => unsupportedCells(v, ['integration_id'], 'sections')),
};

function toRow(line: number, v: Record<string, string>): SectionRow {
  return {
    line,
    key: v.section_id,
    sis: v.section_id,
    course: `sis_course_id:${v.course_id}`,
    name: v.name,
    ...(v.start_date ? { start_at: v.start_date } : {}),
    ...(v.end_date ? { end_at: v.end_date } : {}),
    deleted: v.status.toLowerCase() === 'deleted',
  };
}

/** Where a row and the section disagree: an empty date has no opinion, as an update never blanks one. */
function compareSection(row: SectionRow, section: Section, courseId: number | undefined): Difference[] {
  if (row.deleted) return [{ field: 'status', from: 'active', to: 'deleted', applicable: true }];
  const changes: Difference[] = [];
  // A cross-listed section is still its original course's, as the SIS file names it.
  const home = section.nonxlist_course_id ?? section.course_id;
  if (courseId !== undefined && home !== courseId)
    changes.push({ field: 'course_id', from: String(home), to: row.course, applicable: false });
  if (row.name !== section.name) changes.push({ field: 'name', from: section.name, to: row.name, applicable: true });
  changes.push(...changedDates(row, section));
  return changes;
}

function sectionsTask(client: ApiClient): BulkTask<SectionRow, Section> {
  const courseIds = new Map<string, number>();
  return {
    // Nightly files name sections that mostly exist, and a deleted row has nothing to create.
    lookupFirst: true,
    async resolve(rows, { concurrency }) {
      const { lookupEach, orMissing } = await import('../../bulk/resolve.js');
      const courses = await lookupEach(
        rows.map((r) => r.course),
        (raw) => orMissing(client.ops.courses.get({ id: raw })),
        concurrency,
      );
      const problems: Problem[] = [];
      for (const row of rows) {
        const course = courses.get(row.course);
        if (course) courseIds.set(row.course, course.id);
        else problems.push({ line: row.line, message: `course "${row.course}" not found` });
      }
      return problems;
    },
    async find(row) {
      const { orMissing } = await import('../../bulk/resolve.js');
      const section = await orMissing(client.ops.sections.get({ id: `sis_section_id:${row.sis}` }));
      return section && { id: section.id, current: section };
    },
    // The API finds no deleted section: a deleted row finding none is done, already deleted or never
    // made, as Canvas's SIS import passes over it.
    wantsAbsent: (row) => row.deleted,
    compare: (row, section) => compareSection(row, section, courseIds.get(row.course)),
    async create(row) {
      const made = await client.ops.sections.create({
        course_id: row.course,
        course_section: { name: row.name, sis_section_id: row.sis, start_at: row.start_at, end_at: row.end_at },
      });
      return made.id;
    },
    async update(row, found, changes) {
      if (row.deleted) {
        await client.ops.sections.delete({ id: found.id });
        return;
      }
      const fields: SectionFields = Object.fromEntries(changes.map((c) => [c.field, c.to]));
      await client.ops.sections.update({ id: found.id, course_section: fields });
    },
  };
}

export const importSections = command({
  name: 'import',
  args: [{ name: 'file' }],
  fileArgs: { file: 'read' },
  summary: "Create and change sections from Canvas's SIS sections.csv by SIS id; a deleted row deletes it (asks first)",
  // users.get: who the caller is, which the journal is bound to.
  routes: ['sections.get', 'sections.create', 'sections.update', 'sections.delete', 'courses.get', 'users.get'],
  // Only the deleted rows delete: asked about then, as the rows say.
  destroys: 'asks',
  columns: resultColumns('section_id'),
  options: bulkFlags({ noun: 'sections', updatable: UPDATABLE }),
  examples: [
    'lms sections import --dry-run sections.csv',
    'lms sections import --update --yes sections.csv --failed-out failed.csv',
  ],
  async run({ args, opts, ctx }) {
    const { runBulk } = await import('../../bulk/command.js');
    const csv = await import('../../bulk/csv-input.js');
    return runBulk(ctx, args[0], opts, {
      job: 'sections.import',
      target: 'sis',
      schema: SCHEMA,
      parse: sisParser(csv, 'section', SCHEMA),
      keyColumn: 'section_id',
      destroys: {
        noun: (n) => `section${n === 1 ? '' : 's'}`,
        verb: (row: SectionRow) => (row.deleted ? 'delete' : undefined),
      },
      describe: (v) => `section ${v.section_id ?? ''} of course ${v.course_id ?? ''}`,
      toRow: (r) => toRow(r.line, r.values),
      task: sectionsTask,
    });
  },
});
