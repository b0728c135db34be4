// Every verb that always destroys (deletes, or ends an enrollment) is asked about, from the one
// declaration the command model gives (destroysAlways): in a script without --yes it is a usage
// error and nothing is sent. The walk covers every verb, so a new one that destroys without asking
// fails here.
import { describe, expect, it } from 'vitest';
import { destroysAlways } from '../../src/model/command.js';
import type { MockHandler } from '../../src/mock/handler.js';
import { declaredVerbs } from '../helpers/verbs.js';
import { session, splitArgs } from '../helpers/run-lms.js';

const verbs = (await declaredVerbs()).filter((v) => destroysAlways(v.spec) && v.spec.destroys !== 'asks');
/** Each verb's first example, as a script would type it: without --yes. */
const lines = verbs.map((v) => {
  const example = (v.spec.examples ?? []).find((e) => e.startsWith(`lms ${v.path.join(' ')} `));
  return [
    v.path.join(' '),
    example
      ? splitArgs(example)
          .slice(1)
          .filter((w) => w !== '--yes')
      : undefined,
  ] as const;
});

/** The requests the mock is sent, by method. */
function watchWrites(lms: ReturnType<typeof session>): string[] {
  const writes: string[] = [];
  const handler: MockHandler = lms.mock.handler;
  lms.mock.handler = async (request) => {
    if (request.method !== 'GET') writes.push(`${request.method} ${request.url}`);
    return handler(request);
  };
  return writes;
}

describe('verbs that always destroy', () => {
  it('include the ones that end access: enrollments conclude, deactivate and delete; users delete', () => {
    const names = verbs.map((v) => v.path.join(' '));
    expect(names).toEqual(
      expect.arrayContaining(['enrollments conclude', 'enrollments deactivate', 'enrollments delete', 'users delete']),
    );
  });

  it.each(lines)('%s: in a script without --yes, exit 2 and nothing sent', async (_name, argv) => {
    expect(argv, 'the verb has an example to run').toBeDefined();
    const lms = session();
    const writes = watchWrites(lms);
    const r = await lms.run(argv!);
    expect(r.stderr).toMatch(/pass --yes to confirm/);
    expect(r.exitCode).toBe(2);
    expect(writes).toEqual([]);
  });
});

describe('lms api', () => {
  it('asks before a DELETE: in a script without --yes, exit 2 and nothing sent', async () => {
    const lms = session();
    const writes = watchWrites(lms);
    const r = await lms.run('api DELETE /api/v1/courses/1/enrollments/4 -f task=conclude');
    expect(r).toMatchObject({ exitCode: 2 });
    expect(r.stderr).toMatch(/DELETE \/api\/v1\/courses\/1\/enrollments\/4: pass --yes/);
    expect(writes).toEqual([]);
  });

  it('sends it with --yes', async () => {
    const lms = session();
    const writes = watchWrites(lms);
    const r = await lms.run('api DELETE /api/v1/courses/1/enrollments/4 -f task=conclude --yes -o json');
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ id: 4, enrollment_state: 'completed' });
    expect(writes).toHaveLength(1);
  });

  it('has --dry-run: the write is shown, not sent, and nothing is asked', async () => {
    const lms = session();
    const writes = watchWrites(lms);
    const r = await lms.run('api DELETE /api/v1/courses/1/enrollments/4 -f task=conclude --dry-run');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/DELETE/);
    expect(r.stdout).toMatch(/enrollments\/4/);
    expect(writes).toEqual([]);
  });
});
