// The base URL of an instance, as `lms profile add --url` takes it: checked here so that a typo is a
// usage error naming the flag and saying what was probably meant, never a profile that cannot work.
import { UsageError } from '../errors.js';
import { isLoopbackHost } from '../net.js';

/** `scheme://` at the start: without it, `localhost:4010` would parse as the scheme `localhost:`. */
const HAS_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

/**
 * A URL for `--url` (the flag's name, for messages), normalised without a trailing slash.
 * Refuses what would not work or would leak: no scheme, a scheme other than http(s), credentials,
 * a query or fragment, an API path.
 */
export function parseInstanceUrl(raw: string, flag = '--url'): URL {
  const value = raw.trim();
  if (value === '')
    throw new UsageError(`${flag} is empty`, {
      hint: `give the instance's address, e.g. ${flag} https://lms.example.edu`,
    });
  if (!HAS_SCHEME.test(value)) {
    const guess = guessWithScheme(value);
    throw new UsageError(
      `${flag} needs http:// or https://: "${value}"`,
      guess ? { hint: `did you mean ${flag} ${guess}?` } : undefined,
    );
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${flag} is not a URL: "${value}"`, { hint: `e.g. ${flag} https://lms.example.edu` });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new UsageError(`${flag} must be http(s), not ${url.protocol}`);
  if (url.username || url.password) {
    throw new UsageError(`${flag} must not contain a user name or password`, {
      hint: 'the access token is asked for separately (or read with --token-stdin)',
    });
  }
  if (url.search || url.hash)
    throw new UsageError(`${flag} must not have a query or fragment: "${value}"`, {
      hint: `did you mean ${flag} ${url.origin}${trimPath(url.pathname)}?`,
    });
  if (/\/api(\/|$)/.test(url.pathname)) {
    throw new UsageError(`${flag} is the instance's address, without the API path: "${value}"`, {
      hint: `did you mean ${flag} ${url.origin}${trimPath(url.pathname.replace(/\/api(\/.*)?$/, ''))}?`,
    });
  }
  return url;
}

/** The base URL as stored: the URL without a trailing slash. */
export function baseUrlOf(url: URL): string {
  return url.toString().replace(/\/+$/, '');
}

function trimPath(path: string): string {
  return path.replace(/\/+$/, '');
}

/** `localhost:4010` → `http://localhost:4010`; `lms.example.edu` → `https://lms.example.edu`. */
function guessWithScheme(value: string): string | undefined {
  const stripped = value.replace(/^\/+/, '').replace(/\/+$/, '');
  try {
    const { hostname } = new URL(`http://${stripped}`);
    return `${isLoopbackHost(hostname) ? 'http' : 'https'}://${stripped}`;
  } catch {
    return undefined;
  }
}
