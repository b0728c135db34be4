// --jq: jq itself, compiled to WebAssembly, loaded only when the flag is given. Its semantics are the
// point, so nothing here reads the expression: jq is handed the JSON that the command would print
// and its results are printed as `jq -r` prints them (strings raw, one a line, as gh --jq does).
//
// jq runs in a thread of its own: its WebAssembly returns only when the filter ends, so a filter
// that never ends (`repeat(.)`, `def f: f; f`) can be stopped only from another thread. Each run
// has a time budget and a memory ceiling, generous for any real filter (LMS_JQ_TIMEOUT and
// LMS_JQ_MEMORY raise them); past either the thread is ended and the command fails with a usage
// error naming the limit, after what was printed before it.
//
// jq's output is printed as jq writes it: jq-wasm (patched, see patches/) hands stdout to the
// thread in chunks, and the thread posts them here. A reader slower than jq (a paused pipe) holds
// jq back instead of filling memory: past a window of bytes posted and not yet written, the thread
// waits, and that wait is not counted against the time budget.
import { Worker } from 'node:worker_threads';
import { UsageError } from '../errors.js';
import { err, out } from '../io/streams.js';
import { project, projectItem } from './fields.js';
import type { JqFilter, RenderOptions } from './formats.js';

/**
 * jq's stdout comes back trimmed, which would eat the spaces that begin or end a raw string. So jq
 * writes JSON texts, each after a record separator (--seq), and the strings are unquoted here.
 */
const RS = '\x1e';
/** Records that have arrived go to jq together: each run of jq has a fixed cost, as much as reading many records. */
const MAX_BATCH_RECORDS = 1000;
const WAITING = Symbol('waiting');

/** How often the memory the process holds is looked at while jq runs. */
const MEMORY_CHECK_MS = 50;

export type JqOptions = RenderOptions & { jq: JqFilter };

interface JqResult {
  stderr: string;
  exitCode: number;
}

/** How many bytes of jq's output may be posted and not yet written before jq waits for the writer. */
const OUTPUT_WINDOW = 1024 * 1024;
/** The slots of the array the thread and the command share. */
const UNWRITTEN = 0;
const WAITED_MS = 1;

export interface JqLimits {
  /** How long one run of jq may take. */
  seconds: number;
  /** How much the process's resident memory may grow while one run of jq runs. */
  megabytes: number;
}

export const DEFAULT_JQ_LIMITS: JqLimits = { seconds: 30, megabytes: 1024 };

/** The limits LMS_JQ_TIMEOUT (seconds) and LMS_JQ_MEMORY (megabytes) set, or the defaults. */
export function jqLimits(env: NodeJS.ProcessEnv): JqLimits {
  const read = (name: string, fallback: number, unit: string) => {
    const value = env[name];
    if (value === undefined || value === '') return fallback;
    const n = Number(value);
    if (!Number.isFinite(n) || n <= 0)
      throw new UsageError(`${name} must be a positive number of ${unit}, not "${value}"`);
    return n;
  };
  return {
    seconds: read('LMS_JQ_TIMEOUT', DEFAULT_JQ_LIMITS.seconds, 'seconds'),
    megabytes: read('LMS_JQ_MEMORY', DEFAULT_JQ_LIMITS.megabytes, 'megabytes'),
  };
}

/**
 * Loads jq and compiles the expression. Over no input jq compiles the program and runs it zero
 * times: a mistake it can find without data is found here, before the command sends a request.
 */
export async function compileJq(expression: string, env: NodeJS.ProcessEnv): Promise<JqFilter> {
  const limits = jqLimits(env);
  const filter = startJq(expression, limits);
  try {
    const check = await filter.run('', [], async () => undefined);
    if (check.exitCode !== 0) throw new UsageError(`--jq: ${check.stderr.replace(JQ_ERROR, '').trim()}`);
  } catch (e) {
    filter.close();
    throw e;
  }
  return filter;
}

