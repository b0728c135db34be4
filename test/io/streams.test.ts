// stdout and stderr as files or pipes are written with write(2); what a full non-blocking pipe, a
// reader that went away and a partial write each do to what the reader gets.
import { closeSync, mkdtempSync, openSync, readFileSync, type writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { descriptorOutput, type Output } from '../../src/io/streams.js';

function errno(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(code), { code });
}

/** A stream that records what reaches it, answering `full` to ask the caller to wait. */
function recordingStream(full = false) {
  const chunks: string[] = [];
  const drains: (() => void)[] = [];
  const stream: Output = {
    write: (chunk) => {
      chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      return !full;
    },
    once: (_event, listener) => drains.push(listener),
  };
  return { stream, chunks, drains };
}

describe('descriptorOutput', () => {
  it('writes text to the descriptor as it is given, nothing held back', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lms-streams-'));
    const fd = openSync(join(dir, 'out'), 'w');
    try {
      const output = descriptorOutput(
        fd,
        () => expect.fail('no stream is needed'),
        () => expect.fail('no broken pipe'),
      );
      expect(output.write('[\n')).toBe(true);
      expect(readFileSync(join(dir, 'out'), 'utf8')).toBe('[\n');
      output.write('  "é ✓"\n');
      output.write(Buffer.from(']\n'));
      expect(readFileSync(join(dir, 'out'), 'utf8')).toBe('[\n  "é ✓"\n]\n');
    } finally {
      closeSync(fd);
    }
  });

  type Case = {
    name: string;
    answers: (number | string)[];
    text: string;
    descriptor: string;
    stream: string[];
    broken: number;
    written: boolean;
  };
  // Each write call answers in turn: a number of bytes taken, or an errno.
  const cases: Case[] = [
    {
      name: 'a partial write is finished by further writes',
      answers: [3, 2, 4],
      text: 'abcdefghi',
      descriptor: 'abcdefghi',
      stream: [],
      broken: 0,
      written: true,
    },
    {
      name: 'a full non-blocking pipe hands the rest to the stream, in order',
      answers: [4, 'EAGAIN'],
      text: 'abcdefghi',
      descriptor: 'abcd',
      stream: ['efghi'],
      broken: 0,
      written: true,
    },
    {
      name: 'the rest after EAGAIN keeps a character whole across the split',
      answers: [1, 'EAGAIN'],
      text: 'aé',
      descriptor: 'a',
      stream: ['é'],
      broken: 0,
      written: true,
    },
    {
      name: 'a reader that went away is told once, and nothing more is written',
      answers: [2, 'EPIPE'],
      text: 'abcdef',
      descriptor: 'ab',
      stream: [],
      broken: 1,
      written: true,
    },
  ];

  it.each(cases)('$name', ({ answers, text, descriptor, stream, broken, written }) => {
    const taken: Buffer[] = [];
    const write = (_fd: number, bytes: NodeJS.ArrayBufferView, offset?: number | null): number => {
      const answer = answers.shift();
      if (typeof answer === 'string') throw errno(answer);
      const from = offset ?? 0;
      const chunk = Buffer.from((bytes as Buffer).subarray(from, from + (answer ?? (bytes as Buffer).length - from)));
      taken.push(chunk);
      return chunk.length;
    };
    const recorder = recordingStream();
    let brokenPipes = 0;
    const output = descriptorOutput(
      1,
      () => recorder.stream,
      () => brokenPipes++,
      { write: write as typeof writeSync },
    );
    expect(output.write(text)).toBe(written);
    expect(Buffer.concat(taken).toString('utf8')).toBe(descriptor);
    expect(recorder.chunks).toEqual(stream);
    expect(brokenPipes).toBe(broken);
    // After a broken pipe nothing reaches the descriptor; after EAGAIN everything goes to the stream.
    output.write('more');
    if (broken) expect(Buffer.concat(taken).toString('utf8')).toBe(descriptor);
    if (stream.length) expect(recorder.chunks.at(-1)).toBe('more');
  });

  it('waits for the stream to drain only once writes go through it', async () => {
    const recorder = recordingStream(true);
    const output = descriptorOutput(
      1,
      () => recorder.stream,
      () => undefined,
      {
        write: (() => {
          throw errno('EAGAIN');
        }) as typeof writeSync,
      },
    );
    expect(output.write('x')).toBe(false);
    let drained = false;
    output.once('drain', () => (drained = true));
    expect(drained).toBe(false);
    for (const listener of [...recorder.drains]) listener();
    expect(drained).toBe(true);
  });

  it('passes any other write error on', () => {
    const output = descriptorOutput(
      1,
      () => expect.fail('no stream'),
      () => expect.fail('no broken pipe'),
      {
        write: (() => {
          throw errno('EIO');
        }) as typeof writeSync,
      },
    );
    expect(() => output.write('x')).toThrow('EIO');
  });

  it('uses the stream from the start for a descriptor that is not open', () => {
    const recorder = recordingStream();
    // Above any process's limit of open files, so no other test's open file can be this one.
    const output = descriptorOutput(
      2 ** 31 - 2,
      () => recorder.stream,
      () => undefined,
      { write: (() => expect.fail('not written directly')) as typeof writeSync },
    );
    output.write('to the stream');
    expect(recorder.chunks).toEqual(['to the stream']);
  });
});

