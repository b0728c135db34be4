// Secrets stay out of every trace line and every error message and its JSON form, whatever their
// encoding in a requested URL, and one-time upload URLs and file-verifier uuids count as secrets.
import { describe, expect, it } from 'vitest';
import { ApiClient, type ClientOptions } from '../../src/client/client.js';
import { uploadFile } from '../../src/client/upload.js';
import { LmsError, NetworkError } from '../../src/errors.js';
import { RateLimiter } from '../../src/transport/limiter.js';
import { resilient } from '../../src/transport/resilient.js';
import type { ApiRequest, ApiResponse, Transport } from '../../src/transport/types.js';

const BASE = 'https://lms.example.edu';
const TOKEN = 'TOKEN-9f8e7d';
const SECRET = 'S3cr3tV4lue';

/** Everything a user could see of a run: trace lines, and the error's message, hint and JSON. */
function visible(lines: string[], error: unknown): string {
  const e = error as LmsError | Error | undefined;
  const parts = [...lines];
  if (e instanceof Error) parts.push(e.message, String(e.stack));
  if (e instanceof LmsError) parts.push(e.hint ?? '', JSON.stringify(e.toJSON()));
  return parts.join('\n');
}

function expectClean(text: string, secrets: string[]): void {
  for (const secret of secrets) expect(text, `"${secret}" leaked`).not.toContain(secret);
}

/** A client whose transport answers from `answer`, traced, optionally behind the retrying transport. */
function traced(
  answer: (req: ApiRequest, n: number) => ApiResponse | Promise<ApiResponse>,
  options: { resilient?: boolean; extra?: Partial<ClientOptions> } = {},
) {
  const lines: string[] = [];
  const trace = (l: string) => lines.push(l);
  let n = 0;
  let transport: Transport = async (req) => answer(req, n++);
  if (options.resilient) {
    transport = resilient(transport, {
      limiter: new RateLimiter({ maxConcurrency: 2 }),
      trace,
      sleep: async () => undefined,
      maxAttempts: 3,
    });
  }
  const client = new ApiClient({ baseUrl: BASE, token: TOKEN, transport, trace, ...options.extra });
  return { client, lines };
}

const reply = (status: number, body = '{}', headers: Record<string, string> = {}): ApiResponse => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body,
});

/** A transport failure whose message quotes the whole request, as some libraries' do. */
const quoting = (req: ApiRequest, code = 'ECONNRESET') =>
  new NetworkError(`${code} while fetching ${req.url} (${req.headers.authorization ?? 'no auth'})`, { code });

const ENCODINGS = [
  `access_token=${SECRET}`,
  `access%5Ftoken=${SECRET}`,
  `access%5ftoken=${SECRET}`,
  `access_token[]=${SECRET}`,
  `access_token%5B%5D=${SECRET}`,
  `access_token[x]=${SECRET}`,
  `ACCESS_TOKEN=${SECRET}`,
  `access%255Ftoken=${SECRET}`,
  `api_key=${SECRET}`,
  `api%5Fkey=${SECRET}`,
  `API_KEY[]=${SECRET}`,
];

