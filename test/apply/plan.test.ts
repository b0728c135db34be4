// The plan: what would change, grouped by course, read from the instance and nothing written; after
// an apply, an edit of one field is exactly one change in it.
import { describe, expect, it } from 'vitest';
import { COURSE_YAML, counted, issueCourse, type Counted } from './helpers.js';

async function applied(): Promise<{ s: Counted; path: string }> {
  const s = counted();
  const path = issueCourse(s);
  const r = await s.run(['apply', '-f', path, '--yes']);
  expect(r.exitCode, r.stderr).toBe(0);
  return { s, path };
}

const planOf = async (s: Counted, path: string, ...flags: string[]) => {
  const r = await s.run(['diff', '-f', path, '-o', 'json', ...flags]);
  return { ...r, plan: r.stdout ? JSON.parse(r.stdout) : undefined };
};

describe('the plan of a course that does not exist yet', () => {
  it('is every object to create, in the order they are made, with reads only', async () => {
    const s = counted();
    const path = issueCourse(s);
    const { exitCode, plan, stderr } = await planOf(s, path);
    expect(exitCode, stderr).toBe(0);
    expect(s.writes()).toEqual([]);
    expect(plan.changes).toBe(true);
    expect(plan.summary).toEqual({ create: 14, update: 1, delete: 0, unchanged: 0, cannot_change: 0, destroy: 0 });
    const [course] = plan.courses;
    expect(course).toMatchObject({ sis_course_id: 'BIO-201', id: null, source: `${path}:2`, unchanged: {}, kept: [] });
    expect(
      course.actions.map((a: { action: string; kind: string; key: string }) => `${a.action} ${a.kind} ${a.key}`),
    ).toEqual([
      'create course BIO-201',
      'create section BIO-201-A',
      'create section BIO-201-B',
      'update section BIO-201-B',
      'create enrollment sis_user_id:T-003 teacher',
      'create enrollment sam student in BIO-201-A',
      'create enrollment sis_user_id:S-008 student in BIO-201-A',
      'create enrollment ravi student',
      'create assignment lab1',
      'create topic welcome',
      'create topic Lab 1 discussion',
      'create announcement First week',
      'create quiz q1',
      'create outcome group bio201-field',
      'create outcome bio201-notebook',
    ]);
    expect(course.actions[0]).toEqual({
      action: 'create',
      kind: 'course',
      key: 'BIO-201',
      id: null,
      source: `${path}:2`,
      fields: { sis_course_id: 'BIO-201', name: 'Biology II', course_code: 'BIO-201', time_zone: 'America/Denver' },
    });
    expect(course.actions[3]).toMatchObject({
      changes: [{ field: 'crosslist_to', from: null, to: 'sis_course_id:BIO-101', applicable: true }],
    });
    expect(course.actions[6].source).toBe(`${s.dir}/roster.csv:2`);
    expect(course.actions[13].source).toBe(`${s.dir}/outcomes.yaml:2`);
  });

  it('on a terminal is lines grouped by course, each sign its change', async () => {
    const s = counted();
    const path = issueCourse(s);
    const r = await s.run(['diff', '-f', path], { tty: true });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(
      /^course BIO-201 \(new\)\n {2}\+ course BIO-201 {2}\S+course\.yaml:2\n {6}sis_course_id: "BIO-201"\n/,
    );
    expect(r.stdout).toContain('  ~ section BIO-201-B  ');
    expect(r.stdout).toContain('      crosslist_to: null → "sis_course_id:BIO-101"\n');
    expect(r.stdout).toContain('  + topic Lab 1 discussion  ');
    expect(r.stdout).toContain('      assignment: "lab1"\n');
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('Plan: 14 to create, 1 to update, 0 to delete, 0 unchanged.');
    expect(r.stderr).toBe('');
  });
});

