// Lists read by key cost a page, not the whole table: the same rows in the same order whatever the
// page size, nothing repeated or skipped when rows are added between pages, numbered pages still
// answered, and each page one indexed range read (no sort, no count).
import { describe, expect, it } from 'vitest';
import type { ApiResponse } from '../../src/transport/types.js';
import { generateSchool } from '../../src/mock/generate.js';
import { coursesOfAccountTreeQuery } from '../../src/mock/school/courses/repo.js';
import { usersOfAccountQuery } from '../../src/mock/school/users/repo.js';
import { parseLinkHeader } from '../../src/client/parse.js';
import { allRoutes } from '../../src/spec/routes.js';
import { hostileRoutes } from '../e2e/hostile-routes.js';
import { clientFor, collect, freshMock, TOKENS } from '../helpers/mock-client.js';

const routes = allRoutes();

const get = (mock: ReturnType<typeof freshMock>, url: string): Promise<ApiResponse> =>
  mock.handler({ method: 'GET', url, headers: { authorization: `Bearer ${TOKENS.admin}` } });

async function ids(mock: ReturnType<typeof freshMock>, perPage: number, between?: () => void): Promise<number[]> {
  const out: number[] = [];
  let next: string | undefined = `http://lms.mock/api/v1/accounts/1/users?per_page=${perPage}`;
  while (next) {
    const res = await get(mock, next);
    expect(res.status).toBe(200);
    out.push(...(JSON.parse(String(res.body)) as { id: number }[]).map((u) => u.id));
    next = parseLinkHeader(res.headers.link).next;
    between?.();
  }
  return out;
}

describe('keyset paging of the users list', () => {
  it('returns the same rows in the same order with one row a page and a hundred', async () => {
    const mock = freshMock();
    generateSchool(mock.db, { users: 250, courses: 2, now: '2026-11-02T12:00:00Z' });
    const one = await ids(mock, 1);
    const hundred = await ids(mock, 100);
    expect(one).toHaveLength(263);
    expect(one).toEqual(hundred);
    expect(new Set(one).size).toBe(263);
  });

  it(
    'neither repeats nor skips rows that existed before ' + 'the listing began, while others are added between pages',
    async () => {
      const mock = freshMock();
      generateSchool(mock.db, { users: 120, courses: 1, now: '2026-11-02T12:00:00Z' });
      const before = await ids(mock, 100);
      const client = clientFor(mock, TOKENS.admin);
      let n = 0;
      const seen = await ids(mock, 7, () => {
        // Names sorting early, late and in between: offsets would shift under them.
        for (const name of [`Aaron Early ${n}`, `Zed Late ${n}`, `Moreau Middle ${n}`]) {
          void client.ops.users.create({ account_id: 1, user: { name }, pseudonym: { unique_id: `added${n++}` } });
        }
      });
      const old = new Set(before);
      const seenOld = seen.filter((id) => old.has(id));
      expect(seenOld).toEqual(before);
      expect(new Set(seen).size).toBe(seen.length);
    },
  );

  it('still answers numbered pages for clients that build them', async () => {
    const mock = freshMock();
    const byNumber: number[] = [];
    for (let page = 1; page <= 3; page++) {
      const res = await get(mock, `http://lms.mock/api/v1/accounts/1/users?per_page=5&page=${page}`);
      byNumber.push(...(JSON.parse(String(res.body)) as { id: number }[]).map((u) => u.id));
      const links = parseLinkHeader(res.headers.link);
      expect(links.next === undefined).toBe(page === 3);
      if (page > 1) expect(links.prev).toContain(`page=${page - 1}`);
    }
    expect(byNumber).toEqual(await ids(mock, 5));
  });

  it('refuses a bookmark it did not hand out', async () => {
    const mock = freshMock();
    for (const page of ['bookmark:%%%', 'bookmark:eyJhIjoxfQ', 'bookmark:']) {
      expect((await get(mock, `http://lms.mock/api/v1/accounts/1/users?page=${page}`)).status).toBe(400);
    }
  });

  it('reads a page as one indexed range read: no sort, no count', () => {
    const mock = freshMock();
    const q = usersOfAccountQuery(1, 1);
    const plan = (
      mock.db
        .prepare(
          `EXPLAIN QUERY PLAN SELECT * FROM (${q.sql}) WHERE (sortable_name, id) > (?, ?) ORDER BY sortable_name, ` +
            'id LIMIT ?',
        )
        .all(...q.args, 'M', 0, 10) as { detail: string }[]
    )
      .map((r) => r.detail)
      .join('\n');
    expect(plan).toMatch(/SEARCH u USING INDEX users_sortable/);
    expect(plan).not.toMatch(/TEMP B-TREE/);
  });
});