describe.each(ENCODINGS)('a requested URL with %s', (param) => {
  const path = `/api/v1/users/self?per_page=5&${param}`;

  it('is masked in the trace of a request, its answer and a redirect that repeats it', async () => {
    const { client, lines } = traced((_r, n) =>
      n === 0 ? reply(302, '', { location: `${BASE}/api/v1/users/1?${param}` }) : reply(200),
    );
    await client.send('GET', path);
    expect(lines).toHaveLength(4);
    expect(lines[0]).toContain('per_page=5');
    expect(lines[0]).toContain('[REDACTED]');
    expectClean(visible(lines, undefined), [SECRET, TOKEN]);
  });

  it('is masked in an API error, its message and its JSON', async () => {
    const { client, lines } = traced(() =>
      reply(401, JSON.stringify({ errors: [{ message: `Invalid access token ${TOKEN} for ${BASE}${path}` }] })),
    );
    const error = await client.send('GET', path).catch((e: unknown) => e);
    expect((error as LmsError).exitCode).toBe(3);
    expectClean(visible(lines, error), [SECRET, TOKEN]);
  });

  it('is masked in a network error that quotes the URL and the Authorization header', async () => {
    const { client, lines } = traced((req) => {
      throw quoting(req);
    });
    const error = await client.send('GET', path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(lines.at(-1)).toMatch(/^✗ GET /);
    expectClean(visible(lines, error), [SECRET, TOKEN]);
  });

  it('is masked in an error whose message is only a getter (a DOMException of a timed-out request)', async () => {
    const { client, lines } = traced((req) => {
      throw new DOMException(`timed out fetching ${req.url}`, 'TimeoutError');
    });
    const error = await client.send('GET', path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DOMException);
    expect((error as Error).message).toMatch(/^timed out fetching /);
    expectClean(visible(lines, error), [SECRET, TOKEN]);
  });

  it('is masked in retry lines and in an outcome-unknown error', async () => {
    const get = traced(
      (req, n) => {
        if (n === 0) throw quoting(req);
        return n === 1 ? reply(503) : reply(200);
      },
      { resilient: true },
    );
    await get.client.send('GET', path);
    expect(get.lines.filter((l) => l.startsWith('↻'))).toHaveLength(2);
    expectClean(visible(get.lines, undefined), [SECRET, TOKEN]);

    const post = traced(
      (req) => {
        throw quoting(req);
      },
      { resilient: true },
    );
    const error = await post.client.send('POST', path, { body: { a: 1 } }).catch((e: unknown) => e);
    expect((error as Error).message).toContain('may or may not have been applied');
    expectClean(visible(post.lines, error), [SECRET, TOKEN]);
  });
});

describe('uploads', () => {
  const file = { name: 'a.txt', data: new TextEncoder().encode('hi'), contentType: 'text/plain' };
  const attachment = { id: 9, display_name: 'a.txt' };
  const ONE_TIME = 'OneTime7c1d';
  const SIGNATURE = 'Sig0a9b8c';
  const UUID = 'Uuid5e6f7a';
  const SECRETS = [ONE_TIME, SIGNATURE, UUID, TOKEN];

  const targets: [string, string, string][] = [
    [
      'signed storage on another host',
      `https://storage.example.net/bucket/${ONE_TIME}?X-Amz-Signature=${SIGNATURE}&X-Amz-Credential=${SIGNATURE}`,
      'https://storage.example.net/[REDACTED]',
    ],
    ['the API host', `${BASE}/files_api/uploads/${ONE_TIME}`, `${BASE}/[REDACTED]`],
  ];
  const confirms: [string, number, string][] = [
    ['a create_success URL with a uuid', 201, `${BASE}/api/v1/files/9/create_success?uuid=${UUID}`],
    ['a 303 to a one-time URL on another host', 303, `https://storage.example.net/confirm/${ONE_TIME}?uuid=${UUID}`],
  ];

  describe.each(targets)('to %s', (_what, uploadUrl, shown) => {
    it.each(confirms)(
      'confirmed at %s: the trace shows only origins and placeholders',
      async (_c, status, location) => {
        const { client, lines } = traced((_r, n) =>
          n === 0 ? reply(status, '', { location }) : reply(200, JSON.stringify(attachment)),
        );
        expect(await uploadFile(client, { upload_url: uploadUrl, upload_params: {} }, file)).toEqual(attachment);
        expect(lines[0]).toBe(`→ POST ${shown}`);
        expectClean(visible(lines, undefined), SECRETS);
      },
    );

    it('fails at step 2 with an API error that shows no secret', async () => {
      const { client, lines } = traced(() => reply(400, JSON.stringify({ message: `bad upload ${uploadUrl}` })));
      const error = await uploadFile(client, { upload_url: uploadUrl, upload_params: {} }, file).catch(
        (e: unknown) => e,
      );
      expect((error as LmsError).exitCode).toBe(5);
      expectClean(visible(lines, error), SECRETS);
    });

    it('fails at step 2 with a network error that shows no secret, retries included', async () => {
      const { client, lines } = traced(
        (req, n) => (n === 0 ? reply(429, '{}', { 'retry-after': '0' }) : Promise.reject(quoting(req))),
        { resilient: true },
      );
      const error = await uploadFile(client, { upload_url: uploadUrl, upload_params: {} }, file).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(NetworkError);
      expect(lines.some((l) => l.startsWith(`↻ retry 2/3 of POST ${shown}`))).toBe(true);
      expectClean(visible(lines, error), SECRETS);
    });
  });
});

describe('the refusals themselves', () => {
  it('name origins only', async () => {
    const { client, lines } = traced((_r, n) =>
      reply(
        200,
        '[]',
        n === 0 ? { link: `<https://evil.example.net/p?access_token=${SECRET}&page=2>; rel="next"` } : {},
      ),
    );
    const pages = async () => {
      for await (const _ of client.pages('/api/v1/courses')) void _;
    };
    const refusal = await pages().catch((e: unknown) => e);
    expect((refusal as Error).message).toContain('https://evil.example.net');
    const absolute = await client
      .send('GET', `https://evil.example.net/x?access_token=${SECRET}`)
      .catch((e: unknown) => e);
    const notHttp = await client
      .send('GET', `ftp://evil.example.net/x?access_token=${SECRET}`)
      .catch((e: unknown) => e);
    for (const e of [refusal, absolute, notHttp]) expectClean(visible(lines, e), [SECRET, TOKEN]);
  });
});
