/**
 * A search term as a "contains" comparison: `column ${operator}` with `pattern` bound to it. The
 * term's own %, _ and \ are matched literally; a term without them is a plain LIKE, which an FTS5
 * trigram index serves (one with ESCAPE it reads through).
 */
export function containsLike(term: string): { operator: string; pattern: string } {
  const special = /[\\%_]/.test(term);
  return {
    operator: special ? `LIKE ? ESCAPE '\\'` : 'LIKE ?',
    pattern: `%${special ? term.replace(/[\\%_]/g, (c) => `\\${c}`) : term}%`,
  };
}

/** Trigram indexes serve terms of three characters or more. */
export const indexable = (term: string) => [...term].length >= 3;
