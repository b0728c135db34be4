// What the CLI reads whole (a message body, a token, a secret) from a file or stdin, with a bound:
// a reader that buffered until the input ended would grow with `< /dev/zero` until the machine or
// V8's string limit stopped it. The imports stream through their own scanner (bulk/csv-input.ts),
// under the same kind of message (whyUnreadable, here for both).
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { UsageError } from '../errors.js';

/** A message or post body: as much as the imports allow one field, and more than servers take in one request. */
export const MAX_TEXT_BYTES = 1024 * 1024;
/** A token or a client secret: real ones are under 100 bytes, a JWT a few KiB. */
export const MAX_SECRET_BYTES = 16 * 1024;

export interface Bound {
  /** The most bytes read; one more is refused. */
  limit: number;
  /** Names the input in messages: `--message-file`, `--token-stdin`. */
  what: string;
  /**
   * The whole name of a file in messages, where `what` and its path do not say it
   * (`the CA file x.pem (from LMS_CA_FILE)`).
   */
  label?: string;
}

/** Why a file could not be read, in words (the system's code alone means little to most people). */
export function whyUnreadable(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  switch (code) {
    case 'ENOENT':
      return 'no such file';
    case 'EISDIR':
      return 'it is a directory, not a file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ENOTDIR':
      return 'a part of the path is not a directory';
    case 'ELOOP':
      return 'too many symbolic links';
    default:
      return (e as Error).message || String(code);
  }
}

const tooLargeError = (label: string, limit: number) =>
  new UsageError(`${label} is larger than ${size(limit)}, the most lms reads there. Nothing was sent.`);

function size(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / 1024 / 1024} MiB`;
  return n >= 1024 && n % 1024 === 0 ? `${n / 1024} KiB` : `${n} bytes`;
}

/**
 * Where a verb's input comes from: a path (`-` for stdin), or its text, which a surface without the
 * user's files (`lms mcp`'s `csv_text`) hands over under a name that messages call it by (`csv`).
 */
export type InputSource = string | { name: string; text: string };

/** How messages name the input's source: its path, or the name its text was given under. */
export const sourceName = (source: InputSource): string => (typeof source === 'string' ? source : source.name);

/**
 * The input as a stream: the text given, stdin for `-`, or the file, refused (`unreadable`, or
 * `tooLarge` past `limit`) from what the system says of it before a byte is read.
 */
export async function openInput(
  source: InputSource,
  stdin: NodeJS.ReadableStream,
  limit: number,
  refuse: { unreadable: (e: unknown) => Error; tooLarge: () => Error },
): Promise<NodeJS.ReadableStream> {
  if (typeof source !== 'string') return (await import('node:stream')).Readable.from([Buffer.from(source.text)]);
  if (source === '-') return stdin;
  const { open } = await import('node:fs/promises');
  const handle = await open(source, 'r').catch((e: unknown) => {
    throw refuse.unreadable(e);
  });
  const stat = await handle.stat().catch(async (e: unknown) => {
    await handle.close();
    throw refuse.unreadable(e);
  });
  if (stat.isDirectory() || (stat.isFile() && stat.size > limit)) {
    await handle.close();
    throw stat.isDirectory() ? refuse.unreadable(Object.assign(new Error(), { code: 'EISDIR' })) : refuse.tooLarge();
  }
  return handle.createReadStream();
}

/**
 * An input's bytes (a file's, stdin's for `-`, or the text given), refused with a usage error as
 * soon as they pass `limit`: nothing past it is buffered, and a regular file that large is refused
 * from its size, unread.
 */
export async function readBounded(source: InputSource, stdin: NodeJS.ReadableStream, bound: Bound): Promise<Buffer> {
  // `--message-file notes.html`, `standard input (--message-file -)`, `standard input (--token-stdin)`.
  const name = sourceName(source);
  const label =
    name !== '-' || typeof source !== 'string'
      ? `${bound.what} ${name}`
      : bound.what.endsWith('-stdin')
        ? `standard input (${bound.what})`
        : `standard input (${bound.what} -)`;
  const tooLarge = () => tooLargeError(label, bound.limit);
  const unreadable = (e: unknown) => new UsageError(`cannot read ${label}: ${whyUnreadable(e)}`);
  const stream = await openInput(source, stdin, bound.limit, { unreadable, tooLarge });
  const chunks: Buffer[] = [];
  let length = 0;
  try {
    // Leaving the loop destroys the stream: nothing more is read.
    for await (const chunk of stream) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      length += bytes.length;
      if (length > bound.limit) throw tooLarge();
      chunks.push(Buffer.from(bytes));
    }
  } catch (e) {
    throw e instanceof UsageError ? e : unreadable(e);
  }
  return Buffer.concat(chunks);
}

/** readBounded as UTF-8 text. */
export async function readBoundedText(
  source: InputSource,
  stdin: NodeJS.ReadableStream,
  bound: Bound,
): Promise<string> {
  return (await readBounded(source, stdin, bound)).toString('utf8');
}

function kindOf(stat: import('node:fs').Stats): string {
  if (stat.isDirectory()) return 'a directory';
  if (stat.isFIFO()) return 'a named pipe (FIFO)';
  if (stat.isSocket()) return 'a socket';
  return stat.isCharacterDevice() || stat.isBlockDevice() ? 'a device' : 'not a file';
}

/**
 * A file's bytes, read at once (for what is read before any command runs, such as a CA file), under
 * the same bound: a file over `limit` is refused with the usage error readBounded gives, having read
 * at most one byte past it. A file that cannot be opened throws the system's error, for the caller
 * to put in words.
 */
export function readBoundedFileSync(path: string, bound: Bound): Buffer {
  // Opened without waiting (a FIFO with no writer would block the open, then every read), and read
  // only if it is a regular file: a FIFO, a device or a socket would hold lms for ever, or for as
  // long as whatever is at its other end likes.
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stat = fstatSync(fd);
    const label = bound.label ?? `${bound.what} ${path}`;
    if (!stat.isFile()) throw new UsageError(`cannot read ${label}: it is ${kindOf(stat)}, not a file`);
    const buffer = Buffer.allocUnsafe(bound.limit + 1);
    let length = 0;
    while (length < buffer.length) {
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n <= 0) break;
      length += n;
    }
    if (length > bound.limit) throw tooLargeError(bound.label ?? `${bound.what} ${path}`, bound.limit);
    return buffer.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}
