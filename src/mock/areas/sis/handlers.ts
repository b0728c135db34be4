// SIS imports (canvas-lms sis_imports_api_controller.rb): POST takes one attachment, a CSV or a zip
// of CSVs, reads it at once (a file the instance cannot read is a processing error) and starts the
// job that applies its rows in Canvas's order; GET lists and reads imports; PUT …/abort stops one
// that has not ended (and finds no other). Only a root account's admins who manage SIS data may do
// any of it.
import { parse } from 'csv-parse/sync';
import { ENROLLMENT_DROP_STATUSES, USER_REMOVE_STATUSES, type SisImport } from '../../../spec/types/sis.js';
import {
  isCheckedKind,
  SIS_FILES,
  SIS_KIND_FILES,
  SIS_ORDER,
  sisHeaderProblems,
  sisKindOf,
  sisRowKey,
  sisRowProblems,
  type SisFileKind,
  type SisKind,
} from '../../../spec/sis-csv.js';
import { SisFilesError, sisFilesOf } from '../../../spec/sis-files.js';
import type { Db } from '../../db/open.js';
import { progressById } from '../../jobs.js';
import {
  badRequest,
  bool,
  file,
  int,
  keysetSource,
  list,
  notFound,
  numericId,
  paginate,
  rejected,
  Reply,
  str,
  type Handler,
  type MockCtx,
} from '../../kit.js';
import { demand } from '../access.js';
import { findAccount, type AccountRow } from '../lookup.js';
import { userById } from '../../school/users/repo.js';
import { sisPolicy } from './policy.js';
import {
  abortBatch,
  batchById,
  batchesOfAccountQuery,
  createBatch,
  lastOfDataSet,
  type BatchOptions,
  type SisBatchRow,
} from './repo.js';
import { startImport } from './job.js';
import { liveTerm } from '../../school/courses/repo.js';
import type { SisItem } from './apply.js';

/** A root account the caller may import into; a sub-account is refused as Canvas refuses it. */
function sisAccount(ctx: MockCtx): AccountRow {
  const account = findAccount(ctx, ctx.path.account_id!);
  demand(ctx, sisPolicy.manage, { account });
  if (account.parent_account_id !== null) throw badRequest('SIS imports can only be executed on root accounts');
  return account;
}

export function sisImportJson(db: Db, row: SisBatchRow): SisImport {
  const b = orphanedFailed(db, row);
  const options = JSON.parse(b.options) as BatchOptions;
  const ended = b.ended_at !== null;
  const warnings = JSON.parse(b.warnings) as [string, string][];
  const errors = JSON.parse(b.errors) as [string, string][];
  const user = b.user_id === null ? undefined : userById(db, b.user_id);
  const json: SisImport = {
    id: b.id,
    created_at: b.created_at,
    ended_at: b.ended_at,
    updated_at: b.updated_at,
    progress: b.progress,
    workflow_state: b.workflow_state,
    data: {
      import_type: 'instructure_csv',
      supplied_batches: JSON.parse(b.supplied) as string[],
      counts: { ...(JSON.parse(b.counts) as object), error_count: errors.length, warning_count: warnings.length },
    },
    batch_mode: options.batch_mode,
    batch_mode_term_id: options.batch_mode_term_id,
    multi_term_batch_mode: options.multi_term_batch_mode ?? false,
    override_sis_stickiness: options.override_sis_stickiness,
    diffing_data_set_identifier: b.diffing_data_set_identifier,
    diffed_against_import_id: b.diffed_against_import_id,
    diffing_drop_status: options.diffing_drop_status ?? null,
    diffing_user_remove_status: options.diffing_user_remove_status ?? null,
    batch_mode_enrollment_drop_status: options.batch_mode_enrollment_drop_status ?? null,
    skip_deletes: options.skip_deletes ?? false,
    diffing_threshold_exceeded: b.diffing_threshold_exceeded === 1,
    change_threshold: options.change_threshold,
    user: user ? { id: user.id, name: user.name } : null,
  };
  // Only an import that has ended reports its messages, as real instances do.
  if (ended && warnings.length) json.processing_warnings = warnings;
  if (errors.length) json.processing_errors = errors;
  return json;
}

/**
 * An import whose job's server stopped before it ended: the next server failed its Progress
 * (jobs.ts), and the import shows as failed with that message, so no one waits on it for ever.
 */
function orphanedFailed(db: Db, b: SisBatchRow): SisBatchRow {
  if (b.ended_at !== null || b.progress_id === null) return b;
  const p = progressById(db, b.progress_id);
  if (p?.workflow_state !== 'failed') return b;
  const errors = [...(JSON.parse(b.errors) as [string, string][]), ['', p.message ?? 'the import stopped']];
  return { ...b, workflow_state: 'failed', errors: JSON.stringify(errors), ended_at: p.updated_at };
}

interface ReadFiles {
  items: SisItem[];
  /** Rows by kind, as keys and values: what a later import of the data set diffs against. */
  rows: Partial<Record<SisKind, Record<string, Record<string, string>>>>;
  sizes: Partial<Record<SisKind, number>>;
  supplied: SisFileKind[];
  errors: [string, string][];
  warnings: [string, string][];
}

