// Secrets never leave the process in a trace, a log, a stored page view or a message.
// A secret is a query parameter that carries a credential (whatever its encoding: `access_token`,
// `access%5Ftoken`, `access_token[]`, `ACCESS_TOKEN`), or the one-time id in an upload URL's path.

const SECRET_PARAMS = new Set(['access_token', 'api_key', 'token', 'verifier', 'uuid']);
const REDACTED = '[REDACTED]';

/** The parameter name a query key stands for: percent- and plus-decoded, brackets dropped, lower case. */
function baseName(rawKey: string): string {
  let key = rawKey.replace(/\+/g, ' ');
  try {
    key = decodeURIComponent(key);
  } catch {
    // A malformed escape is compared as written.
  }
  return key.replace(/\[.*$/s, '').trim().toLowerCase();
}

export function isSecretParam(rawKey: string): boolean {
  return SECRET_PARAMS.has(baseName(rawKey));
}

/** Rewrites the query of a URL (absolute, or a path with a query) pair by pair. */
function rewrite(url: string, pair: (key: string, raw: string) => string | undefined): string {
  const hashAt = url.indexOf('#');
  const beforeHash = hashAt === -1 ? url : url.slice(0, hashAt);
  const hash = hashAt === -1 ? '' : url.slice(hashAt);
  const queryAt = beforeHash.indexOf('?');
  const path = (queryAt === -1 ? beforeHash : beforeHash.slice(0, queryAt)).replace(/(\/files_api\/uploads\/)[^/?#]+/g, `$1${REDACTED}`);
  if (queryAt === -1) return path + hash;
  const kept: string[] = [];
  for (const raw of beforeHash.slice(queryAt + 1).split('&')) {
    if (raw === '') continue;
    const eq = raw.indexOf('=');
    const rewritten = pair(eq === -1 ? raw : raw.slice(0, eq), raw);
    if (rewritten !== undefined) kept.push(rewritten);
  }
  return (kept.length ? `${path}?${kept.join('&')}` : path) + hash;
}

/** For traces, logs and messages: secret values replaced, so the reader still sees they were sent. */
export function redactUrl(url: string): string {
  return rewrite(url, (key, raw) => (isSecretParam(key) ? `${key}=${REDACTED}` : raw));
}

/** For what is stored (page views): secret parameters removed altogether. */
export function dropSecrets(url: string): string {
  return rewrite(url, (key, raw) => (isSecretParam(key) ? undefined : raw));
}
