// The route table against the catalogue (a copy of spec/endpoints.tsv kept in fixtures), and the
// promise that every route of a built area has a client operation, a mock handler and a command.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { declaredRoutes } from '../../src/cli/command.js';
import { operationsByArea } from '../../src/client/operations.js';
import { loadAllNouns } from '../../src/commands/index.js';
import { answeredRoutes } from '../../src/mock/areas/index.js';
import { routes, type RouteId } from '../../src/spec/routes.js';

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
      expect({ route: key(row), area: r.area, paginated: r.paginated }).toEqual({ route: key(row), area: row.area, paginated: row.paginated });
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
});

/**
 * Routes not built yet in all three layers (mock behaviour, client operation, command). The list only
 * shrinks: a route that gains its handler must leave it, and every route not on it needs all three.
 */
const PENDING = new Set<string>([]);
/** Mock-side answers to URLs the server hands out; clients follow them, so no operation or command names them. */
const FOLLOWED_URLS = new Set(['files.upload', 'files.confirm', 'files.confirmGet', 'files.download']);
/** Second paths of a route real instances also serve: the client has an operation, the mock answers, no command needs it. */
const ALIASES = new Set(['users.activityStreamAlias']);
/** The OAuth2 pages a browser visits (the authorization page, its consent form): no operation or command sends them. */
const BROWSER_PAGES = new Set(['oauth.authorize', 'oauth.confirm']);

const commanded = declaredRoutes(await loadAllNouns());
const answered = await answeredRoutes();

describe('coverage', () => {
  const built = routes.filter((r) => !PENDING.has(r.id));
  const operations = new Set(Object.values(operationsByArea).flatMap((ops) => Object.values(ops).map((op) => op.operation as string)));

  it.each(built.map((r) => [r.id, r]))('%s has a mock handler', (id) => {
    expect(answered.has(id as RouteId), id).toBe(true);
  });

  const unsent = (id: string) => FOLLOWED_URLS.has(id) || BROWSER_PAGES.has(id);
  it.each(built.filter((r) => !unsent(r.id)).map((r) => [r.id, r]))('%s has a client operation and a command', (id, r) => {
    expect(operations, id).toContain(r.operation);
    if (!ALIASES.has(id)) expect(commanded, id).toContain(id);
  });

  it('lists only routes that exist and are still unbuilt', () => {
    const known = new Set<string>(routes.map((r) => r.id));
    expect([...PENDING].filter((id) => !known.has(id))).toEqual([]);
    expect([...PENDING].filter((id) => answered.has(id as RouteId))).toEqual([]);
  });
});

describe('client operations follow the route table', () => {
  // The kind is also what types each operation's call (one result or an async list): tsc checks the call sites.
  it.each(Object.entries(operationsByArea).flatMap(([area, ops]) => Object.entries(ops).map(([name, o]) => [`${area}.${name}`, o] as const)))(
    '%s pages exactly when its route does',
    (_name, o) => {
      const paginated = routes.filter((r) => r.operation === o.operation).every((r) => r.paginated);
      expect(o.kind).toBe(paginated ? 'paged' : 'one');
    },
  );
});
