// `lms sis`: Canvas's SIS import, the way a school's nightly files reach the instance at scale.
// `import` checks the files here first (every problem with its file and line; nothing is sent
// while there is one), posts them as one attachment, and follows the instance's job to its end;
// `status`, `list` and `abort` read and stop imports. An import that can delete (batch mode, a
// row whose status deletes, concludes, deactivates or suspends) asks first.
import { basename } from 'node:path';
import { item, list, withFailure, type Verbs } from '../../model/command.js';
import { command, contextFlags } from '../../model/define.js';
import { ApiError, ExitCode, FailureError, LmsError, UsageError } from '../../errors.js';
import {
  isCheckedKind,
  SIS_ENDING_STATUSES,
  SIS_KIND_FILES,
  sisHeaderProblems,
  sisKindOf,
  sisRowProblems,
  type SisFileKind,
} from '../../spec/sis-csv.js';
import { isZip, MAX_SIS_BYTES, SisFilesError, sisFilesOf } from '../../spec/sis-files.js';
import {
  ENROLLMENT_DROP_STATUSES,
  SIS_IMPORT_ENDED,
  SIS_IMPORT_FAILED,
  SIS_IMPORT_STATES,
  type SisImport,
  USER_REMOVE_STATUSES,
} from '../../spec/types/sis.js';
import type { Problem } from '../../bulk/csv-input.js';
import { DELIMITER_FLAG } from '../../bulk/options.js';
import { sourceName, type InputSource } from '../../io/bounded.js';
import { err } from '../../io/streams.js';
import type { Context } from '../../model/context.js';

const COLUMNS = [
  'id',
  'workflow_state',
  'progress',
  'created_at',
  'ended_at',
  'batch_mode',
  'diffing_data_set_identifier',
];

const account = contextFlags.rootAccount;

interface CheckedFile {
  file: string;
  kind: SisFileKind;
  rows: number;
  /** Rows whose status deletes, concludes, deactivates or suspends. */
  ending: number;
}

/**
 * Reads the import's files as the instance will, and lists every problem with its file and line.
 * The input is a path, or the text a surface handed over under its name (`lms mcp`: a CSV). The
 * instance reads a CSV only as UTF-8 with commas: a file in another dialect lms reads (`;` or tab,
 * UTF-16) is checked as what it says and sent written again in that one (a zip rebuilt around it).
 */
