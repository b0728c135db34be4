import type { Db } from '../../db/open.js';
import type { SeedOptions } from '../../area.js';
import { createPage, setFrontPage } from './repo.js';

/** BIO-101's pages: the syllabus as its front page, a week's notes, and a draft its students do not see. */
export function seedPages(db: Db, { minimal, now }: SeedOptions): void {
  if (minimal) return;
  const page = (title: string, url: string, body: string, published: boolean) =>
    createPage(db, {
      courseId: 1,
      url,
      title,
      body,
      editing_roles: 'teachers',
      workflow_state: published ? 'active' : 'unpublished',
      publish_at: null,
      userId: 3,
      now,
    });
  const syllabus = page(
    'Course Syllabus',
    'course-syllabus',
    '<h1>BIO-101</h1><p>Cells, genetics, evolution.</p>',
    true,
  );
  setFrontPage(db, 1, syllabus);
  page('Week 1 Notes', 'week-1-notes', '<p>Cell structure: membrane, nucleus, organelles.</p>', true);
  page('Lab Safety Draft', 'lab-safety-draft', '<p>Goggles on.</p>', false);
}