describe('descriptorOutput holding what a turn writes', () => {
  /** A scheduler the test runs by hand: what `setImmediate` would run once the turn ends. */
  function turns() {
    const pending: (() => void)[] = [];
    return {
      later: (run: () => void) => void pending.push(run),
      endTurn: () => {
        for (const run of pending.splice(0)) run();
      },
    };
  }

  /** write(2) as a recorder: each call's bytes, copied (the held buffer is reused after). */
  function calls(answers: (number | string)[] = []) {
    const made: string[] = [];
    const write = (_fd: number, bytes: NodeJS.ArrayBufferView, offset?: number | null): number => {
      const answer = answers.shift();
      if (typeof answer === 'string') throw errno(answer);
      const from = offset ?? 0;
      const all = bytes as Buffer;
      const chunk = Buffer.from(all.subarray(from, answer === undefined ? all.length : from + answer));
      made.push(chunk.toString('utf8'));
      return chunk.length;
    };
    return { made, write: write as typeof writeSync };
  }

  it('sends what one turn wrote in one call, once the turn ends', () => {
    const { made, write } = calls();
    const { later, endTurn } = turns();
    const output = descriptorOutput(
      1,
      () => expect.fail('no stream'),
      () => undefined,
      { hold: 1024, write, later },
    );
    for (const line of ['{"id":1}\n', '{"id":2}\n', '{"id":"é ✓"}\n']) expect(output.write(line)).toBe(true);
    expect(made).toEqual([]);
    endTurn();
    expect(made).toEqual(['{"id":1}\n{"id":2}\n{"id":"é ✓"}\n']);
    output.write('next turn\n');
    endTurn();
    expect(made).toEqual(['{"id":1}\n{"id":2}\n{"id":"é ✓"}\n', 'next turn\n']);
  });

  it('holds no more than its buffer: a long turn writes as it goes, so memory stays flat', () => {
    const { made, write } = calls();
    const { later, endTurn } = turns();
    const output = descriptorOutput(
      1,
      () => expect.fail('no stream'),
      () => undefined,
      { hold: 30, write, later },
    );
    // Room for a text is counted at 3 bytes a character: the fifth leaves too little for a sixth.
    for (let i = 0; i < 7; i++) output.write('abcd');
    expect(made).toEqual(['abcd'.repeat(5)]);
    // Longer than the buffer itself: what is held goes first, then the text in its own call.
    output.write('x'.repeat(40));
    expect(made).toEqual(['abcd'.repeat(5), 'abcd'.repeat(2), 'x'.repeat(40)]);
    endTurn();
    expect(made.join('')).toBe('abcd'.repeat(7) + 'x'.repeat(40));
  });

  it('writes what it holds at once when flushed (before stderr, and as the process exits), then bytes after it', () => {
    const { made, write } = calls();
    const output = descriptorOutput(
      1,
      () => expect.fail('no stream'),
      () => undefined,
      { hold: 1024, write, later: () => undefined },
    );
    output.write('held');
    output.flush();
    output.flush();
    output.write('text ');
    output.write(Buffer.from('bytes'));
    expect(made).toEqual(['held', 'text ', 'bytes']);
  });

  it('hands what it held to the stream on EAGAIN, as a copy, in order; and waits for the stream to drain', () => {
    const { made, write } = calls([2, 'EAGAIN']);
    const recorder = recordingStream(true);
    const output = descriptorOutput(
      1,
      () => recorder.stream,
      () => undefined,
      { hold: 12, write, later: () => undefined },
    );
    output.write('abcd');
    // Does not fit beside what is held: the flush meets a full pipe, and the new text follows the rest.
    expect(output.write('efgh')).toBe(false);
    expect(made).toEqual(['ab']);
    expect(recorder.chunks).toEqual(['cd', 'efgh']);
    output.write('ijkl');
    expect(recorder.chunks).toEqual(['cd', 'efgh', 'ijkl']);
  });

  it('after a reader went away, drops what it held and what follows', () => {
    const { made, write } = calls([1, 'EPIPE']);
    let brokenPipes = 0;
    const output = descriptorOutput(
      1,
      () => expect.fail('no stream'),
      () => brokenPipes++,
      { hold: 8, write, later: () => undefined },
    );
    output.write('abcd');
    output.write('efgh');
    output.write('ijkl');
    output.flush();
    expect({ made, brokenPipes }).toEqual({ made: ['a'], brokenPipes: 1 });
  });
});
