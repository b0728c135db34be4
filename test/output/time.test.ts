// What a table takes for a moment to show in local time, and what it leaves as the instance wrote
// it. The zones themselves are proven in spawned processes (test/e2e/local-time.test.ts).
import { describe, expect, it } from 'vitest';
import { localTime } from '../../src/output/time.js';

describe('localTime', () => {
  it.each([
    '2026-12-02',
    '2026-12-02T14:30:00',
    '14:30',
    'due 2026-12-02T14:30:00Z',
    '2026-13-45T99:99:00Z',
    '',
    'S-2026-12-02T14:30:00Z',
  ])('leaves %j as it is', (text) => {
    expect(localTime(text)).toBeUndefined();
  });

  it.each([
    '2026-12-02T14:30:00Z',
    '2026-12-02T14:30Z',
    '2026-12-02T14:30:00.123Z',
    '2026-12-02T15:30:00+01:00',
    '2026-12-02T15:30:00+0100',
    '2026-12-02T15:30:00+01',
    '2026-12-02T09:30:00-05:00',
  ])('reads %j as a moment', (text) => {
    const shown = localTime(text);
    expect(shown).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d$/);
    // The same moment, however its zone was written.
    expect(shown).toBe(localTime('2026-12-02T14:30:00Z'));
  });
});
