// The bulk engine on its own, with a task over an in-memory store: what the enrollments, grades and
// outcomes imports will reuse. A dry run and the run it previews classify every row alike, and a
// journal counts only for the instance state it was written against.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runRows, type BulkRow, type BulkTask, type RowResult } from '../../src/bulk/job.js';
import { Journal } from '../../src/bulk/journal.js';
import { ApiError } from '../../src/errors.js';

interface Row extends BulkRow {
  title: string;
  code?: string;
}
interface Item {
  id: number;
  title: string;
  code: string;
}

/** A store whose `title` can be updated and whose `code` cannot; creating a taken key is a 400. */
function store(initial: Record<string, Omit<Item, 'id'>> = {}) {
  const items = new Map<string, Item>();
  let nextId = 1;
  for (const [key, v] of Object.entries(initial)) items.set(key, { id: nextId++, ...v });
  const calls = { find: 0, create: 0, update: 0 };
  const task: BulkTask<Row, Item> = {
    async find(row) {
      calls.find++;
      const item = items.get(row.key);
      return item && { id: item.id, current: item };
    },
    compare(row, item) {
      const changes = [];
      if (row.title !== item.title) changes.push({ field: 'title', from: item.title, to: row.title, applicable: true });
      if (row.code && row.code !== item.code)
        changes.push({ field: 'code', from: item.code, to: row.code, applicable: false });
      return changes;
    },
    async create(row) {
      calls.create++;
      if (items.has(row.key))
        throw new ApiError({ status: 400, method: 'POST', url: 'http://x/items', messages: ['taken'] });
      const item = { id: nextId++, title: row.title, code: row.code ?? '' };
      items.set(row.key, item);
      return item.id;
    },
    async update(row, found, changes) {
      calls.update++;
      for (const c of changes) if (c.field === 'title') items.get(row.key)!.title = c.to;
      void found;
    },
  };
  return { items, task, calls };
}

const dir = () => mkdtempSync(join(tmpdir(), 'lms-job-'));
const statuses = (results: RowResult[]) => results.map((r) => (r.skipped ? `done:${r.status}` : r.status));

const rows: Row[] = [
  { line: 2, key: 'a', title: 'A' },
  { line: 3, key: 'b', title: 'B' },
  { line: 4, key: 'c', title: 'C new' },
  { line: 5, key: 'd', title: 'D', code: 'D2' },
  { line: 6, key: 'e', title: 'E new', code: 'E2' },
];
const initial = {
  b: { title: 'B', code: '' },
  c: { title: 'C', code: '' },
  d: { title: 'D', code: 'D1' },
  e: { title: 'E', code: 'E1' },
};

