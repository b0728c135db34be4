// --jq: jq itself, compiled to WebAssembly, loaded only when the flag is given. Its semantics are the
// point, so nothing here reads the expression: jq is handed the JSON that the command would print
// and its results are printed as `jq -r` prints them (strings raw, one a line, as gh --jq does).
import { loadJq, type JqResult } from 'jq-wasm/inline';
import { UsageError } from '../errors.js';
import { err, out } from '../io/streams.js';
import { project, projectItem } from './fields.js';
import type { JqFilter, RenderOptions } from './formats.js';

/**
 * jq's stdout comes back trimmed, which would eat the spaces that begin or end a raw string. So jq
 * writes JSON texts, each after a record separator (--seq), and the strings are unquoted here.
 */
const RS = '\x1e';
/** Records that have arrived go to jq together: a run of jq costs some 2 ms, as much as reading 200 records. */
const MAX_BATCH_RECORDS = 1000;
const WAITING = Symbol('waiting');

export type JqOptions = RenderOptions & { jq: JqFilter };

/**
 * Loads jq and compiles the expression. Over no input jq compiles the program and runs it zero
 * times: a mistake it can find without data is found here, before the command sends a request.
 */
export async function compileJq(expression: string): Promise<JqFilter> {
  const filter = { expression, jq: await loadJq() };
  const check = run(filter, '', []);
  if (check.exitCode !== 0) throw new UsageError(`--jq: ${check.stderr.replace(JQ_ERROR, '').trim()}`);
  return filter;
}

/**
 * A list as JSON output prints it: one array of every item the command would print, which the
 * expression sees whole (`.[] | select(…)`, `length`, `group_by`), held once, as JSON text. With
 * -o ndjson, each record on its own, as `jq -c` over NDJSON.
 */
export async function writeJqList(items: AsyncIterable<unknown> | Iterable<unknown>, options: JqOptions): Promise<number> {
  if (options.format === 'ndjson') return writeJqRecords(items, options);
  let text = '';
  let count = 0;
  for await (const item of items) {
    text += `${count === 0 ? '[' : ','}${toJson(project(item, options.fields))}`;
    count++;
  }
  await printOne(options, count === 0 ? '[]' : `${text}]`, false);
  return count;
}

export async function writeJqItem(item: unknown, options: JqOptions): Promise<void> {
  await printOne(options, toJson(projectItem(item, options.fields)), options.format === 'ndjson');
}

/**
 * What a command prints as text: a JSON file it exports is filtered as jq would filter it from a
 * pipe. Text that is no JSON is refused here, since jq reading --seq input skips what it cannot parse.
 */
export async function writeJqText(text: string, options: JqOptions): Promise<void> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new UsageError('--jq: this command prints text, not JSON');
  }
  await printOne(options, toJson(value), options.format === 'ndjson');
}

/**
 * Records are sent as they arrive, but not one jq run each: those the source yields without
 * waiting (the rest of a page) join the batch, and whenever the source has to wait (for the next
 * page, for a new event of a stream that keeps going: the next turn of the event loop finds it
 * still pending) what has come is printed first. As jq over NDJSON does, a record jq fails on is
 * reported and the rest are still filtered, and the command then fails: what is printed does not
 * depend on how the records happened to be batched.
 */
async function writeJqRecords(items: AsyncIterable<unknown> | Iterable<unknown>, options: JqOptions): Promise<number> {
  const iterator: AsyncIterator<unknown> | Iterator<unknown> = Symbol.asyncIterator in items ? items[Symbol.asyncIterator]() : items[Symbol.iterator]();
  let batch = '';
  let batched = 0;
  let count = 0;
  let failed = 0;
  let finished = false;
  // One wait for every record of a turn, not one each: a source that never waits holds no waiter per record.
  let turn: Promise<typeof WAITING> | undefined;
  const sourceWaits = () =>
    (turn ??= new Promise((resolve) =>
      setImmediate(() => {
        turn = undefined;
        resolve(WAITING);
      }),
    ));
  const flush = async () => {
    if (batched === 0) return;
    const texts = batch;
    batch = '';
    batched = 0;
    const failure = await print(options, texts, true);
    if (failure) {
      failed += failure.inputs;
      err(options.io, `${failure.stderr.replace(JQ_ERROR, '--jq: ')}\n`);
    }
  };
  try {
    let next = Promise.resolve(iterator.next());
    for (;;) {
      const step = batched === 0 ? await next : await Promise.race([next, sourceWaits()]);
      if (step === WAITING) {
        await flush();
        continue;
      }
      if (step.done) break;
      batch += `${RS}${toJson(project(step.value, options.fields))}\n`;
      batched++;
      count++;
      if (batched === MAX_BATCH_RECORDS) await flush();
      next = Promise.resolve(iterator.next());
    }
    await flush();
    finished = true;
  } finally {
    if (!finished) await iterator.return?.();
  }
  if (failed) throw new UsageError(`--jq failed on ${failed} record${failed === 1 ? '' : 's'}`);
  return count;
}

/** Runs jq over one JSON text; a failure is a usage error in jq's words, after what jq printed before it. */
async function printOne(options: JqOptions, input: string, compact: boolean): Promise<void> {
  const failure = await print(options, `${RS}${input}\n`, compact);
  if (failure) throw new UsageError(`--jq: ${failure.stderr.replace(JQ_ERROR, '').trim()}`);
}

/**
 * Runs jq over JSON texts (each after RS) and prints its results. What jq writes to stderr while
 * it succeeds (`debug`, `stderr`) goes to stderr; when it fails on some of its inputs, its
 * messages and how many are returned. `halt_error` stops everything then and there.
 */
async function print({ io, jq }: JqOptions, input: string, compact: boolean): Promise<{ inputs: number; stderr: string } | undefined> {
  const result = run(jq, input, compact ? ['--seq', '--compact-output'] : ['--seq']);
  const text = results(result.stdout);
  if (text) await out(io, text);
  // jq's exit status speaks only of its last input: its messages tell which inputs failed.
  const inputs = result.stderr.match(JQ_ERROR)?.length ?? 0;
  if (inputs > 0) return { inputs, stderr: result.stderr };
  if (result.exitCode !== 0) throw new UsageError(`--jq: ${result.stderr.trim() || `jq stopped with status ${result.exitCode}`}`);
  if (result.stderr) err(io, result.stderr.endsWith('\n') ? result.stderr : `${result.stderr}\n`);
  return undefined;
}

/**
 * How jq begins an error message. What follows `jq: error` names the input file jq was given
 * (`(at /dev/stdin:0)`), which the user never named, so messages are shown without it.
 */
const JQ_ERROR = /^jq: error(?: \(at [^)]*\))?: /gm;

// `--` ends jq's options: an expression may begin with a minus (`-.balance`).
function run({ jq, expression }: JqFilter, input: string, flags: string[]): JqResult {
  return jq.raw(input, expression, [...flags, '--']);
}

function results(stdout: string): string {
  let text = '';
  for (const piece of stdout.split(RS)) {
    if (piece === '') continue;
    const json = piece.endsWith('\n') ? piece.slice(0, -1) : piece;
    text += `${json.startsWith('"') ? (JSON.parse(json) as string) : json}\n`;
  }
  return text;
}

// JSON.stringify gives undefined for undefined; jq reads what JSON output would print.
function toJson(value: unknown): string {
  return JSON.stringify(value) ?? 'null';
}
