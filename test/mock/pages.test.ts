// A course's pages in the mock, as wiki_pages_api_controller.rb answers them: slugs made from the
// title and unique in the course (old slugs still answer), `page_id:N`, students seeing published
// pages only, the front page (never unpublished, never deleted), revisions and reverting, editing
// roles, scheduled publishing, bodies kept as given.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/client/client.js';
import { slugOf } from '../../src/mock/areas/pages/slug.js';
import { openMock, type MockRuntime } from '../../src/mock/runtime.js';
import {
  clientFor,
  collect,
  failure,
  freshMock,
  jsonChecked,
  MOCK_ENV,
  seedSchool,
  statusOf,
  TOKENS,
} from '../helpers/mock-client.js';

let mock: MockRuntime;
beforeEach(() => {
  mock = freshMock();
});

const as = (token: string): ApiClient['ops'] => clientFor(mock, token).ops;
const teacher = () => as(TOKENS.teacher).pages;
const student = () => as(TOKENS.student).pages;
const C = { course_id: 1 };

describe('slugs', () => {
  it.each([
    ['Week 1 Notes', 'week-1-notes'],
    ['  Q&A: Cells @ Home  ', 'q-and-a-cells-at-home'],
    ['Café Résumé', 'cafe-resume'],
    ['100% + Bonus', '100-percent-plus-bonus'],
    ['Tess\u2019s notes!!', 'tesss-notes'],
    ['£5 or €5 or ¥5 for Straße, Ærø at 20°', 'pounds-5-or-euros-5-or-yen-5-for-strasse-aero-at-20-degrees'],
    ['カタカナ ページ', 'カタカナ-ページ'],
    // Canvas spells these in Latin letters from a table of every character; the mock keeps their script.
    ['日本語', '日本語'],
    ['Week 2: 遺伝学', 'week-2-遺伝学'],
    ['がっこう', 'がっこう'],
    ['한국어 수업', '한국어-수업'],
    ['Привет, мир', 'привет-мир'],
    ['नमस्ते', 'नमस्ते'],
  ])('%j → %j', (title, slug) => expect(slugOf(title)).toBe(slug));

  it('are unique in the course: a second page of the same title gets -2, a third -3', async () => {
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await teacher().create({ ...C, wiki_page: { title: 'Week 1 Notes' } }));
    // The seed already has week-1-notes.
    expect(made.map((p) => p.url)).toEqual(['week-1-notes-2', 'week-1-notes-3', 'week-1-notes-4']);
    expect(made.map((p) => p.title)).toEqual(['Week 1 Notes', 'Week 1 Notes', 'Week 1 Notes']);
  });

  it('follow a renamed title, and the old slug still names the page', async () => {
    const renamed = await teacher().update({ ...C, url_or_id: 'week-1-notes', wiki_page: { title: 'Week One' } });
    expect(renamed.url).toBe('week-one');
    expect((await teacher().get({ ...C, url_or_id: 'week-1-notes' })).page_id).toBe(renamed.page_id);
    expect((await teacher().get({ ...C, url_or_id: `page_id:${renamed.page_id}` })).url).toBe('week-one');
  });

  it('a title in another script is a page, named by its slug', async () => {
    const made = await teacher().create({ ...C, wiki_page: { title: '日本語' } });
    expect(made).toMatchObject({ title: '日本語', url: '日本語' });
    expect((await teacher().get({ ...C, url_or_id: made.url })).page_id).toBe(made.page_id);
    const again = await teacher().create({ ...C, wiki_page: { title: '日本語' } });
    expect(again.url).toBe('日本語-2');
  });

  it('a title with no letter or digit is refused', async () => {
    expect(await failure(teacher().create({ ...C, wiki_page: { title: '!!!' } }))).toMatchObject({ status: 400 });
    expect(await failure(teacher().create({ ...C, wiki_page: { title: '' } }))).toMatchObject({ status: 400 });
  });
});

