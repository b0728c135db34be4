// The check every in-process test makes (test/helpers/declared-routes.ts): a verb that calls a route
// it does not declare fails the test, whether the route is called by the verb itself or while its
// list is printed, and the message names the verb, the route and the fix.
import { describe, expect, it } from 'vitest';
import type { CommandSpec, NounSpec } from '../../src/model/command.js';
import { loadAllNouns } from '../../src/commands/index.js';
import type { RouteId } from '../../src/spec/routes.js';
import { assertDeclaredRoutes, undeclared } from '../helpers/declared-routes.js';
import { session } from '../helpers/run-lms.js';

const tree = await loadAllNouns();

function verb(path: string): CommandSpec<never> {
  const [noun, name] = path.split(' ');
  const found = (tree.find((s) => s.name === noun) as NounSpec).commands.find((s) => s.name === name);
  if (!found || 'commands' in found) throw new Error(`no verb ${path}`);
  return found;
}

/** Runs `line` with one route taken out of the verb's declaration, as if it had been forgotten. */
async function withoutRoute(path: string, id: RouteId, line: string): Promise<unknown> {
  const spec = verb(path);
  const routes = spec.routes;
  expect(routes).toContain(id);
  spec.routes = routes!.filter((r) => r !== id);
  try {
    await session().run(line);
    return undefined;
  } catch (error) {
    return error;
  } finally {
    spec.routes = routes;
  }
}

describe('declared routes against called routes', () => {
  it.each([
    ['users get', 'users.get' as RouteId, 'users get 1 -o json'],
    // The pages of a list are fetched as it is printed, after the verb's run has returned.
    ['users list', 'users.list' as RouteId, 'users list --account 1 -o json'],
  ])('fails the test when %s calls %s undeclared', async (path, id, line) => {
    const error = await withoutRoute(path, id, line);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe(
      `lms ${path} called ${id}, which it does not declare: add it to the verb's routes`,
    );
  });

  it('passes a verb that calls only what it declares', async () => {
    const result = await session().run('users get 1 -o json');
    expect(result.exitCode).toBe(0);
    expect(() => assertDeclaredRoutes()).not.toThrow();
  });

  it('allows --as-user its own look-up of the user, and nothing else', () => {
    const spec = { ...verb('users get'), routes: [] };
    expect(undeclared(spec, ['users.get'], true)).toEqual([]);
    expect(undeclared(spec, ['users.get'], false)).toEqual(['users.get']);
    expect(undeclared(spec, ['courses.get', 'users.get'], true)).toEqual(['courses.get']);
  });
});
