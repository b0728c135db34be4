// The only place that writes. Commands and renderers get an IOStreams and never touch process.*,
// so tests run them with fake streams and can switch "TTY" on and off.
import type { Readable, Writable } from 'node:stream';
import { isatty } from 'node:tty';

export interface IOStreams {
  stdout: Writable;
  stderr: Writable;
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

export function systemIO(env: NodeJS.ProcessEnv, noColorFlag = false): IOStreams {
  const stdoutIsTTY = Boolean(process.stdout.isTTY);
  const stderrIsTTY = Boolean(process.stderr.isTTY);
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    // process.stdin is built on first touch; most commands never read it.
    get stdin() {
      return process.stdin;
    },
    stdoutIsTTY,
    stderrIsTTY,
    stdinIsTTY: isatty(0),
    color: stdoutIsTTY && !noColorFlag && env.NO_COLOR === undefined && env.TERM !== 'dumb',
    columns: process.stdout.columns,
  };
}

/** All of a stream (stdin, for `-` arguments and --token-stdin). */
export async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}
