// End to end: rubrics in `lms apply` against `lms mock serve`, writes counted in the server's own
// log. A rubric is made after the assignment it grades; re-applied, nothing is written; a changed
// rating is one PUT; dropped from the file and pruned, one DELETE, and the assignment stays.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, e2eWorkspace, ensureBuilt, serveMock, spawnLms, type Served } from '../helpers/e2e.js';

const { dir, env } = e2eWorkspace('e2e-apply-rubrics');
let served: Served | undefined;
const writes = (log: string) => log.split('\n').filter((l) => /^(POST|PUT|DELETE) /.test(l));

const FILE =
  `courses:
  - sis_course_id: E2E-RUB
    name: Rubrics end to end
    account: sis_account_id:MSU
    assignments:
      - { key: essay, name: Essay, points_possible: 12 }
    rubrics:
      - key: essay
        title: Essay rubric
        assignment: essay
        use_for_grading: true
        criteria:
          - { description: Thesis, points: 4 }
          - description: Evidence
            points: 8
            ratings: [{ description: Strong, points: 8 }, { description: Thin, points: 3 }, { description: None, ` +
  `points: 0 }]
`;

beforeAll(async () => {
  await ensureBuilt();
  const seeded = await spawnLms(['--mock', 'mock', 'seed', '--yes'], env);
  expect(seeded.exitCode, seeded.stderr).toBe(0);
  served = await serveMock(env);
}, 120_000);

afterAll(async () => {
  await served?.stop();
});

describe('rubrics in lms apply against lms mock serve', () => {
  it('create after the assignment, re-apply writes nothing, an edit is one PUT, --prune one DELETE', async () => {
    const http = { ...env, LMS_BASE_URL: served!.url, LMS_TOKEN: ADMIN, LMS_STATE_DIR: join(dir, 'state') };
    const path = join(dir, 'course.yaml');
    writeFileSync(path, FILE);

    let mark = served!.log().length;
    const made = await spawnLms(['apply', '-f', path, '--yes', '-o', 'json'], http);
    expect(made.exitCode, made.stderr).toBe(0);
    const sent = writes(served!.log().slice(mark));
    const assignment = sent.findIndex((l) => /^POST \S*\/assignments\b/.test(l));
    const rubric = sent.findIndex((l) => /^POST \S*\/rubrics\b/.test(l));
    expect(assignment).toBeGreaterThanOrEqual(0);
    expect(rubric).toBeGreaterThan(assignment);

    mark = served!.log().length;
    const again = await spawnLms(['apply', '-f', path, '--yes', '-o', 'json'], http);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(writes(served!.log().slice(mark))).toEqual([]);

    writeFileSync(path, FILE.replace('{ description: Thin, points: 3 }', '{ description: Thin, points: 4 }'));
    mark = served!.log().length;
    const edited = await spawnLms(['apply', '-f', path, '--yes', '-o', 'json'], http);
    expect(edited.exitCode, edited.stderr).toBe(0);
    expect(writes(served!.log().slice(mark))).toEqual([expect.stringMatching(/^PUT \S*\/rubrics\/\d+/)]);

    writeFileSync(path, FILE.replace(/ {4}rubrics:[\s\S]*$/, '    rubrics: []\n'));
    mark = served!.log().length;
    const pruned = await spawnLms(['apply', '-f', path, '--prune', '--yes', '-o', 'json'], http);
    expect(pruned.exitCode, pruned.stderr).toBe(0);
    expect(writes(served!.log().slice(mark))).toEqual([expect.stringMatching(/^DELETE \S*\/rubrics\/\d+/)]);
    const left = await spawnLms(['assignments', 'list', '--course', 'sis_course_id:E2E-RUB', '-o', 'json'], http);
    expect(JSON.parse(left.stdout)).toHaveLength(1);
  }, 120_000);
});
