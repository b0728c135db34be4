// Developer keys, authorization codes and OAuth tokens. A code or token goes in and is looked up
// as plaintext here and nowhere is it stored as such: every statement sees only its SHA-256.
import type { Db } from '../../db/open.js';
import { all, insert, one, run } from '../../db/statements.js';
import { crypto } from '../../kit.js';

/**
 * Real instances name a key (and a user, in a token answer) by a global id: its shard (1 here) times 10^13, plus its
 * own id.
 */
const GLOBAL_ID_OFFSET = 10_000_000_000_000;
export const globalIdOf = (id: number) => String(GLOBAL_ID_OFFSET + id);

export interface DeveloperKeyRow {
  id: number;
  account_id: number;
  name: string;
  client_type: 'confidential' | 'public';
  /** The secret of a confidential key; a public one has none. */
  api_key: string | null;
  redirect_uris: string;
  workflow_state: string;
  created_at: string;
}

export interface OAuthTokenRow {
  id: number;
  developer_key_id: number;
  user_id: number;
  scopes: string;
  expires_at: string;
  workflow_state: string;
  created_at: string;
  updated_at: string;
}

export interface CodeRow {
  developer_key_id: number;
  user_id: number;
  redirect_uri: string;
  code_challenge: string;
  scopes: string;
  expires_at: string;
  used_at: string | null;
  token_id: number | null;
}

/**
 * A time as stored: ISO with milliseconds, so that times compare as text. The mock's clock is
 * LMS_MOCK_NOW as given (`…T12:00:00Z`), which would not compare with `…T12:00:00.000Z`.
 */
const instant = (t: string) => new Date(t).toISOString();

/** What is stored of a code or token: its SHA-256, hex. */
export function digest(secret: string): string {
  return crypto().createHash('sha256').update(secret, 'utf8').digest('hex');
}

// ---- developer keys ---------------------------------------------------------------------------

/** A confidential key with its secret (`apiKey`), or a public one without (`apiKey: null`). */
export function addDeveloperKey(
  db: Db,
  k: { id?: number; account: number; name: string; apiKey: string | null; redirectUris: string[]; now: string },
): number {
  return insert(
    db,
    'INSERT INTO developer_keys (id, account_id, name, client_type, api_key, redirect_uris, created_at) VALUES (?, ' +
      '?, ?, ?, ?, ?, ?)',
    k.id ?? null,
    k.account,
    k.name,
    k.apiKey === null ? 'public' : 'confidential',
    k.apiKey,
    JSON.stringify(k.redirectUris),
    k.now,
  );
}

export const clientIdOf = (key: Pick<DeveloperKeyRow, 'id'>) => globalIdOf(key.id);

/** The active key a client_id names: its global id, or (as real instances also accept) its own id. */
export function developerKeyByClientId(db: Db, clientId: string): DeveloperKeyRow | undefined {
  if (!/^\d{1,18}$/.test(clientId)) return undefined;
  const n = Number(clientId);
  const id = n > GLOBAL_ID_OFFSET ? n - GLOBAL_ID_OFFSET : n;
  if (!Number.isSafeInteger(id)) return undefined;
  return one<DeveloperKeyRow>(db, `SELECT * FROM developer_keys WHERE id = ? AND workflow_state = 'active'`, id);
}

export function developerKeys(db: Db): DeveloperKeyRow[] {
  return all<DeveloperKeyRow>(db, `SELECT * FROM developer_keys WHERE workflow_state = 'active' ORDER BY id`);
}

// ---- authorization codes ----------------------------------------------------------------------

export function addCode(
  db: Db,
  c: {
    code: string;
    key: number;
    user: number;
    redirectUri: string;
    challenge: string;
    scopes: string;
    expiresAt: string;
    now: string;
  },
): void {
  // Codes long expired go as new ones are made; a used code stays until then, so a second try at
  // it is recognised (and what it issued revoked) rather than taken for a code never seen.
  run(db, `DELETE FROM oauth_codes WHERE expires_at < ?`, instant(c.now));
  insert(
    db,
    'INSERT INTO oauth_codes (crypted_code, developer_key_id, user_id, redirect_uri, code_challenge, scopes, ' +
      'expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    digest(c.code),
    c.key,
    c.user,
    c.redirectUri,
    c.challenge,
    c.scopes,
    instant(c.expiresAt),
  );
}

export function codeByValue(db: Db, code: string): CodeRow | undefined {
  return one<CodeRow>(
    db,
    'SELECT developer_key_id, user_id, redirect_uri, code_challenge, scopes, expires_at, used_at, token_id FROM ' +
      'oauth_codes WHERE crypted_code = ?',
    digest(code),
  );
}

/** The code can no longer be exchanged; `token` is what it issued, if anything. */
export function spendCode(db: Db, code: string, now: string, token: number | null): void {
  run(db, `UPDATE oauth_codes SET used_at = ?, token_id = ? WHERE crypted_code = ?`, now, token, digest(code));
}

// ---- tokens -----------------------------------------------------------------------------------

export function addOAuthToken(
  db: Db,
  t: { key: number; user: number; token: string; refreshToken: string; scopes: string; expiresAt: string; now: string },
): number {
  return insert(
    db,
    'INSERT INTO oauth_tokens (developer_key_id, user_id, crypted_token, crypted_refresh_token, scopes, expires_at, ' +
      'created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    t.key,
    t.user,
    digest(t.token),
    digest(t.refreshToken),
    t.scopes,
    instant(t.expiresAt),
    t.now,
    t.now,
  );
}

const TOKEN_COLUMNS = `id, developer_key_id, user_id, scopes, expires_at, workflow_state, created_at, updated_at`;

/** The live (not revoked) token an access token is, expired or not. */
export function tokenByAccessToken(db: Db, token: string): OAuthTokenRow | undefined {
  return one<OAuthTokenRow>(
    db,
    `SELECT ${TOKEN_COLUMNS} FROM oauth_tokens WHERE crypted_token = ? AND workflow_state = 'active'`,
    digest(token),
  );
}

/** The live token a refresh token belongs to; its access token may have expired long ago. */
export function tokenByRefreshToken(db: Db, refreshToken: string): OAuthTokenRow | undefined {
  return one<OAuthTokenRow>(
    db,
    `SELECT ${TOKEN_COLUMNS} FROM oauth_tokens WHERE crypted_refresh_token = ? AND workflow_state = 'active'`,
    digest(refreshToken),
  );
}

/** Whose an access token is, while it is live and not expired at `now`. */
export function oauthTokenOwner(db: Db, token: string, now: string): number | undefined {
  return one<{ user_id: number }>(
    db,
    `SELECT user_id FROM oauth_tokens WHERE crypted_token = ? AND workflow_state = 'active' AND expires_at > ?`,
    digest(token),
    instant(now),
  )?.user_id;
}

/** A new access token on the same grant (the refresh token stays), as a refresh gives. */
export function replaceAccessToken(db: Db, id: number, token: string, expiresAt: string, now: string): void {
  run(
    db,
    `UPDATE oauth_tokens SET crypted_token = ?, expires_at = ?, updated_at = ? WHERE id = ?`,
    digest(token),
    instant(expiresAt),
    now,
    id,
  );
}

/** The access token and its refresh token stop working. */
export function revokeToken(db: Db, id: number, now: string): void {
  run(db, `UPDATE oauth_tokens SET workflow_state = 'deleted', updated_at = ? WHERE id = ?`, now, id);
}
