// PKCE (RFC 7636, S256) and the state of an authorization request: random values that only this
// run knows, so a code is worth nothing to whoever sees it, and a redirect this run did not start is
// refused.
import { createHash, randomBytes } from 'node:crypto';

const base64url = (bytes: Buffer) => bytes.toString('base64url');

export interface Pkce {
  /** 43 characters of base64url: 32 random bytes, the shortest verifier the RFC allows a full 256 bits. */
  verifier: string;
  /** BASE64URL(SHA256(verifier)). */
  challenge: string;
}

export function createPkce(): Pkce {
  const verifier = base64url(randomBytes(32));
  return { verifier, challenge: challengeOf(verifier) };
}

export function challengeOf(verifier: string): string {
  return base64url(createHash('sha256').update(verifier, 'ascii').digest());
}

export function createState(): string {
  return base64url(randomBytes(16));
}