describe('reading', () => {
  it('students see published pages only; managers see drafts too; a list has no bodies', async () => {
    const all = await collect(teacher().list(C));
    expect(all.map((p) => p.url)).toEqual(['course-syllabus', 'week-1-notes', 'lab-safety-draft']);
    expect(all.every((p) => !('body' in p))).toBe(true);
    expect((await collect(student().list(C))).map((p) => p.url)).toEqual(['course-syllabus', 'week-1-notes']);
    // Canvas finds the draft, then refuses to show it (authorized_action): 401, not 404.
    expect(await failure(student().get({ ...C, url_or_id: 'lab-safety-draft' }))).toMatchObject({ status: 401 });
    expect(await statusOf(student().update({ ...C, url_or_id: 'lab-safety-draft', wiki_page: { body: 'x' } }))).toBe(
      401,
    );
    expect(
      await statusOf(
        student()
          .revisions({ ...C, url_or_id: 'lab-safety-draft' })
          [Symbol.asyncIterator]()
          .next(),
      ),
    ).toBe(401);
    expect(await statusOf(student().get({ ...C, url_or_id: 'no-such-page' }))).toBe(404);
    expect(await statusOf(as(TOKENS.observer).pages.get({ ...C, url_or_id: 'week-1-notes' }))).toBe('ok');
    expect(await statusOf(as(TOKENS.otherTeacher).pages.list(C)[Symbol.asyncIterator]().next())).toBe(401);
  });

  it('sorts, orders, searches and filters on published', async () => {
    const urls = async (p: Parameters<ReturnType<typeof teacher>['list']>[0]) =>
      (await collect(teacher().list(p))).map((x) => x.url);
    expect(await urls({ ...C, sort: 'title' })).toEqual(['course-syllabus', 'lab-safety-draft', 'week-1-notes']);
    expect(await urls({ ...C, sort: 'title', order: 'desc' })).toEqual([
      'week-1-notes',
      'lab-safety-draft',
      'course-syllabus',
    ]);
    expect(await urls({ ...C, search_term: 'week' })).toEqual(['week-1-notes']);
    expect(await urls({ ...C, published: false })).toEqual(['lab-safety-draft']);
    expect(await urls({ ...C, published: true })).toEqual(['course-syllabus', 'week-1-notes']);
  });

  it('keeps a body as given, markup and all', async () => {
    const body = '<p onclick="x()">Hi <script>alert(1)</script></p>';
    const p = await teacher().create({ ...C, wiki_page: { title: 'Raw', body } });
    expect((await teacher().get({ ...C, url_or_id: p.url })).body).toBe(body);
  });

  it('a page not there is the 404 real instances send', async () => {
    expect(await failure(teacher().get({ ...C, url_or_id: 'nope' }))).toEqual({
      status: 404,
      body: { message: 'page not found' },
    });
  });
});

