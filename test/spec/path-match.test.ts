// The two directions between a route and a URL: pathOf fills a route's template (the client, and
// every URL the tool builds), matchRoute finds the route of a request (the mock, the dry run). Each
// is checked over the whole table, and against the other.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { matchRoute } from '../../src/spec/match.js';
import { pathOf, allRoutes, type Method, type Route, type RouteId } from '../../src/spec/routes.js';

const routes = allRoutes();

describe('pathOf', () => {
  it.each<[RouteId, Record<string, string | number>, string]>([
    ['users.get', { id: 42 }, '/api/v1/users/42'],
    ['users.get', { id: 'self' }, '/api/v1/users/self'],
    ['courses.get', { id: 'sis_course_id:CS/101' }, '/api/v1/courses/sis_course_id:CS%2F101'],
    ['users.get', { id: 'sis_user_id:a b?c#d' }, '/api/v1/users/sis_user_id:a%20b%3Fc%23d'],
    ['users.get', { id: 'sis_login_id:jo@example.edu' }, '/api/v1/users/sis_login_id:jo%40example.edu'],
    // One segment, however it reads: no way up the tree, no second path.
    ['users.get', { id: '../admin' }, '/api/v1/users/..%2Fadmin'],
    // Encoded once: a value that already looks encoded is sent as those characters.
    ['users.get', { id: 'a%2Fb' }, '/api/v1/users/a%252Fb'],
    ['users.get', { id: 'Zoë' }, '/api/v1/users/Zo%C3%AB'],
    [
      'sections.crosslist',
      { id: 3, new_course_id: 'sis_course_id:X 1' },
      '/api/v1/sections/3/crosslist/sis_course_id:X%201',
    ],
    [
      'outcomes.linkOutcome@accounts',
      { account_id: 1, id: 2, outcome_id: 3 },
      '/api/v1/accounts/1/outcome_groups/2/outcomes/3',
    ],
    ['outcomes.rootGroup@global', {}, '/api/v1/global/root_outcome_group'],
    ['discussions.getTopic@groups', { group_id: 0, topic_id: 9 }, '/api/v1/groups/0/discussion_topics/9'],
    [
      'history.submissions',
      { course_id: 1, date: '2026-01-02', grader_id: 4, assignment_id: 5 },
      '/api/v1/courses/1/gradebook_history/2026-01-02/graders/4/assignments/5/submissions',
    ],
  ])('%s with %o is %s', (id, params, expected) => {
    expect(pathOf(route(id), params)).toBe(expected);
  });

  it.each<[RouteId, Record<string, unknown>, string]>([
    ['users.get', {}, 'users.get needs id'],
    ['users.get', { id: undefined }, 'users.get needs id'],
    ['users.get', { id: null }, 'users.get needs id'],
    ['users.get', { id: '' }, 'users.get needs id'],
    ['users.get', { id: false }, 'users.get needs id'],
    ['sections.crosslist', { new_course_id: 2 }, 'sections.crosslist needs id'],
    ['sections.crosslist', {}, 'sections.crosslist needs id + new_course_id'],
    ['discussions.getTopic@groups', { course_id: 1, topic_id: 9 }, 'discussions.getTopic@groups needs group_id'],
  ])('refuses %s with %o: "%s"', (id, params, message) => {
    expect(() => pathOf(route(id), params)).toThrow(new UsageError(message));
  });

  it('types the path ids of a route named by its id', () => {
    expect(pathOf('sections.crosslist', { id: 3, new_course_id: 4 })).toBe('/api/v1/sections/3/crosslist/4');
    // @ts-expect-error new_course_id is missing
    expect(() => pathOf('sections.crosslist', { id: 3 })).toThrow(
      new UsageError('sections.crosslist needs new_course_id'),
    );
    // @ts-expect-error course_id is not a path id of the group variant
    expect(() => pathOf('discussions.getTopic@groups', { course_id: 1, topic_id: 9 })).toThrow(UsageError);
  });

  it('names the call as its caller does', () => {
    expect(() => pathOf(route('discussions.getTopic@courses'), {}, 'discussions.getTopic')).toThrow(
      new UsageError('discussions.getTopic needs course_id + topic_id'),
    );
  });
});

