// `lms modules` in-process against the seeded mock: every verb, its flags as module[...] and
// module_item[...] parameters, a student's progress through --student and their own marks, the
// checks made before anything is sent (exit 2), the API's refusals (exit 3, 4, 5).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { session } from '../helpers/run-lms.js';

const TEACHER = { LMS_TOKEN: '3~mock-tteacher' };
const SAM = { LMS_TOKEN: '7~mock-sam' };
const json = (r: { stdout: string }) => JSON.parse(r.stdout);

describe('lms modules', () => {
  it('lists modules as a table and JSON, with a student’s state', async () => {
    const s = session();
    const table = await s.run('modules list --course 1', { tty: true, env: TEACHER });
    expect(table.exitCode).toBe(0);
    expect(table.stdout).toMatch(/^ID +POSITION +NAME +PUBLISHED +STATE +ITEMS_COUNT/);
    expect(table.stdout).toMatch(/\n3 +3 +Week 3 \(draft\) +false/);
    const progress = json(await s.run('modules list --course 1 --student 7 -o json', { env: TEACHER }));
    expect(progress.map((m: { state: string }) => m.state)).toEqual(['started', 'locked']);
    const found = json(await s.run('modules list --course 1 --items --search safety -o json', { env: TEACHER }));
    expect(found.map((m: { items: { title: string }[] }) => m.items.map((i) => i.title))).toEqual([
      ['Microscope Safety Quiz'],
    ]);
    const one = json(await s.run('modules get 2 --course 1 --items -o json', { env: TEACHER }));
    expect(one).toMatchObject({ name: 'Week 2: Genetics', prerequisite_module_ids: [1], items_count: 2 });
  });

  it('creates, publishes, changes, relocks and deletes a module', async () => {
    const s = session();
    const made = json(
      await s.run(
        'modules create --course 1 --name "Week 4: Evolution" --prerequisites 1,2 --sequential true --unlock-at ' +
          '2026-12-01T00:00:00Z --publish -o json',
        { env: TEACHER },
      ),
    );
    expect(made).toMatchObject({
      name: 'Week 4: Evolution',
      published: true,
      prerequisite_module_ids: [1, 2],
      require_sequential_progress: true,
      unlock_at: '2026-12-01T00:00:00.000Z',
    });
    const changed = json(
      await s.run(`modules update ${made.id} --course 1 --prerequisites "" --unlock-at "" --position 1 -o json`, {
        env: TEACHER,
      }),
    );
    expect(changed).toMatchObject({ prerequisite_module_ids: [], unlock_at: null, position: 1 });
    expect(json(await s.run(`modules unpublish ${made.id} --course 1 -o json`, { env: TEACHER })).published).toBe(
      false,
    );
    expect((await s.run(`modules relock 2 --course 1 --yes -o json`, { env: TEACHER })).exitCode).toBe(0);
    const gone = await s.run(`modules delete ${made.id} --course 1 --yes -o json`, { env: TEACHER });
    expect(json(gone).workflow_state).toBe('deleted');
    expect((await s.run(`modules get ${made.id} --course 1`, { env: TEACHER })).exitCode).toBe(4);
  });

  it('asks before deleting, and does nothing without --yes in a script', async () => {
    const s = session();
    const r = await s.run('modules delete 3 --course 1', { env: TEACHER });
    expect(r.exitCode).not.toBe(0);
    expect((await s.run('modules get 3 --course 1 -o json', { env: TEACHER })).exitCode).toBe(0);
  });

  it('checks flags before sending anything (exit 2)', async () => {
    const s = session();
    for (const [line, message] of [
      ['modules update 1 --course 1', /nothing to change/],
      ['modules create --course 1 --name X --unlock-at someday', /--unlock-at is not a date/],
      ['modules create --course 1 --name X --prerequisites a,b', /--prerequisites takes module ids/],
      ['modules items add 1 --course 1 --type Assignment', /needs --content-id/],
      ['modules items add 1 --course 1 --type Page', /needs --page-url/],
      ['modules items add 1 --course 1 --type ExternalUrl --title x', /needs --external-url/],
      ['modules items add 1 --course 1 --type SubHeader', /needs --title/],
      [
        'modules items add 1 --course 1 --type Quiz --content-id 1 --requirement must_contribute',
        /not must_contribute/,
      ],
      [
        'modules items add 1 --course 1 --type SubHeader --title x --requirement must_view',
        /no completion requirement/,
      ],
      ['modules items add 1 --course 1 --type Quiz --content-id 1 --requirement min_score', /needs --min-score/],
      ['modules items add 1 --course 1 --type Quiz --content-id 1 --min-score 3', /goes with --requirement min_score/],
      ['modules items add 1 --course 1 --type Video --title x', /Video/],
      ['modules items update 1 2 --course 1', /nothing to change/],
    ] as const) {
      const r = await s.run(line, { env: TEACHER });
      expect(r.exitCode, line).toBe(2);
      expect(r.stderr, line).toMatch(message);
    }
  });

  it('says what the API refuses, with its exit code', async () => {
    const s = session();
    const missing = await s.run('modules items add 1 --course 1 --type Assignment --content-id 999', { env: TEACHER });
    expect(missing.exitCode).toBe(5);
    expect(missing.stderr).toMatch(/Could not find content/);
    const student = await s.run('modules create --course 1 --name Mine', { env: SAM });
    expect(student.exitCode).toBe(3);
    expect((await s.run('modules get 3 --course 1', { env: SAM })).exitCode).toBe(4);
  });

  it('adds, changes, moves and removes items', async () => {
    const s = session();
    const added = json(
      await s.run(
        'modules items add 3 --course 1 --type Quiz --content-id 1 --requirement min_score --min-score 4 --indent 1 ' +
          '-o json',
        { env: TEACHER },
      ),
    );
    expect(added).toMatchObject({
      title: 'Cell Biology Check-in',
      indent: 1,
      completion_requirement: { type: 'min_score', min_score: 4 },
    });
    const link = json(
      await s.run(
        'modules items add 3 --course 1 --type ExternalUrl --title Atlas --external-url https://example.edu/atlas ' +
          '--position 1 -o json',
        { env: TEACHER },
      ),
    );
    expect(link.position).toBe(1);
    const changed = json(
      await s.run(
        `modules items update 3 ${added.id} --course 1 --requirement "" --published true --indent 2 --title ` +
          '"Check-in" -o json',
        {
          env: TEACHER,
        },
      ),
    );
    expect(changed.completion_requirement).toBeUndefined();
    expect(changed).toMatchObject({ published: true, indent: 2, title: 'Check-in' });
    const moved = json(
      await s.run(`modules items update 3 ${link.id} --course 1 --move-to 1 -o json`, { env: TEACHER }),
    );
    expect(moved).toMatchObject({ module_id: 1, position: 6 });
    const listed = json(await s.run('modules items list 3 --course 1 -o json', { env: TEACHER }));
    expect(listed.map((i: { title: string }) => i.title)).toEqual(['Coming soon', 'Check-in']);
    expect((await s.run(`modules items remove 3 ${added.id} --course 1 --yes`, { env: TEACHER })).exitCode).toBe(0);
    expect((await s.run(`modules items get 3 ${added.id} --course 1`, { env: TEACHER })).exitCode).toBe(4);
  });

  it('lets a student mark items read and done, and refuses a locked one', async () => {
    const s = session();
    const read = await s.run('modules items read 1 5 --course 1', { env: SAM });
    expect(read.exitCode).toBe(0);
    expect(read.stderr).toBe('Marked item 5 read.\n');
    const items = json(await s.run('modules items list 1 --course 1 -o json', { env: SAM }));
    expect(items.find((i: { id: number }) => i.id === 5).completion_requirement.completed).toBe(true);
    const locked = await s.run('modules items done 2 6 --course 1', { env: SAM });
    expect(locked.exitCode).toBe(3);
    expect(locked.stderr).toMatch(/The module item is locked/);
    expect((await s.run('modules items undone 1 5 --course 1', { env: SAM })).exitCode).toBe(0);
    const details = json(await s.run('modules items get 2 6 --course 1 --details -o json', { env: SAM }));
    expect(details.content_details).toMatchObject({ locked_for_user: true, points_possible: 100 });
  });
});

