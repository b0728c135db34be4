// The mock's SQLite schema: the core tables plus each area's, in area order. Its version is derived
// from the text, so any change to any area's schema rebuilds older databases without anyone having
// to remember a bump.
import { areas } from '../areas/index.js';

const core = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
`;

export const schema = [core, ...areas.map((a) => a.schema)].join('\n');

/** FNV-1a of the schema text, as a positive 31-bit integer (SQLite's user_version; 0 means "new"). */
function versionOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash & 0x7fffffff) || 1;
}

export const SCHEMA_VERSION = versionOf(schema);
