// The only place that writes. Commands and renderers get an IOStreams and never touch process.*,
// so tests run them with fake streams and can switch "TTY" on and off.
import { fstatSync, writeSync } from 'node:fs';
import type { Readable } from 'node:stream';

/** Where text goes: a stream (a Writable has these), or stdout written straight to its descriptor. */
export interface Output {
  /** False when the text was queued and the caller should wait for 'drain'. */
  write(text: string | Uint8Array): boolean;
  once(event: 'drain', listener: () => void): unknown;
}

export interface IOStreams {
  stdout: Output;
  stderr: Output;
  stdin: Readable;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  stdinIsTTY: boolean;
  /** Colours allowed (a TTY, and neither NO_COLOR nor --no-color). */
  color: boolean;
  /** Terminal width when stdout is a TTY. */
  columns?: number;
}

/** Writes to stdout, waiting for the stream to drain, so long lists keep memory flat. */
export async function out(io: IOStreams, text: string): Promise<void> {
  if (!io.stdout.write(text)) await new Promise<void>((resolve) => io.stdout.once('drain', resolve));
}

/** Diagnostics, progress and errors: always stderr. */
export function err(io: IOStreams, text: string): void {
  io.stderr.write(text);
}

/**
 * The process's streams. A terminal gets Node's own stream (colours, width, spinners, prompts). A
 * file or a pipe is written with write(2), as Node itself writes them on Linux, without building
 * process.stdout: that stream brings net, tty and the stream machinery, about 3 ms of every
 * command's start, for text a single system call delivers. `onBrokenPipe` is what a reader that
 * went away (`| head`) means for stdout.
 */
export function systemIO(env: NodeJS.ProcessEnv, noColorFlag: boolean, onBrokenPipe: () => void): IOStreams {
  const stdoutIsTTY = isTerminal(1);
  const stderrIsTTY = isTerminal(2);
  const stdout = () => {
    process.stdout.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE') onBrokenPipe();
    });
    return process.stdout;
  };
  const held = stdoutIsTTY ? undefined : coalesced(descriptorOutput(1, stdout, onBrokenPipe));
  if (held) process.once('exit', held.flush);
  // A stderr that went away leaves nothing to tell: what follows is dropped, as Node drops it.
  const stderr: Output = stderrIsTTY ? process.stderr : descriptorOutput(2, () => process.stderr, () => undefined);
  return {
    stdout: held ?? stdout(),
    // What stdout holds goes first, so that the two read in order where they meet (2>&1).
    stderr: held ? { write: (text) => (held.flush(), stderr.write(text)), once: (event, listener) => stderr.once(event, listener) } : stderr,
    // process.stdin is built on first touch; most commands never read it.
    get stdin() {
      return process.stdin;
    },
    stdoutIsTTY,
    stderrIsTTY,
    get stdinIsTTY() {
      return isTerminal(0);
    },
    color: stdoutIsTTY && !noColorFlag && env.NO_COLOR === undefined && env.TERM !== 'dumb',
    columns: stdoutIsTTY ? process.stdout.columns : undefined,
  };
}

/**
 * isatty(3) without loading node:tty (which loads net) for what cannot be a terminal: only a
 * character device can be one, and on Linux not one of the memory devices (/dev/null, major 1),
 * where scripts send what they do not read.
 */
function isTerminal(fd: number): boolean {
  try {
    const stat = fstatSync(fd);
    if (!stat.isCharacterDevice()) return false;
    if (process.platform === 'linux' && ((stat.rdev >> 8) & 0xfff) === LINUX_MEMORY_DEVICES) return false;
  } catch {
    return false;
  }
  return process.getBuiltinModule('node:tty').isatty(fd);
}

const LINUX_MEMORY_DEVICES = 1;

/**
 * A descriptor written with write(2). Where that cannot be (Windows, whose pipes Node writes
 * asynchronously; a closed descriptor; a pipe left non-blocking by whoever made it, which answers
 * EAGAIN when full) the rest goes through Node's stream, in order.
 */
export function descriptorOutput(fd: number, stream: () => Output, onBrokenPipe: () => void, write = writeSync): Output {
  let fallback: Output | undefined = process.platform === 'win32' || !isOpen(fd) ? stream() : undefined;
  let broken = false;
  return {
    write(text) {
      if (fallback) return fallback.write(text);
      if (broken) return true;
      const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
      for (let offset = 0; offset < bytes.length; ) {
        try {
          offset += write(fd, bytes, offset);
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === 'EPIPE') {
            broken = true;
            onBrokenPipe();
            return true;
          }
          if (code !== 'EAGAIN') throw error;
          fallback = stream();
          return fallback.write(bytes.subarray(offset));
        }
      }
      return true;
    },
    once(event, listener) {
      // Only a write that returned false is waited on, and only the stream's can.
      return fallback ? fallback.once(event, listener) : listener();
    },
  };
}

/**
 * Text written in one turn of the event loop goes on in one write (or one for each `limit`): a
 * listing writes a record at a time, and a system call for each made 100,000 records 10-20% slower
 * than Node's stream, which gathers them. `flush` writes what is held at once.
 */
export function coalesced(output: Output, limit = 64 * 1024, later: (flush: () => void) => void = setImmediate): Output & { flush(): void } {
  let held: string[] = [];
  let size = 0;
  let scheduled = false;
  const flush = (): boolean => {
    if (held.length === 0) return true;
    const text = held.length === 1 ? held[0] : held.join('');
    held = [];
    size = 0;
    return output.write(text);
  };
  return {
    write(text) {
      if (typeof text !== 'string') return flush() && output.write(text);
      held.push(text);
      size += text.length;
      if (size >= limit) return flush();
      if (!scheduled) {
        scheduled = true;
        later(() => {
          scheduled = false;
          flush();
        });
      }
      return true;
    },
    once: (event, listener) => output.once(event, listener),
    flush: () => void flush(),
  };
}

function isOpen(fd: number): boolean {
  try {
    fstatSync(fd);
    return true;
  } catch {
    return false;
  }
}

/** All of a stream (stdin, for `-` arguments and --token-stdin). */
export async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}
