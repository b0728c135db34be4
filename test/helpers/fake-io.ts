import { PassThrough, Writable } from 'node:stream';
import type { IOStreams } from '../../src/io/streams.js';

export interface FakeIO extends IOStreams {
  stdoutText(): string;
  stderrText(): string;
}

class Collector extends Writable {
  chunks: string[] = [];
  override _write(chunk: Buffer | string, _enc: BufferEncoding, done: () => void): void {
    this.chunks.push(chunk.toString());
    done();
  }
}

export function fakeIO(options: { tty?: boolean; stdin?: string; columns?: number } = {}): FakeIO {
  const stdout = new Collector();
  const stderr = new Collector();
  const stdin = new PassThrough();
  if (options.stdin !== undefined) stdin.end(options.stdin);
  else stdin.end();
  const tty = options.tty ?? false;
  return {
    stdout,
    stderr,
    stdin,
    stdoutIsTTY: tty,
    stderrIsTTY: tty,
    stdinIsTTY: tty,
    color: false,
    columns: options.columns ?? (tty ? 120 : undefined),
    stdoutText: () => stdout.chunks.join(''),
    stderrText: () => stderr.chunks.join(''),
  };
}