/** Two sets of path ids for every route: plain numbers, and SIS ids that need encoding. */
const SAMPLES: ((name: string, i: number) => string)[] = [
  (_name, i) => String(17 + i),
  (name, i) => `sis_${name}:A/${i} b?%#`,
];
const filled = (r: Route, sample: (name: string, i: number) => string) =>
  Object.fromEntries(r.params.map((p, i) => [p, sample(p, i)]));
const METHODS: Method[] = ['GET', 'POST', 'PUT', 'DELETE'];

describe('matchRoute', () => {
  it.each(routes.flatMap((r) => SAMPLES.map((sample, n) => [`${r.id} (sample ${n + 1})`, r, sample] as const)))(
    '%s: its own path matches it, with its ids back',
    (_name, r, sample) => {
      const params = filled(r, sample);
      const match = matchRoute(r.method, pathOf(r, params));
      expect(match?.route.id).toBe(r.id);
      expect(match?.path).toEqual(params);
    },
  );

  it.each(routes.map((r) => [r.id, r] as const))(
    '%s: a near miss is not it, and another method is not it',
    (_id, r) => {
      const path = pathOf(r, filled(r, SAMPLES[0]));
      const segments = path.split('/');
      const template = r.path.split('/');
      const lastLiteral = template.length - 1 - [...template].reverse().findIndex((s) => !s.startsWith(':'));
      const misses = [
        `${path}/extra`,
        segments.slice(0, -1).join('/'),
        segments.map((s, i) => (i === lastLiteral ? `${s}x` : s)).join('/'),
        path.replace(/^\/api\/v1\//, '/api/v2/').replace(/^\/(files|login)/, '/$1x'),
        path.toUpperCase(),
      ];
      for (const miss of misses) expect(matchRoute(r.method, miss)?.route.id, miss).not.toBe(r.id);
      for (const method of METHODS.filter((m) => m !== r.method)) {
        const other = matchRoute(method, path);
        expect(other?.route.id, method).not.toBe(r.id);
        // What it matches under another method is that method's route of the same path, or nothing.
        if (other) expect(other.route.method).toBe(method);
      }
    },
  );

  it.each<[string, string, RouteId | undefined]>([
    // A literal segment wins over a path id in the same place, the earliest literal first.
    ['GET', '/api/v1/users/activity_stream', 'users.activityStreamAlias'],
    ['GET', '/api/v1/users/self/activity_stream', 'users.activityStream'],
    ['GET', '/api/v1/users/17', 'users.get'],
    ['GET', '/api/v1/courses/1/gradebook_history/days', 'history.days'],
    ['GET', '/api/v1/courses/1/gradebook_history/feed', 'history.feed'],
    ['GET', '/api/v1/courses/1/gradebook_history/2026-01-02', 'history.day'],
    ['GET', '/api/v1/conversations/unread_count', 'conversations.unreadCount'],
    ['GET', '/api/v1/conversations/5', 'conversations.get'],
    // A literal written with escapes is still that literal.
    ['GET', '/api/v1/users/%73elf/todo', 'users.todo'],
    // Trailing slashes are not a segment.
    ['GET', '/api/v1/users/17/', 'users.get'],
    ['GET', '/api/v1/users/17//', 'users.get'],
    ['GET', '/api/v1/users/%zz', undefined],
    ['GET', '/', undefined],
    ['PATCH', '/api/v1/users/17', undefined],
  ])('%s %s → %s', (method, path, id) => {
    expect(matchRoute(method, path)?.route.id).toBe(id);
  });

  it('decodes path ids once', () => {
    expect(matchRoute('GET', '/api/v1/courses/sis_course_id:CS%2F101/sections/a%252Fb')?.path).toEqual({
      course_id: 'sis_course_id:CS/101',
      id: 'a%2Fb',
    });
  });

  it('answers only among the routes it is given', () => {
    expect(matchRoute('GET', '/api/v1/users/activity_stream', ['users.get'])).toEqual({
      route: route('users.get'),
      path: { id: 'activity_stream' },
    });
    expect(matchRoute('GET', '/api/v1/users/17', ['users.list', 'courses.get'])).toBeUndefined();
  });
});

function route(id: RouteId): Route {
  return routes.find((r) => r.id === id)!;
}
