// "Did you mean": the nearest of some names to one mistyped, by edits (a letter inserted, deleted
// or changed), when it is near enough to be what was meant.

/** The closest of `names` to `word` (compared in lower case), within two edits; undefined when none is. */
export function closest(word: string, names: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const name of names) {
    const d = distance(word.toLowerCase(), name);
    if (d < bestDistance) [best, bestDistance] = [name, d];
  }
  return best;
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length];
}