/** Every file of the upload read and checked: its rows, in Canvas's order of kinds. */
function readFiles(name: string, bytes: Uint8Array, extension: string | undefined): ReadFiles {
  let files: ReturnType<typeof sisFilesOf>;
  try {
    files = sisFilesOf(name, bytes, extension);
  } catch (e) {
    if (e instanceof SisFilesError) throw badRequest(e.message);
    throw e;
  }
  const out: ReadFiles = { items: [], rows: {}, sizes: {}, supplied: [], errors: [], warnings: [] };
  const byKind = new Map<SisKind, SisItem[]>();
  for (const f of files) {
    let records: { record: string[]; info: { lines: number } }[];
    try {
      records = parse(Buffer.from(f.bytes), {
        bom: true,
        skip_empty_lines: true,
        relax_column_count: true,
        info: true,
        max_record_size: 1024 * 1024,
      }) as unknown as typeof records;
    } catch (e) {
      out.errors.push([f.name, `Malformed CSV: ${e instanceof Error ? e.message : String(e)}`]);
      continue;
    }
    const header = records[0]?.record.map((h) => h.trim().toLowerCase()) ?? [];
    const kind = sisKindOf(header);
    if (!kind) {
      out.errors.push([f.name, "Couldn't find Canvas CSV import headers"]);
      continue;
    }
    if (!isCheckedKind(kind)) {
      // A kind the instance applies and this mock does not: said of the file, and the rest applies.
      if (!out.supplied.includes(kind)) out.supplied.push(kind);
      const n = records.length - 1;
      out.warnings.push([
        f.name,
        `this mock does not apply ${SIS_KIND_FILES[kind].count} rows; ${n} row${n === 1 ? '' : 's'} skipped`,
      ]);
      continue;
    }
    const headerProblems = sisHeaderProblems(kind, header);
    if (headerProblems.length) {
      for (const p of headerProblems) out.errors.push([f.name, p]);
      continue;
    }
    if (!out.supplied.includes(kind)) out.supplied.push(kind);
    out.sizes[kind] = (out.sizes[kind] ?? 0) + f.bytes.length;
    out.rows[kind] ??= {};
    const rows = out.rows[kind];
    let previous = records[0]!.info.lines;
    for (const { record, info } of records.slice(1)) {
      const line = previous + 1;
      previous = info.lines;
      const values: Record<string, string> = {};
      header.forEach((h, i) => {
        values[h] = record[i]?.trim() ?? '';
      });
      const problems = sisRowProblems(kind, values);
      if (problems.length) {
        out.warnings.push([f.name, `row ${line}: ${problems.join('; ')}`]);
        continue;
      }
      rows[sisRowKey(kind, values)] = values;
      const items = byKind.get(kind) ?? [];
      items.push({ kind, file: f.name, line, values });
      byKind.set(kind, items);
    }
  }
  out.items = SIS_ORDER.flatMap((k) => byKind.get(k) ?? []);
  return out;
}

/**
 * Diffing against the last import of the data set: rows the same as then are left out, and rows
 * no longer there are applied as deleted. Not done where a kind's files changed size by more than
 * the change threshold (percent), as Canvas measures it.
 */
function diffed(
  read: ReadFiles,
  previous: SisBatchRow,
  options: BatchOptions,
): { items: SisItem[]; exceeded: boolean } {
  const threshold = options.change_threshold;
  const dropped: Partial<Record<SisKind, string>> = {
    enrollment: options.diffing_drop_status ?? 'deleted',
    user: options.diffing_user_remove_status ?? 'deleted',
  };
  const { rows: before, sizes: beforeSizes } = JSON.parse(previous.rows) as Pick<ReadFiles, 'rows' | 'sizes'>;
  if (threshold !== null) {
    for (const kind of read.supplied.filter(isCheckedKind)) {
      const was = beforeSizes[kind];
      const now = read.sizes[kind] ?? 0;
      if (was && Math.abs(1 - now / was) * 100 > threshold) return { items: read.items, exceeded: true };
    }
  }
  const items: SisItem[] = [];
  for (const kind of SIS_ORDER) {
    const old = before[kind] ?? {};
    for (const item of read.items.filter((i) => i.kind === kind)) {
      const was = old[sisRowKey(kind, item.values)];
      if (!was || JSON.stringify(was) !== JSON.stringify(item.values)) items.push(item);
    }
    const current = read.rows[kind];
    if (!current || options.skip_deletes || !SIS_FILES[kind].statuses.includes('deleted')) continue;
    const status = dropped[kind] ?? 'deleted';
    const file = SIS_KIND_FILES[kind].file;
    for (const [key, values] of Object.entries(old))
      if (!(key in current)) items.push({ kind, file, line: 0, values: { ...values, status } });
  }
  return { items, exceeded: false };
}

