// The server process's signature on what it hands out and takes back (confirmation
// tokens): an HMAC with a key of its own, made at start and never kept, so nothing another process
// or another hand made is taken.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const sign = (body: string, key: Buffer) => createHmac('sha256', key).update(body).digest('base64url');

/** Whether `mac` is this key's signature of `body`. */
export function signedBy(body: string, mac: string, key: Buffer): boolean {
  const expected = Buffer.from(sign(body, key));
  const got = Buffer.from(mac);
  return expected.length === got.length && timingSafeEqual(expected, got);
}
