// End to end: rubrics as the built binary runs them against `lms mock serve` — every verb, grading
// by rubric for one student and from a CSV read back — and the requests a reference client
// (ucfopen/canvasapi's rubric.py and course.py: form fields `rubric[criteria][0][…]`, Link paging,
// the submissions API's rubric_assessment) makes, unmodified, over HTTP.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2eWorkspace, ensureBuilt, serveMock, spawnLms, type Served } from '../helpers/e2e.js';

const { dir, env } = e2eWorkspace('e2e-rubrics');
const TEACHER = '3~mock-tteacher';
let served: Served;
let http: Record<string, string>;

beforeAll(async () => {
  await ensureBuilt();
  served = await serveMock({ ...env, LMS_MOCK_DB: join(dir, 'rubrics.db') }, ['--quiet']);
  http = { ...env, LMS_BASE_URL: served.url, LMS_TOKEN: TEACHER, LMS_STATE_DIR: join(dir, 'state') };
}, 60_000);
afterAll(async () => served?.stop());

const lms = async (args: string[]) => {
  const r = await spawnLms([...args, '-o', 'json'], http);
  expect(r.exitCode, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Record<string, unknown>;
};

describe('lms rubrics over HTTP', () => {
  it('creates, lists, shows, updates, grades by it, and deletes', async () => {
    const made = (await lms([
      'rubrics',
      'create',
      '--course',
      '1',
      '--title',
      'Poster',
      '--criterion',
      'Layout:4:Tidy=4,Messy=1',
      '--criterion',
      'Content:6',
      '--assignment',
      '3',
      '--use-for-grading',
    ])) as { rubric: { id: number; data: { id: string }[] } };
    const id = made.rubric.id;
    const listed = (await lms(['rubrics', 'list', '--course', '1'])) as unknown as { id: number }[];
    expect(listed.map((r) => r.id)).toContain(id);
    const shown = await lms(['rubrics', 'get', String(id), '--course', '1', '--associations']);
    expect((shown.associations as { association_type: string }[]).map((a) => a.association_type).sort()).toEqual([
      'Assignment',
      'Course',
    ]);
    await lms(['rubrics', 'update', String(id), '--course', '1', '--title', 'Poster (v2)']);

    const graded = await lms([
      'grade',
      '--course',
      '1',
      '--assignment',
      '3',
      '--user',
      '9',
      '--rubric',
      'layout=4',
      '--rubric',
      'Content=5,Cite the sources',
    ]);
    expect(graded.score).toBe(9);

    const csv = join(dir, 'poster.csv');
    writeFileSync(csv, 'user,Layout,Content,content comments\n7,1,6,Thorough\nsis_user_id:S-009,4,6,\n');
    const run = (await lms(['grade', '--course', '1', '--assignment', '3', '--csv', csv])) as {
      updated: number;
      rows: { user_id: number; new_score: number }[];
    };
    expect(run.updated).toBe(2);
    expect(run.rows.map((r) => [r.user_id, r.new_score])).toEqual([
      [7, 7],
      [9, 10],
    ]);
    expect(await lms(['grade', '--course', '1', '--assignment', '3', '--csv', csv])).toMatchObject({
      updated: 0,
      unchanged: 2,
    });

    const refused = await spawnLms(['rubrics', 'delete', String(id), '--course', '1', '--no-input'], http);
    expect(refused.exitCode).toBe(2);
    await lms(['rubrics', 'delete', String(id), '--course', '1', '--yes']);
    const gone = await spawnLms(['rubrics', 'get', String(id), '--course', '1'], http);
    expect(gone.exitCode).toBe(4);
  }, 120_000);
});

describe('a reference client, unmodified', () => {
  const call = async (method: string, path: string, form?: Record<string, string>) => {
    const r = await fetch(path.startsWith('http') ? path : `${served.url}/api/v1/${path}`, {
      method,
      headers: {
        authorization: `Bearer ${TEACHER}`,
        'user-agent': 'canvasapi-like/1.0',
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    return { status: r.status, link: r.headers.get('link'), body: (await r.json()) as Record<string, unknown> };
  };

  it('creates a rubric as Course.create_rubric sends it, ' +
    'pages the list, assesses, and deletes as Rubric.delete', async () => {
    const made = await call('POST', 'courses/1/rubrics', {
      'rubric[title]': 'Field notes',
      'rubric[criteria][0][description]': 'Observation',
      'rubric[criteria][0][points]': '5',
      'rubric[criteria][0][ratings][0][description]': 'Detailed',
      'rubric[criteria][0][ratings][0][points]': '5',
      'rubric[criteria][0][ratings][1][description]': 'Sparse',
      'rubric[criteria][0][ratings][1][points]': '2',
      'rubric_association[association_id]': '1',
      'rubric_association[association_type]': 'Assignment',
      'rubric_association[use_for_grading]': 'true',
      'rubric_association[purpose]': 'grading',
    });
    expect(made.status).toBe(200);
    const rubric = made.body.rubric as { id: number; data: { id: string }[]; points_possible: number };
    expect(rubric.points_possible).toBe(5);
    expect(made.body.rubric_association).toMatchObject({ association_type: 'Assignment', use_for_grading: true });

    // Course.get_rubrics: a PaginatedList following Link rel="next".
    const ids: number[] = [];
    let next: string | undefined = `${served.url}/api/v1/courses/1/rubrics?per_page=1`;
    while (next) {
      const page = await call('GET', next);
      expect(page.status).toBe(200);
      ids.push(...(page.body as unknown as { id: number }[]).map((r) => r.id));
      next = /<([^>]+)>; rel="next"/.exec(page.link ?? '')?.[1];
    }
    expect(ids).toContain(rubric.id);
    const single = await call('GET', `courses/1/rubrics/${rubric.id}?include[]=assessments&style=full`);
    expect(single.body).toMatchObject({ id: rubric.id, title: 'Field notes', assessments: [] });

    // Submission.edit(rubric_assessment=…): the rubric grades assignment 1 now.
    const graded = await call('PUT', 'courses/1/assignments/1/submissions/9?include[]=rubric_assessment', {
      [`rubric_assessment[${rubric.data[0].id}][points]`]: '2',
      [`rubric_assessment[${rubric.data[0].id}][comments]`]: 'More detail',
    });
    expect(graded.status).toBe(200);
    expect(graded.body).toMatchObject({
      score: 2,
      rubric_assessment: { [rubric.data[0].id]: { points: 2, comments: 'More detail' } },
    });

    const deleted = await call('DELETE', `courses/1/rubrics/${rubric.id}`);
    expect(deleted).toMatchObject({ status: 200, body: { id: rubric.id, title: 'Field notes' } });
  }, 60_000);

  it('associates and assesses as RubricAssociation and RubricAssessment call them', async () => {
    // Course.create_rubric_association, then RubricAssociation.update.
    const linked = await call('POST', 'courses/1/rubric_associations', {
      'rubric_association[rubric_id]': '1',
      'rubric_association[association_id]': '2',
      'rubric_association[association_type]': 'Assignment',
      'rubric_association[purpose]': 'grading',
      'rubric_association[use_for_grading]': 'True',
    });
    expect(linked.status).toBe(200);
    const association = linked.body.rubric_association as { id: number; association_type: string };
    expect(association).toMatchObject({ association_type: 'Assignment', association_id: 2, use_for_grading: true });
    const updated = await call('PUT', `courses/1/rubric_associations/${association.id}`, {
      'rubric_association[hide_points]': 'True',
    });
    expect(updated.body.rubric_association).toMatchObject({ id: association.id, hide_points: true });

    // RubricAssociation.create_rubric_assessment, RubricAssessment.update and .delete.
    const assessed = await call('POST', `courses/1/rubric_associations/${association.id}/rubric_assessments`, {
      'rubric_assessment[user_id]': '9',
      'rubric_assessment[assessment_type]': 'grading',
      'rubric_assessment[criterion_hypothesis][points]': '5',
      'rubric_assessment[criterion_method][points]': '3',
      'rubric_assessment[criterion_method][comments]': 'Name the control',
    });
    expect(assessed.status).toBe(200);
    expect(assessed.body).toMatchObject({
      rubric_association_id: association.id,
      score: 8,
      artifact_type: 'Submission',
    });
    const at = `courses/1/rubric_associations/${association.id}/rubric_assessments/${assessed.body.id}`;
    const changed = await call('PUT', at, { 'rubric_assessment[criterion_method][points]': '5' });
    expect(changed.body).toMatchObject({ id: assessed.body.id, score: 5 });
    const graded = await call('GET', 'courses/1/assignments/2/submissions/9');
    expect(graded.body.score).toBe(5);
    expect((await call('DELETE', at)).status).toBe(200);
    const gone = await call('DELETE', `courses/1/rubric_associations/${association.id}`);
    expect(gone).toMatchObject({ status: 200, body: { id: association.id, association_type: 'Assignment' } });
  }, 60_000);
});
