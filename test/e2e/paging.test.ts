// End to end: lists that always end, against a real server on loopback that pages badly. A list
// is followed to its end whatever the route table says of it, and a server whose next-page link
// repeats ends the listing with exit 1 and a message naming the page, after the pages it read.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2eWorkspace, ensureBuilt, spawnLms } from '../helpers/e2e.js';

const { env } = e2eWorkspace('paging');
const TOKEN = 'paging-token-5150';
let base = '';

/** Per path: the answer to each page (by the `page` parameter, 1 when absent). */
const answers: Record<string, (page: number) => { items: unknown[]; next?: string }> = {
  // Repeats its link to page 2 for ever (a bookmark the server never advances).
  '/api/v1/accounts/1/users': (page) => ({
    items: [{ id: page, name: `User ${page}`, login_id: `u${page}` }],
    next: `${base}/api/v1/accounts/1/users?page=2&per_page=100`,
  }),
  // Ignores the page asked for: every page is the first, under a new link each time.
  '/api/v1/accounts/2/users': (page) => ({
    items: [{ id: 1, name: 'Same', login_id: 'same' }],
    next: `${base}/api/v1/accounts/2/users?page=${page + 1}`,
  }),
  // Seven avatars in pages of three, links in capitals, rel among other parameters.
  '/api/v1/users/self/avatars': (page) => ({
    items: Array.from({ length: 7 }, (_, i) => ({
      type: 'gravatar',
      token: `tok-${i + 1}`,
      display_name: `Avatar ${i + 1}`,
      url: `https://a.example/${i + 1}`,
    })).slice((page - 1) * 3, page * 3),
    next: page < 3 ? `${base}/api/v1/users/self/avatars?page=${page + 1}` : undefined,
  }),
};

const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  const url = new URL(req.url ?? '/', base);
  const answer = answers[url.pathname];
  if (!answer || req.headers.authorization !== `Bearer ${TOKEN}`) {
    res
      .writeHead(404, { 'content-type': 'application/json' })
      .end('{"errors":[{"message":"The specified resource does not exist."}]}');
    return;
  }
  const { items, next } = answer(Number(url.searchParams.get('page') ?? 1));
  const link = next ? `<${next}>; type="application/json"; REL="Next"` : undefined;
  res
    .writeHead(200, { 'content-type': 'application/json; charset=utf-8', ...(link ? { link } : {}) })
    .end(JSON.stringify(items));
});

beforeAll(async () => {
  await ensureBuilt();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const lms = (args: string[]) => spawnLms(args, { ...env, LMS_BASE_URL: base, LMS_TOKEN: TOKEN });

describe('lists that end', () => {
  it.each([
    ['a next link that repeats', '1', [1, 2], 'accounts/1/users?page=2&per_page=100 links back to a page already read'],
    [
      'a server that ignores the page asked for',
      '2',
      [1],
      'accounts/2/users?page=2 answered the same items as the page before it',
    ],
  ])('%s: exit 1 naming the page, after the rows read', async (_name, account, ids, message) => {
    const r = await lms(['users', 'list', '--account', account, '--all', '-o', 'ndjson']);
    expect(r.exitCode).toBe(1);
    expect(
      r.stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => (JSON.parse(line) as { id: number }).id),
    ).toEqual(ids);
    expect(r.stderr).toContain(message);
    expect(r.stderr).not.toContain(TOKEN);
  });

  it('users avatars reads every page, whatever the case of the relation', async () => {
    const r = await lms(['users', 'avatars', '-o', 'json']);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect((JSON.parse(r.stdout) as { token: string }[]).map((a) => a.token)).toEqual([
      'tok-1',
      'tok-2',
      'tok-3',
      'tok-4',
      'tok-5',
      'tok-6',
      'tok-7',
    ]);
  });
});
