// A route with context variants gets its context found by the pipeline: the variant says which
// kind, the path which one; a missing one is a 404 before any handler runs.
import { describe, expect, it } from 'vitest';
import { HttpError, type MockCtx } from '../../src/mock/kit.js';
import { resolveContext } from '../../src/mock/areas/lookup.js';
import { route, type RouteId } from '../../src/spec/routes.js';
import { freshMock } from '../helpers/mock-client.js';

const mock = freshMock();
const caller = { id: 1 } as MockCtx['caller'];
const resolve = (id: RouteId, path: Record<string, string>) =>
  resolveContext({ db: mock.db, route: route(id), path, caller });

describe('resolveContext', () => {
  it.each<[RouteId, Record<string, string>, string, number | null]>([
    ['discussions.createTopic@courses', { course_id: 'sis_course_id:BIO-101' }, 'course', 1],
    ['discussions.createTopic@groups', { group_id: '2' }, 'group', 2],
    ['outcomes.rootGroup@accounts', { account_id: 'sis_account_id:MSU-SCI' }, 'account', 2],
    ['outcomes.rootGroup@accounts', { account_id: 'self' }, 'account', 1],
    ['outcomes.rootGroup@global', {}, 'global', null],
    ['submissions.list@sections', { section_id: 'sis_section_id:BIO-101-B', assignment_id: '1' }, 'section', 2],
  ])('%s with %j is the %s %s', (id, path, type, contextId) => {
    const context = resolve(id, path);
    expect(context?.type).toBe(type);
    expect(context?.id).toBe(contextId);
    if (contextId !== null) expect(context?.record).toMatchObject({ id: contextId });
  });

  it.each<[RouteId, Record<string, string>]>([
    ['discussions.createTopic@courses', { course_id: '999' }],
    ['discussions.createTopic@groups', { group_id: 'sis_group_id:x' }],
    ['discussions.createTopic@collection_items', { collection_item_id: '999' }],
  ])('%s with %j is a 404', (id, path) => {
    let error: unknown;
    try {
      resolve(id, path);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(id.endsWith('@groups') ? 400 : 404);
  });

  it('is absent for a route without context variants', () => {
    expect(resolve('users.get', { id: '1' })).toBeUndefined();
  });
});
