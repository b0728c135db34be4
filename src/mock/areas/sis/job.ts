// The SIS import job: the runner of the serving process applies the import's rows a slice at a
// time (each slice one transaction), created → importing, keeping progress and counts on the
// batch; a row that cannot be applied is a warning naming its file and row. At the end, batch mode
// deletes the courses, sections and enrollments of the term (or, in multi-term batch mode, of each
// term the import's terms.csv names) that earlier imports made and this one no longer names — its
// enrollments to batch_mode_enrollment_drop_status where one is given, nothing with skip_deletes —
// unless more of a kind would go than the change threshold allows, which fails the import before
// anything is deleted. An aborted import applies nothing more.
import type { Db } from '../../db/open.js';
import type { MockCtx } from '../../kit.js';
import { SIS_KIND_FILES } from '../../../spec/sis-csv.js';
import { courseById, termBySis, updateCourse } from '../../school/courses/repo.js';
import { enrollmentById, setEnrollmentState } from '../../school/enrollments/repo.js';
import { restoreSection, sectionById } from '../../school/sections/repo.js';
import { applyItem, isRowWarning, type SisItem } from './apply.js';
import {
  batchStateOf,
  forgetRecord,
  recordsInTerm,
  setBatchProgress,
  updateBatch,
  type BatchOptions,
  type SisRecordKind,
} from './repo.js';

const ENDED = new Set(['aborted', 'failed', 'failed_with_messages', 'imported', 'imported_with_messages']);

export function startImport(
  ctx: MockCtx,
  job: {
    batch: number;
    account: number;
    items: SisItem[];
    options: BatchOptions;
    warnings: [string, string][];
    errors: [string, string][];
  },
): void {
  const warnings = [...job.warnings];
  const errors = [...job.errors];
  const counts: Record<string, number> = {};
  for (const kind of Object.values(SIS_KIND_FILES)) counts[kind.count] = 0;
  let applied = 0;
  const place = (item: SisItem) => (item.line ? `row ${item.line}` : 'a row of the previous import');

  const progress = ctx.jobs.start<SisItem>({
    tag: 'sis_batch',
    context: { type: 'Account', id: job.account },
    userId: ctx.caller.id,
    items: job.items,
    apply(db, item, now) {
      if (ENDED.has(batchStateOf(db, job.batch) ?? 'aborted')) return;
      try {
        db.transaction(() => applyItem({ db, root: job.account, batch: job.batch, now }, item));
        counts[SIS_KIND_FILES[item.kind].count] = (counts[SIS_KIND_FILES[item.kind].count] ?? 0) + 1;
        applied++;
      } catch (e) {
        if (!isRowWarning(e)) throw e;
        warnings.push([item.file, `${place(item)}: ${e.message}`]);
      }
    },
    label: (item) => `${item.file} ${place(item)}`,
    onSlice(db, done, total, now) {
      const state = batchStateOf(db, job.batch);
      if (state === undefined || ENDED.has(state)) return;
      if (done < total) {
        updateBatch(db, job.batch, {
          state: 'importing',
          progress: Math.floor((100 * done) / total),
          counts,
          warnings,
          now,
        });
        return;
      }
      if (job.options.batch_mode && !job.options.skip_deletes) {
        const terms = job.options.multi_term_batch_mode
          ? termsNamed(db, job.account, job.items)
          : job.options.batch_mode_term_id === null
            ? []
            : [job.options.batch_mode_term_id];
        if (job.options.multi_term_batch_mode && terms.length === 0)
          errors.push(['', 'Multi-term batch mode needs the terms it replaces in a terms.csv; nothing was deleted']);
        else cleanUp(db, job.batch, terms, job.options, counts, errors, now);
      }
      const failed = errors.length > 0 && (applied === 0 || errors.some(([, m]) => m.startsWith('Change threshold')));
      updateBatch(db, job.batch, {
        state: failed
          ? 'failed_with_messages'
          : errors.length || warnings.length
            ? 'imported_with_messages'
            : 'imported',
        progress: 100,
        counts,
        warnings,
        errors,
        now,
        ended: true,
      });
    },
  });
  setBatchProgress(ctx.db, job.batch, progress.id);
}

const CLEANED: readonly [SisRecordKind, string][] = [
  ['enrollment', 'batch_enrollments_deleted'],
  ['section', 'batch_sections_deleted'],
  ['course', 'batch_courses_deleted'],
];

/** The terms an import's terms.csv names, as the ones multi-term batch mode replaces. */
function termsNamed(db: Db, account: number, items: SisItem[]): number[] {
  const ids = items
    .filter((i) => i.kind === 'term')
    .map((i) => termBySis(db, account, i.values.term_id ?? '')?.id)
    .filter((id): id is number => id !== undefined);
  return [...new Set(ids)];
}

function cleanUp(
  db: Db,
  batch: number,
  terms: number[],
  options: BatchOptions,
  counts: Record<string, number>,
  errors: [string, string][],
  now: string,
): void {
  const threshold = options.change_threshold;
  const enrollmentDrop = options.batch_mode_enrollment_drop_status ?? 'deleted';
  const found = CLEANED.map(([kind, key]) => {
    const inTerms = terms.map((term) => recordsInTerm(db, kind, term, batch));
    return {
      kind,
      key,
      stale: inTerms.flatMap((t) => t.stale),
      total: inTerms.reduce((sum, t) => sum + t.total, 0),
    };
  });
  if (threshold !== null) {
    for (const f of found) {
      if (f.total > 0 && (100 * f.stale.length) / f.total > threshold) {
        errors.push([
          '',
          `Change threshold exceeded: ${f.stale.length} of ${f.total} ${f.kind}s would be deleted, more than ` +
            `${threshold}%; nothing was deleted`,
        ]);
        return;
      }
    }
  }
  for (const f of found) {
    let deleted = 0;
    for (const id of f.stale) {
      if (f.kind === 'enrollment') {
        const e = enrollmentById(db, id);
        if (e && e.workflow_state !== 'deleted' && e.workflow_state !== enrollmentDrop) {
          setEnrollmentState(db, id, enrollmentDrop, now);
          deleted++;
        }
      } else if (f.kind === 'section') {
        const s = sectionById(db, id);
        if (s && s.workflow_state !== 'deleted') {
          restoreSection(db, id, 'deleted');
          deleted++;
        }
      } else {
        const c = courseById(db, id);
        if (c && c.workflow_state !== 'deleted') {
          updateCourse(db, id, { ...c, workflow_state: 'deleted' });
          deleted++;
        }
      }
      forgetRecord(db, f.kind, id);
    }
    if (deleted) counts[f.key] = deleted;
  }
}
