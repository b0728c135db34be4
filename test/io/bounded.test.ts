// The bounded reader: what it returns within the limit, where it stops past it, and what it says.
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { readBounded, readBoundedFileSync, readBoundedText } from '../../src/io/bounded.js';

const dir = mkdtempSync(join(tmpdir(), 'lms-bounded-'));
const none = Readable.from([]);

/** An endless stream of 1 KiB chunks that counts how many were pulled. */
function endless() {
  const counter = { pulled: 0 };
  const stream = Readable.from(
    (function* () {
      for (;;) {
        counter.pulled++;
        yield Buffer.alloc(1024, 'a');
      }
    })(),
  );
  return { stream, counter };
}

describe('readBounded', () => {
  it.each([
    { name: 'a file within the limit', write: 'hello', limit: 5, expected: 'hello' },
    { name: 'an empty file', write: '', limit: 5, expected: '' },
  ])('returns $name whole', async ({ write, limit, expected }) => {
    const path = join(dir, 'in.txt');
    writeFileSync(path, write);
    expect(await readBoundedText(path, none, { limit, what: '--body-file' })).toBe(expected);
  });

  it('returns stdin within the limit, in UTF-8', async () => {
    expect(
      await readBoundedText('-', Readable.from([Buffer.from('h\u00e9'), Buffer.from('llo')]), {
        limit: 6,
        what: '--body-file',
      }),
    ).toBe('h\u00e9llo');
  });

  it.each([
    {
      name: 'a regular file one byte over, unread',
      source: 'file',
      what: '--message-file',
      message: /^--message-file .*big\.txt is larger than 4 bytes, the most lms reads there\. Nothing was sent\.$/,
    },
    {
      name: 'stdin for -',
      source: '-',
      what: '--body-file',
      message: /^standard input \(--body-file -\) is larger than 1 KiB/,
    },
    {
      name: 'stdin for a --…-stdin flag',
      source: '-',
      what: '--token-stdin',
      message: /^standard input \(--token-stdin\) is larger than 1 KiB/,
    },
  ])('refuses $name, naming the input and the limit', async ({ source, what, message }) => {
    const path = source === 'file' ? join(dir, 'big.txt') : source;
    if (source === 'file') writeFileSync(path, 'hello');
    const e = await readBounded(path, Readable.from([Buffer.alloc(2048)]), {
      limit: source === 'file' ? 4 : 1024,
      what,
    }).catch((error: unknown) => error);
    expect(e).toBeInstanceOf(UsageError);
    expect((e as UsageError).exitCode).toBe(2);
    expect((e as UsageError).message).toMatch(message);
  });

  it('stops pulling from an endless stream as soon as the limit is passed', async () => {
    const { stream, counter } = endless();
    await expect(readBounded('-', stream, { limit: 8 * 1024, what: '--token-stdin' })).rejects.toThrow(
      /larger than 8 KiB/,
    );
    // Readable.from reads one chunk ahead at most.
    expect(counter.pulled).toBeLessThanOrEqual(10);
  });

  it.each([
    {
      name: 'a missing file',
      path: () => join(dir, 'missing.txt'),
      message: /^cannot read --body-file .*missing\.txt: no such file$/,
    },
    { name: 'a directory', path: () => dir, message: /^cannot read --body-file .*: it is a directory, not a file$/ },
  ])('says why it cannot read $name', async ({ path, message }) => {
    await expect(readBounded(path(), none, { limit: 10, what: '--body-file' })).rejects.toThrow(message);
  });
});

describe('readBoundedFileSync', () => {
  it('returns a file within the limit whole, even at the limit', () => {
    const path = join(dir, 'ca.pem');
    writeFileSync(path, 'abcd');
    expect(readBoundedFileSync(path, { limit: 4, what: '--ca-file' }).toString()).toBe('abcd');
  });

  it('refuses a regular file past the limit, naming it as asked', () => {
    const path = join(dir, 'big.pem');
    writeFileSync(path, 'abcde');
    expect(() =>
      readBoundedFileSync(path, { limit: 4, what: 'LMS_CA_FILE', label: `the CA file ${path} (from LMS_CA_FILE)` }),
    ).toThrow(
      new UsageError(
        `the CA file ${path} (from LMS_CA_FILE) is larger than 4 bytes, the most lms reads there. Nothing was sent.`,
      ),
    );
  });

  it.skipIf(!existsSync('/dev/zero'))(
    'refuses an endless device unread, naming it as asked: only a regular file is read',
    () => {
      expect(() =>
        readBoundedFileSync('/dev/zero', {
          limit: 1024,
          what: 'LMS_CA_FILE',
          label: 'the CA file /dev/zero (from LMS_CA_FILE)',
        }),
      ).toThrow(new UsageError('cannot read the CA file /dev/zero (from LMS_CA_FILE): it is a device, not a file'));
    },
  );

  it('leaves an unopenable file to the caller to put in words', () => {
    expect(() => readBoundedFileSync(join(dir, 'missing.pem'), { limit: 10, what: '--ca-file' })).toThrow(
      expect.objectContaining({ code: 'ENOENT' }),
    );
  });
});
