// The mock's answers held to Canvas's published models: every answer the mock gives for a page, a
// page revision or an assignment group (each route, each seeded role that gets one) has only the
// fields the model lists (test/fixtures/models/, read off canvas-lms's @model blocks) or the few
// real instances send beyond it, each of the model's type, and the fields it always has. And the
// fixes a check of every GET against the models asked for: the rate headers on every answer, page
// view ids as UUID strings, embedded course enrollments with their role_id, avatar types in
// Canvas's enum (but the seed's `external`, kept where they conflict: docs/mock.md).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshMock, TOKENS } from '../helpers/mock-client.js';

interface Model {
  fields: Record<string, string>;
  always: string[];
  beyond: Record<string, string>;
}
const { models } = JSON.parse(
  readFileSync(join(import.meta.dirname, '../fixtures/models/canvas-models.json'), 'utf8'),
) as { models: Record<string, Model> };

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;

function typeFits(type: string, v: unknown): boolean {
  if (v === null) return true;
  switch (type) {
    case 'integer':
      return Number.isInteger(v);
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'string':
      return typeof v === 'string';
    case 'boolean':
      return typeof v === 'boolean';
    case 'datetime':
      return typeof v === 'string' && ISO.test(v);
    case 'array':
      return Array.isArray(v);
    case 'object':
      return typeof v === 'object' && !Array.isArray(v);
    default:
      throw new Error(`unknown model type ${type}`);
  }
}

/** What is wrong with one answer under a model: fields it does not know, of another type, missing. */
function faults(model: string, value: Record<string, unknown>): string[] {
  const m = models[model];
  const out: string[] = [];
  for (const [k, v] of Object.entries(value)) {
    const type = m.fields[k] ?? m.beyond[k];
    if (!type) out.push(`${model}.${k} is not in the model`);
    else if (!typeFits(type, v)) out.push(`${model}.${k}: ${JSON.stringify(v)} is not ${type}`);
  }
  for (const k of m.always) if (!(k in value)) out.push(`${model}.${k} is missing`);
  if (model === 'AssignmentGroup' && value.rules && typeof value.rules === 'object')
    out.push(...faults('GradingRules', value.rules as Record<string, unknown>));
  return out;
}

const C = '/api/v1/courses/1';
/** Every route of the new resources that answers with one of them, and which model it answers with. */
const ANSWERS: { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; path: string; body?: unknown; model: string }[] = [
  { method: 'GET', path: `${C}/pages`, model: 'Page' },
  { method: 'GET', path: `${C}/pages?sort=title&order=desc&published=true`, model: 'Page' },
  { method: 'GET', path: `${C}/pages/week-1-notes`, model: 'Page' },
  { method: 'GET', path: `${C}/pages/page_id:3`, model: 'Page' },
  { method: 'GET', path: `${C}/front_page`, model: 'Page' },
  { method: 'POST', path: `${C}/pages`, body: { wiki_page: { title: 'Week 2', body: '<p>x</p>' } }, model: 'Page' },
  { method: 'PUT', path: `${C}/pages/week-1-notes`, body: { wiki_page: { title: 'Week One' } }, model: 'Page' },
  { method: 'PUT', path: `${C}/front_page`, body: { wiki_page: { body: '<p>y</p>' } }, model: 'Page' },
  { method: 'DELETE', path: `${C}/pages/lab-safety-draft`, model: 'Page' },
  { method: 'GET', path: `${C}/pages/course-syllabus/revisions`, model: 'PageRevision' },
  { method: 'GET', path: `${C}/pages/course-syllabus/revisions/latest`, model: 'PageRevision' },
  { method: 'GET', path: `${C}/pages/course-syllabus/revisions/1?summary=1`, model: 'PageRevision' },
  { method: 'POST', path: `${C}/pages/course-syllabus/revisions/1`, model: 'PageRevision' },
  { method: 'GET', path: `${C}/assignment_groups?include[]=assignments`, model: 'AssignmentGroup' },
  { method: 'GET', path: `${C}/assignment_groups/1`, model: 'AssignmentGroup' },
  {
    method: 'POST',
    path: `${C}/assignment_groups`,
    body: { name: 'Labs', group_weight: 12.5, rules: { drop_lowest: 1, never_drop: [1] } },
    model: 'AssignmentGroup',
  },
  { method: 'PUT', path: `${C}/assignment_groups/1`, body: { position: 2 }, model: 'AssignmentGroup' },
  { method: 'DELETE', path: `${C}/assignment_groups/6`, model: 'AssignmentGroup' },
];

