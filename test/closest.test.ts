// The nearest name to a mistyped one: near enough to be what was meant, or nothing.
import { describe, expect, it } from 'vitest';
import { closest } from '../src/closest.js';

describe('closest', () => {
  it.each<[string, string[], string | undefined]>([
    ['jsn', ['table', 'json', 'csv'], 'json'],
    // Two letters swapped are one slip, not two.
    ['nmae', ['id', 'name', 'email'], 'name'],
    ['prdo', ['ci', 'prod'], 'prod'],
    ['--acount', ['--account', '--course'], '--account'],
    ['JSON', ['table', 'json'], 'json'],
    ['cousre_id', ['course_id', 'user_id'], 'course_id'],
    ['time_zon', ['time_zone', 'locale'], 'time_zone'],
    // Two edits of a short word leave too little of it: another shell is not a typo of bash.
    ['tcsh', ['bash', 'zsh', 'fish'], undefined],
    ['spreadsheet', ['table', 'json', 'csv'], undefined],
    ['zzzzzz', ['ci', 'prod'], undefined],
  ])('%s among %j: %s', (word, names, expected) => {
    expect(closest(word, names)).toBe(expected);
  });
});