// The thread's code, the same text whether lms runs from its bundle or from its sources: it loads
// jq-wasm from the file it is given and runs the expression over each input it is sent. Each chunk
// of output is counted as unwritten and posted; while more than the window is unwritten, the thread
// waits (in slices, adding up how long) for the command to write some. jq runs synchronously inside
// onStdout's caller, so the wait holds jq where it is.
const WORKER_SOURCE =
  `
const { parentPort, workerData } = require('node:worker_threads');
const { jqWasm, expression, shared, window } = workerData;
const state = new Int32Array(shared);
function onStdout(chunk) {
  Atomics.add(state, ${UNWRITTEN}, chunk.length);
  parentPort.postMessage({ chunk }, [chunk.buffer]);
  for (let unwritten; (unwritten = Atomics.load(state, ${UNWRITTEN})) > window; ) {
    const since = Date.now();
    Atomics.wait(state, ${UNWRITTEN}, unwritten, 100);
    Atomics.add(state, ${WAITED_MS}, Date.now() - since);
  }
}
const ready = require(jqWasm).loadJq({ onStdout });
parentPort.on('message', async ({ input, flags }) => {
  try {
    const { stderr, exitCode } = (await ready).raw(input, expression, flags);
    parentPort.postMessage({ stderr, exitCode });
  } catch (e) {
    // jq's WebAssembly stops (an abort or a trap) when it cannot grow its memory or its stack any further.
    parentPort.postMessage(e instanceof WebAssembly.RuntimeError ? { trapped: true } : { failed: String((e && ` +
  `e.stack) || e) });
  }
});
`;

/** jq-wasm's file: a name beside the bundle, or (from the sources) its path in node_modules. */
function jqWasmFile(): string {
  return __LMS_JQ_WASM__.startsWith('/') ? __LMS_JQ_WASM__ : `${__dirname}/${__LMS_JQ_WASM__}`;
}

/**
 * The thread jq runs in, one for the command, its runs one at a time. A run past a limit ends the
 * thread, and that run and any after it fail with a usage error naming the limit.
 */
function startJq(expression: string, limits: JqLimits): JqFilter {
  const shared = new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT);
  const state = new Int32Array(shared);
  // What jq-wasm itself says on the thread's stderr (that its WebAssembly aborted) is no message
  // for the user: the failure is reported here in words of its own. jq's own stderr comes in its result.
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    stderr: true,
    workerData: { jqWasm: jqWasmFile(), expression, shared, window: OUTPUT_WINDOW },
  });
  worker.stderr.resume();
  worker.unref();
  let stopped: Error | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  const stop = (e: Error) => {
    stopped ??= e;
    void worker.terminate();
  };

  const runOnce = (input: string, flags: string[], write: (stdout: string) => Promise<void>) =>
    new Promise<JqResult>((resolve, reject) => {
      if (stopped) return reject(stopped);
      // Memory is the whole process's, as the system counts it: jq's WebAssembly memory and what
      // it has written are outside any JavaScript heap a thread's resourceLimits would bound.
      const ceiling = process.memoryUsage.rss() + limits.megabytes * 1024 * 1024;
      // The time budget is jq's own: what the thread spent waiting for a slow reader is taken off.
      const started = performance.now();
      const waitedBefore = Atomics.load(state, WAITED_MS);
      const watch = setInterval(() => {
        if (performance.now() - started - (Atomics.load(state, WAITED_MS) - waitedBefore) > limits.seconds * 1000)
          end(timeLimit(limits));
        else if (process.memoryUsage.rss() > ceiling) end(memoryLimit(limits));
      }, MEMORY_CHECK_MS);
      // Chunks are written one after another, in the order jq wrote them; each written one frees its bytes of the
      // window.
      const decoder = new TextDecoder();
      let writing = Promise.resolve();
      const onChunk = (chunk: Uint8Array) => {
        const text = decoder.decode(chunk, { stream: true });
        writing = writing.then(async () => {
          if (text) await write(text);
          Atomics.sub(state, UNWRITTEN, chunk.byteLength);
          Atomics.notify(state, UNWRITTEN);
        });
        writing.catch((e: unknown) => end(e instanceof Error ? e : new Error(String(e))));
      };
      const onMessage = (m: JqResult & { chunk?: Uint8Array; failed?: string; trapped?: true }) =>
        m.chunk
          ? onChunk(m.chunk)
          : m.trapped
            ? end(jqMemory())
            : m.failed
              ? end(new Error(`jq failed: ${m.failed}`))
              : end(undefined, m);
      const onError = (e: Error) => end(e);
      const onExit = () => end(new Error('jq stopped unexpectedly'));
      let ended = false;
      const end = (failure: Error | undefined, result?: JqResult) => {
        if (ended) return;
        ended = true;
        clearInterval(watch);
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        worker.unref();
        // A limit ends the thread at once; what it had posted is still written, then the run fails.
        if (failure) stop(failure);
        const settled = writing.then(
          async () => {
            const rest = decoder.decode();
            if (rest && !failure) await write(rest);
          },
          (e: unknown) => {
            // A write that failed fails the run, unless a limit already did.
            if (!failure) throw e;
          },
        );
        void settled.then(
          () => (failure ? reject(stopped) : resolve(result!)),
          (e: unknown) => reject(e),
        );
      };
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
      worker.ref();
      // `--` ends jq's options: an expression may begin with a minus (`-.balance`).
      worker.postMessage({ input, flags: [...flags, '--'] });
    });

  return {
    expression,
    run(input, flags, write) {
      const run = queue.then(() => runOnce(input, flags, write));
      queue = run.catch(() => undefined);
      return run;
    },
    close: () => stop(new Error('jq was closed')),
  };
}

