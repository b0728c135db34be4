// Secrets never leave the process in a trace, a log, a stored page view or a message.
// A secret is a query parameter that carries a credential (whatever its encoding: `access_token`,
// `access%5Ftoken`, `access_token[]`, `ACCESS_TOKEN`, even encoded twice), a signed URL's signature,
// the user:password part of a URL, or the one-time id in an upload URL's path.

const SECRET_PARAMS = new Set([
  'access_token',
  'api_key',
  'token',
  'refresh_token',
  'client_secret',
  'password',
  'verifier',
  // OAuth2: the authorization code in a redirect, and the PKCE verifier that redeems it.
  'code',
  'code_verifier',
  'uuid',
  // Signed storage URLs (upload targets, file downloads): the signature is the credential.
  'signature',
  'sig',
  'x-amz-signature',
  'x-amz-credential',
  'x-amz-security-token',
  'x-goog-signature',
  'x-goog-credential',
]);
export const REDACTED = '[REDACTED]';
/** The one-time id of an upload URL, however its path is escaped (`/files%5Fapi/uploads/…`). */
const UPLOAD_PATH = /(\/files(?:_|%5[Ff])api\/uploads\/)[^/?#]+/g;
const UPLOAD_PATH_IN_TEXT = /(\/files(?:_|%5[Ff])api\/uploads\/)(?!\[REDACTED\])[^/?#\s"'<>]+/g;

/** The parameter name a query key stands for: percent- and plus-decoded (repeatedly), brackets dropped, lower case. */
function baseName(rawKey: string): string {
  let key = rawKey.replace(/\+/g, ' ');
  for (let round = 0; round < 3 && key.includes('%'); round++) {
    try {
      const decoded = decodeURIComponent(key);
      if (decoded === key) break;
      key = decoded;
    } catch {
      // A malformed escape is compared as written.
      break;
    }
  }
  return key.replace(/\[.*$/s, '').trim().toLowerCase();
}

export function isSecretParam(rawKey: string): boolean {
  return SECRET_PARAMS.has(baseName(rawKey));
}

/** `user:password@` in an absolute URL, masked. */
function maskUserinfo(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#@]*@/i, `$1${REDACTED}@`);
}

/** Rewrites the query (and a `key=value` fragment) of a URL (absolute, or a path with a query) pair by pair. */
function rewrite(url: string, pair: (key: string, raw: string) => string | undefined): string {
  const pairs = (part: string) => {
    const kept: string[] = [];
    for (const raw of part.split('&')) {
      if (raw === '') continue;
      const eq = raw.indexOf('=');
      const rewritten = pair(eq === -1 ? raw : raw.slice(0, eq), raw);
      if (rewritten !== undefined) kept.push(rewritten);
    }
    return kept.join('&');
  };
  const hashAt = url.indexOf('#');
  const beforeHash = hashAt === -1 ? url : url.slice(0, hashAt);
  let hash = hashAt === -1 ? '' : url.slice(hashAt);
  // `#access_token=…` (as OAuth's implicit flow writes it) is a query in all but name.
  if (hash.includes('=')) hash = `#${pairs(hash.slice(1))}`;
  const queryAt = beforeHash.indexOf('?');
  const path = maskUserinfo(queryAt === -1 ? beforeHash : beforeHash.slice(0, queryAt)).replace(
    UPLOAD_PATH,
    `$1${REDACTED}`,
  );
  if (queryAt === -1) return path + hash;
  const query = pairs(beforeHash.slice(queryAt + 1));
  return (query ? `${path}?${query}` : path) + hash;
}

/** For traces, logs and messages: secret values replaced, so the reader still sees they were sent. */
export function redactUrl(url: string): string {
  return rewrite(url, (key, raw) => (isSecretParam(key) ? `${key}=${REDACTED}` : raw));
}

/** For what is stored (page views): secret parameters removed altogether. */
export function dropSecrets(url: string): string {
  return rewrite(url, (key, raw) => (isSecretParam(key) ? undefined : raw));
}

/**
 * A URL that is a credential as a whole (a one-time upload URL, a signed storage URL): only its
 * origin, and a placeholder for the rest.
 */
export function originOnly(url: string): string {
  try {
    const { origin } = new URL(url);
    if (origin !== 'null') return `${origin}/${REDACTED}`;
  } catch {
    // Not a URL: nothing of it is shown.
  }
  return REDACTED;
}

/**
 * Free text that may quote a URL or a credential (an error message from a library, a server's
 * error text): every URL redacted, every `secret=value` masked, `Bearer …` masked, and each of
 * the given literal secrets (the token, a one-time URL) replaced wherever it appears.
 */
export function redactText(text: string, secrets: (string | undefined)[] = []): string {
  let out = text;
  const literals = secrets
    .filter((s): s is string => typeof s === 'string' && s.length > 0)
    .sort((a, b) => b.length - a.length);
  for (const secret of literals) out = out.split(secret).join(REDACTED);
  out = out.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi, (url) => redactUrl(url));
  out = out.replace(/([A-Za-z0-9_%[\].+-]+)=([^&\s"'<>#,;]*)/g, (whole, key: string) =>
    isSecretParam(key) ? `${key}=${REDACTED}` : whole,
  );
  out = out.replace(/\b(Bearer)\s+(?!\[REDACTED\])[^\s"',;]+/gi, `$1 ${REDACTED}`);
  return out.replace(UPLOAD_PATH_IN_TEXT, `$1${REDACTED}`);
}