async function checkSisFiles(
  source: InputSource,
  ctx: Context,
  delimiterValue: string | undefined,
): Promise<{ bytes: Uint8Array; zip: boolean; name: string; files: CheckedFile[] }> {
  const path = sourceName(source);
  const { readBounded } = await import('../../io/bounded.js');
  // A path, `-` for stdin, or the text a surface handed over: read only up to the bound, whatever it is.
  const raw = new Uint8Array(await readBounded(source, ctx.io.stdin, { limit: MAX_SIS_BYTES, what: 'the SIS import' }));
  const zip = isZip(raw) || /\.zip$/i.test(path);
  // What the attachment is called: a text handed over is named after its input, as a CSV.
  const name = /\.(csv|zip)$/i.test(basename(path)) ? basename(path) : `${basename(path)}.${zip ? 'zip' : 'csv'}`;
  let entries: ReturnType<typeof sisFilesOf>;
  try {
    entries = sisFilesOf(name, raw, zip ? 'zip' : 'csv');
  } catch (e) {
    if (e instanceof SisFilesError) throw new UsageError(`${path}: ${e.message}. Nothing was sent.`);
    throw e;
  }
  const csv = await import('../../bulk/csv-input.js');
  const delimiter = csv.delimiterFlag(delimiterValue);
  const problems: string[] = [];
  const files: CheckedFile[] = [];
  const sent: Record<string, Uint8Array> = {};
  let converted = false;
  const add = (file: string, p: Problem) => problems.push(`  ${csv.placeOf(file, p)}: ${p.message}`);
  for (const entry of entries) {
    const decoded = csv.decodeCsv(entry.bytes);
    if ('problem' in decoded) {
      add(entry.name, decoded.problem);
      continue;
    }
    const dialect = csv.dialectOf(decoded.bytes, { delimiter, encoding: decoded.encoding });
    const read = csv.readCsvRecords(decoded.bytes, {
      columns: [],
      relaxColumnCount: true,
      delimiter: dialect.delimiter,
    });
    if ('problem' in read) {
      // A file of its own (not a zip's member) can be converted where it is: the command names it.
      const own = !zip && typeof source === 'string' && source !== '-';
      add(entry.name, own ? csv.withConversion(read.problem, source, false) : read.problem);
      continue;
    }
    if (dialect.delimiter !== ',' || dialect.encoding !== 'utf-8') {
      if (ctx.globals.verbose) err(ctx.io, `${entry.name}: ${csv.dialectWords(dialect)}; sent as UTF-8 with commas\n`);
      sent[entry.path] = dialect.delimiter === ',' ? decoded.bytes : await csv.asCommaCsv(decoded.bytes, dialect);
      converted = true;
    } else sent[entry.path] = entry.bytes;
    const kind = sisKindOf(read.header);
    if (!kind) {
      add(entry.name, {
        line: 1,
        message: `not a SIS import file: its header is none of ${Object.values(SIS_KIND_FILES)
          .map((f) => f.file)
          .join(', ')}`,
      });
      continue;
    }
    // A kind lms has no rules for goes to the instance as it is, which checks it.
    const checked = isCheckedKind(kind) ? kind : undefined;
    if (checked) for (const message of sisHeaderProblems(checked, read.header)) add(entry.name, { line: 1, message });
    let ending = 0;
    for (const { line, cells } of read.records) {
      const values: Record<string, string> = {};
      read.header.forEach((h, i) => {
        values[h] = cells[i]?.trim() ?? '';
      });
      if (checked) for (const message of sisRowProblems(checked, values)) add(entry.name, { line, message });
      if (SIS_ENDING_STATUSES.includes(values.status?.toLowerCase() ?? '')) ending++;
    }
    files.push({ file: entry.name, kind, rows: read.records.length, ending });
  }
  if (problems.length)
    throw new UsageError(
      `${path} has ${problems.length} problem${problems.length === 1 ? '' : 's'}; nothing was sent:\n` +
        `${problems.slice(0, 50).join('\n')}${problems.length > 50 ? `\n  … and ${problems.length - 50} more` : ''}`,
    );
  // The zip's CSV files, under their paths, each as the instance reads it (what else it held, the instance skips).
  const bytes = !converted ? raw : zip ? (await import('fflate')).zipSync(sent) : Object.values(sent)[0]!;
  return { bytes, zip, name, files };
}

