// `lms pages` and `lms assignment-groups` in process against the seeded mock: flags become
// wiki_page[...] and the groups' parameters, bad flags are usage errors before anything is sent,
// the API's refusals keep their exit codes, a delete asks first, and `courses update --weighted`
// changes the totals `submissions students --grouped` shows.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { session } from '../helpers/run-lms.js';

const TEACHER = { LMS_TOKEN: '3~mock-tteacher' };
const STUDENT = { LMS_TOKEN: '7~mock-sam' };
const json = (r: { stdout: string }) => JSON.parse(r.stdout);

describe('lms pages', () => {
  it('lists as a table and as JSON, sorted and filtered', async () => {
    const s = session();
    const table = await s.run('pages list --course 1', { tty: true });
    expect(table.exitCode).toBe(0);
    expect(table.stdout).toMatch(/^PAGE_ID +URL +TITLE +PUBLISHED +FRONT_PAGE +UPDATED_AT/);
    expect(table.stdout).toMatch(/\n1 +course-syllabus +Course Syllabus +true +true/);
    const drafts = await s.run('pages list --course sis_course_id:BIO-101 --unpublished -o json');
    expect(json(drafts).map((p: { url: string }) => p.url)).toEqual(['lab-safety-draft']);
    const sorted = await s.run('pages list --course 1 --sort title --order desc -o json');
    expect(json(sorted).map((p: { url: string }) => p.url)).toEqual([
      'week-1-notes',
      'lab-safety-draft',
      'course-syllabus',
    ]);
    expect(json(await s.run('pages list --course 1 -o json', { env: STUDENT }))).toHaveLength(2);
    expect((await s.run('pages list --course 1 --published --unpublished')).exitCode).toBe(2);
  });

  it('creates, reads by slug and by page_id:N, updates, and reads the body from a file', async () => {
    const s = session();
    const dir = mkdtempSync(join(tmpdir(), 'lms-pages-'));
    try {
      const file = join(dir, 'review.html');
      writeFileSync(file, '<h2>Review</h2>\n<p>Chapters 1-4</p>\n');
      const made = await s.run(`pages create --course 1 --title "Exam Review" --body-file ${file} --publish -o json`, {
        env: TEACHER,
      });
      expect(made.exitCode).toBe(0);
      expect(json(made)).toMatchObject({
        url: 'exam-review',
        published: true,
        body: '<h2>Review</h2>\n<p>Chapters 1-4</p>\n',
      });
      const byId = await s.run(`pages get page_id:${json(made).page_id} --course 1 -o json`);
      expect(json(byId).url).toBe('exam-review');
      const renamed = await s.run(
        'pages update exam-review --course 1 --title "Final Review" --editing-roles teachers,students -o json',
      );
      expect(json(renamed)).toMatchObject({ url: 'final-review', editing_roles: 'teachers,students' });
      expect((await s.run('pages get exam-review --course 1 -o json')).exitCode).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses bad flags before sending anything', async () => {
    const s = session();
    for (const line of [
      'pages create --course 1',
      'pages create --course 1 --title X --editing-roles teachers,admins',
      'pages create --course 1 --title X --body a --body-file b',
      'pages update week-1-notes --course 1',
      'pages update week-1-notes --course 1 --publish --unpublish',
      'pages update week-1-notes --course 1 --publish-at soon',
      'pages revert week-1-notes latest --course 1',
    ]) {
      const r = await s.run(line);
      expect([line, r.exitCode]).toEqual([line, 2]);
    }
  });

  it('keeps the API refusals: the front page is not deleted (5), a draft is refused to a student (3)', async () => {
    const s = session();
    const front = await s.run('pages delete course-syllabus --course 1 --yes');
    expect(front.exitCode).toBe(5);
    expect(front.stderr).toContain('front page cannot be deleted');
    expect((await s.run('pages get lab-safety-draft --course 1', { env: STUDENT })).exitCode).toBe(3);
    expect((await s.run('pages create --course 1 --title Mine', { env: STUDENT })).exitCode).toBe(3);
  });

  it('asks before deleting, and --yes deletes', async () => {
    const s = session();
    const asked = await s.run('pages delete lab-safety-draft --course 1 --no-input');
    expect(asked.exitCode).toBe(2);
    expect((await s.run('pages get lab-safety-draft --course 1')).exitCode).toBe(0);
    expect((await s.run('pages delete lab-safety-draft --course 1 --yes')).exitCode).toBe(0);
    expect((await s.run('pages get lab-safety-draft --course 1')).exitCode).toBe(4);
  });

  it('shows and changes the front page', async () => {
    const s = session();
    expect(json(await s.run('pages front --course 1 -o json')).url).toBe('course-syllabus');
    const changed = await s.run('pages update-front --course 1 --body "<p>v2</p>" -o json');
    expect(json(changed)).toMatchObject({ url: 'course-syllabus', body: '<p>v2</p>' });
    await s.run('pages update week-1-notes --course 1 --front-page');
    expect(json(await s.run('pages front --course 1 -o json')).url).toBe('week-1-notes');
  });

  it('lists revisions, shows one, and reverts to it', async () => {
    const s = session();
    await s.run('pages update week-1-notes --course 1 --body "<p>second</p>"');
    const revs = await s.run('pages revisions week-1-notes --course 1', { tty: true });
    expect(revs.stdout).toMatch(/^REVISION_ID +UPDATED_AT +LATEST/);
    expect(revs.stdout).toMatch(/\n2 +.* true/);
    const one = json(await s.run('pages revision week-1-notes 1 --course 1 -o json'));
    expect(one).toMatchObject({
      revision_id: 1,
      latest: false,
      body: '<p>Cell structure: membrane, nucleus, organelles.</p>',
    });
    expect(json(await s.run('pages revision week-1-notes latest --course 1 --summary -o json'))).not.toHaveProperty(
      'body',
    );
    const reverted = json(await s.run('pages revert week-1-notes 1 --course 1 -o json'));
    expect(reverted).toMatchObject({ revision_id: 3, latest: true });
    expect(json(await s.run('pages get week-1-notes --course 1 -o json')).body).toBe(one.body);
  });

  it('a dry run of a write sends nothing', async () => {
    const s = session();
    const r = await s.run('pages create --course 1 --title "Never" --dry-run');
    expect(r.exitCode).toBe(0);
    expect(json(await s.run('pages list --course 1 -o json')).map((p: { url: string }) => p.url)).not.toContain(
      'never',
    );
  });
});

describe('lms assignment-groups', () => {
  it('creates, lists with assignments, updates keeping rules not named, deletes moving assignments', async () => {
    const s = session();
    const made = json(
      await s.run('assignment-groups create --course 1 --name Labs --weight 40 --drop-lowest 1 -o json'),
    );
    expect(made).toMatchObject({ name: 'Labs', position: 3, group_weight: 40, rules: { drop_lowest: 1 } });
    const table = await s.run('assignment-groups list --course 1', { tty: true });
    expect(table.stdout).toMatch(/^ID +NAME +POSITION +GROUP_WEIGHT +RULES\.DROP_LOWEST +RULES\.DROP_HIGHEST/);
    expect(table.stdout).toMatch(new RegExp(`\\n${made.id} +Labs +3 +40 +1`));
    const changed = json(
      await s.run(`assignment-groups update ${made.id} --course 1 --never-drop 1,2 --position 1 -o json`),
    );
    expect(changed).toMatchObject({ position: 1, rules: { drop_lowest: 1, never_drop: [1, 2] } });
    const withAssignments = json(await s.run('assignment-groups get 1 --course 1 --with-assignments -o json'));
    expect(withAssignments.assignments.map((a: { id: number }) => a.id)).toEqual([1, 2, 3]);
    expect((await s.run(`assignment-groups delete 1 --course 1 --move-to ${made.id} --yes`)).exitCode).toBe(0);
    const moved = json(await s.run(`assignment-groups get ${made.id} --course 1 --with-assignments -o json`));
    expect(moved.assignments.map((a: { id: number }) => a.id)).toEqual([1, 2, 3]);
  });

  it('refuses bad flags (2), and callers who do not manage the content (3)', async () => {
    const s = session();
    expect((await s.run('assignment-groups create --course 1 --name X --drop-lowest -1')).exitCode).toBe(2);
    expect((await s.run('assignment-groups update 1 --course 1 --never-drop a,b')).exitCode).toBe(2);
    expect((await s.run('assignment-groups update 1 --course 1')).exitCode).toBe(2);
    expect((await s.run('assignment-groups create --course 1 --name X', { env: STUDENT })).exitCode).toBe(3);
  });

  it('weights change the totals once the course weighs its groups', async () => {
    const s = session();
    const totals = async () =>
      json(
        await s.run('submissions list --course 1 --all-students --grouped --totals -o json', {
          env: TEACHER,
        }),
      ).find((g: { user_id: number }) => g.user_id === 7).computed_current_score;
    expect(await totals()).toBe(90.77);
    const essays = json(
      await s.run('assignment-groups create --course 1 --name Essays --weight 40 -o json', { env: TEACHER }),
    );
    await s.run(`assignments update 3 --course 1 --assignment-group-id ${essays.id}`, { env: TEACHER });
    await s.run('assignment-groups update 1 --course 1 --weight 60', { env: TEACHER });
    const weighted = await s.run('courses update 1 --weighted -o json', { env: TEACHER });
    expect(weighted.exitCode).toBe(0);
    expect(json(weighted).apply_assignment_group_weights).toBe(true);
    expect(await totals()).toBe(93.6);
    await s.run('courses update 1 --unweighted', { env: TEACHER });
    expect(await totals()).toBe(90.77);
  });
});
