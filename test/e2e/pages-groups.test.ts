// End to end: pages and assignment groups as the built binary runs them against `lms mock serve`,
// and as a client written the way ucfopen/canvasapi's page.py and assignment.py (AssignmentGroup)
// call them, working unmodified against the same server. The weighted grade is worked out here from
// what the client reads (groups, weights, assignments, submissions), not taken from the server.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paginated, requester } from '../helpers/canvasapi.js';
import { e2eWorkspace, ensureBuilt, serveMock, spawnLms, type Served } from '../helpers/e2e.js';

const { dir, env } = e2eWorkspace('e2e-pages-groups');
const servers: Served[] = [];
const TEACHER = '3~mock-tteacher';
const SAM = '7~mock-sam';

beforeAll(ensureBuilt);
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});

async function server(name: string): Promise<Served> {
  const s = await serveMock({ ...env, LMS_MOCK_DB: join(dir, `${name}.db`) }, ['--quiet']);
  servers.push(s);
  return s;
}

type Row = Record<string, unknown>;

describe('lms pages and lms assignment-groups over HTTP', () => {
  it('creates, reads, edits, reverts and deletes pages and groups', async () => {
    const s = await server('cli');
    const as = (token: string) => ({ ...env, LMS_BASE_URL: s.url, LMS_TOKEN: token });
    const lms = async (token: string, ...args: string[]) => {
      const r = await spawnLms([...args, '-o', 'json'], as(token));
      expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      return r.stdout ? JSON.parse(r.stdout) : undefined;
    };
    const made = await lms(TEACHER, 'pages', 'create', '--course', '1', '--title', 'Lab Safety', '--body', '<p>v1</p>');
    expect(made).toMatchObject({ url: 'lab-safety', published: false });
    await lms(TEACHER, 'pages', 'update', 'lab-safety', '--course', '1', '--body', '<p>v2</p>', '--publish');
    expect((await lms(TEACHER, 'pages', 'get', 'lab-safety', '--course', '1')).body).toBe('<p>v2</p>');
    const revisions = await lms(TEACHER, 'pages', 'revisions', 'lab-safety', '--course', '1');
    const first = Math.min(...revisions.map((r: { revision_id: number }) => r.revision_id));
    await lms(TEACHER, 'pages', 'revert', 'lab-safety', String(first), '--course', '1');
    expect((await lms(TEACHER, 'pages', 'get', 'lab-safety', '--course', '1')).body).toBe('<p>v1</p>');
    expect((await lms(SAM, 'pages', 'front', '--course', '1')).url).toBe('course-syllabus');
    const refused = await spawnLms(['pages', 'delete', 'lab-safety', '--course', '1', '--yes'], as(SAM));
    expect(refused.exitCode).toBe(3);
    await lms(TEACHER, 'pages', 'delete', 'lab-safety', '--course', '1', '--yes');
    const left = await lms(TEACHER, 'pages', 'list', '--course', '1');
    expect(left.map((p: { url: string }) => p.url)).not.toContain('lab-safety');

    const group = await lms(TEACHER, 'assignment-groups', 'create', '--course', '1', '--name', 'Labs');
    expect((await lms(TEACHER, 'assignment-groups', 'get', String(group.id), '--course', '1')).name).toBe('Labs');
    await lms(TEACHER, 'assignment-groups', 'delete', String(group.id), '--course', '1', '--move-to', '1', '--yes');
    const groups = await lms(TEACHER, 'assignment-groups', 'list', '--course', '1');
    expect(groups.map((g: { id: number }) => g.id)).not.toContain(group.id);
  });
});

