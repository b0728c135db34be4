// The mock's clock writes what Date#toISOString writes, for every instant it may meet.
import { describe, expect, it } from 'vitest';
import { isoNow } from '../../src/mock/clock.js';

describe('isoNow', () => {
  const instants: [string, number][] = [
    ['the epoch', 0],
    ['a whole second', Date.UTC(2026, 10, 28, 4, 9, 50)],
    ['single-digit fields and milliseconds', Date.UTC(2026, 0, 2, 3, 4, 5, 6)],
    ['the last millisecond of a year', Date.UTC(2025, 11, 31, 23, 59, 59, 999)],
    ['a leap day', Date.UTC(2028, 1, 29, 12, 0, 0, 40)],
    ['a year below 1000', Date.UTC(999, 5, 1)],
    ['before the epoch', Date.UTC(1969, 11, 31, 23, 59, 59, 1)],
    ['year 0', new Date(Date.UTC(2000, 0, 1)).setUTCFullYear(0)],
    ['the last millisecond of 9999', Date.UTC(9999, 11, 31, 23, 59, 59, 999)],
    ['year 10000 (six digits and a sign)', Date.UTC(10000, 0, 1)],
    ['a negative year', -62198755200000 - 86400000 * 400],
  ];
  it.each(instants)('%s', (_name, ms) => {
    expect(isoNow(ms)).toBe(new Date(ms).toISOString());
  });

  it('agrees with Date on a thousand instants across four centuries', () => {
    for (let i = 0; i < 1000; i++) {
      const ms = Math.floor(
        Date.UTC(1900, 0, 1) + (i / 1000) * (Date.UTC(2300, 0, 1) - Date.UTC(1900, 0, 1)) + i * 7919,
      );
      expect(isoNow(ms)).toBe(new Date(ms).toISOString());
    }
  });

  it('is now when given nothing', () => {
    const before = Date.now();
    const text = isoNow();
    expect(Date.parse(text)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(text)).toBeLessThanOrEqual(Date.now());
  });
});
