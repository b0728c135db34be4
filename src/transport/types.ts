// The seam between the client and whatever answers it: a real instance over HTTP, or the mock.
// The client hands over a fully encoded request, exactly as it would go on the wire.

/**
 * Every answer of the mock names the instance state (the seeded database) that gave it; bulk jobs bind their journals
 * to it.
 */
export const INSTANCE_HEADER = 'x-lms-mock-instance';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface ApiRequest {
  method: HttpMethod;
  url: string;
  headers: Record<string, string>;
  body?: Uint8Array | string;
  /**
   * What traces and error messages may show for `url`: secrets masked, and only the origin of a
   * URL that is a credential itself (an upload target). Set by the client; transports that quote
   * the request use it rather than `url`.
   */
  traceUrl?: string;
  /**
   * Whether sending it twice does what sending it once does. By default GET, PUT and DELETE are;
   * a PUT that also adds something (a grade with a comment) says it is not, so a request whose
   * outcome is unknown is reported rather than resent.
   */
  idempotent?: boolean;
  /** The read a dry run makes to tell whether the write it stops at would succeed (dry-run.ts). */
  dryRunCheck?: true;
  /**
   * When (epoch ms) the answer must have come by, whichever try brings it: the call's one deadline
   * (./resilient.ts). A transport's own timeout of a try may end it sooner, never later.
   */
  deadline?: number;
}

export interface ApiResponse {
  status: number;
  /** Lower-case header names. */
  headers: Record<string, string>;
  body: Uint8Array | string;
  /**
   * The JSON body as a value, when the transport holds it already (the in-process mock): readers
   * take it rather than parse `body`, which is its JSON text. A listing in process then neither
   * writes nor parses each page's text.
   */
  json?: unknown;
}

export type Transport = (req: ApiRequest) => Promise<ApiResponse>;

export function bodyText(body: Uint8Array | string | undefined): string {
  if (body === undefined) return '';
  return typeof body === 'string' ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
}

/** Throttling is a 429, or a 403 whose body says so; any other 403 is about permission. */
export function isThrottled(status: number, text: string): boolean {
  return status === 429 || (status === 403 && /rate limit exceeded/i.test(text));
}

/** A span of milliseconds in seconds as messages give it: whole where it is whole, else to a tenth. */
export const secondsOf = (ms: number) => String(Math.round(ms / 100) / 10);
