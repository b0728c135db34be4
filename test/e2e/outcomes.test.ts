// End to end: outcomes and quizzes as the built binary runs them against `lms mock serve` — a
// 300-outcome tree imported twice (the second run changes nothing), an import killed with SIGKILL
// and run again (the same tree, nothing twice), and the refusals over HTTP.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, e2eWorkspace, ensureBuilt, journalLines, serveMock, spawnLms, type Served } from '../helpers/e2e.js';

const { dir, env } = e2eWorkspace('e2e-outcomes');
const servers: Served[] = [];

/** 10 groups of 2 subgroups of 15 outcomes (300), the first of each subgroup linked in its group too. */
function bigTree(prefix: string): string {
  const lines = ['groups:'];
  for (let g = 1; g <= 10; g++) {
    lines.push(
      `  - title: Domain ${g}`,
      `    vendor_guid: ${prefix}-d${g}`,
      '    outcomes:',
      `      - vendor_guid: ${prefix}-d${g}-s1-o1`,
      '    groups:',
    );
    for (let s = 1; s <= 2; s++) {
      lines.push(`      - title: Strand ${g}.${s}`, `        vendor_guid: ${prefix}-d${g}-s${s}`, '        outcomes:');
      for (let o = 1; o <= 15; o++) {
        lines.push(
          `          - title: Standard ${g}.${s}.${o}`,
          `            vendor_guid: ${prefix}-d${g}-s${s}-o${o}`,
          `            description: Outcome ${o} of strand ${g}.${s}`,
          ...(o % 3 === 0
            ? []
            : [
                '            mastery_points: 3',
                '            ratings: ["4:Exceeds", "3:Meets", "2:Approaching", "1:Beginning"]',
              ]),
        );
      }
    }
  }
  const file = join(dir, `${prefix}.yaml`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

interface Node {
  id: number;
  vendor_guid: string | null;
  outcomes: { id: number; vendor_guid: string | null }[];
  groups: Node[];
}

/** Every group and every link of a context's tree, with their GUIDs. */
async function treeOf(
  http: Record<string, string>,
  account: string,
): Promise<{ groups: string[]; links: string[]; outcomes: Set<number> }> {
  const r = await spawnLms(['outcomes', 'tree', '--account', account, '-o', 'json'], http);
  expect(r.exitCode, r.stderr).toBe(0);
  const out = { groups: [] as string[], links: [] as string[], outcomes: new Set<number>() };
  const walk = (n: Node) => {
    if (n.vendor_guid) out.groups.push(n.vendor_guid);
    for (const o of n.outcomes) {
      out.links.push(o.vendor_guid ?? '');
      out.outcomes.add(o.id);
    }
    n.groups.forEach(walk);
  };
  walk(JSON.parse(r.stdout) as Node);
  return out;
}

beforeAll(ensureBuilt);
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});

async function server(name: string, flags: string[] = []) {
  const s = await serveMock({ ...env, LMS_MOCK_DB: join(dir, `${name}.db`) }, ['--quiet', ...flags]);
  servers.push(s);
  return s;
}

describe('lms outcomes import of a 300-outcome tree', () => {
  it('builds it, and a second run changes nothing', async () => {
    const s = await server('twice');
    const http = { ...env, LMS_BASE_URL: s.url, LMS_TOKEN: ADMIN, LMS_STATE_DIR: join(dir, 'state-twice') };
    const file = bigTree('std');
    const first = await spawnLms(['outcomes', 'import', '--account', '2', file, '-o', 'json'], http);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ total: 330, created: 330, failed: 0 });
    const tree = await treeOf(http, '2');
    expect(tree.groups).toHaveLength(30);
    expect(tree.outcomes.size).toBe(300);
    expect(tree.links).toHaveLength(310);

    const second = await spawnLms(['outcomes', 'import', '--account', '2', file, '-o', 'json'], http);
    expect(second.exitCode, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ created: 0, updated: 0, failed: 0, skipped_done: 330 });
    // Checked row by row against the server, with no journal: everything is there as the file says.
    const checked = await spawnLms(['outcomes', 'import', '--account', '2', '--restart', file, '-o', 'json'], http);
    expect(checked.exitCode, checked.stderr).toBe(0);
    expect(JSON.parse(checked.stdout)).toMatchObject({ created: 0, updated: 0, failed: 0, existed: 330 });
    expect(await treeOf(http, '2')).toEqual(tree);
  }, 120_000);

  it('completes after a kill -9 midway, with nothing twice', async () => {
    const s = await server('killed', ['--latency', '15']);
    const state = join(dir, 'state-killed');
    const http = { ...env, LMS_BASE_URL: s.url, LMS_TOKEN: ADMIN, LMS_STATE_DIR: state };
    const file = bigTree('kill');
    const child = spawnLms(['outcomes', 'import', '--account', '2', file, '--concurrency', '2'], http);
    const deadline = Date.now() + 60_000;
    while (journalLines(state) < 120 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    child.kill('SIGKILL');
    expect((await child).signal).toBe('SIGKILL');
    const partial = await treeOf(http, '2');
    expect(partial.outcomes.size).toBeGreaterThan(0);
    expect(partial.outcomes.size).toBeLessThan(300);

    const rerun = await spawnLms(['outcomes', 'import', '--account', '2', file, '-o', 'json'], http);
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    const summary = JSON.parse(rerun.stdout) as {
      created: number;
      existed: number;
      updated: number;
      skipped_done: number;
      failed: number;
    };
    expect(summary.failed).toBe(0);
    expect(summary.created + summary.existed + summary.updated + summary.skipped_done).toBe(330);
    const tree = await treeOf(http, '2');
    expect(tree.groups).toHaveLength(30);
    expect(new Set(tree.groups).size).toBe(30);
    expect(tree.outcomes.size).toBe(300);
    expect(tree.links).toHaveLength(310);
  }, 120_000);
});

describe('outcomes and quizzes over HTTP', () => {
  it('follows the root redirect, refuses what the rules refuse, and names the parameter a quiz breaks', async () => {
    const s = await server('rules');
    const http = { ...env, LMS_BASE_URL: s.url, LMS_TOKEN: ADMIN };
    const [root, unlink, move, quiz, unpublish] = await Promise.all([
      spawnLms(['outcomes', 'root', '--course', 'sis_course_id:BIO-101', '-o', 'json'], http),
      spawnLms(['outcomes', 'unlink', '3', '3', '--account', '1', '--yes', '-o', 'json'], http),
      spawnLms(['outcomes', 'groups', 'update', '2', '--account', '1', '--parent', '3', '-o', 'json'], http),
      spawnLms(
        [
          'quizzes',
          'create',
          '--course',
          '1',
          '--title',
          'Bad',
          '--quiz-type',
          'survey',
          '--assignment-group-id',
          '1',
          '-o',
          'json',
        ],
        http,
      ),
      spawnLms(['quizzes', 'unpublish', '3', '--course', '2', '-o', 'json'], http),
    ]);
    expect(root.exitCode, root.stderr).toBe(0);
    expect(JSON.parse(root.stdout)).toMatchObject({
      id: 5,
      title: 'Introduction to Biology',
      url: '/api/v1/courses/1/outcome_groups/5',
    });
    for (const r of [unlink, move, quiz, unpublish]) expect(r.exitCode, r.stderr).toBe(5);
    expect(unlink.stderr).toContain('aligned');
    expect(move.stderr).toContain('descendants');
    expect(quiz.stderr).toContain('assignment_group_id');
    expect(unpublish.stderr).toContain("Can't unpublish");
  }, 60_000);
});
