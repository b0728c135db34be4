// The bulk engine when a write's outcome is unknown more than once in a row, and when the journal and
// the target disagree: the target decides, for tasks that say so.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runRows, type BulkRow, type BulkTask } from '../../src/bulk/job.js';
import { Journal } from '../../src/bulk/journal.js';
import { OutcomeUnknownError } from '../../src/transport/resilient.js';

interface Row extends BulkRow {
  value: string;
}

const dropped = () =>
  new OutcomeUnknownError(
    'POST http://x/items: socket hang up; the request may or may not have been applied, so it was not resent',
    { code: 'ECONNRESET' },
  );

/**
 * One stored value per key. `drops` lists, per write, whether the connection drops: 'before' (not
 * applied) or 'after' (applied); writes past the list succeed.
 */
function store(
  initial: Record<string, string>,
  drops: ('before' | 'after')[],
  options: { compareDone?: boolean } = {},
) {
  const values = new Map(Object.entries(initial));
  const writes: string[] = [];
  const write = (key: string, value: string) => {
    const fate = drops[writes.length];
    writes.push(`${key}=${value}`);
    if (fate !== 'before') values.set(key, value);
    if (fate) throw dropped();
  };
  const task: BulkTask<Row, string> = {
    lookupFirst: true,
    compareDone: options.compareDone,
    async find(row) {
      const v = values.get(row.key);
      return v === undefined ? undefined : { id: 1, current: v };
    },
    compare: (row, v) => (row.value === v ? [] : [{ field: 'value', from: v, to: row.value, applicable: true }]),
    async create(row) {
      write(row.key, row.value);
      return 1;
    },
    async update(row) {
      write(row.key, row.value);
    },
  };
  return { values, writes, task };
}

const journal = () => new Journal(mkdtempSync(join(tmpdir(), 'lms-unknown-')), ['job'], { state: 'one' });

describe('a write whose outcome is unknown', () => {
  it.each([
    ['an update dropped before, then after it was applied', { a: 'old' }, ['before', 'after'] as const, 'updated', 2],
    ['a create dropped before, then after it was applied', {}, ['before', 'after'] as const, 'created', 2],
    ['an update dropped after it was applied', { a: 'old' }, ['after'] as const, 'updated', 1],
  ])('%s: looked up each time, done, not failed', async (_what, initial, drops, status, sent) => {
    const s = store(initial, [...drops]);
    const [result] = await runRows([{ line: 2, key: 'a', value: 'new' }], s.task, {
      journal: journal(),
      concurrency: 1,
      update: true,
    });
    expect(result).toMatchObject({ status });
    expect(s.values.get('a')).toBe('new');
    expect(s.writes).toHaveLength(sent);
  });

  it('fails the row after a few writes that all dropped before being applied', async () => {
    const s = store({ a: 'old' }, ['before', 'before', 'before', 'before']);
    const [result] = await runRows([{ line: 2, key: 'a', value: 'new' }], s.task, {
      journal: journal(),
      concurrency: 1,
      update: true,
    });
    expect(result).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('may or may not have been applied'),
    });
    expect(s.writes).toHaveLength(3);
  });
});

describe('compareDone', () => {
  it.each([
    ['the target changed since: written again', true, 'changed', ['a=new'], { status: 'updated' }],
    ['the target as the row says: skipped', true, 'new', [], { status: 'updated', skipped: true }],
    ['without it, the journal is believed', false, 'changed', [], { status: 'updated', skipped: true }],
  ])('%s', async (_what, compareDone, now, writes, expected) => {
    const j = journal();
    const s = store({ a: 'old' }, [], { compareDone });
    await runRows([{ line: 2, key: 'a', value: 'new' }], s.task, { journal: j, concurrency: 1, update: true });
    s.values.set('a', now);
    s.writes.length = 0;
    const [result] = await runRows([{ line: 2, key: 'a', value: 'new' }], s.task, {
      journal: j,
      concurrency: 1,
      update: true,
    });
    expect(result).toMatchObject(expected);
    expect(s.writes).toEqual(writes);
  });
});