function timeLimit({ seconds }: JqLimits): UsageError {
  return new UsageError(`--jq: the filter ran past its time limit of ${seconds} s`, {
    hint: 'LMS_JQ_TIMEOUT=<seconds> allows longer',
  });
}

function jqMemory(): UsageError {
  return new UsageError('--jq: the filter ran out of the memory jq can hold', {
    hint: 'jq-wasm gives jq a fixed memory; filter the data down before collecting it',
  });
}

function memoryLimit({ megabytes }: JqLimits): UsageError {
  return new UsageError(`--jq: the filter ran past its memory limit of ${megabytes} MB`, {
    hint: 'LMS_JQ_MEMORY=<megabytes> allows more',
  });
}

/**
 * A list as JSON output prints it: one array of every item the command would print, which the
 * expression sees whole (`.[] | select(…)`, `length`, `group_by`), held once, as JSON text. With
 * -o ndjson, each record on its own, as `jq -c` over NDJSON.
 */
export async function writeJqList(
  items: AsyncIterable<unknown> | Iterable<unknown>,
  options: JqOptions,
): Promise<number> {
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
  const iterator: AsyncIterator<unknown> | Iterator<unknown> =
    Symbol.asyncIterator in items ? items[Symbol.asyncIterator]() : items[Symbol.iterator]();
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
async function print(
  { io, jq }: JqOptions,
  input: string,
  compact: boolean,
): Promise<{ inputs: number; stderr: string } | undefined> {
  // What follows the last RS seen may be a result jq is still writing: it is printed with the next
  // chunk, or when the run ends. Only the new text is searched, so a result of any length costs once.
  let held = '';
  const write = async (stdout: string) => {
    const last = stdout.lastIndexOf(RS);
    if (last < 0) {
      held += stdout;
      return;
    }
    const text = results(held + stdout.slice(0, last));
    held = stdout.slice(last);
    if (text) await out(io, text);
  };
  let result: JqResult;
  try {
    result = await jq.run(input, compact ? ['--seq', '--compact-output'] : ['--seq'], write);
  } catch (e) {
    // Ended by a limit: the last result is printed only if jq had finished writing it.
    if (isWhole(held)) await out(io, results(held));
    throw e;
  }
  const text = results(held);
  if (text) await out(io, text);
  // jq's exit status speaks only of its last input: its messages tell which inputs failed.
  const inputs = result.stderr.match(JQ_ERROR)?.length ?? 0;
  if (inputs > 0) return { inputs, stderr: result.stderr };
  if (result.exitCode !== 0)
    throw new UsageError(`--jq: ${result.stderr.trim() || `jq stopped with status ${result.exitCode}`}`);
  if (result.stderr) err(io, result.stderr.endsWith('\n') ? result.stderr : `${result.stderr}\n`);
  return undefined;
}

/**
 * How jq begins an error message. What follows `jq: error` names the input file jq was given
 * (`(at /dev/stdin:0)`), which the user never named, so messages are shown without it.
 */
const JQ_ERROR = /^jq: error(?: \(at [^)]*\))?: /gm;

/** Whether jq's output after an RS is one whole JSON text, as jq ends one with --seq (a newline). */
function isWhole(piece: string): boolean {
  if (!piece.endsWith('\n')) return false;
  try {
    JSON.parse(piece.slice(RS.length));
    return true;
  } catch {
    return false;
  }
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