describe('every list the mock reads from its tables pages by key', () => {
  it.each([
    ['accounts.list', '/api/v1/accounts'],
    ['courses.list', '/api/v1/courses', '3~mock-tteacher'],
    ['courses.listAccount', '/api/v1/accounts/1/courses'],
    ['assignments.list', '/api/v1/courses/1/assignments'],
    ['groups.list', '/api/v1/courses/1/groups'],
    ['sections.list', '/api/v1/courses/1/sections'],
    ['enrollments.listCourse', '/api/v1/courses/1/enrollments'],
    ['enrollments.listSection', '/api/v1/sections/1/enrollments'],
    ['enrollments.listUser', '/api/v1/users/7/enrollments'],
    ['admins.list', '/api/v1/accounts/1/admins'],
    ['users.list', '/api/v1/accounts/1/users'],
    ['users.pageViews', '/api/v1/users/7/page_views'],
  ])(
    '%s: bookmarks, no count, and the same rows one at a time as all at once',
    async (_id, path, token = TOKENS.admin) => {
      const mock = freshMock();
      // Sam's page views exist once he has viewed something (the admin's reading adds only the admin's).
      for (let i = 0; i < 3; i++)
        await mock.handler({
          method: 'GET',
          url: 'http://lms.mock/api/v1/users/self',
          headers: { authorization: `Bearer ${TOKENS.student}` },
        });
      const read = async (perPage: number) => {
        const seen: unknown[] = [];
        let next: string | undefined = `http://lms.mock${path}?per_page=${perPage}`;
        let first = true;
        while (next) {
          const res = await mock.handler({ method: 'GET', url: next, headers: { authorization: `Bearer ${token}` } });
          expect(res.status).toBe(200);
          const rows = JSON.parse(String(res.body)) as { id: unknown }[];
          seen.push(...rows.map((r) => JSON.stringify(r.id)));
          expect(res.headers.link).not.toContain('rel="last"');
          const links = parseLinkHeader(res.headers.link);
          if (first && perPage === 1 && links.next) expect(links.next).toContain('page=bookmark:');
          first = false;
          next = links.next;
        }
        return seen;
      };
      const all = await read(100);
      expect(all.length).toBeGreaterThan(0);
      expect(await read(1)).toEqual(all);
    },
  );
});

describe('users search', () => {
  it('reads the trigram index, not every user', () => {
    const mock = freshMock();
    const q = usersOfAccountQuery(1, 1, 'okafor');
    const plan = (mock.db.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).all(...q.args) as { detail: string }[])
      .map((r) => r.detail)
      .join('\n');
    expect(plan).toMatch(/user_search VIRTUAL TABLE INDEX/);
  });

  it('follows every write: a renamed user, a new login, a new email', async () => {
    const mock = freshMock();
    const client = clientFor(mock, TOKENS.admin);
    const found = async (term: string) => {
      const out: number[] = [];
      for await (const u of client.ops.users.list({ account_id: 1, search_term: term })) out.push(u.id);
      return out;
    };
    expect(await found('zanzibar')).toEqual([]);
    await client.ops.users.update({ id: 7, user: { name: 'Sam Zanzibar' } });
    expect(await found('ZANZIBAR')).toEqual([7]);
    const made = await client.ops.users.create({
      account_id: 1,
      user: { name: 'Quinn Q' },
      pseudonym: { unique_id: 'qlogin-xyz', sis_user_id: 'SIS-QQQ' },
      communication_channel: { type: 'email', address: 'quinn@mail.example' },
    });
    expect(await found('login-xy')).toEqual([made.id]);
    expect(await found('sis-qq')).toEqual([made.id]);
    expect(await found('@mail.exam')).toEqual([made.id]);
    expect(await found('Quinn')).toEqual([made.id]);
  });
});