const importSis = command({
  name: 'import',
  args: [{ name: 'file' }],
  fileArgs: { file: 'read' },
  summary: "Run Canvas's SIS import on a CSV or a zip of CSVs, following the job to its end",
  routes: ['sis.create', 'sis.get'],
  destroys: 'asks',
  columns: COLUMNS,
  options: {
    account,
    batchMode: {
      destroys: true,
      asksItself: true,
      long: 'batch-mode',
      description: 'delete what earlier imports made in --batch-term and this one no longer names (asks first)',
    },
    batchTerm: {
      long: 'batch-term',
      value: 'term',
      description: 'the term batch mode is limited to: id or sis_term_id:X',
    },
    multiTerm: {
      destroys: true,
      asksItself: true,
      long: 'multi-term',
      description: "batch mode over every term the import's terms.csv names, in place of --batch-term",
    },
    dropStatus: {
      long: 'drop-status',
      value: 'status',
      choices: ENROLLMENT_DROP_STATUSES,
      description: 'what batch mode or diffing makes of an enrollment the files no longer list (default: deleted)',
    },
    userRemoveStatus: {
      long: 'user-remove-status',
      value: 'status',
      choices: USER_REMOVE_STATUSES,
      description: 'what diffing makes of a user the files no longer list (default: deleted)',
    },
    skipDeletes: {
      long: 'skip-deletes',
      description: 'leave alone what batch mode or diffing would delete or drop',
    },
    overrideSisStickiness: {
      long: 'override-sis-stickiness',
      description: 'overwrite fields changed in the instance since the last import',
    },
    diffingDataSetId: {
      destroys: true,
      asksItself: true,
      long: 'diffing-data-set-id',
      value: 'id',
      description:
        'apply only what changed since the last import of this data set, dropping what it no longer lists (asks first)',
    },
    changeThreshold: {
      long: 'change-threshold',
      value: 'percent',
      type: 'integer',
      min: 0,
      max: 100,
      description: 'fail rather than delete (batch mode) or diff more than this percentage',
    },
    dryRun: {
      long: 'dry-run',
      description: 'check the files here (every problem with file and line) and send nothing',
    },
    delimiter: DELIMITER_FLAG,
  },
  examples: [
    'lms sis import --dry-run sis-users.csv',
    'lms sis import --dry-run nightly.zip',
    'lms sis import sis-users.csv',
    'lms sis import --batch-mode --batch-term sis_term_id:2026-FA --change-threshold 10 --yes nightly.zip',
    'lms sis import --diffing-data-set-id nightly --drop-status inactive --yes nightly.zip',
  ],
  async run({ args, opts, ctx }) {
    const batchMode = Boolean(opts.batchMode || opts.multiTerm);
    if (opts.multiTerm && opts.batchTerm)
      throw new UsageError('give --batch-term or --multi-term, not both: --multi-term replaces the terms of terms.csv');
    if (opts.multiTerm && opts.changeThreshold === undefined)
      throw new UsageError('--multi-term needs --change-threshold: the instance refuses it without one');
    if (batchMode && !opts.batchTerm && !opts.multiTerm)
      throw new UsageError('--batch-mode needs --batch-term: the term whose data the import replaces');
    if (batchMode && opts.diffingDataSetId)
      throw new UsageError('give --batch-mode or --diffing-data-set-id, not both: the instance diffs no batch');
    if (opts.userRemoveStatus && !opts.diffingDataSetId)
      throw new UsageError('--user-remove-status is for a diffed import: give --diffing-data-set-id');
    if (opts.dropStatus && !batchMode && !opts.diffingDataSetId)
      throw new UsageError('--drop-status is for batch mode or a diffed import: nothing else drops an enrollment');
    const checked = await checkSisFiles(ctx.input(args[0]), ctx, opts.delimiter);
    if (opts.multiTerm && !checked.files.some((f) => f.kind === 'term'))
      throw new UsageError('--multi-term replaces the terms a terms.csv names, and the import has none');
    // What the instance drops, past the rows that say so: batch mode what the batch no longer names,
    // diffing what the previous import of the data set listed and this one does not.
    const drops = opts.skipDeletes
      ? []
      : [
          ...(batchMode
            ? [
                'deletes what earlier imports made in ' +
                  `${opts.multiTerm ? 'the terms of its terms.csv' : `term ${opts.batchTerm}`} and it does not name`,
              ]
            : []),
          ...(opts.diffingDataSetId
            ? [
                `drops (${opts.dropStatus ?? 'deleted'} enrollments, ${opts.userRemoveStatus ?? 'deleted'} users) ` +
                  `what the last import of data set ${opts.diffingDataSetId} listed and it does not`,
              ]
            : []),
        ];
    const summary = {
      file: args[0],
      account: opts.account,
      files: checked.files,
      batch_mode: batchMode,
      deletes: drops.length > 0 || checked.files.some((f) => f.ending > 0),
    };
    if (opts.dryRun) return item({ dry_run: true, ...summary });
    if (summary.deletes) {
      const ending = checked.files
        .filter((f) => f.ending > 0)
        .map((f) => `${f.ending} ${f.kind} row${f.ending === 1 ? '' : 's'} that end`);
      const why = [
        ...drops,
        ...(ending.length ? [`has ${ending.join(', ')} (deleted, completed, inactive or suspended)`] : []),
      ];
      await ctx.confirm(`Import ${args[0]} into account ${opts.account}, which ${why.join(' and ')}`);
    }
    const client = await ctx.client();
    const name = checked.name;
    const started = await client.ops.sis.create({
      account_id: opts.account,
      import_type: 'instructure_csv',
      extension: checked.zip ? 'zip' : 'csv',
      attachment: new File([checked.bytes as Uint8Array<ArrayBuffer>], name, {
        type: checked.zip ? 'application/zip' : 'text/csv',
      }),
      ...(opts.batchTerm ? { batch_mode: true, batch_mode_term_id: opts.batchTerm } : {}),
      ...(opts.multiTerm ? { batch_mode: true, multi_term_batch_mode: true } : {}),
      ...(batchMode && opts.dropStatus ? { batch_mode_enrollment_drop_status: opts.dropStatus } : {}),
      ...(opts.overrideSisStickiness ? { override_sis_stickiness: true } : {}),
      ...(opts.diffingDataSetId ? { diffing_data_set_identifier: opts.diffingDataSetId } : {}),
      ...(opts.diffingDataSetId && opts.dropStatus ? { diffing_drop_status: opts.dropStatus } : {}),
      ...(opts.userRemoveStatus ? { diffing_user_remove_status: opts.userRemoveStatus } : {}),
      ...(opts.skipDeletes ? { skip_deletes: true } : {}),
      ...(opts.changeThreshold !== undefined ? { change_threshold: Number(opts.changeThreshold) } : {}),
    });
    const ended = SIS_IMPORT_ENDED.includes(started.workflow_state as never);
    // Off a terminal nothing else is said until the job ends: the id, said now, outlives a killed run.
    if (!ended && !ctx.io.stderrIsTTY)
      err(ctx.io, `SIS import ${started.id} ${started.workflow_state}; follow it with lms sis status ${started.id}\n`);
    const { watchSisImport } = await import('../../model/watch-progress.js');
    const last = ended
      ? started
      : await watchSisImport(ctx, () => client.ops.sis.get({ account_id: opts.account, id: started.id }), {
          label: `SIS import ${started.id}`,
          ended: (s) => SIS_IMPORT_ENDED.includes(s as never),
        });
    for (const [file, message] of last.processing_warnings ?? []) ctx.warn(`${file}: ${message}`);
    return endedResult(last);
  },
});