describe('writing', () => {
  it('a new page is unpublished unless told; students cannot create one', async () => {
    const p = await teacher().create({ ...C, wiki_page: { title: 'Week 2 Notes', body: '<p>Mitosis</p>' } });
    expect(p).toMatchObject({ published: false, front_page: false, editing_roles: 'teachers', body: '<p>Mitosis</p>' });
    expect(p.last_edited_by).toMatchObject({ id: 3 });
    expect(await statusOf(student().create({ ...C, wiki_page: { title: 'Mine' } }))).toBe(401);
  });

  it('PUT at a slug that names no page creates it there', async () => {
    const p = await teacher().update({ ...C, url_or_id: 'field-trip', wiki_page: { body: '<p>Bus at 8</p>' } });
    expect(p).toMatchObject({ url: 'field-trip', title: 'Field Trip', body: '<p>Bus at 8</p>' });
  });

  it('refuses editing roles outside the four', async () => {
    expect(
      await failure(
        teacher().update({ ...C, url_or_id: 'week-1-notes', wiki_page: { editing_roles: 'teachers,admins' } }),
      ),
    ).toMatchObject({ status: 400 });
  });

  it('students edit a published page whose roles name them: its content, never its state', async () => {
    expect(await statusOf(student().update({ ...C, url_or_id: 'week-1-notes', wiki_page: { body: 'x' } }))).toBe(401);
    await teacher().update({ ...C, url_or_id: 'week-1-notes', wiki_page: { editing_roles: 'teachers,students' } });
    const edited = await student().update({
      ...C,
      url_or_id: 'week-1-notes',
      wiki_page: { body: '<p>Sam was here</p>' },
    });
    expect(edited).toMatchObject({ body: '<p>Sam was here</p>', last_edited_by: { id: 7 } });
    expect(
      await failure(student().update({ ...C, url_or_id: 'week-1-notes', wiki_page: { published: false } })),
    ).toMatchObject({ status: 401 });
  });

  it('publishes a page at its publish_at', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lms-pages-'));
    try {
      const file = join(dir, 'mock.db');
      const before = jsonChecked(openMock(file, MOCK_ENV, seedSchool));
      await clientFor(before, TOKENS.teacher).ops.pages.create({
        ...C,
        wiki_page: { title: 'Exam Review', publish_at: '2026-11-03T09:00:00Z' },
      });
      const exam = { ...C, url_or_id: 'exam-review' };
      expect(await statusOf(clientFor(before, TOKENS.student).ops.pages.get(exam))).toBe(401);
      before.db.close();
      const after = jsonChecked(openMock(file, { ...MOCK_ENV, LMS_MOCK_NOW: '2026-11-03T10:00:00.000Z' }, seedSchool));
      expect(await clientFor(after, TOKENS.student).ops.pages.get(exam)).toMatchObject({
        published: true,
        publish_at: null,
      });
      after.db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the front page', () => {
  it('is the seeded syllabus; it cannot be unpublished or deleted', async () => {
    expect((await student().getFront(C)).url).toBe('course-syllabus');
    expect(
      await failure(teacher().update({ ...C, url_or_id: 'course-syllabus', wiki_page: { published: false } })),
    ).toMatchObject({ status: 400 });
    expect(await failure(teacher().delete({ ...C, url_or_id: 'course-syllabus' }))).toMatchObject({
      status: 400,
      body: { errors: { front_page: [{ message: 'The front page cannot be deleted' }] } },
    });
  });

  it('moves to another published page; an unpublished one cannot take it', async () => {
    expect(
      await failure(teacher().update({ ...C, url_or_id: 'lab-safety-draft', wiki_page: { front_page: true } })),
    ).toMatchObject({ status: 400 });
    await teacher().update({ ...C, url_or_id: 'week-1-notes', wiki_page: { front_page: true } });
    expect((await teacher().getFront(C)).url).toBe('week-1-notes');
    expect((await teacher().get({ ...C, url_or_id: 'course-syllabus' })).front_page).toBe(false);
    expect(await statusOf(teacher().delete({ ...C, url_or_id: 'course-syllabus' }))).toBe('ok');
  });

  it('PUT /front_page changes it, or makes one where none is set', async () => {
    const changed = await teacher().updateFront({ ...C, wiki_page: { body: '<p>New syllabus</p>' } });
    expect(changed).toMatchObject({ url: 'course-syllabus', body: '<p>New syllabus</p>', front_page: true });
    expect(await failure(as(TOKENS.otherTeacher).pages.getFront({ course_id: 3 }))).toEqual({
      status: 404,
      body: { message: 'No front page has been set' },
    });
    const made = await as(TOKENS.otherTeacher).pages.updateFront({ course_id: 3, wiki_page: { title: 'Welcome' } });
    expect(made).toMatchObject({ url: 'welcome', front_page: true, published: true });
  });
});

describe('deleting', () => {
  it('takes the page out of every list, frees its slug', async () => {
    await teacher().delete({ ...C, url_or_id: 'week-1-notes' });
    expect(await statusOf(teacher().get({ ...C, url_or_id: 'week-1-notes' }))).toBe(404);
    expect((await teacher().create({ ...C, wiki_page: { title: 'Week 1 Notes' } })).url).toBe('week-1-notes');
    expect(await statusOf(as(TOKENS.ta).pages.delete({ ...C, url_or_id: 'lab-safety-draft' }))).toBe('ok');
    expect(await statusOf(student().delete({ ...C, url_or_id: 'course-syllabus' }))).toBe(401);
  });
});

describe('revisions', () => {
  it('keeps each change of title, body or slug, newest first, and reverts as a new revision', async () => {
    const at = { ...C, url_or_id: 'week-1-notes' };
    await teacher().update({ ...at, wiki_page: { body: '<p>v2</p>' } });
    await teacher().update({ ...at, wiki_page: { editing_roles: 'teachers,students' } });
    await teacher().update({ ...at, wiki_page: { title: 'Week One' } });
    const revs = await collect(teacher().revisions({ ...C, url_or_id: 'week-one' }));
    expect(revs.map((r) => [r.revision_id, r.latest])).toEqual([
      [3, true],
      [2, false],
      [1, false],
    ]);
    expect(revs.every((r) => !('body' in r))).toBe(true);
    expect(await teacher().getRevision({ ...C, url_or_id: 'week-one', revision_id: 1 })).toMatchObject({
      revision_id: 1,
      title: 'Week 1 Notes',
      url: 'week-1-notes',
      latest: false,
    });
    expect(
      await teacher().getRevision({ ...C, url_or_id: 'week-one', revision_id: 'latest', summary: true }),
    ).not.toHaveProperty('body');
    const reverted = await teacher().revert({ ...C, url_or_id: 'week-one', revision_id: 1 });
    expect(reverted).toMatchObject({ revision_id: 4, latest: true, title: 'Week 1 Notes', url: 'week-1-notes' });
    expect((await teacher().get(at)).title).toBe('Week 1 Notes');
    expect(await statusOf(teacher().getRevision({ ...C, url_or_id: 'week-one', revision_id: 99 }))).toBe(404);
  });

  it('students read the latest revision of a page they read, and no history', async () => {
    const at = { ...C, url_or_id: 'week-1-notes' };
    expect(await statusOf(student().getRevision({ ...at, revision_id: 'latest' }))).toBe('ok');
    expect(await statusOf(student().getRevision({ ...at, revision_id: 1 }))).toBe(401);
    expect(await statusOf(student().revert({ ...at, revision_id: 1 }))).toBe(401);
  });
});
