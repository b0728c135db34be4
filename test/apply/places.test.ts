// Where the modules a file places end up: at their positions, those past the end in the last
// places in the order of their positions, as the API puts each at the end in turn.
import { describe, expect, it } from 'vitest';
import { finalPlaces } from '../../src/apply/plan.js';

describe('finalPlaces', () => {
  it.each([
    ['within the course', [2, undefined, 1], 3, [2, undefined, 1]],
    ['one past the end', [10], 3, [3]],
    ['two past the end, by their positions', [6, 5], 2, [2, 1]],
    ['one past the end pushes the last one up', [3, 10], 3, [2, 3]],
    ['an empty course', [4], 1, [1]],
    ['none placed', [undefined, undefined], 2, [undefined, undefined]],
  ])('%s', (_, positions, count, places) => {
    expect(finalPlaces(positions, count)).toEqual(places);
  });
});
