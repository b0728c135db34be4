import { describe, expect, it } from 'vitest';
import { ApiClient, type ClientOptions } from '../../src/client/client.js';
import type { Params } from '../../src/client/encode.js';
import { uploadFile } from '../../src/client/upload.js';
import { ApiError, ExitCode, FailureError, UsageError } from '../../src/errors.js';
import { allRoutes } from '../../src/spec/routes.js';
import type { ApiRequest, ApiResponse } from '../../src/transport/types.js';
import { freshMock, TOKENS } from '../helpers/mock-client.js';

const routes = allRoutes();

const BASE = 'https://lms.example.edu';
const TOKEN = 'secret-token-123';

type Reply = Partial<ApiResponse> & { status: number };

/** A transport that records every request and answers from a function of it. */
function fake(answer: (req: ApiRequest, n: number) => Reply = () => ({ status: 200, body: '{}' })) {
  const requests: ApiRequest[] = [];
  /** What the client allows traces and messages to show of each request's URL. */
  const shown: (string | undefined)[] = [];
  const transport = async ({ traceUrl, ...req }: ApiRequest): Promise<ApiResponse> => {
    requests.push({ ...req, headers: { ...req.headers } });
    shown.push(traceUrl);
    const r = answer(req, requests.length - 1);
    return { headers: { 'content-type': 'application/json' }, body: '', ...r };
  };
  return { requests, shown, transport };
}

function client(transport: ClientOptions['transport'], extra: Partial<ClientOptions> = {}): ApiClient {
  return new ApiClient({ baseUrl: BASE, token: TOKEN, transport, ...extra });
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

const jsonBody = (v: unknown) => JSON.stringify(v);

describe('paginate', () => {
  /** Three pages: a relative-looking first page, then a bookmark page on an absolute URL, then the last. */
  const pages = () =>
    fake((_req, n) => {
      if (n === 0)
        return {
          status: 200,
          body: jsonBody([{ id: 1 }, { id: 2 }]),
          headers: {
            link:
              `<${BASE}/api/v1/accounts/1/users?page=bookmark:WzJd&per_page=100>; rel="next", <${BASE}` +
              '/api/v1/accounts/1/users?page=first&per_page=100>; rel="first"',
          },
        };
      if (n === 1)
        return {
          status: 200,
          body: jsonBody([{ id: 3 }, { id: 4 }]),
          headers: { link: `<${BASE}/api/v1/accounts/1/users?page=bookmark:WzRd>; rel="next"` },
        };
      return {
        status: 200,
        body: jsonBody([{ id: 5 }]),
        headers: { link: `<${BASE}/api/v1/accounts/1/users?page=first&per_page=100>; rel="first"` },
      };
    });

  it('asks for per_page=100 and follows rel="next" exactly as given', async () => {
    const { requests, transport } = pages();
    const items = await collect(
      client(transport).paginate<{ id: number }>('users.list', { account_id: 1, search_term: 'jo' }),
    );
    expect(items.map((i) => i.id)).toEqual([1, 2, 3, 4, 5]);
    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      `GET ${BASE}/api/v1/accounts/1/users?search_term=jo&per_page=100`,
      `GET ${BASE}/api/v1/accounts/1/users?page=bookmark:WzJd&per_page=100`,
      `GET ${BASE}/api/v1/accounts/1/users?page=bookmark:WzRd`,
    ]);
  });

  it.each<[string, Partial<ClientOptions>, Record<string, unknown>, string]>([
    ['the client page size', { perPage: 5 }, {}, 'per_page=5'],
    ['a per_page parameter over the client page size', { perPage: 5 }, { per_page: 7 }, 'per_page=7'],
  ])('uses %s', async (_what, options, params, expected) => {
    const { requests, transport } = fake(() => ({ status: 200, body: '[]' }));
    await collect(client(transport, options).paginate('users.list', { account_id: 1, ...params }));
    expect(requests.map((r) => r.url)).toEqual([`${BASE}/api/v1/accounts/1/users?${expected}`]);
  });

  it.each([
    [2, 1],
    [3, 2],
    [4, 2],
    [5, 3],
  ])('stops at a limit of %i after %i page(s)', async (limit, fetched) => {
    const { requests, transport } = pages();
    const items = await collect(client(transport).paginate<{ id: number }>('users.list', { account_id: 1 }, { limit }));
    expect(items.map((i) => i.id)).toEqual([1, 2, 3, 4, 5].slice(0, limit));
    expect(requests).toHaveLength(fetched);
  });

  it('reads a single object page as one item; a 204 or an HTML page is not an empty list', async () => {
    const one = fake(() => ({ status: 200, body: '{"id":9}' }));
    expect(await collect(client(one.transport).paginate('courses.list'))).toEqual([{ id: 9 }]);
    const none = fake(() => ({ status: 204 }));
    await expect(collect(client(none.transport).paginate('courses.list'))).rejects.toThrow(
      `GET ${BASE}/api/v1/courses?per_page=100: the instance answered 204 with no body, where the API returns one; ` +
        'nothing was read',
    );
    const login = fake(() => ({
      status: 200,
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: '<html>Sign in</html>',
    }));
    await expect(collect(client(login.transport).paginate('courses.list'))).rejects.toThrow(
      'answered 200 with text/html that is not JSON',
    );
  });

  it('throws an ApiError when a later page fails', async () => {
    const { transport } = fake((_r, n) =>
      n === 0
        ? { status: 200, body: '[{"id":1}]', headers: { link: `<${BASE}/next>; rel="next"` } }
        : { status: 500, body: '{"errors":[{"message":"boom"}]}' },
    );
    const seen: unknown[] = [];
    const error = await (async () => {
      for await (const x of client(transport).paginate('courses.list')) seen.push(x);
    })().catch((e: unknown) => e);
    expect(seen).toEqual([{ id: 1 }]);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).messages).toEqual(['boom']);
  });

  it('pages the mock to the end with as_user_id sent once on every page', async () => {
    const mock = freshMock();
    const requests: string[] = [];
    const c = new ApiClient({
      baseUrl: 'http://lms.mock',
      token: TOKENS.admin,
      perPage: 2,
      asUser: '1',
      transport: (req) => {
        requests.push(req.url);
        return mock.handler(req);
      },
    });
    const users = await collect(c.paginate<{ id: number }>('users.list', { account_id: 1 }));
    expect(users).toHaveLength(13);
    // First the one check that the user exists, without as_user_id; then 7 pages with it.
    expect(requests).toHaveLength(8);
    expect(requests[0]).toBe('http://lms.mock/api/v1/users/1');
    for (const url of requests.slice(1)) expect(new URL(url).searchParams.getAll('as_user_id')).toEqual(['1']);
  });
});

