// The spreadsheet guard: what every CSV lms writes puts before a formula, and every import takes off.
import { describe, expect, it } from 'vitest';
import { guardCell, unguardCell } from '../../src/output/csv-guard.js';

describe('guardCell', () => {
  it.each([
    ["=cmd|' /C calc'!A0", "'=cmd|' /C calc'!A0"],
    ['+SUM(1+1)', "'+SUM(1+1)"],
    ['@SUM(1)', "'@SUM(1)"],
    ['-2+3', "'-2+3"],
    ['\t=1+1', "'\t=1+1"],
    ['\r=1+1', "'\r=1+1"],
    ['-', "'-"],
    // Already starting with the guard's quote: one more, so that reading it back gives it as it was.
    ["'=1+1", "''=1+1"],
    // Numbers run nothing and stay numbers a spreadsheet can sum.
    ['-5', '-5'],
    ['+3.5', '+3.5'],
    ['-.5', '-.5'],
    ['1e+21', '1e+21'],
    // Nothing a spreadsheet runs.
    ['Sam Student', 'Sam Student'],
    ["'quoted", "'quoted"],
    ['a=b', 'a=b'],
    ['', ''],
  ])('%j is written %j', (value, written) => {
    expect(guardCell(value)).toBe(written);
  });
});

describe('unguardCell', () => {
  it.each([
    ["'=1+1", '=1+1'],
    ["''=1+1", "'=1+1"],
    ["'-5", '-5'],
    ["'\tx", '\tx'],
    // A quote before anything else is the value's own.
    ["'quoted", "'quoted"],
    ["'", "'"],
    ['=1+1', '=1+1'],
  ])('%j is read %j', (cell, value) => {
    expect(unguardCell(cell)).toBe(value);
  });

  it('reads back every guarded value as it was', () => {
    for (const value of [
      "=cmd|' /C calc'!A0",
      '+SUM(1+1)',
      '@SUM(1)',
      '-x',
      "'=x",
      "''+x",
      "'x",
      '-5',
      '\t@x',
      "'",
      '',
      'plain',
    ]) {
      expect(unguardCell(guardCell(value))).toBe(value);
    }
  });
});

describe('the failed-rows file', () => {
  it('is guarded, and every import reads it back as the rows were', async () => {
    const [{ mkdtempSync, readFileSync }, { tmpdir }, { join }, { writeFailedRows }, { parseCsv }] = await Promise.all([
      import('node:fs'),
      import('node:os'),
      import('node:path'),
      import('../../src/bulk/failed.js'),
      import('../../src/bulk/csv-input.js'),
    ]);
    const path = join(mkdtempSync(join(tmpdir(), 'lms-failed-guard-')), 'failed.csv');
    const values = { login_id: 'sam', name: "=cmd|' /C calc'!A0" };
    await writeFailedRows(path, ['login_id', 'name'], [{ line: 2, values, error: '@ the server refused it' }]);
    const text = readFileSync(path, 'utf8');
    expect(text).toBe("login_id,name,error\nsam,'=cmd|' /C calc'!A0,'@ the server refused it\n");
    const read = parseCsv(Buffer.from(text), { columns: ['login_id', 'name'], required: [] });
    expect(read.problems).toEqual([]);
    expect(read.rows.map((r) => r.values)).toEqual([values]);
  });
});
