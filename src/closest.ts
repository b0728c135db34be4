// "Did you mean": the nearest of some names to one mistyped, by edits (a letter inserted, deleted,
// changed, or two neighbours swapped), when it is near enough to be what was meant. A short word
// is allowed one edit, a longer one two: two edits of a four-letter word leave half of it, and
// make `tcsh` look like `bash`.

/** The closest of `names` to `word` (compared in lower case), when it is near enough; undefined when none is. */
export function closest(word: string, names: Iterable<string>): string | undefined {
  const typed = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = (typed.length <= 4 ? 1 : 2) + 1;
  for (const name of names) {
    const d = distance(typed, name);
    if (d < bestDistance) [best, bestDistance] = [name, d];
  }
  return best;
}

/** Edits from `a` to `b`, a swap of neighbouring letters counting as one (optimal string alignment). */
function distance(a: string, b: string): number {
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(row[j], before[j - 2] + 1);
    }
    [before, previous] = [previous, row];
  }
  return previous[b.length];
}
