// One error taxonomy for the whole tool. Commands and the client throw these; only the CLI's
// error handler (src/model/handle-error.ts) turns them into a message and an exit code.

export const ExitCode = {
  ok: 0,
  failure: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  rejected: 5,
  unavailable: 6,
  network: 7,
  interrupted: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

export class LmsError extends Error {
  readonly exitCode: ExitCode;
  /** What the user can do next; printed under the message. */
  readonly hint?: string;
  /** Machine-readable extras for `-o json` errors (e.g. the fields --fields may name). */
  readonly details?: Record<string, unknown>;

  constructor(
    message: string,
    exitCode: ExitCode,
    options?: { hint?: string; cause?: unknown; details?: Record<string, unknown> },
  ) {
    super(message, { cause: options?.cause });
    this.name = new.target.name;
    this.exitCode = exitCode;
    this.hint = options?.hint;
    this.details = options?.details;
  }

  toJSON(): Record<string, unknown> {
    return {
      error: this.name,
      message: this.message,
      exit_code: this.exitCode,
      ...(this.hint ? { hint: this.hint } : {}),
      ...this.details,
    };
  }
}

/** Bad flags, missing arguments, invalid input files: nothing was sent. */
export class UsageError extends LmsError {
  constructor(message: string, options?: { hint?: string; details?: Record<string, unknown> }) {
    super(message, ExitCode.usage, options);
  }
}

/** Ctrl-C, at a prompt or anywhere else: the user stopped the command. */
export class InterruptedError extends LmsError {
  constructor(message = 'interrupted', options?: { cause?: unknown }) {
    super(message, ExitCode.interrupted, options);
  }
}

/**
 * A confirmation answered "no". It exits as Ctrl-C at the same prompt does (130): either way the
 * person at the terminal stopped the command before it did anything, and a chain (`lms … && next`)
 * must stop too. Its own name tells the two apart in `-o json` errors.
 */
export class CancelledError extends InterruptedError {
  constructor(message = 'cancelled; nothing was changed') {
    super(message);
  }
}

/**
 * A bulk job that left rows undone — rows the API refused, invalid rows --skip-invalid passed over —
 * or a dry run that found rows the run would leave undone: the results are printed, then this exits 1.
 */
export class RowsFailedError extends LmsError {
  constructor(message: string, options?: { details?: Record<string, unknown> }) {
    super(message, ExitCode.failure, options);
  }
}

/** A failure that is neither the user's input nor an API answer (a missing file, a bad config). */
export class FailureError extends LmsError {
  constructor(message: string, options?: { hint?: string; cause?: unknown }) {
    super(message, ExitCode.failure, options);
  }
}

/** The request never got an answer: refused, reset, timed out, DNS. */
export class NetworkError extends LmsError {
  readonly code?: string;
  /** True when the request provably never reached the server (so even a POST may be retried). */
  readonly neverSent: boolean;

  constructor(message: string, options: { code?: string; neverSent?: boolean; cause?: unknown; hint?: string }) {
    super(message, ExitCode.network, options);
    this.code = options.code;
    this.neverSent = options.neverSent ?? false;
  }
}

/** A command that gives what a refused request would have, to a caller without the rights it needs. */
export interface Alternative {
  /** What it gives: `the people of a course of yours`. */
  gives: string;
  command: string;
}

export interface ApiErrorDetails {
  status: number;
  method: string;
  url: string;
  /** Human-readable messages parsed from the body, in order. */
  messages: string[];
  /** The parsed body, for `-o json` error output. */
  body?: unknown;
  throttled?: boolean;
  /** "user 42", when the route says what its last id names. */
  subject?: string;
  /**
   * Of a 404 of a request that names several ids, the ones found not to exist (`user sam`), each
   * read on its own after the request failed: what the 404 was about.
   */
  missing?: string[];
  /** Of a 404, the form of an id that does find the object (`sis_course_id:BIO-101` for `BIO-101`). */
  meant?: string;
  /** Of a 401 or 403 for what the caller's role may not ask, the command it can use for the same need. */
  instead?: Alternative;
  /**
   * The server refused the token itself (a 401 with WWW-Authenticate: invalid, expired or revoked),
   * rather than what its user asked for.
   */
  tokenRefused?: boolean;
  /** What to do about a refused token, from where the token came (a login, a pasted token, LMS_TOKEN). */
  tokenHint?: string;
}

/** The API answered with an error status. The exit code follows the status, never the text. */
export class ApiError extends LmsError {
  readonly status: number;
  readonly method: string;
  readonly url: string;
  readonly messages: string[];
  readonly body?: unknown;
  readonly throttled: boolean;
  readonly tokenRefused: boolean;
  readonly missing?: string[];

  constructor(details: ApiErrorDetails) {
    super(describe(details), exitCodeFor(details.status, details.throttled ?? false), { hint: hintFor(details) });
    this.status = details.status;
    this.method = details.method;
    this.url = details.url;
    this.messages = details.messages;
    this.body = details.body;
    this.throttled = details.throttled ?? false;
    this.tokenRefused = details.tokenRefused ?? false;
    if (details.missing?.length) this.missing = details.missing;
  }

  override toJSON(): Record<string, unknown> {
    return {
      ...super.toJSON(),
      status: this.status,
      method: this.method,
      url: this.url,
      messages: this.messages,
      ...(this.missing ? { not_found: this.missing } : {}),
    };
  }
}

export function exitCodeFor(status: number, throttled: boolean): ExitCode {
  if (throttled || status === 429 || status === 502 || status === 503 || status === 504) return ExitCode.unavailable;
  if (status === 401 || status === 403) return ExitCode.auth;
  if (status === 404) return ExitCode.notFound;
  if (status === 400 || status === 409 || status === 422) return ExitCode.rejected;
  return ExitCode.failure;
}

function describe({ status, method, url, messages, subject, throttled, missing }: ApiErrorDetails): string {
  const what = `${method} ${pathOf(url)}`;
  const detail = messages.length ? `: ${messages.join('; ')}` : '';
  if (throttled) return `rate limited by the server (${status}) on ${what}${detail}`;
  if (status === 404 && missing?.length) return `${inWords(missing)} not found (${what} → 404)`;
  // A POST names more than its path: the 404 may be about an id in its body (the user to enrol).
  if (status === 404 && subject && method === 'POST')
    return `not found: ${subject}, or an id the request names (${what} → 404)`;
  if (status === 404 && subject) return `${subject} not found (${what} → 404)`;
  return `${what} failed with ${status}${detail}`;
}

function hintFor({ status, throttled, tokenRefused, tokenHint, meant, instead }: ApiErrorDetails): string | undefined {
  if (status === 404 && meant) return `did you mean ${meant}?`;
  if ((status === 401 || status === 403) && instead)
    return `the token's user may not do this; for ${instead.gives}: ${instead.command}`;
  if (throttled || status === 429)
    return 'the server throttled the request; wait a little and retry, or lower --concurrency';
  if (status === 401 && tokenRefused)
    return tokenHint ?? 'the token is not valid (expired or revoked): lms auth status says where it came from';
  if (status === 401) return "the token's user may not do this";
  if (status === 403) return 'the caller lacks permission for this action';
  if (status >= 502 && status <= 504) return 'the server is unavailable; retry later';
  return undefined;
}

/** `a`, `a and b`, `a, b and c`. */
function inWords(items: readonly string[]): string {
  return items.length <= 2 ? items.join(' and ') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname + u.search;
  } catch {
    return url;
  }
}