describe("the new resources' answers, against Canvas's models", () => {
  it.each(ANSWERS)('$method $path', async ({ method, path, body, model }) => {
    let answered = 0;
    for (const token of [TOKENS.teacher, TOKENS.ta, TOKENS.student, TOKENS.observer, TOKENS.admin]) {
      const mock = freshMock();
      const res = await mock.handler({
        method,
        url: `http://lms.mock${path}`,
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      mock.db.close();
      if (res.status >= 300) continue;
      answered++;
      const items = (Array.isArray(res.json) ? res.json : [res.json]) as Record<string, unknown>[];
      expect(items.length, `${token}: an empty answer proves nothing`).toBeGreaterThan(0);
      for (const item of items) expect(faults(model, item), token).toEqual([]);
    }
    expect(answered).toBeGreaterThan(0);
  });

  it('the check can fail: a field the model lacks, a wrong type, a missing field', () => {
    expect(faults('Page', { page_id: '1', url: 'x', title: 't', created_at: 'yesterday', extra: 1 })).toEqual([
      'Page.page_id: "1" is not integer',
      'Page.created_at: "yesterday" is not datetime',
      'Page.extra is not in the model',
      'Page.updated_at is missing',
      'Page.published is missing',
      'Page.front_page is missing',
      'Page.locked_for_user is missing',
    ]);
    expect(
      faults('AssignmentGroup', { id: 1, name: 'a', position: 1, group_weight: 0, rules: { drop_lowest: 'x' } }),
    ).toEqual(['GradingRules.drop_lowest: "x" is not integer']);
  });
});

describe('answers as Canvas gives them', () => {
  const get = async (path: string, token: string = TOKENS.admin) => {
    const mock = freshMock();
    const res = await mock.handler({
      method: 'GET',
      url: `http://lms.mock${path}`,
      headers: { authorization: `Bearer ${token}` },
    });
    mock.db.close();
    return res;
  };

  it.each([
    '/api/v1/courses',
    `${C}/pages`,
    '/api/v1/users/self',
    '/api/v1/no/such/route',
    `${C}/assignment_groups/999`,
  ])('sends X-Request-Cost and X-Rate-Limit-Remaining on every answer, unthrottled too (%s)', async (path) => {
    const res = await get(path);
    expect(Number(res.headers['x-request-cost'])).toBeGreaterThanOrEqual(0);
    expect(res.headers['x-request-cost']).toMatch(/^\d+\.\d+$/);
    expect(res.headers['x-rate-limit-remaining']).toBe('700.0');
  });

  it('gives page view ids as UUID strings, the same on every read', async () => {
    const mock = freshMock();
    const as = (token: string, path: string) =>
      mock.handler({ method: 'GET', url: `http://lms.mock${path}`, headers: { authorization: `Bearer ${token}` } });
    // Sam's own requests are his page views.
    await as(TOKENS.student, `${C}/pages`);
    await as(TOKENS.student, '/api/v1/courses');
    const first = (await as(TOKENS.admin, '/api/v1/users/7/page_views')).json as { id: unknown }[];
    const again = (await as(TOKENS.admin, '/api/v1/users/7/page_views')).json as { id: unknown }[];
    mock.db.close();
    expect(first.length).toBeGreaterThan(1);
    for (const v of first)
      expect(v.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(again.map((v) => v.id)).toEqual(first.map((v) => v.id));
    expect(new Set(first.map((v) => v.id)).size).toBe(first.length);
  });

  it("embeds each course's enrollments with their role_id", async () => {
    const courses = (await get('/api/v1/courses', TOKENS.student)).json as {
      enrollments: { role: string; role_id: unknown }[];
    }[];
    expect(courses.length).toBeGreaterThan(0);
    for (const c of courses)
      for (const e of c.enrollments) expect([e.role, Number.isInteger(e.role_id)]).toEqual([e.role, true]);
  });

  it("keeps avatar types in Canvas's enum, but the seed's `external` (docs/mock.md)", async () => {
    const types = ((await get('/api/v1/users/8/avatars')).json as { type: string }[]).map((a) => a.type);
    expect(types.length).toBeGreaterThan(0);
    for (const t of types)
      expect(['gravatar', 'twitter', 'linked_in', 'attachment', 'no_pic', 'external']).toContain(t);
  });
});
