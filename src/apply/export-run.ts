// `lms export course C`: the course as the file `lms apply` reads, on stdout or in a file (--out).
// YAML whatever stdout is, as every export writes its import's format; -o json for JSON, which
// apply reads too. An outcome tree is a file of its own — the tree format `lms outcomes import`
// reads, which is the only way an apply file names one — so it needs a place: --outcomes-file, or
// beside --out.
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join, relative, resolve, sep } from 'node:path';
import { text, type CommandModel, type CommandResult } from '../model/command.js';
import type { Context } from '../model/context.js';
import { identifyInstance } from '../bulk/instance.js';
import { stateDir } from '../config/paths.js';
import { UsageError } from '../errors.js';
import { err } from '../io/streams.js';
import { exportCourse, type ExportParts } from './export.js';
import { KIND_ORDER, KINDS, many, type KindName } from './kinds.js';
import type { ApplyTree } from './model.js';
import { KeyStore } from './state.js';
import { readTree } from './tree.js';

export interface ExportOptions {
  include?: string;
  out?: string;
  outcomesFile?: string;
}

type Format = 'yaml' | 'json';

function formatOf(output: string | undefined): Format {
  if (output === undefined || output === 'yaml') return 'yaml';
  if (output === 'json') return 'json';
  throw new UsageError(`a course file is YAML (the default, or -o yaml) or JSON (-o json), not ${output}`);
}

function includeOf(given: string | undefined): KindName[] {
  if (given === undefined) return [...KIND_ORDER];
  const names = given
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => !(KIND_ORDER as string[]).includes(n));
  if (unknown.length) throw new UsageError(`--include takes ${KIND_ORDER.join(', ')}; not ${unknown.join(', ')}`);
  return KIND_ORDER.filter((k) => names.includes(k));
}

/** Where the tree goes when --out names the course file: beside it, `course.yaml` → `course.outcomes.yaml`. */
function beside(out: string, format: Format): string {
  const ext = extname(out);
  const stem = ext ? basename(out, ext) : basename(out);
  return join(dirname(out), `${stem}.outcomes${ext && /^\.(ya?ml|json)$/i.test(ext) ? ext : `.${format}`}`);
}

/**
 * The tree as the course file names it: from the course file's folder (the current one for stdout), as apply resolves
 * it.
 */
function reference(tree: string, out: string | undefined): string {
  const from = out === undefined ? process.cwd() : dirname(resolve(out));
  return relative(from, resolve(tree)).split(sep).join('/');
}

/**
 * YAML is loaded only when written. A course file is laid out as people write one; a tree as
 * `lms outcomes export --yaml` writes it.
 */
async function render(value: unknown, format: Format, courseFile = false): Promise<string> {
  if (format === 'json') return `${JSON.stringify(value, null, 2)}\n`;
  const { Document, isMap, isScalar, isSeq, visit } = await import('yaml');
  const doc = new Document(value);
  if (courseFile) {
    // Lists of values on a line (`submission_types: [ online_upload ]`), and a section or an
    // enrollment a line (`- { sis_section_id: A, name: Lab A }`): a roster of thousands stays readable.
    visit(doc, {
      Seq: (_, seq) => {
        if (seq.items.length && seq.items.every((i) => isScalar(i))) seq.flow = true;
      },
    });
    const courses = isMap(doc.contents) ? doc.contents.get('courses') : undefined;
    for (const course of isSeq(courses) ? courses.items : []) {
      if (!isMap(course)) continue;
      for (const kind of ['sections', 'enrollments']) {
        const list = course.get(kind);
        if (isSeq(list)) for (const row of list.items) if (isMap(row)) row.flow = true;
      }
    }
  }
  return doc.toString({ lineWidth: 0 });
}

export async function runExport(
  ctx: Context,
  course: string,
  opts: ExportOptions,
  model: CommandModel,
  shared: Pick<ApplyTree, 'roster' | 'outcomes'>,
  parts: ExportParts,
): Promise<CommandResult> {
  const format = formatOf(ctx.globals.output);
  const include = includeOf(opts.include);
  const outcomesAsked = opts.include !== undefined && include.includes('outcomes');
  if (opts.outcomesFile !== undefined && !include.includes('outcomes'))
    throw new UsageError('--outcomes-file goes with outcomes, which --include leaves out');

  const tree = await readTree(model, shared);
  ctx.longJob();
  const client = await ctx.client();
  const instance = await identifyInstance(ctx, client);
  const keys = new KeyStore(join(await stateDir(ctx), 'apply'), instance);
  const exported = await exportCourse({ client, tree, keys, course, include, parts });

  let treeFile: string | undefined;
  if (exported.outcomes) {
    treeFile = opts.outcomesFile ?? (opts.out !== undefined ? beside(opts.out, format) : undefined);
    if (treeFile === undefined) {
      const where =
        'an apply file names an outcome tree as a file of its own: give --outcomes-file FILE, or --out FILE (the ' +
        'tree goes beside it)';
      if (outcomesAsked) throw new UsageError(`course ${exported.sis} has an outcome tree, and ${where}`);
      ctx.warn(`left out: the outcome tree of course ${exported.sis}, as ${where}`);
    } else if (opts.out !== undefined && resolve(treeFile) === resolve(opts.out)) {
      throw new UsageError(`--outcomes-file and --out both name ${opts.out}: the tree and the course are two files`);
    } else exported.course.outcomes = { file: reference(treeFile, opts.out) };
  } else if (opts.outcomesFile !== undefined)
    ctx.warn(
      `course ${exported.sis} has no outcome tree: ${opts.outcomesFile} is not written, and the file leaves ` +
        'outcomes out',
    );
  for (const note of exported.notes) ctx.warn(note);

  const file = await render({ courses: [exported.course] }, format, true);
  // The tree first: a course file never names a tree that is not there yet.
  if (treeFile !== undefined)
    write(treeFile, await render(exported.outcomes, /\.json$/i.test(treeFile) ? 'json' : 'yaml'));
  if (opts.out !== undefined) write(opts.out, file);
  exported.remember();
  if (opts.out === undefined) return text(file);
  const counts = KIND_ORDER.filter((k) => exported.counts[k] !== undefined).map(
    (k) => `${exported.counts[k]} ${exported.counts[k] === 1 ? KINDS[k].one : many(k)}`,
  );
  err(
    ctx.io,
    `wrote ${opts.out}: course ${exported.sis}${counts.length ? ` with ${counts.join(', ')}` : ''}` +
      `${treeFile !== undefined ? `; its outcome tree to ${treeFile}` : ''}\n`,
  );
  return undefined;
}

function write(path: string, content: string): void {
  mkdirSync(dirname(resolve(path)), { recursive: true });
  writeFileSync(path, content);
}