describe('a canvasapi-style client for pages and assignment groups', () => {
  it('works pages, front page, revisions, groups and a weighted grade as canvasapi calls them', async () => {
    const s = await server('canvasapi');
    const teacher = requester(s.url, TEACHER);
    // course.create_page(wiki_page={...}), page.edit(wiki_page={...})
    const page = (await teacher('POST', 'courses/1/pages', { wiki_page: { title: 'Field Trip', body: '<p>a</p>' } }))
      .json as { url: string; page_id: number };
    await teacher('PUT', `courses/1/pages/${page.url}`, { wiki_page: { body: '<p>b</p>', published: true } });
    // course.get_pages() follows Link headers; course.get_page(url)
    const pages = await paginated(teacher, 'courses/1/pages', {});
    expect(pages.map((p) => p.url)).toContain(page.url);
    expect(((await teacher('GET', `courses/1/pages/${page.url}`)).json as { body: string }).body).toBe('<p>b</p>');
    // page.get_revisions(), page.revert_to_revision(revision)
    const revisions = await paginated(teacher, `courses/1/pages/${page.url}/revisions`, {});
    expect(revisions.length).toBeGreaterThanOrEqual(2);
    const oldest = Math.min(...revisions.map((r) => Number(r.revision_id)));
    await teacher('POST', `courses/1/pages/${page.url}/revisions/${oldest}`);
    expect(((await teacher('GET', `courses/1/pages/${page.url}`)).json as { body: string }).body).toBe('<p>a</p>');
    // course.show_front_page(), course.edit_front_page(wiki_page={...})
    const front = (await teacher('GET', 'courses/1/front_page')).json as { url: string; front_page: boolean };
    expect(front.front_page).toBe(true);
    await teacher('PUT', 'courses/1/front_page', { wiki_page: { title: 'Syllabus, revised' } });
    expect(((await teacher('GET', 'courses/1/front_page')).json as { title: string }).title).toBe('Syllabus, revised');
    // page.delete()
    await teacher('DELETE', `courses/1/pages/${page.url}`);
    await expect(teacher('GET', `courses/1/pages/${page.url}`)).rejects.toThrow(/404/);

    // course.create_assignment_group(name=..., group_weight=...), group.edit(...), group.delete(move_assignments_to=)
    const labs = (await teacher('POST', 'courses/1/assignment_groups', { name: 'Labs', group_weight: 10 })).json as {
      id: number;
    };
    const edited = (await teacher('PUT', `courses/1/assignment_groups/${labs.id}`, { name: 'Lab work' })).json as Row;
    expect(edited).toMatchObject({ id: labs.id, name: 'Lab work', group_weight: 10 });
    const moved = (
      await teacher('POST', 'courses/1/assignments', {
        assignment: { name: 'Titration', points_possible: 5, assignment_group_id: labs.id },
      })
    ).json as { id: number };
    await teacher('DELETE', `courses/1/assignment_groups/${labs.id}`, { move_assignments_to: 1 });
    const after = (await teacher('GET', `courses/1/assignments/${moved.id}`)).json as { assignment_group_id: number };
    expect(after.assignment_group_id).toBe(1);

    // course.update(course={'apply_assignment_group_weights': True}), then weights on the groups left
    await teacher('PUT', 'courses/1', { course: { apply_assignment_group_weights: true } });
    const groups = await paginated(teacher, 'courses/1/assignment_groups', {});
    const [a, b] = groups.map((g) => Number(g.id));
    await teacher('PUT', `courses/1/assignment_groups/${a}`, { group_weight: 60 });
    await teacher('PUT', `courses/1/assignment_groups/${b}`, { group_weight: 40 });
    // An exam graded with submission.edit(submission={'posted_grade': ...}), so both groups count
    const exam = (
      await teacher('POST', 'courses/1/assignments', {
        assignment: { name: 'Midterm', points_possible: 50, assignment_group_id: b, published: true },
      })
    ).json as { id: number };
    await teacher('PUT', `courses/1/assignments/${exam.id}/submissions/7`, { submission: { posted_grade: 20 } });
    const weighted = await paginated(teacher, 'courses/1/assignment_groups', { include: ['assignments'] });
    const subs = await paginated(teacher, 'courses/1/students/submissions', { student_ids: [7] });
    const scored = new Map(subs.filter((x) => x.score != null && !x.excused).map((x) => [x.assignment_id, x.score]));
    let sum = 0;
    let weights = 0;
    for (const g of weighted) {
      let got = 0;
      let possible = 0;
      for (const asg of g.assignments as Row[]) {
        if (!scored.has(asg.id)) continue;
        got += Number(scored.get(asg.id));
        possible += Number(asg.points_possible);
      }
      if (possible === 0) continue;
      sum += (got / possible) * Number(g.group_weight);
      weights += Number(g.group_weight);
    }
    const enrollments = await paginated(teacher, 'courses/1/enrollments', { user_id: 7, type: ['StudentEnrollment'] });
    const grades = enrollments[0]?.grades as { current_score: number };
    expect(weights).toBe(100);
    expect(grades.current_score).toBeCloseTo((sum / weights) * 100, 2);
  });
});