describe('lms courses upload, and a File item of the file', () => {
  const handout = () => {
    const path = join(mkdtempSync(join(tmpdir(), 'lms-course-files-')), 'handout.pdf');
    writeFileSync(path, '%PDF-1.4');
    return path;
  };

  it("uploads into the course's files, which a File item of a module then takes", async () => {
    const s = session();
    const uploaded = await s.run(`courses upload 1 ${handout()} -o json`, { env: TEACHER });
    expect(uploaded.exitCode).toBe(0);
    const file = json(uploaded);
    expect(file).toMatchObject({
      display_name: 'handout.pdf',
      'content-type': 'application/pdf',
      size: 8,
      upload_status: 'success',
      url: `http://lms.mock/files/${file.id}/download?verifier=${file.uuid}`,
    });
    const csv = await s.run(`files get ${file.id} -o csv --fields id,display_name,size`, { env: SAM });
    expect(csv.stdout).toBe(`id,display_name,size\n${file.id},handout.pdf,8\n`);
    const item = await s.run(
      `modules items add 1 --course 1 --type File --content-id ${file.id} --requirement must_view -o json`,
      { env: TEACHER },
    );
    expect(item.exitCode).toBe(0);
    expect(json(item)).toMatchObject({
      type: 'File',
      title: 'handout.pdf',
      content_id: file.id,
      url: `http://lms.mock/api/v1/files/${file.id}`,
      completion_requirement: { type: 'must_view' },
    });
    const id = json(item).id;
    const mine = async () =>
      json(await s.run('modules items list 1 --course 1 -o json', { env: SAM })).find(
        (i: { id: number }) => i.id === id,
      ).completion_requirement;
    expect(await mine()).toEqual({ type: 'must_view', completed: false });
    expect((await s.run(`modules items read 1 ${id} --course 1`, { env: SAM })).exitCode).toBe(0);
    expect(await mine()).toEqual({ type: 'must_view', completed: true });
  });

  it('refuses a student, and a file that is not there, before anything is sent', async () => {
    const s = session();
    const student = await s.run(`courses upload 1 ${handout()}`, { env: SAM });
    expect(student.exitCode).toBe(3);
    expect(student.stdout).toBe('');
    expect(student.stderr).toContain('POST /api/v1/courses/1/files failed with 401');
    const missing = await s.run('courses upload 1 ./no-such-handout.pdf', { env: TEACHER });
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('no such file: ./no-such-handout.pdf');
  });
});