const create: Handler = (ctx) => {
  const account = sisAccount(ctx);
  const type = str(ctx.params, 'import_type');
  if (type !== undefined && type !== 'instructure_csv') throw badRequest(`invalid import type parameter "${type}"`);
  const attachment = file(ctx.params, 'attachment');
  if (!attachment) throw rejected('Missing attachment');
  const threshold = int(ctx.params, 'change_threshold');
  if (threshold !== undefined && (threshold < 0 || threshold > 100))
    throw badRequest('change_threshold: give a percentage from 0 to 100');
  let term: number | null = null;
  const batchMode = bool(ctx.params, 'batch_mode') === true;
  const multiTerm = batchMode && bool(ctx.params, 'multi_term_batch_mode') === true;
  if (multiTerm && threshold === undefined)
    throw badRequest('change_threshold is required to use multi term_batch mode.');
  const dropStatus = <T extends string>(name: string, allowed: readonly T[]): T | null => {
    const v = str(ctx.params, name)?.toLowerCase();
    if (!v) return null;
    if (!(allowed as readonly string[]).includes(v)) throw badRequest(`Invalid ${name}`);
    return v as T;
  };
  const diffingDrop = dropStatus('diffing_drop_status', ENROLLMENT_DROP_STATUSES);
  const userRemove = dropStatus('diffing_user_remove_status', USER_REMOVE_STATUSES);
  const batchDrop = dropStatus('batch_mode_enrollment_drop_status', ENROLLMENT_DROP_STATUSES);
  if (batchMode && !multiTerm) {
    const raw = str(ctx.params, 'batch_mode_term_id') ?? '';
    const t = liveTerm(ctx.db, account.id, raw);
    if (!t) throw rejected('Batch mode specified, but the given batch_mode_term_id cannot be found.');
    term = t.id;
  }
  const read = readFiles(attachment.filename, attachment.data, str(ctx.params, 'extension'));
  const dataSet = batchMode ? null : (str(ctx.params, 'diffing_data_set_identifier') ?? null);
  const previous = dataSet ? lastOfDataSet(ctx.db, account.id, dataSet) : undefined;
  const options: BatchOptions = {
    batch_mode: batchMode,
    batch_mode_term_id: term,
    multi_term_batch_mode: multiTerm,
    override_sis_stickiness: bool(ctx.params, 'override_sis_stickiness') === true,
    change_threshold: threshold ?? null,
    skip_deletes: bool(ctx.params, 'skip_deletes') === true,
    diffing_drop_status: diffingDrop,
    diffing_user_remove_status: userRemove,
    batch_mode_enrollment_drop_status: batchDrop,
  };
  const diff = previous ? diffed(read, previous, options) : undefined;
  const id = createBatch(ctx.db, {
    account: account.id,
    user: ctx.caller.id,
    options,
    supplied: read.supplied,
    errors: read.errors,
    warnings: read.warnings,
    rows: { rows: read.rows, sizes: read.sizes },
    dataSet,
    diffedAgainst: diff && !diff.exceeded ? previous!.id : null,
    thresholdExceeded: diff?.exceeded ?? false,
    now: ctx.now(),
  });
  startImport(ctx, {
    batch: id,
    account: account.id,
    items: diff && !diff.exceeded ? diff.items : read.items,
    options,
    warnings: read.warnings,
    errors: read.errors,
  });
  return sisImportJson(ctx.db, batchById(ctx.db, account.id, id)!);
};

const STATES = new Set([
  'initializing',
  'created',
  'importing',
  'cleanup_batch',
  'imported',
  'imported_with_messages',
  'aborted',
  'failed',
  'failed_with_messages',
  'restoring',
  'partially_restored',
  'restored',
]);

const index: Handler = (ctx) => {
  const account = sisAccount(ctx);
  const states = list(ctx.params, 'workflow_state').filter((s): s is string => typeof s === 'string' && STATES.has(s));
  const page = paginate(ctx, keysetSource<SisBatchRow>(ctx.db, batchesOfAccountQuery(account.id, states)), (b) =>
    sisImportJson(ctx.db, b),
  );
  // Real instances wrap the list: { "sis_imports": [...] }, paged by the Link header.
  return new Reply(page.status, { sis_imports: page.body }, page.headers);
};

function batchOf(ctx: MockCtx, account: AccountRow): SisBatchRow {
  const id = numericId(ctx.path.id!);
  const b = id === undefined ? undefined : batchById(ctx.db, account.id, id);
  if (!b) throw notFound();
  return b;
}

const get: Handler = (ctx) => sisImportJson(ctx.db, batchOf(ctx, sisAccount(ctx)));

// Canvas finds the import to abort among those not completed (sis_batches.not_completed): one that
// has ended is not found.
const abort: Handler = (ctx) => {
  const account = sisAccount(ctx);
  const b = batchOf(ctx, account);
  if (!abortBatch(ctx.db, b.id, ctx.now())) throw notFound();
  return sisImportJson(ctx.db, batchOf(ctx, account));
};

export const sisHandlers = { 'sis.create': create, 'sis.list': index, 'sis.get': get, 'sis.abort': abort };
