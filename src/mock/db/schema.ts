// The mock's SQLite schema: the core tables plus the parts it is given (each area's, in area
// order). Its version is derived from the text, so any change to any part rebuilds older
// databases without anyone having to remember a bump.

const core = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
`;

export interface Schema {
  text: string;
  /** SQLite's user_version for this text (0 means "new", so never 0). */
  version: number;
  /** SQL run after rows of another schema are carried into this one, filling in what they lack. */
  carried: string;
}

/**
 * `version`: what versionOf gives for this text, when it is known already (the build computes it).
 * The text is then joined only when a database is built: opening one of this version needs only
 * the number, and every `--mock` command would join the whole schema's SQL and never read it.
 */
export function schemaOf(parts: readonly string[], version?: number, carried: readonly string[] = []): Schema {
  let text: string | undefined;
  const joined = () => (text ??= [core, ...parts].join('\n'));
  return {
    get text() {
      return joined();
    },
    version: version ?? versionOf(joined()),
    carried: carried.join('\n'),
  };
}

/** FNV-1a of the schema text, as a positive 31-bit integer. */
function versionOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash & 0x7fffffff || 1;
}
