// The seeded school has something in every list: for each paginated route (at the sample path the
// hostile-input table reaches it by), at least one seeded user gets a non-empty first page.
import { describe, expect, it } from 'vitest';
import { allRoutes } from '../../src/spec/routes.js';
import { hostileRoutes } from '../e2e/hostile-routes.js';
import { freshMock, TOKENS } from '../helpers/mock-client.js';

const routes = allRoutes();

const paginated = new Set(routes.filter((r) => r.paginated).map((r) => r.id as string));
/** Lists that need more than a path to list anything: the parameters a caller would give. */
const QUERY: Record<string, string> = {
  'discussions.entryList@courses': '?ids[]=1&ids[]=2',
  'discussions.entryList@groups': '?ids[]=31',
  'discussions.entryList@collection_items': '?ids[]=32',
  'conversations.findRecipients': '?search=sa',
  'search.recipients': '?search=sa',
};
/** A sample whose entry has no replies: one that has. */
const PATH: Record<string, string> = {
  'discussions.listReplies@groups': '/api/v1/groups/1/discussion_topics/10/entries/28/replies',
};
/** Lists of what requests leave behind (no seed makes them): the request that leaves one first. */
const BEFORE: Record<string, { path: string; token: keyof typeof TOKENS }> = {
  'users.pageViews': { path: '/api/v1/courses/1', token: 'student' },
};
const samples = hostileRoutes
  .filter((r) => r.method === 'GET' && paginated.has(r.id))
  .map((r) => ({ ...r, path: `${PATH[r.id] ?? r.path}${QUERY[r.id] ?? ''}` }));

describe('every list of the seeded school', () => {
  it('has a sample path for every paginated route', () => {
    expect([...paginated].filter((id) => !samples.some((s) => s.id === id))).toEqual([]);
  });

  const mock = freshMock();
  it.each(samples.map((s) => [s.id, s.path] as const))(
    '%s (%s) is non-empty for some seeded user',
    async (id, path) => {
      const before = BEFORE[id];
      if (before)
        await mock.handler({
          method: 'GET',
          url: `http://lms.mock${before.path}`,
          headers: { authorization: `Bearer ${TOKENS[before.token]}` },
          body: '',
        });
      const sizes: Record<string, number | string> = {};
      for (const [who, token] of Object.entries(TOKENS)) {
        const res = await mock.handler({
          method: 'GET',
          url: `http://lms.mock${path}`,
          headers: { authorization: `Bearer ${token}` },
          body: '',
        });
        const body = JSON.parse(
          typeof res.body === 'string' ? res.body : Buffer.from(res.body).toString('utf8'),
        ) as unknown;
        const items = Array.isArray(body) ? body : ((body as Record<string, unknown>)?.conversations ?? body);
        sizes[who] = res.status === 200 && Array.isArray(items) ? items.length : res.status;
        if (typeof sizes[who] === 'number' && (sizes[who] as number) > 0 && res.status === 200) return;
      }
      expect.fail(`no seeded user gets anything: ${JSON.stringify(sizes)}`);
    },
  );
});