describe('lists that end', () => {
  const page = (items: unknown[], next?: string): Reply => ({
    status: 200,
    body: jsonBody(items),
    headers: next ? { link: `<${next}>; rel="next"` } : {},
  });
  const USERS = `${BASE}/api/v1/accounts/1/users`;

  it.each<[string, (req: ApiRequest, n: number) => Reply, number[], string]>([
    [
      'a next link back to the first page',
      (_r, n) => (n === 0 ? page([{ id: 1 }], `${USERS}?page=2`) : page([{ id: 2 }], `${USERS}?per_page=100`)),
      [1, 2],
      `${USERS}?per_page=100 links back to a page already read`,
    ],
    [
      'a page that links to itself',
      (_r, n) => (n === 0 ? page([{ id: 1 }], `${USERS}?page=2`) : page([{ id: n + 1 }], `${USERS}?page=2`)),
      [1, 2],
      `${USERS}?page=2 links back to a page already read`,
    ],
    [
      'a server that ignores the page asked for',
      (_r, n) => page([{ id: 1 }, { id: 2 }], `${USERS}?page=${n + 2}`),
      [1, 2],
      `${USERS}?page=2 answered the same items as the page before it`,
    ],
  ])('stops with an error, after what was read, on %s', async (_name, answer, ids, message) => {
    const { requests, transport } = fake(answer);
    const seen: number[] = [];
    const error = await (async () => {
      for await (const user of client(transport).paginate<{ id: number }>('users.list', { account_id: 1 }))
        seen.push(user.id);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FailureError);
    expect((error as FailureError).exitCode).toBe(ExitCode.failure);
    expect((error as Error).message).toContain(message);
    expect(seen).toEqual(ids);
    expect(requests.length).toBeLessThan(4);
  });

  it('keeps the token out of the message when the repeated link carries one', async () => {
    const { transport } = fake((_r, n) => page([{ id: n }], `${USERS}?page=2&access_token=${TOKEN}`));
    const error = await collect(client(transport).paginate('users.list', { account_id: 1 })).catch((e: unknown) => e);
    expect((error as Error).message).not.toContain(TOKEN);
  });

  it('reads every page of a list the route table does not page (avatars)', async () => {
    const AVATARS = `${BASE}/api/v1/users/self/avatars`;
    const { requests, transport } = fake((_r, n) =>
      n < 2 ? page([{ token: `t${n}a` }, { token: `t${n}b` }], `${AVATARS}?page=${n + 2}`) : page([{ token: 't2a' }]),
    );
    const avatars = await client(transport).ops.users.avatars({ user_id: 'self' });
    expect(avatars).toEqual([{ token: 't0a' }, { token: 't0b' }, { token: 't1a' }, { token: 't1b' }, { token: 't2a' }]);
    expect(requests.map((r) => r.url)).toEqual([AVATARS, `${AVATARS}?page=2`, `${AVATARS}?page=3`]);
  });

  it('ends a non-paged list whose next link repeats, too', async () => {
    const AVATARS = `${BASE}/api/v1/users/self/avatars`;
    const { transport } = fake(() => page([{ token: 'same' }], `${AVATARS}?page=2`));
    await expect(client(transport).ops.users.avatars({ user_id: 'self' })).rejects.toThrow(
      /links back to a page already read|same items/,
    );
  });
});

describe('requests', () => {
  it('adds as_user_id to every request, whatever the method', async () => {
    const { requests, transport } = fake((req) => ({ status: 200, body: req.method === 'GET' ? '[]' : '{}' }));
    const c = client(transport, { asUser: '7' });
    await c.request('users.get', { id: 'self' });
    await c.request('users.update', { id: 5, user: { name: 'Z' } });
    await c.request('users.delete', { account_id: 1, id: 5 });
    await collect(c.paginate('courses.list'));
    await c.send('POST', `${BASE}/absolute?x=1`);
    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      `GET ${BASE}/api/v1/users/7`,
      `GET ${BASE}/api/v1/users/self?as_user_id=7`,
      `PUT ${BASE}/api/v1/users/5?as_user_id=7`,
      `DELETE ${BASE}/api/v1/accounts/1/users/5?as_user_id=7`,
      `GET ${BASE}/api/v1/courses?per_page=100&as_user_id=7`,
      `POST ${BASE}/absolute?x=1&as_user_id=7`,
    ]);
  });

  it('sends GET parameters as a query and PUT parameters as a form body', async () => {
    const { requests, transport } = fake();
    const c = client(transport, { userAgent: 'lms/test' });
    await c.request('users.get', { id: 3, include: ['email'] });
    await c.request('users.update', { id: 3, user: { short_name: 'Z' }, ids: [1, 2] });
    await c.send('POST', '/api/v1/nothing');
    expect(requests[0]).toEqual({
      method: 'GET',
      url: `${BASE}/api/v1/users/3?include%5B%5D=email`,
      headers: { accept: 'application/json', 'user-agent': 'lms/test', authorization: `Bearer ${TOKEN}` },
      body: undefined,
    });
    expect(requests[1]).toEqual({
      method: 'PUT',
      url: `${BASE}/api/v1/users/3`,
      headers: {
        accept: 'application/json',
        'user-agent': 'lms/test',
        authorization: `Bearer ${TOKEN}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'user%5Bshort_name%5D=Z&ids%5B%5D=1&ids%5B%5D=2',
    });
    expect(requests[2].headers['content-length']).toBe('0');
    expect(requests[2].body).toBeUndefined();
  });

  it('sends JSON when an operation asks for it, and multipart when a file is present', async () => {
    const { requests, transport } = fake();
    const c = client(transport);
    await c.request('users.update', { id: 3, user: { name: 'Jo' } }, 'json');
    expect(requests[0].headers['content-type']).toBe('application/json');
    expect(JSON.parse(String(requests[0].body))).toEqual({ user: { name: 'Jo' } });
    await c.send('POST', '/up', { body: { file: new File(['x'], 'x.txt') } });
    expect(requests[1].headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
  });

  it('sends no Authorization without a token', async () => {
    const { requests, transport } = fake();
    await client(transport, { token: undefined }).request('users.get', { id: 1 });
    expect(requests[0].headers.authorization).toBeUndefined();
  });

  it('strips a trailing slash from the base URL', async () => {
    const { requests, transport } = fake();
    const c = client(transport, { baseUrl: `${BASE}//` });
    expect(c.baseUrl).toBe(BASE);
    await c.send('GET', 'api/v1/x');
    expect(requests[0].url).toBe(`${BASE}/api/v1/x`);
  });
});

describe('operations and context variants', () => {
  it.each<[string, Params, string]>([
    ['a group', { group_id: 3, title: 'x' }, 'POST /api/v1/groups/3/discussion_topics'],
    ['a course', { course_id: 4, title: 'x' }, 'POST /api/v1/courses/4/discussion_topics'],
    ['a collection item', { collection_item_id: 5, title: 'x' }, 'POST /api/v1/collection_items/5/discussion_topics'],
  ])('picks the %s variant from the ids given', async (_what, params, expected) => {
    const { requests, transport } = fake();
    await client(transport).request('discussions.createTopic', params);
    expect(`${requests[0].method} ${requests[0].url.replace(BASE, '')}`).toBe(expected);
    expect(requests[0].body).toBe('title=x');
  });

  it('takes an explicit route id', async () => {
    const { requests, transport } = fake();
    await client(transport).request('discussions.getTopic@groups', { group_id: 3, topic_id: 9 });
    expect(requests[0].url).toBe(`${BASE}/api/v1/groups/3/discussion_topics/9`);
  });

  it.each<[string, Params, string]>([
    [
      'no context id',
      { title: 'x' },
      'discussions.createTopic needs exactly one context of course_id, group_id, collection_item_id',
    ],
    [
      'an empty context id',
      { group_id: '', title: 'x' },
      'discussions.createTopic needs exactly one context of course_id, group_id, collection_item_id',
    ],
    [
      'a null context id',
      { course_id: null, title: 'x' },
      'discussions.createTopic needs exactly one context of course_id, group_id, collection_item_id',
    ],
    [
      'two contexts',
      { course_id: 1, group_id: 2, title: 'x' },
      'discussions.createTopic needs exactly one context of course_id, group_id, collection_item_id, not course_id ' +
        'and group_id',
    ],
  ])('throws a UsageError for %s, sending nothing', async (_what, params, message) => {
    const { requests, transport } = fake();
    const error = await client(transport)
      .request('discussions.createTopic', params)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).exitCode).toBe(2);
    expect((error as UsageError).message).toBe(message);
    expect(requests).toHaveLength(0);
  });

  it.each<[string, Params, string]>([
    ['an account, not the global context', { account_id: 7 }, 'GET /api/v1/accounts/7/root_outcome_group'],
    ['the global context, named', { global: true }, 'GET /api/v1/global/root_outcome_group'],
    [
      'a course',
      { course_id: 'sis_course_id:BIO-101' },
      'GET /api/v1/courses/sis_course_id:BIO-101/root_outcome_group',
    ],
  ])('sends the context it is given: %s', async (_what, params, expected) => {
    const { requests, transport } = fake(() => ({ status: 200, body: '{}' }));
    await client(transport).request('outcomes.rootGroup', params);
    expect(`${requests[0].method} ${requests[0].url.replace(BASE, '')}`).toBe(expected);
  });

  it('refuses an outcome call that names no context rather than guessing the global one', async () => {
    const { requests, transport } = fake();
    await expect(client(transport).request('outcomes.rootGroup', {})).rejects.toThrow(
      'outcomes.rootGroup needs exactly one context of global: true, account_id, course_id',
    );
    await expect(client(transport).request('outcomes.rootGroup', { global: true, account_id: 7 })).rejects.toThrow(
      UsageError,
    );
    expect(requests).toHaveLength(0);
  });

  it('throws a UsageError for a missing id of a single-variant route', async () => {
    const { transport } = fake();
    await expect(client(transport).request('users.get', {})).rejects.toThrow(new UsageError('users.get needs id'));
  });

  it('percent-encodes path ids, keeping the SIS prefix readable', async () => {
    const { requests, transport } = fake();
    await client(transport).request('courses.get', { id: 'sis_course_id:CS/101' });
    expect(requests[0].url).toBe(`${BASE}/api/v1/courses/sis_course_id:CS%2F101`);
  });

  it('names the missing resource in a 404', async () => {
    const { transport } = fake(() => ({
      status: 404,
      body: '{"errors":[{"message":"The specified resource does not exist."}]}',
    }));
    const error = (await client(transport)
      .request('users.get', { id: 42 })
      .catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe('user 42 not found (GET /api/v1/users/42 → 404)');
    expect(error.exitCode).toBe(4);
  });
});

describe('operations', () => {
  it('has one call per operation a client sends, named after its route, paged exactly when the route is', async () => {
    const { requests, transport } = fake(() => ({ status: 200, body: '[]' }));
    const ops = client(transport).ops as unknown as Record<string, Record<string, (params: Params) => unknown>>;
    const expected = new Map<string, boolean>();
    for (const r of routes) if (r.client) expected.set(r.operation, r.paginated);
    const got = new Map<string, boolean>();
    for (const [area, calls] of Object.entries(ops)) {
      for (const [name, call] of Object.entries(calls)) {
        // The path ids of the operation's first route (its first context, for one with several).
        const r = routes.find((x) => x.operation === `${area}.${name}`)!;
        const made = call({
          ...Object.fromEntries(r.params.map((p) => [p, 1])),
          ...(r.context === 'global' && { global: true }),
        });
        const paged = Symbol.asyncIterator in Object(made);
        got.set(`${area}.${name}`, paged);
        await (paged ? (made as AsyncGenerator).next() : made);
      }
    }
    expect(got).toEqual(expected);
    expect(requests).toHaveLength(expected.size);
  });

  it("builds an area's calls when the area is first used, not with the client", () => {
    const ops = client(fake().transport).ops;
    expect(Object.getOwnPropertyDescriptor(ops, 'users')?.get).toBeTypeOf('function');
    const users = ops.users;
    expect(Object.getOwnPropertyDescriptor(ops, 'users')).toMatchObject({ value: users });
    expect(ops.users).toBe(users);
    expect(Object.getOwnPropertyDescriptor(ops, 'sections')?.get).toBeTypeOf('function');
  });
});

describe('requests that add something each time', () => {
  it('marks a grade with a comment as not safe to resend, and a grade alone as safe', async () => {
    const { requests, transport } = fake(() => ({ status: 200, body: '{}' }));
    const c = client(transport);
    await c.ops.submissions.grade({
      course_id: 1,
      assignment_id: 2,
      user_id: 7,
      submission: { posted_grade: '9' },
      comment: { text_comment: 'Good' },
    });
    await c.ops.submissions.grade({ course_id: 1, assignment_id: 2, user_id: 7, submission: { posted_grade: '9' } });
    expect(requests.map((r) => [r.method, r.idempotent])).toEqual([
      ['PUT', false],
      ['PUT', undefined],
    ]);
  });
});

describe('redirects', () => {
  it('follows a GET redirect on the same origin with the token', async () => {
    const { requests, transport } = fake((_r, n) =>
      n === 0 ? { status: 302, headers: { location: '/api/v1/elsewhere?x=1' } } : { status: 200, body: '{"ok":true}' },
    );
    expect(await client(transport).request('users.get', { id: 1 })).toEqual({ ok: true });
    expect(requests.map((r) => [r.url, r.headers.authorization])).toEqual([
      [`${BASE}/api/v1/users/1`, `Bearer ${TOKEN}`],
      [`${BASE}/api/v1/elsewhere?x=1`, `Bearer ${TOKEN}`],
    ]);
  });

  it('refuses a cross-origin redirect of a read: nothing is sent there, with the token or without', async () => {
    const { requests, transport } = fake(() => ({
      status: 302,
      headers: { location: 'https://files.example.net/f/1?token=abc' },
    }));
    const error = await client(transport)
      .send('GET', '/api/v1/files/1/download')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FailureError);
    expect((error as FailureError).exitCode).toBe(ExitCode.failure);
    expect((error as Error).message).toBe(
      `GET ${BASE}/api/v1/files/1/download: the instance redirected it (302) to ` +
        `https://files.example.net/[REDACTED], another origin than ${BASE}; ` +
        'a read follows redirects only on its own origin, so nothing was sent there; nothing was read',
    );
    expect((error as FailureError).hint).toBe(
      "set the profile's URL (or LMS_BASE_URL) to https://files.example.net, where the instance says it is",
    );
    expect(requests.map((r) => r.url)).toEqual([`${BASE}/api/v1/files/1/download`]);
  });

  it.each([301, 302, 303, 307, 308])(
    'a %i to a write is not followed: exit 1, naming the status and the Location, nothing written',
    async (status) => {
      const { requests, transport } = fake(() => ({
        status,
        headers: { location: 'https://new.example.edu/api/v1/accounts/1/users' },
      }));
      const error = await client(transport)
        .request('users.create', { account_id: 1, user: { name: 'Ann' } })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(FailureError);
      expect((error as Error).message).toBe(
        `POST ${BASE}/api/v1/accounts/1/users: the instance redirected the write (${status}) to ` +
          'https://new.example.edu/[REDACTED], ' +
          'and a write is not sent on; nothing was written',
      );
      expect((error as FailureError).hint).toBe(
        "set the profile's URL (or LMS_BASE_URL) to https://new.example.edu, where the instance says it is",
      );
      expect(requests).toHaveLength(1);
    },
  );

  it('a redirect of a PUT or DELETE on the same origin (a login page) is not followed either', async () => {
    for (const method of ['PUT', 'DELETE'] as const) {
      const { requests, transport } = fake(() => ({ status: 302, headers: { location: `${BASE}/login?return_to=x` } }));
      await expect(client(transport).send(method, '/api/v1/users/1')).rejects.toThrow(
        `${method} ${BASE}/api/v1/users/1: the instance redirected the write (302) to ${BASE}/login?return_to=x`,
      );
      expect(requests).toHaveLength(1);
    }
  });

  it('hands an upload step 2 its 3xx back, unfollowed', async () => {
    const { requests, transport } = fake(() => ({ status: 303, headers: { location: `${BASE}/other` } }));
    const res = await client(transport).send('POST', 'https://files.example.net/up', {
      auth: false,
      handBackRedirect: true,
    });
    expect(res.status).toBe(303);
    expect(requests).toHaveLength(1);
  });

  it('ends a redirect loop at the first URL asked for again', async () => {
    const { requests, transport } = fake((_r, n) => ({ status: 302, headers: { location: `${BASE}/loop/${n % 2}` } }));
    await expect(client(transport).send('GET', '/loop/1')).rejects.toThrow(
      `the instance redirected it (302) to ${BASE}/loop/1, a URL already asked for: a redirect loop; nothing was read`,
    );
    expect(requests.map((r) => r.url)).toEqual([`${BASE}/loop/1`, `${BASE}/loop/0`]);
  });

  it('follows at most 5 redirects', async () => {
    const { requests, transport } = fake((_r, n) => ({ status: 307, headers: { location: `${BASE}/hop/${n + 1}` } }));
    await expect(client(transport).send('GET', '/hop/0')).rejects.toThrow(
      `the instance redirected it more than 5 times (the last to ${BASE}/hop/6); nothing was read`,
    );
    expect(requests).toHaveLength(6);
  });

  it('a 304, or a 3xx without a Location, is not an answer', async () => {
    const cached = fake(() => ({ status: 304 }));
    await expect(client(cached.transport).request('users.get', { id: 1 })).rejects.toThrow(
      'the instance answered 304 Not Modified to a request that asked for no cached copy',
    );
    const nowhere = fake(() => ({ status: 302 }));
    await expect(client(nowhere.transport).request('users.get', { id: 1 })).rejects.toThrow(
      'the instance answered 302 without a Location; nothing was read',
    );
  });
});

