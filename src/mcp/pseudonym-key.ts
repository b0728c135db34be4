// The key pseudonyms are made with. By default a random one, made at start and never kept: the same
// person is someone else in the next session. `--pseudonym-key FILE` keeps one in a file (made, 0600,
// when missing), so a person keeps their pseudonym across sessions; a file others can read is refused,
// as ssh refuses a private key others can read: whoever holds the key can test a guess of who is who.
import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { UsageError } from '../errors.js';

/** The least key a file may hold, in bytes of its text. */
const MIN_KEY = 16;
/** The most a key file may hold: a key is a line, and a file that big is some other file. */
const MAX_KEY_FILE = 4096;

export function pseudonymKey(file: string | undefined): Buffer {
  if (file === undefined) return randomBytes(32);
  if (!existsSync(file)) makeKeyFile(file);
  const stat = statSync(file);
  if (!stat.isFile()) throw new UsageError(`the pseudonym key ${file} is not a file`);
  if (process.platform !== 'win32' && (stat.mode & 0o077) !== 0) {
    throw new UsageError(
      `the pseudonym key file ${file} can be read by others than its owner (mode ${(stat.mode & 0o777).toString(8)}` +
        '): refused',
      { hint: `chmod 600 ${file}` },
    );
  }
  if (stat.size > MAX_KEY_FILE)
    throw new UsageError(`the pseudonym key file ${file} holds more than ${MAX_KEY_FILE} bytes: is it the right file?`);
  const key = readFileSync(file, 'utf8').trim();
  if (Buffer.byteLength(key) < MIN_KEY)
    throw new UsageError(`the pseudonym key file ${file} holds less than ${MIN_KEY} characters of key`, {
      hint: 'remove it to have a new one made',
    });
  return Buffer.from(key);
}

function makeKeyFile(file: string): void {
  try {
    // Its directory too, private, as lms makes its own (`~/.config/lms` may not exist yet).
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    // Written whole beside it, then linked into place: two servers started at once with one key
    // file (as a client starts several) both read the same complete key, never an empty file.
    const whole = `${file}.${process.pid}.new`;
    writeFileSync(whole, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    try {
      linkSync(whole, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      unlinkSync(whole);
    }
  } catch (error) {
    throw new UsageError(`cannot make the pseudonym key file ${file}: ${(error as Error).message}`);
  }
}
