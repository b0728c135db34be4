// The route table against the catalogue (a copy of spec/endpoints.tsv kept in fixtures), and the
// promise that every route has a mock handler and every route a client sends a command.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { declaredRoutes } from '../../src/model/command.js';
import { loadAllNouns } from '../../src/commands/index.js';
import { answeredRoutes } from '../../src/mock/areas/index.js';
import {
  allRoutes,
  route,
  templatesShaped,
  variantsOf,
  type OperationId,
  type RouteId,
} from '../../src/spec/routes.js';

const routes = allRoutes();

const contexts: Record<string, string[]> = {
  tctx: ['courses/:course_id', 'groups/:group_id', 'collection_items/:collection_item_id'],
  octx: ['global', 'accounts/:account_id', 'courses/:course_id'],
  sctx: ['courses/:course_id', 'sections/:section_id'],
};

function catalogue(file: string): { area: string; method: string; path: string; paginated: boolean }[] {
  const rows = readFileSync(new URL(`../fixtures/${file}`, import.meta.url), 'utf8')
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('#'))
    .slice(1)
    .map((l) => l.split('\t'));
  return rows.flatMap(([area, methods, path, paginated]) =>
    methods.split('|').flatMap((method) => {
      const m = /\{(\w+)\}/.exec(path);
      const paths = m ? contexts[m[1]].map((c) => path.replace(m[0], c)) : [path];
      return paths.map((p) => ({ area, method, path: p, paginated: paginated === 'yes' }));
    }),
  );
}

const key = (r: { method: string; path: string }) => `${r.method} ${r.path}`;

describe('route table', () => {
  const spec = catalogue('endpoints.tsv');

  it('holds every method+path pair of the catalogue, and nothing else from the spec', () => {
    expect(spec).toHaveLength(163);
    const ours = routes.filter((r) => r.source === 'spec');
    expect(ours.map(key).sort()).toEqual(spec.map(key).sort());
  });

  it('agrees with the catalogue on area and paging', () => {
    const byKey = new Map(routes.map((r) => [key(r), r]));
    for (const row of spec) {
      const r = byKey.get(key(row))!;
      expect({ route: key(row), area: r.area, paginated: r.paginated }).toEqual({
        route: key(row),
        area: row.area,
        paginated: row.paginated,
      });
    }
  });

  it('holds the supporting endpoints that have a fixed path', () => {
    const supporting = catalogue('supporting-endpoints.tsv').filter((r) => r.path.startsWith('/'));
    const ours = new Set(routes.filter((r) => r.source === 'supporting').map(key));
    for (const row of supporting) expect(ours, key(row)).toContain(key(row));
  });

  it('gives every route a unique id', () => {
    expect(new Set(routes.map((r) => r.id)).size).toBe(routes.length);
  });

  it('finds by id and by operation the very routes the whole table lists, unknown ids refused', () => {
    for (const r of routes) {
      expect(route(r.id)).toBe(r);
      expect(variantsOf(r.operation as OperationId)).toContain(r);
    }
    expect(variantsOf('discussions.createTopic').map((r) => r.id)).toEqual([
      'discussions.createTopic@courses',
      'discussions.createTopic@groups',
      'discussions.createTopic@collection_items',
    ]);
    for (const id of ['users.get@courses', 'discussions.createTopic', 'users.nope', 'toString.x', 'users'])
      expect(() => route(id as RouteId), id).toThrow(`unknown route ${id}`);
  });

  it(
    'gives by method and segment count the ids and paths ' + 'of the very routes the whole table lists, in its order',
    () => {
      const longest = Math.max(...routes.map((r) => r.path.split('/').length - 1));
      for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'get', 'GET /api']) {
        for (let segments = 0; segments <= longest + 1; segments++) {
          const shaped = routes.filter((r) => r.method === method && r.path.split('/').length - 1 === segments);
          expect(templatesShaped(method, segments), `${method} ${segments}`).toEqual(
            shaped.map((r) => ({ id: r.id, path: r.path })),
          );
        }
      }
    },
  );
});

/**
 * Second paths of a route real instances also serve: the client has an operation, the mock answers, no command needs
 * it.
 */
const ALIASES = new Set(['users.activityStreamAlias']);

const commanded = declaredRoutes(await loadAllNouns());
const answered = await answeredRoutes();

// That every route a client sends has a typed client operation, paged exactly when its route is,
// holds by construction: client.ops is built from the table and typed by Endpoints, whose keys the
// type check holds to the table's (src/spec/types/endpoints.ts).
describe('coverage', () => {
  it.each(routes.map((r) => [r.id, r]))('%s has a mock handler', (id) => {
    expect(answered.has(id as RouteId), id).toBe(true);
  });

  // Routes marked `client: false` (URLs the server hands out, pages a browser visits) are left out.
  it.each(routes.filter((r) => r.client && !ALIASES.has(r.id)).map((r) => [r.id, r]))(
    '%s is declared by a command',
    (id) => {
      expect(commanded, id).toContain(id);
    },
  );

  it('lists as aliases only routes a client sends and no command declares', () => {
    const sent = new Set<string>(routes.filter((r) => r.client).map((r) => r.id));
    expect([...ALIASES].filter((id) => !sent.has(id) || commanded.has(id as RouteId))).toEqual([]);
  });
});