describe('answers that are not the documented JSON', () => {
  it('a 204 where the API returns an object is not a success; a route that answers 204 is', async () => {
    const empty = fake(() => ({ status: 204 }));
    const error = await client(empty.transport)
      .request('users.update', { id: 1, user: { name: 'Ann' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FailureError);
    expect((error as Error).message).toBe(
      `PUT ${BASE}/api/v1/users/1: the instance answered 204 with no body, where the API returns one; lms cannot ` +
        'tell whether it was written: check before running it again',
    );
    expect(
      await client(empty.transport).request('discussions.subscribe', { course_id: 1, topic_id: 2 }),
    ).toBeUndefined();
  });

  it('an HTML 200 (a login page) is an error naming what came back', async () => {
    const { transport } = fake(() => ({
      status: 200,
      headers: { 'content-type': 'text/html' },
      body: '<!doctype html><form>Sign in</form>',
    }));
    await expect(client(transport).request('users.get', { id: 1 })).rejects.toThrow(
      `GET ${BASE}/api/v1/users/1: the instance answered 200 with text/html that is not JSON, where the API returns ` +
        'JSON; nothing was read',
    );
  });

  it('a JSON string is JSON', async () => {
    const { transport } = fake(() => ({ status: 200, body: '"done"' }));
    expect(await client(transport).request('users.get', { id: 1 })).toBe('done');
  });
});

describe('uploads', () => {
  const ticket = {
    upload_url: 'https://files.example.net/upload/abc',
    upload_params: { filename: 'a.txt', content_type: 'text/plain' },
    file_param: 'file',
  };
  const attachment = {
    id: 9,
    display_name: 'a.txt',
    filename: 'a.txt',
    'content-type': 'text/plain',
    size: 2,
    url: 'u',
  };
  const file = { name: 'a.txt', data: new TextEncoder().encode('hi'), contentType: 'text/plain' };

  it('never sends the token to the upload URL, and confirms at the Location with it', async () => {
    const { requests, transport } = fake((_r, n) =>
      n === 0
        ? {
            status: 201,
            body: jsonBody({ location: `${BASE}/api/v1/files/9/create_success?uuid=u` }),
            headers: { location: `${BASE}/api/v1/files/9/create_success?uuid=u` },
          }
        : { status: 200, body: jsonBody(attachment) },
    );
    expect(await uploadFile(client(transport), ticket, file)).toEqual(attachment);
    expect(requests.map((r) => [r.method, r.url, r.headers.authorization])).toEqual([
      ['POST', 'https://files.example.net/upload/abc', undefined],
      ['POST', `${BASE}/api/v1/files/9/create_success?uuid=u`, `Bearer ${TOKEN}`],
    ]);
    const form = await new Response(new Uint8Array(requests[0].body as Uint8Array), {
      headers: { 'content-type': requests[0].headers['content-type'] },
    }).formData();
    expect([...form.keys()]).toEqual(['filename', 'content_type', 'file']);
    const part = form.get('file') as File;
    expect([part.name, part.type, await part.text()]).toEqual(['a.txt', 'text/plain', 'hi']);
  });

  it('never sends the token to an upload URL on the API host either', async () => {
    const { requests, transport } = fake((_r, n) =>
      n === 0
        ? { status: 201, headers: { location: `${BASE}/api/v1/files/9/create_success` } }
        : { status: 200, body: jsonBody(attachment) },
    );
    await uploadFile(client(transport), { ...ticket, upload_url: `${BASE}/files_api/uploads/abc` }, file);
    expect(requests.map((r) => r.headers.authorization)).toEqual([undefined, `Bearer ${TOKEN}`]);
  });

  it('confirms with GET after a 3xx, without the token when the Location is another host', async () => {
    const { requests, transport } = fake((_r, n) =>
      n === 0
        ? { status: 303, headers: { location: 'https://files.example.net/confirm/9' } }
        : { status: 200, body: jsonBody(attachment) },
    );
    expect(await uploadFile(client(transport), ticket, file)).toEqual(attachment);
    expect(requests.map((r) => [r.method, r.url, r.headers.authorization])).toEqual([
      ['POST', 'https://files.example.net/upload/abc', undefined],
      ['GET', 'https://files.example.net/confirm/9', undefined],
    ]);
  });

  it('accepts the attachment from step 2 itself, and fails without upload_url or Location', async () => {
    const direct = fake(() => ({ status: 200, body: jsonBody(attachment) }));
    expect(await uploadFile(client(direct.transport), ticket, file)).toEqual(attachment);
    const nothing = fake(() => ({ status: 200, body: '' }));
    await expect(uploadFile(client(nothing.transport), ticket, file)).rejects.toThrow(
      'the upload finished step 2 without a Location to confirm it at',
    );
    await expect(uploadFile(client(nothing.transport), { ...ticket, upload_url: '' }, file)).rejects.toThrow(
      'did not return an upload_url',
    );
  });

  it('uploads through the mock end to end', async () => {
    const mock = freshMock();
    const c = new ApiClient({ baseUrl: 'http://lms.mock', token: TOKENS.student, transport: mock.handler });
    const t = await c.ops.users.uploadFile({ user_id: 'self', name: 'notes.txt', size: 2, content_type: 'text/plain' });
    const a = await uploadFile(c, t, file);
    expect(a).toMatchObject({ display_name: 'notes.txt', 'content-type': 'text/plain', size: 2 });
  });
});

describe('trace', () => {
  it('writes one line per request and answer, the token never in them', async () => {
    const lines: string[] = [];
    const { requests, transport } = fake((_r, n) =>
      n === 0
        ? { status: 302, headers: { location: `${BASE}/api/v1/users/self?access_token=secret&verifier=secret` } }
        : { status: 200, body: '{}' },
    );
    const c = client(transport, { token: 'secret', trace: (l) => lines.push(l) });
    await c.send('GET', '/api/v1/users/self?access_token=secret');
    expect(requests[0].url).toBe(`${BASE}/api/v1/users/self?access_token=secret`);
    expect(lines).toHaveLength(4);
    expect(lines[0]).toBe(`→ GET ${BASE}/api/v1/users/self?access_token=[REDACTED]`);
    expect(lines[1]).toMatch(
      new RegExp(
        `^← 302 GET ${BASE.replace(/\./g, '\\.')}/api/v1/users/self\\?access_token=\\[REDACTED\\] \\(\\d+ ms\\)$`,
      ),
    );
    expect(lines[2]).toBe(`→ GET ${BASE}/api/v1/users/self?access_token=[REDACTED]&verifier=[REDACTED]`);
    for (const line of lines) expect(line).not.toContain('secret');
  });

  it('traces a failed exchange without the token', async () => {
    const lines: string[] = [];
    const c = client(
      async () => {
        throw new Error('socket hang up');
      },
      { token: 'secret', trace: (l) => lines.push(l) },
    );
    await expect(c.send('GET', '/x?access_token=secret')).rejects.toThrow('socket hang up');
    expect(lines).toEqual([
      `→ GET ${BASE}/x?access_token=[REDACTED]`,
      expect.stringMatching(
        /^✗ GET https:\/\/lms\.example\.edu\/x\?access_token=\[REDACTED\] \(\d+ ms\): socket hang up$/,
      ),
    ]);
  });

  it('keeps the token out of an API error', async () => {
    const { transport } = fake(() => ({ status: 401, body: '{"errors":[{"message":"Invalid access token."}]}' }));
    const error = (await client(transport, { token: 'secret' })
      .send('GET', '/api/v1/users/self?access_token=secret')
      .catch((e: unknown) => e)) as ApiError;
    expect(error.exitCode).toBe(3);
    expect(error.message).toBe('GET /api/v1/users/self?access_token=[REDACTED] failed with 401: Invalid access token.');
    expect(JSON.stringify(error.toJSON())).not.toContain('secret');
  });
});