describe('runRows', () => {
  it.each([false, true])('plans exactly what it then applies (update: %s)', async (update) => {
    const s = store(initial);
    const d = dir();
    const plan = await runRows(rows, s.task, {
      journal: new Journal(d, ['job'], { state: 'one', readOnly: true }),
      concurrency: 3,
      mode: 'plan',
      update,
    });
    expect(s.calls).toMatchObject({ create: 0, update: 0 });
    const applied = await runRows(rows, s.task, {
      journal: new Journal(d, ['job'], { state: 'one' }),
      concurrency: 3,
      update,
    });
    expect(statuses(plan)).toEqual(statuses(applied));
    expect(statuses(applied)).toEqual(
      update
        ? ['created', 'existed', 'updated', 'failed', 'updated']
        : ['created', 'existed', 'differs', 'differs', 'differs'],
    );
    expect(s.items.get('c')!.title).toBe(update ? 'C new' : 'C');
    // A field the API cannot change is reported, never applied; alone, it fails the row under update.
    expect(applied[3]).toMatchObject(
      update
        ? { status: 'failed', error: 'cannot be changed through the API: code "D1" → "D2"' }
        : { status: 'differs' },
    );
    expect(applied[4].changes).toEqual([
      { field: 'title', from: 'E', to: 'E new', applicable: true },
      { field: 'code', from: 'E1', to: 'E2', applicable: false },
    ]);
  });

  it('trusts a journal only in the state it was written in, and checks it where no state is named', async () => {
    const s = store();
    const d = dir();
    await runRows(rows.slice(0, 2), s.task, { journal: new Journal(d, ['job'], { state: 'one' }), concurrency: 2 });
    s.calls.find = 0;
    // Same state: done rows are skipped with no request at all.
    const same = await runRows(rows.slice(0, 2), s.task, {
      journal: new Journal(d, ['job'], { state: 'one' }),
      concurrency: 2,
    });
    expect(statuses(same)).toEqual(['done:created', 'done:created']);
    expect(s.calls.find).toBe(0);
    // Another state: the entries describe data that is gone; they are dropped and the rows done again.
    s.items.clear();
    const other = new Journal(d, ['job'], { state: 'two' });
    expect(other.stale).toBe(2);
    expect(statuses(await runRows(rows.slice(0, 2), s.task, { journal: other, concurrency: 2 }))).toEqual([
      'created',
      'created',
    ]);
    // No state named: each done row is looked up, and redone if it is gone.
    s.items.delete('a');
    const unnamed = await runRows(rows.slice(0, 2), s.task, { journal: new Journal(d, ['job']), concurrency: 2 });
    expect(unnamed.map((r) => [r.status, Boolean(r.skipped), Boolean(r.redone)])).toEqual([
      ['created', false, true],
      ['created', true, false],
    ]);
  });

  it('takes a row that wants its target gone, and finds none, as existed: never created, on any instance', async () => {
    const s = store({ a: { title: 'A', code: '' } });
    // A row titled "gone" wants its target deleted; the store deletes it on update.
    const task: BulkTask<Row, Item> = {
      ...s.task,
      wantsAbsent: (row) => row.title === 'gone',
      compare: (row, item) =>
        row.title === 'gone'
          ? [{ field: 'status', from: 'active', to: 'deleted', applicable: true }]
          : s.task.compare(row, item),
      async update(row) {
        s.calls.update++;
        s.items.delete(row.key);
      },
    };
    const gone: Row[] = [
      { line: 2, key: 'a', title: 'gone' },
      { line: 3, key: 'z', title: 'gone' },
    ];
    const d = dir();
    const plan = await runRows(gone, task, {
      journal: new Journal(d, ['job'], { readOnly: true }),
      concurrency: 2,
      mode: 'plan',
      update: true,
    });
    expect(statuses(plan)).toEqual(['updated', 'existed']);
    const first = await runRows(gone, task, { journal: new Journal(d, ['job']), concurrency: 2, update: true });
    expect(statuses(first)).toEqual(['updated', 'existed']);
    expect(s.calls).toMatchObject({ create: 0, update: 1 });
    // A journal no instance state vouches for: each row is looked up, found gone, and is done.
    const again = await runRows(gone, task, { journal: new Journal(d, ['job']), concurrency: 2, update: true });
    expect(again.map((r) => [r.status, Boolean(r.skipped), Boolean(r.redone)])).toEqual([
      ['updated', true, false],
      ['existed', true, false],
    ]);
    // With no journal to go by, the same: nothing to write.
    const fresh = await runRows(gone, task, { journal: new Journal(dir(), ['job']), concurrency: 2, update: true });
    expect(statuses(fresh)).toEqual(['existed', 'existed']);
    expect(s.calls).toMatchObject({ create: 0, update: 1 });
  });

  it('settles a row an earlier run started, by looking before writing', async () => {
    const s = store({ a: { title: 'A', code: '' } });
    const d = dir();
    const journal = new Journal(d, ['job'], { state: 'one' });
    journal.record({ line: 2, key: 'a', status: 'started' });
    journal.record({ line: 3, key: 'b', status: 'started' });
    const results = await runRows(rows.slice(0, 2), s.task, {
      journal: new Journal(d, ['job'], { state: 'one' }),
      concurrency: 1,
    });
    expect(statuses(results)).toEqual(['done:created', 'created']);
    expect(s.calls.create).toBe(1);
  });
});
