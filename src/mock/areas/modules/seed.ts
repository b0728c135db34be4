// BIO-101's modules: week 1 (a header, the lab report to submit, introductions to post in, the
// check-in quiz to score on, a reading to view), week 2 after it in order (the essay to mark done),
// and an unpublished draft module only its managers see.
import type { SeedOptions } from '../../area.js';
import type { Db } from '../../db/open.js';
import { createItem, createModule, setModuleState, type ItemValues } from './repo.js';

const item = (v: Partial<ItemValues> & Pick<ItemValues, 'title' | 'type'>): ItemValues => ({
  indent: 0,
  content_id: null,
  page_url: null,
  external_url: null,
  new_tab: 0,
  requirement: null,
  min_score: null,
  published: 1,
  ...v,
});

export function seedModules(db: Db, { minimal, now }: SeedOptions): void {
  if (minimal) return;
  const base = { unlock_at: null, require_sequential_progress: 0, publish_final_grade: 0, prerequisites: '[]' };
  const week1 = { id: createModule(db, 1, { ...base, name: 'Week 1: Cells' }, now, 1), course_id: 1 };
  const week2 = {
    id: createModule(
      db,
      1,
      { ...base, name: 'Week 2: Genetics', require_sequential_progress: 1, prerequisites: '[1]' },
      now,
      2,
    ),
    course_id: 1,
  };
  const drafts = { id: createModule(db, 1, { ...base, name: 'Week 3 (draft)' }, now, 3), course_id: 1 };
  setModuleState(db, week1.id, 'active', now);
  setModuleState(db, week2.id, 'active', now);
  for (const v of [
    item({ title: 'Start here', type: 'SubHeader' }),
    item({ title: 'Cell Structure Lab Report', type: 'Assignment', content_id: 1, requirement: 'must_submit' }),
    item({ title: 'Introduce yourself', type: 'Discussion', content_id: 2, requirement: 'must_contribute', indent: 1 }),
    item({ title: 'Cell Biology Check-in', type: 'Quiz', content_id: 1, requirement: 'min_score', min_score: 3 }),
    item({
      title: 'Reading: the cell membrane',
      type: 'ExternalUrl',
      external_url: 'https://example.edu/readings/membrane',
      requirement: 'must_view',
    }),
  ])
    createItem(db, week1, v, now);
  createItem(
    db,
    week2,
    item({ title: 'Genetics Essay', type: 'Assignment', content_id: 3, requirement: 'must_mark_done' }),
    now,
  );
  createItem(
    db,
    week2,
    item({ title: 'Microscope Safety Quiz', type: 'Assignment', content_id: 2, requirement: 'must_view' }),
    now,
  );
  createItem(db, drafts, item({ title: 'Coming soon', type: 'SubHeader', published: 0 }), now);
}