/** What a dry run of sis import answers: the files checked, and whether the import deletes. */
export interface SisImportCheck {
  dry_run: true;
  file: string;
  account: string;
  files: CheckedFile[];
  batch_mode: boolean;
  deletes: boolean;
}

/** An import as it ended: exit 1 when it failed or was aborted, naming its errors. */
function endedResult(b: SisImport) {
  const result = item(b);
  if (!SIS_IMPORT_FAILED.includes(b.workflow_state as never)) return result;
  const errors = (b.processing_errors ?? []).map(([file, message]) => (file ? `${file}: ${message}` : message));
  return withFailure(
    result,
    new FailureError(
      `SIS import ${b.id} ended ${b.workflow_state}${errors.length ? `: ${errors.slice(0, 5).join('; ')}` : ''}`,
    ),
  );
}

const status = command({
  name: 'status',
  args: [{ name: 'id' }],
  summary: 'Show one SIS import: its state, progress, counts, warnings and errors',
  routes: ['sis.get'],
  columns: COLUMNS,
  options: { account },
  examples: ['lms sis status 1', 'lms sis status 1 -o json'],
  async run({ args, opts, ctx }) {
    const client = await ctx.client();
    return endedResult(await client.ops.sis.get({ account_id: opts.account, id: args[0] }));
  },
});

const listImports = command({
  name: 'list',
  summary: "An account's SIS imports, newest first",
  routes: ['sis.list'],
  columns: COLUMNS,
  options: {
    account,
    state: {
      long: 'state',
      value: 'state',
      description: 'only imports in this workflow_state',
      choices: [...SIS_IMPORT_STATES],
    },
  },
  examples: ['lms sis list', 'lms sis list --state failed_with_messages'],
  async run({ opts, ctx }) {
    const client = await ctx.client();
    return list(
      client.ops.sis.list({
        account_id: opts.account,
        ...(opts.state ? { workflow_state: [opts.state as never] } : {}),
      }),
      COLUMNS,
    );
  },
});

const abort = command({
  name: 'abort',
  args: [{ name: 'id' }],
  summary: 'Abort an SIS import that has not ended: it applies nothing more',
  routes: ['sis.abort'],
  // The instance answers 404 for an import that has ended; reading it says which that was.
  lookups: ['sis.get'],
  columns: COLUMNS,
  options: { account },
  examples: ['lms sis abort 1'],
  async run({ args, opts, ctx }) {
    const client = await ctx.client();
    try {
      return item(await client.ops.sis.abort({ account_id: opts.account, id: args[0] }));
    } catch (e) {
      if (!(e instanceof ApiError) || e.status !== 404) throw e;
      const { orMissing } = await import('../../bulk/resolve.js');
      const ended = await orMissing(client.ops.sis.get({ account_id: opts.account, id: args[0] }));
      if (!ended || !SIS_IMPORT_ENDED.includes(ended.workflow_state as never)) throw e;
      throw new EndedImportError(ended);
    }
  },
});

/** An abort of an import that had ended: not found among those that can stop, as the instance says (exit 4). */
class EndedImportError extends LmsError {
  constructor(b: SisImport) {
    super(`SIS import ${b.id} had already ended ${b.workflow_state}; there is nothing to abort`, ExitCode.notFound, {
      hint: `lms sis status ${b.id} shows how it ended`,
    });
  }
}

export const sisVerbs: Verbs = [importSis, status, listImports, abort];