describe('courses search', () => {
  it('reads the trigram index for a term of three characters or more, and LIKE for a shorter one', () => {
    const mock = freshMock();
    const plan = (term: string) => {
      const q = coursesOfAccountTreeQuery(1, term);
      return (mock.db.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).all(...q.args) as { detail: string }[])
        .map((r) => r.detail)
        .join('\n');
    };
    expect(plan('chem')).toMatch(/course_search VIRTUAL TABLE INDEX/);
    expect(plan('ch')).not.toMatch(/course_search/);
  });

  it.each([
    ['a name', 'organic', [2]],
    ['a code, in any case', 'bio-101', [1, 5]],
    ['an SIS id', '101L', [5]],
    ['two characters', 'Hi', [3]],
    ['a % taken literally', '10%', []],
  ])('finds courses by %s', async (_what, term, ids) => {
    const client = clientFor(freshMock(), TOKENS.admin);
    expect(
      (await collect(client.ops.courses.listAccount({ account_id: 1, search_term: term }))).map((c) => c.id),
    ).toEqual(ids);
  });

  it('follows every write: a new course, a renamed one', async () => {
    const mock = freshMock();
    const client = clientFor(mock, TOKENS.admin);
    const found = async (term: string) =>
      (await collect(client.ops.courses.listAccount({ account_id: 1, search_term: term }))).map((c) => c.id);
    expect(await found('zanzibar')).toEqual([]);
    const made = await client.ops.courses.create({
      account_id: 1,
      course: { name: 'Zanzibar Studies', course_code: 'ZAN-1', sis_course_id: 'SIS-ZZQ' },
    });
    expect(await found('ZANZIBAR')).toEqual([made.id]);
    expect(await found('zzq')).toEqual([made.id]);
    mock.db.prepare(`UPDATE courses SET name = 'Island Studies' WHERE id = ?`).run(made.id);
    expect(await found('zanzibar')).toEqual([]);
    expect(await found('island')).toEqual([made.id]);
  });
});

describe('a crafted page on every list route', () => {
  const listRoutes = routes.filter((r) => r.paginated);
  const samples = hostileRoutes.filter((h) => listRoutes.some((r) => r.id === h.id));
  const key = (text: string) => `bookmark:${Buffer.from(text).toString('base64url')}`;
  const crafted: [string, string][] = [
    ['an empty key', key('[]')],
    ['a key too long', key('[1, 2, 3, 4, 5, 6]')],
    ['a key of objects', key('[{}, {}]')],
    ['a key of arrays', key('[[1], [2]]')],
    ['an infinite number', key('[1e400, 1]')],
    ['a number past the exact integers', key('[9007199254740993, 1]')],
    ['a huge string', key(JSON.stringify(['x'.repeat(5000), 1]))],
    ['not JSON', key('[1,')],
    ['not an array', key('{"a":1}')],
    ['not base64', 'bookmark:%25%25'],
    ['a page number that is no exact integer', '99999999999999999'],
    ['a page number whose offset is no exact integer', '900719925474099&per_page=100'],
  ];

  it('every paginated route has a sample path in the hostile table', () => {
    expect(listRoutes.map((r) => r.id).filter((id) => !samples.some((h) => h.id === id))).toEqual([]);
  });

  it.each(samples.map((h) => [h.id, h.path] as const))(
    '%s answers 400 naming the page, never a 5xx',
    async (id, path) => {
      const mock = freshMock();
      // entry_list pages only the entries it is asked for: one of the topic's own.
      let query = '';
      if (id.startsWith('discussions.entryList')) {
        const entries = JSON.parse(
          String((await get(mock, `http://lms.mock${path.replace(/entry_list$/, 'entries')}`)).body),
        ) as { id: number }[];
        query = `ids[]=${entries[0].id}&`;
      }
      for (const [what, page] of crafted) {
        const res = await get(mock, `http://lms.mock${path}?${query}page=${page}`);
        expect(res.status, `${what}: ${String(res.body).slice(0, 200)}`).toBe(400);
        expect(String(res.body)).toContain('page');
      }
    },
  );
});
