// Outcome groups in the mock, rule by rule, in the three contexts: the root group made on demand
// behind a redirect, group and link JSON, ownership of outcomes and where they may be linked,
// moving groups, the aligned-outcome refusals, ratings rules and the deep import.
import { beforeEach, describe, expect, it } from 'vitest';
import type { NewOutcome, Outcome, OutcomeContext } from '../../src/spec/types/outcomes.js';
import type { MockRuntime } from '../../src/mock/runtime.js';
import { collect, TOKENS, clientFor, freshMock, statusOf, failure } from '../helpers/mock-client.js';

let mock: MockRuntime;
beforeEach(() => {
  mock = freshMock();
});

const as = (token: string) => clientFor(mock, token).ops.outcomes;
const admin = () => as(TOKENS.admin);
const MSU = { account_id: 1 } as const;
const BIO = { course_id: 1 } as const;
const GLOBAL = { global: true } as const;

const titles = async (c: OutcomeContext, id: number) =>
  (await collect(admin().listLinks({ ...c, id }))).map((l) => l.outcome.title);

describe('root groups and group JSON', () => {
  it('redirects to the root group of each context, made on first need', async () => {
    expect((await admin().rootGroup(MSU)).id).toBe(1);
    expect((await admin().rootGroup(GLOBAL)).id).toBe(7);
    const chem = await admin().rootGroup({ course_id: 2 });
    expect(chem).toMatchObject({
      title: 'Organic Chemistry',
      context_type: 'Course',
      context_id: 2,
      url: `/api/v1/courses/2/outcome_groups/${chem.id}`,
    });
    expect(chem).not.toHaveProperty('parent_outcome_group');
    expect((await admin().rootGroup({ course_id: 'sis_course_id:CHEM-201' })).id).toBe(chem.id);
    const res = await clientFor(mock, TOKENS.admin)
      .send('GET', '/api/v1/accounts/1/root_outcome_group')
      .catch((e: unknown) => e);
    expect(res).toMatchObject({ status: 200 });
  });

  it('makes one root per context, even when an insert races another', async () => {
    const { ensureRootGroup } = await import('../../src/mock/areas/outcomes/repo.js');
    const first = ensureRootGroup(mock.db, { type: 'Course', id: 3 }, 'World History', '2026-11-02T12:00:00Z');
    const second = ensureRootGroup(mock.db, { type: 'Course', id: 3 }, 'World History', '2026-11-02T12:00:00Z');
    expect(second.id).toBe(first.id);
    expect((await admin().rootGroup({ course_id: 3 })).id).toBe(first.id);
    expect(
      mock.db
        .prepare(`SELECT count(*) AS n FROM outcome_groups WHERE context_type = 'Course' AND context_id = 3`)
        .get(),
    ).toEqual({ n: 1 });
  });

  it('takes group fields as a form body as well as JSON', async () => {
    const res = await mock.handler({
      method: 'POST',
      url: 'http://lms.mock/api/v1/accounts/1/outcome_groups/4/subgroups',
      headers: { authorization: `Bearer ${TOKENS.admin}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'title=Rhetoric&vendor_guid=msu-rhetoric&description=Persuasion',
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(String(res.body))).toMatchObject({
      title: 'Rhetoric',
      vendor_guid: 'msu-rhetoric',
      description: 'Persuasion',
      parent_outcome_group: { id: 4 },
    });
  });

  it('answers 302 with the group URL as Location', async () => {
    const res = await mock.handler({
      method: 'GET',
      url: 'http://lms.mock/api/v1/courses/1/root_outcome_group',
      headers: { authorization: `Bearer ${TOKENS.teacher}` },
    });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('http://lms.mock/api/v1/courses/1/outcome_groups/5');
  });

  it('shows a group in full, with its parent abbreviated and opaque relative URLs', async () => {
    expect(await admin().getGroup({ ...MSU, id: 3 })).toEqual({
      id: 3,
      title: 'Laboratory Practice',
      vendor_guid: 'msu-lab',
      url: '/api/v1/accounts/1/outcome_groups/3',
      subgroups_url: '/api/v1/accounts/1/outcome_groups/3/subgroups',
      outcomes_url: '/api/v1/accounts/1/outcome_groups/3/outcomes',
      import_url: '/api/v1/accounts/1/outcome_groups/3/import',
      can_edit: true,
      parent_outcome_group: {
        id: 2,
        title: 'Scientific Literacy',
        vendor_guid: 'msu-sci-lit',
        url: '/api/v1/accounts/1/outcome_groups/2',
        subgroups_url: '/api/v1/accounts/1/outcome_groups/2/subgroups',
        outcomes_url: '/api/v1/accounts/1/outcome_groups/2/outcomes',
        can_edit: true,
      },
      context_id: 1,
      context_type: 'Account',
      description: null,
    });
    expect(await admin().getGroup({ ...GLOBAL, id: 8 })).toMatchObject({
      context_id: null,
      context_type: null,
      url: '/api/v1/global/outcome_groups/8',
    });
  });

  it.each([
    ['a teacher, in their course', TOKENS.teacher, BIO, 6, true],
    ['a student, in their course', TOKENS.student, BIO, 6, false],
    ['a teacher, on global outcomes', TOKENS.teacher, GLOBAL, 8, false],
    ['the site admin, on global outcomes', TOKENS.admin, GLOBAL, 8, true],
    ['the helpdesk admin, on the account', TOKENS.helpdesk, MSU, 2, false],
  ] as const)('can_edit for %s', async (_who, token, c, id, editable) => {
    expect((await as(token).getGroup({ ...c, id })).can_edit).toBe(editable);
  });

  it('finds a group only in its own context, and only for those who may read it', async () => {
    expect(await statusOf(admin().getGroup({ ...MSU, id: 6 }))).toBe(404);
    expect(await statusOf(admin().getGroup({ ...BIO, id: 99 }))).toBe(404);
    expect(await statusOf(as(TOKENS.student).getGroup({ ...MSU, id: 2 }))).toBe(401);
    expect(await statusOf(as(TOKENS.otherTeacher).getGroup({ ...BIO, id: 6 }))).toBe(401);
    expect(await statusOf(admin().rootGroup({ account_id: 99 }))).toBe(404);
  });

  it('lists subgroups by title (abbreviated) and links by outcome title', async () => {
    const subgroups = await collect(admin().listSubgroups({ ...MSU, id: 1 }));
    expect(subgroups.map((g) => g.title)).toEqual(['Scientific Literacy', 'Written Communication']);
    expect(subgroups[0]).not.toHaveProperty('description');
    const links = await collect(as(TOKENS.teacher).listLinks({ ...BIO, id: 6 }));
    expect(links.map((l) => [l.outcome.title, l.outcome.context_type])).toEqual([
      ['Describes cell structure', 'Course'],
      ['Formulates hypotheses', 'Account'],
      ['Interprets data', 'Account'],
    ]);
    expect(links[1]).toMatchObject({
      url: '/api/v1/courses/1/outcome_groups/6/outcomes/1',
      context_type: 'Course',
      context_id: 1,
      outcome_group: { id: 6, title: 'BIO-101 Outcomes' },
      outcome: { id: 1, url: '/api/v1/outcomes/1', vendor_guid: 'msu-hypothesis', can_edit: false },
    });
    expect(links[1].outcome).not.toHaveProperty('ratings');
    const full = await collect(admin().listLinks({ ...BIO, id: 6, outcome_style: 'full' }));
    expect(full[1].outcome).toMatchObject({
      mastery_points: 3,
      points_possible: 4,
      calculation_method: 'decaying_average',
      calculation_int: 65,
      ratings: expect.any(Array),
    });
    const paged = await collect(
      clientFor(mock, TOKENS.admin, { perPage: 1 }).ops.outcomes.listLinks({ ...BIO, id: 6 }),
    );
    expect(paged.map((l) => l.outcome.id)).toEqual([5, 1, 2]);
  });
});

describe('creating outcomes', () => {
  it.each([
    [
      'ratings with mastery points',
      {
        mastery_points: 2,
        ratings: [
          { description: 'Great', points: 3 },
          { description: 'Fine', points: 2 },
        ],
      },
      { mastery_points: 2, points_possible: 3 },
    ],
    [
      'mastery defaulting to the top rating',
      {
        ratings: [
          { description: 'Great', points: 5 },
          { description: 'Poor', points: 1 },
        ],
      },
      { mastery_points: 5, points_possible: 5 },
    ],
    [
      'a rating with no description or points',
      { ratings: [{ points: 2 }, {}] },
      {
        ratings: [
          { description: 'No description', points: 2 },
          { description: 'No description', points: 0 },
        ],
      },
    ],
    ['no ratings: mastery_points ignored', { mastery_points: 3 }, { mastery_points: null, points_possible: null }],
    [
      'a calculation method',
      { calculation_method: 'n_mastery', calculation_int: 3 },
      { calculation_method: 'n_mastery', calculation_int: 3 },
    ],
    ['the default calculation', {}, { calculation_method: 'decaying_average', calculation_int: 65 }],
    ['latest: no calculation_int', { calculation_method: 'latest' }, { calculation_int: null }],
  ] as const)('with %s', async (_what, extra, expected) => {
    const link = await admin().createOutcome({
      ...MSU,
      id: 4,
      title: 'Cites sources',
      vendor_guid: 'msu-cites',
      ...(extra as NewOutcome),
    });
    expect(link.outcome).toMatchObject({
      title: 'Cites sources',
      vendor_guid: 'msu-cites',
      context_type: 'Account',
      context_id: 1,
      ...expected,
    });
    expect(await titles(MSU, 4)).toContain('Cites sources');
  });

  it.each([
    ['no title', {}, 'title'],
    ['a blank title', { title: '  ' }, 'title'],
    ['an unknown calculation method', { title: 'x', calculation_method: 'median' }, 'calculation_method'],
    [
      'a calculation_int out of range',
      { title: 'x', calculation_method: 'decaying_average', calculation_int: 100 },
      'calculation_int',
    ],
    ['points that are not a number', { title: 'x', ratings: [{ description: 'a', points: 'lots' }] }, 'points'],
  ] as const)('refuses %s', async (_what, params, field) => {
    const { status, body } = await failure(admin().createOutcome({ ...MSU, id: 4, ...(params as object) }));
    expect(status).toBe(400);
    expect(JSON.stringify(body)).toContain(field);
    expect(await titles(MSU, 4)).toEqual(['Writes clearly and concisely']);
  });

  it("creates the outcome in the group's context, and links an existing one given outcome_id", async () => {
    const link = await as(TOKENS.teacher).createOutcome({ ...BIO, id: 6, title: 'Uses a microscope' });
    expect(link.outcome).toMatchObject({ context_type: 'Course', context_id: 1, can_edit: true });
    const linked = await admin().createOutcome({ ...BIO, id: 5, outcome_id: 1 });
    expect(linked.outcome.id).toBe(1);
  });

  it('lets only those who manage the context create', async () => {
    expect(await statusOf(as(TOKENS.student).createOutcome({ ...BIO, id: 6, title: 'x' }))).toBe(401);
    expect(await statusOf(as(TOKENS.teacher).createOutcome({ ...GLOBAL, id: 8, title: 'x' }))).toBe(401);
    expect(await statusOf(as(TOKENS.teacher).createSubgroup({ ...MSU, id: 1, title: 'x' }))).toBe(401);
    expect(await statusOf(admin().createOutcome({ ...GLOBAL, id: 8, title: 'Reasons from evidence' }))).toBe('ok');
  });
});

describe('linking', () => {
  it.each([
    ['an account outcome into a course of that account', BIO, 5, 4, 'ok'],
    ['a global outcome into a course', BIO, 6, 6, 'ok'],
    ['a global outcome into an account', MSU, 4, 6, 'ok'],
    ['a course outcome into its account', MSU, 4, 5, 400],
    ['an outcome that does not exist', BIO, 6, 99, 404],
  ] as const)('%s', async (_what, c, id, outcome, expected) => {
    expect(await statusOf(admin().linkOutcome({ ...c, id, outcome_id: outcome }))).toBe(expected);
  });

  it("links a sub-account's outcome in its courses, not in a sibling account's", async () => {
    const science = await admin().rootGroup({ account_id: 2 });
    const { outcome } = await admin().createOutcome({ account_id: 2, id: science.id, title: 'Designs experiments' });
    expect(await statusOf(admin().linkOutcome({ ...BIO, id: 6, outcome_id: outcome.id }))).toBe('ok');
    const history = await admin().rootGroup({ course_id: 3 });
    expect(await statusOf(admin().linkOutcome({ course_id: 3, id: history.id, outcome_id: outcome.id }))).toBe(400);
    expect(await statusOf(admin().linkOutcome({ ...MSU, id: 1, outcome_id: outcome.id }))).toBe(400);
  });

  it('refuses a course outcome in another course', async () => {
    const chem = await admin().rootGroup({ course_id: 2 });
    const { status, body } = await failure(admin().linkOutcome({ course_id: 2, id: chem.id, outcome_id: 5 }));
    expect(status).toBe(400);
    expect((body as { message: string }).message).toContain('course 1');
  });

  it('links an outcome into a group once: linking again returns the same link', async () => {
    const first = await admin().linkOutcome({ ...MSU, id: 4, outcome_id: 1 });
    const again = await admin().linkOutcome({ ...MSU, id: 4, outcome_id: 1 });
    expect(again).toEqual(first);
    expect(await titles(MSU, 4)).toEqual(['Formulates hypotheses', 'Writes clearly and concisely']);
  });
});

describe('moving groups', () => {
  it('moves a group within its context, and changes title, description and GUID', async () => {
    const moved = await admin().updateGroup({
      ...MSU,
      id: 3,
      parent_outcome_group_id: 4,
      title: 'Lab Practice',
      description: 'At the bench',
    });
    expect(moved).toMatchObject({
      title: 'Lab Practice',
      description: 'At the bench',
      vendor_guid: 'msu-lab',
      parent_outcome_group: { id: 4 },
    });
    expect((await collect(admin().listSubgroups({ ...MSU, id: 2 }))).length).toBe(0);
  });

  it.each([
    ['below one of its descendants', { id: 2, parent_outcome_group_id: 3 }, 400],
    ['below itself', { id: 2, parent_outcome_group_id: 2 }, 400],
    ['into another context', { id: 3, parent_outcome_group_id: 6 }, 400],
    ['below a group that does not exist', { id: 3, parent_outcome_group_id: 99 }, 404],
    ['the root group', { id: 1, title: 'New name' }, 400],
    ['to a blank title', { id: 3, title: '' }, 400],
  ] as const)('refuses a move %s', async (_what, params, status) => {
    expect(await statusOf(admin().updateGroup({ ...MSU, ...params }))).toBe(status);
    expect((await admin().getGroup({ ...MSU, id: 3 })).parent_outcome_group?.id).toBe(2);
  });
});

describe('deleting and unlinking aligned outcomes', () => {
  it('refuses to delete a group whose removal would delete an aligned outcome, changing nothing', async () => {
    for (const id of [3, 2]) {
      const { status, body } = await failure(admin().deleteGroup({ ...MSU, id }));
      expect(status).toBe(400);
      expect((body as { message: string }).message).toContain('Follows lab safety procedures');
    }
    expect(await titles(MSU, 3)).toEqual(['Follows lab safety procedures']);
    expect(await titles(MSU, 2)).toEqual(['Formulates hypotheses', 'Interprets data']);
  });

  it('deletes the group once the aligned outcome is linked elsewhere; the outcome stays', async () => {
    await admin().linkOutcome({ ...MSU, id: 4, outcome_id: 3 });
    const deleted = await admin().deleteGroup({ ...MSU, id: 2 });
    expect(deleted).toMatchObject({ id: 2, title: 'Scientific Literacy' });
    expect(await statusOf(admin().getGroup({ ...MSU, id: 3 }))).toBe(404);
    expect(await titles(MSU, 4)).toContain('Follows lab safety procedures');
    // Outcomes still linked in the course survive too.
    expect(await titles(BIO, 6)).toEqual(['Describes cell structure', 'Formulates hypotheses', 'Interprets data']);
  });

  it('deletes an outcome with its last link', async () => {
    await admin().deleteGroup({ ...MSU, id: 4 });
    expect(await statusOf(admin().linkOutcome({ ...MSU, id: 1, outcome_id: 4 }))).toBe(404);
    await admin().unlinkOutcome({ ...BIO, id: 6, outcome_id: 5 });
    expect(await statusOf(admin().linkOutcome({ ...BIO, id: 5, outcome_id: 5 }))).toBe(404);
  });

  it('refuses to unlink the last link of an aligned outcome, and unlinks any other', async () => {
    const { status, body } = await failure(admin().unlinkOutcome({ ...MSU, id: 3, outcome_id: 3 }));
    expect(status).toBe(400);
    expect((body as { message: string }).message).toContain('aligned');
    expect((await collect(admin().listLinks({ ...MSU, id: 3 })))[0].can_unlink).toBe(false);
    const unlinked = await admin().unlinkOutcome({ ...MSU, id: 2, outcome_id: 1 });
    expect(unlinked).toMatchObject({ outcome: { id: 1 }, outcome_group: { id: 2 } });
    expect(await titles(BIO, 6)).toContain('Formulates hypotheses');
    expect(await statusOf(admin().unlinkOutcome({ ...MSU, id: 2, outcome_id: 1 }))).toBe(404);
  });
});

describe('importing a group', () => {
  it('copies an account group into a course: subgroups copied, the same outcomes linked, none copied', async () => {
    const copy = await admin().importGroup({ ...BIO, id: 5, source_outcome_group_id: 2 });
    expect(copy).toMatchObject({
      title: 'Scientific Literacy',
      description: 'Reasoning with evidence across the sciences',
      context_type: 'Course',
      context_id: 1,
      parent_outcome_group: { id: 5 },
    });
    const links = await collect(admin().listLinks({ ...BIO, id: copy.id }));
    expect(links.map((l) => [l.outcome.id, l.outcome.context_type])).toEqual([
      [1, 'Account'],
      [2, 'Account'],
    ]);
    const [lab] = await collect(admin().listSubgroups({ ...BIO, id: copy.id }));
    expect(lab.title).toBe('Laboratory Practice');
    expect((await collect(admin().listLinks({ ...BIO, id: lab.id }))).map((l) => l.outcome.id)).toEqual([3]);
    // The aligned outcome now has two links: its account link can go.
    expect(await statusOf(admin().unlinkOutcome({ ...MSU, id: 3, outcome_id: 3 }))).toBe('ok');
  });

  it('imports a group into its own subtree once', async () => {
    const copy = await admin().importGroup({ ...MSU, id: 3, source_outcome_group_id: 2 });
    const inner = await collect(admin().listSubgroups({ ...MSU, id: copy.id }));
    expect(inner.map((g) => g.title)).toEqual(['Laboratory Practice']);
    expect(await collect(admin().listSubgroups({ ...MSU, id: inner[0].id }))).toEqual([]);
  });

  it.each([
    ['no source', {}, 400],
    ['a source that does not exist', { source_outcome_group_id: 99 }, 400],
    ['a root group', { source_outcome_group_id: 1 }, 400],
    ['a group of a course into its account', { source_outcome_group_id: 6 }, 400],
  ] as const)('refuses %s', async (_what, params, status) => {
    expect(
      await statusOf(admin().importGroup({ ...MSU, id: 4, ...(params as { source_outcome_group_id: number }) })),
    ).toBe(status);
  });

  it('imports a global group anywhere', async () => {
    const copy = await as(TOKENS.teacher).importGroup({ ...BIO, id: 5, source_outcome_group_id: 8 });
    expect(
      (await collect(admin().listLinks({ ...BIO, id: copy.id }))).map((l) => (l.outcome as Outcome).title),
    ).toEqual(['Evaluates arguments']);
  });
});