describe('after an apply', () => {
  it('the plan is no changes, every object counted unchanged, and --exit-code exits 0', async () => {
    const { s, path } = await applied();
    const before = s.requests.length;
    const { exitCode, plan } = await planOf(s, path, '--exit-code');
    expect(exitCode).toBe(0);
    expect(plan.changes).toBe(false);
    expect(plan.courses[0].actions).toEqual([]);
    expect(plan.courses[0].unchanged).toEqual({
      course: 1,
      sections: 2,
      enrollments: 4,
      assignments: 1,
      topics: 2,
      announcements: 1,
      quizzes: 1,
      outcomes: 2,
    });
    expect(s.requests.slice(before).every((q) => q.method === 'GET')).toBe(true);
  });

  const edits: [string, [RegExp | string, string], Record<string, unknown>][] = [
    [
      'a quiz time limit',
      ['time_limit: 20', 'time_limit: 30'],
      {
        action: 'update',
        kind: 'quiz',
        key: 'q1',
        changes: [{ field: 'time_limit', from: 20, to: 30, applicable: true }],
      },
    ],
    [
      'a section name',
      ['name: Lab A }', 'name: Lab A1 }'],
      {
        action: 'update',
        kind: 'section',
        key: 'BIO-201-A',
        changes: [{ field: 'name', from: 'Lab A', to: 'Lab A1', applicable: true }],
      },
    ],
    [
      'a topic message',
      ['"<p>Hello</p>"', '"<p>Hello all</p>"'],
      {
        action: 'update',
        kind: 'topic',
        key: 'welcome',
        changes: [{ field: 'message', from: '<p>Hello</p>', to: '<p>Hello all</p>', applicable: true }],
      },
    ],
    [
      'a topic unpinned',
      ['pinned: true', 'pinned: false'],
      {
        action: 'update',
        kind: 'topic',
        key: 'welcome',
        changes: [{ field: 'pinned', from: true, to: false, applicable: true }],
      },
    ],
    [
      'a quiz published',
      ['published: false', 'published: true'],
      {
        action: 'update',
        kind: 'quiz',
        key: 'q1',
        changes: [{ field: 'published', from: false, to: true, applicable: true }],
      },
    ],
    [
      'a renamed topic with a key: an update of the same topic',
      ['title: Welcome,', 'title: Welcome all,'],
      {
        action: 'update',
        kind: 'topic',
        key: 'welcome',
        changes: [{ field: 'title', from: 'Welcome', to: 'Welcome all', applicable: true }],
      },
    ],
    [
      'an enrollment state',
      ['{ user: sis_user_id:T-003, type: teacher }', '{ user: sis_user_id:T-003, type: teacher, state: active }'],
      {
        action: 'update',
        kind: 'enrollment',
        changes: [{ field: 'state', from: 'invited', to: 'active', applicable: true }],
      },
    ],
    [
      "an assignment's points",
      ['points_possible: 10', 'points_possible: 12'],
      {
        action: 'update',
        kind: 'assignment',
        key: 'lab1',
        changes: [{ field: 'points_possible', from: 10, to: 12, applicable: true }],
      },
    ],
    [
      'an assignment unpublished',
      ['published: true }\n    topics', 'published: false }\n    topics'],
      {
        action: 'update',
        kind: 'assignment',
        key: 'lab1',
        changes: [{ field: 'published', from: true, to: false, applicable: true }],
      },
    ],
    [
      'a course name',
      ['name: Biology II', 'name: Biology Two'],
      {
        action: 'update',
        kind: 'course',
        key: 'BIO-201',
        changes: [{ field: 'name', from: 'Biology II', to: 'Biology Two', applicable: true }],
      },
    ],
    [
      'a course end date',
      ['time_zone: America/Denver', 'time_zone: America/Denver\n    end_at: 2027-05-01T00:00:00Z'],
      {
        action: 'update',
        kind: 'course',
        key: 'BIO-201',
        changes: [{ field: 'end_at', from: null, to: '2027-05-01T00:00:00Z', applicable: true }],
      },
    ],
  ];

  it.each(edits)('one edit, one change: %s', async (_what, [from, to], change) => {
    const { s, path } = await applied();
    issueCourse(s, COURSE_YAML.replace(from, to));
    const { exitCode, plan } = await planOf(s, path, '--exit-code');
    expect(exitCode).toBe(1);
    const actions = plan.courses[0].actions;
    expect(actions, JSON.stringify(actions)).toHaveLength(1);
    expect(actions[0]).toMatchObject(change);
    expect(actions[0].id).toEqual(expect.any(Number));
  });

  it('a renamed announcement without a key is a new one; with --prune the old one goes, listed first', async () => {
    const { s, path } = await applied();
    issueCourse(s, COURSE_YAML.replace('{ title: First week,', '{ title: The first week,'));
    const { plan } = await planOf(s, path);
    expect(plan.courses[0].actions.map((a: { action: string; key: string }) => `${a.action} ${a.key}`)).toEqual([
      'create The first week',
    ]);
    const pruned = await planOf(s, path, '--prune');
    expect(pruned.plan.courses[0].actions.map((a: { action: string; key: string }) => `${a.action} ${a.key}`)).toEqual([
      'delete First week',
      'create The first week',
    ]);
  });

  it(
    'an empty list of a kind manages it: --prune would ' + 'remove all of it; a kind not mentioned is never looked at',
    async () => {
      const { s, path } = await applied();
      issueCourse(
        s,
        COURSE_YAML.replace(/ {4}topics:\n(.*\n){2}/, '    topics: []\n').replace(/ {4}announcements:\n.*\n/, ''),
      );
      const { plan } = await planOf(s, path, '--prune');
      expect(
        plan.courses[0].actions.map(
          (a: { action: string; kind: string; key: string }) => `${a.action} ${a.kind} ${a.key}`,
        ),
      ).toEqual(['delete topic Welcome']);
      // Deleting the graded one would delete assignment lab1 with it, which the file lists.
      expect(plan.courses[0].kept).toEqual([
        { kind: 'topics', count: 1, why: expect.stringContaining('"Lab 1 discussion" is graded by assignment lab1') },
      ]);
      expect(plan.courses[0].unchanged.announcements).toBeUndefined();
    },
  );

  it('CSV and NDJSON: one row per change', async () => {
    const { s, path } = await applied();
    issueCourse(s, COURSE_YAML.replace('time_limit: 20', 'time_limit: 30'));
    const csv = await s.run(['diff', '-f', path, '-o', 'csv']);
    expect(csv.stdout.split('\n')[0]).toBe('course,action,kind,key,id,source,fields,changes,status,error');
    expect(csv.stdout).toContain(',update,quiz,q1,');
    expect(csv.stdout).toContain('time_limit: 20 → 30');
    const ndjson = await s.run(['diff', '-f', path, '-o', 'ndjson']);
    expect(JSON.parse(ndjson.stdout.trim())).toMatchObject({
      course: 'BIO-201',
      action: 'update',
      kind: 'quiz',
      changes: [{ field: 'time_limit', from: 20, to: 30 }],
    });
  });
});
