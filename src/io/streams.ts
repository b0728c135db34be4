// The only place that writes. Commands and renderers get an IOStreams and never touch process.*,
// so tests run them with fake streams and can switch "TTY" on and off.
import { fstatSync, writeSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { showControls } from '../controls.js';

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

/**
 * The streams for data shown as it is (JSON, NDJSON, CSV, YAML, jq's results, a command's text):
 * on a terminal, every control character in it but a line feed or a tab is written as its escape
 * (`\u0085`, `\u001b`), so the API's data can neither move the cursor nor start a terminal sequence
 * (U+009B is one on its own), and what the terminal shows is what the data holds. A pipe or a file
 * gets the data exact. JSON stays valid and reads back to the same values, since JSON writes these
 * characters only inside strings, and there `\u0085` is the same character.
 */
export function showingControls(io: IOStreams): IOStreams {
  if (!io.stdoutIsTTY) return io;
  const stdout = io.stdout;
  return {
    ...io,
    stdout: {
      write: (text) => stdout.write(typeof text === 'string' ? showControls(text, '\n\t') : text),
      once: (event, listener) => stdout.once(event, listener),
    },
  };
}

/** Diagnostics, progress and errors: always stderr. */
export function err(io: IOStreams, text: string): void {
  io.stderr.write(text);
}

/**
 * The process's streams. A terminal gets Node's own stream (colours, width, spinners, prompts). A
 * file or a pipe is written with write(2), as Node itself writes them on Linux, without building
 * process.stdout: that stream brings net, tty and the stream machinery into every command's
 * start, for text a single system call delivers. `onBrokenPipe` is what a reader that
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
  const held = stdoutIsTTY ? undefined : descriptorOutput(1, stdout, onBrokenPipe, { hold: 64 * 1024 });
  if (held) process.once('exit', held.flush);
  // A stderr that went away leaves nothing to tell: what follows is dropped, as Node drops it.
  const stderr: Output = stderrIsTTY
    ? process.stderr
    : descriptorOutput(
        2,
        () => process.stderr,
        () => undefined,
      );
  return {
    stdout: held ?? stdout(),
    // What stdout holds goes first, so that the two read in order where they meet (2>&1).
    stderr: held
      ? {
          write: (text) => {
            held.flush();
            return stderr.write(text);
          },
          once: (event, listener) => stderr.once(event, listener),
        }
      : stderr,
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
  // Loaded only here: a command writing to a file or a pipe, most scripted runs, never needs tty.
  return process.getBuiltinModule('node:tty').isatty(fd);
}

const LINUX_MEMORY_DEVICES = 1;

/**
 * A descriptor written with write(2). With `hold`, what one turn of the event loop writes goes in
 * one call (up to `hold` bytes kept in one reused buffer, sent when full, when the turn ends, or on
 * `flush`): a listing writes a record at a time, and a call for each made a long listing slower
 * than Node's stream; held as strings instead, they outlived the young generation and grew
 * the heap. Where write(2) cannot serve (Windows, whose pipes Node writes asynchronously; a closed
 * descriptor; a pipe left non-blocking by whoever made it, which answers EAGAIN when full) the rest
 * goes through Node's stream, in order.
 */
export function descriptorOutput(
  fd: number,
  stream: () => Output,
  onBrokenPipe: () => void,
  {
    hold = 0,
    write = writeSync,
    later = setImmediate,
  }: { hold?: number; write?: typeof writeSync; later?: (run: () => void) => unknown } = {},
): Output & { flush(): void } {
  let fallback: Output | undefined = process.platform === 'win32' || !isOpen(fd) ? stream() : undefined;
  let broken = false;
  const held = hold > 0 ? Buffer.allocUnsafe(hold) : undefined;
  let used = 0;
  let scheduled = false;

  const send = (bytes: Uint8Array): boolean => {
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
        // A copy: the held buffer is written over once this returns, and the stream writes later.
        return fallback.write(Buffer.from(bytes.subarray(offset)));
      }
    }
    return true;
  };
  /** Sends what is held; false when the stream it fell back to asks the writer to wait. */
  const flush = (): boolean => {
    if (!held || used === 0) return true;
    const length = used;
    used = 0;
    return send(held.subarray(0, length));
  };
  /** After a flush: where the text goes if not to the descriptor (the stream, or nowhere after EPIPE). */
  const divert = (text: string | Uint8Array, drained: boolean): boolean | undefined => {
    if (fallback) return fallback.write(text) && drained;
    if (broken) return true;
    return undefined;
  };

  return {
    write(text) {
      if (fallback) return fallback.write(text);
      if (broken) return true;
      // A UTF-16 unit is at most 3 bytes of UTF-8: text this short always fits whole.
      if (held && typeof text === 'string' && text.length * 3 <= hold) {
        if (text.length * 3 > hold - used) {
          const diverted = divert(text, flush());
          if (diverted !== undefined) return diverted;
        }
        used += held.write(text, used, 'utf8');
        if (!scheduled) {
          scheduled = true;
          later(() => {
            scheduled = false;
            flush();
          });
        }
        return true;
      }
      const drained = flush();
      return divert(text, drained) ?? send(typeof text === 'string' ? Buffer.from(text, 'utf8') : text);
    },
    once(event, listener) {
      // Only a write that returned false is waited on, and only the stream's can.
      return fallback ? fallback.once(event, listener) : listener();
    },
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
