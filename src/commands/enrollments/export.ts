// `lms enrollments export --course C`: a course's roster in exactly the layout `enrollments import`
// reads, so a roster can be exported, edited and synced back, and an unedited one changes nothing.
import { command } from '../../model/define.js';
import type { Enrollment } from '../../spec/types/roster.js';
import { personRef } from '../../client/user-ref.js';
import { exportLimit, exportRows } from '../users/export.js';
import { COLUMNS, LIVE, rowKey } from './import.js';
import { textOf } from '../../output/text.js';

/** An enrollment as an import row. Sections by SIS id where it is visible, as people are. */
export function enrollmentRow(e: Enrollment): Record<(typeof COLUMNS)[number], string> {
  const sisSection =
    typeof e.sis_section_id === 'string' && e.sis_section_id ? `sis_section_id:${e.sis_section_id}` : undefined;
  return {
    user: personRef(e.user ?? { id: e.user_id, sis_user_id: typeof e.sis_user_id === 'string' ? e.sis_user_id : null }),
    type: textOf(e.type)
      .replace(/Enrollment$/, '')
      .toLowerCase(),
    // A built-in role is named after its type; only a custom one needs the column (it wins over type).
    role: e.role === e.type ? '' : textOf(e.role),
    // No section id (some instances leave it out) is an empty cell: the import's "no section".
    section: sisSection ?? textOf(e.course_section_id),
    state: textOf(e.enrollment_state),
  };
}

export const exportEnrollments = command({
  name: 'export',
  summary:
    `Write a course's live enrollments (active, invited, inactive) as \`enrollments import\` reads them: CSV ` +
    `whatever stdout is (-o json for JSON), columns ${COLUMNS.join(', ')}; users and sections by SIS id where you ` +
    'may see it',
  routes: ['enrollments.listCourse'],
  columns: [...COLUMNS],
  options: {
    course: { long: 'course', value: 'id', ids: 'course', description: 'course id or sis_course_id:X', required: true },
  },
  examples: [
    'lms enrollments export --course sis_course_id:BIO-101 > roster.csv && lms enrollments import --course ' +
      'sis_course_id:BIO-101 --dry-run roster.csv',
  ],
  async run({ opts, ctx }) {
    const client = await ctx.client();
    const enrollments = client.ops.enrollments.listCourse(
      { course_id: opts.course, state: [...LIVE] },
      { limit: exportLimit(ctx) },
    );
    let repeated = 0;
    const rows = (async function* () {
      const seen = new Set<string>();
      for await (const e of enrollments) {
        const row = enrollmentRow(e);
        // An observer of two students in one section holds two enrollments that the file's columns
        // tell apart no more than the import does: one row stands for both.
        const key = rowKey(row);
        if (seen.has(key)) {
          repeated++;
          continue;
        }
        seen.add(key);
        yield row;
      }
      if (repeated)
        ctx.warn(
          `${repeated} enrollment${repeated > 1 ? 's' : ''} with the user, role and section of an earlier row ` +
            `(observers of several students) ${repeated > 1 ? 'are' : 'is'} written once`,
        );
    })();
    return exportRows(ctx, rows, [...COLUMNS]);
  },
});
