// docs/contributing.md's layout maps the folders of src/: one written later without a line there
// fails here. A noun's folder (src/commands/<noun>) and an area's (src/mock/areas/<area>) and a school record's
// (src/mock/school/<record>) are named by their parent's line.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const src = new URL('../../src/', import.meta.url);
const doc = readFileSync(new URL('../../docs/contributing.md', import.meta.url), 'utf8');

/** The code block under "## Layout": the map itself. */
function layoutMap(): string {
  const section = doc.slice(doc.indexOf('## Layout'));
  const block = /```\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error('docs/contributing.md has no code block under "## Layout"');
  return block[1];
}

/** Every folder under src/, as `spec/types`, leaving out the folders of nouns and areas. */
function folders(): string[] {
  return readdirSync(src, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `${entry.parentPath}/${entry.name}`.slice(src.pathname.length).replace(/^\/+/, ''))
    .filter((dir) => !/^(commands|mock\/areas|mock\/school)\/./.test(dir))
    .sort();
}

describe("docs/contributing.md's folder map", () => {
  it('names every folder of src/, by its path or under its parent', () => {
    const map = layoutMap();
    const found = folders();
    expect(found).toEqual(expect.arrayContaining(['commands', 'mock', 'mock/areas', 'mock/db', 'spec/types']));
    const lines = map.split('\n');
    /** A folder's own line, or its name on its parent's entry (`src/spec/ … types/ (…)`). */
    const named = (dir: string) => {
      if (map.includes(`src/${dir}/`)) return true;
      const parent = dir.split('/').slice(0, -1).join('/');
      const at = lines.findIndex((line) => line.startsWith(`src/${parent}/`));
      if (!parent || at < 0) return false;
      const end = lines.findIndex((line, i) => i > at && !line.startsWith(' '));
      const entry = lines.slice(at, end < 0 ? undefined : end);
      return entry.some((line) => line.includes(` ${dir.split('/').pop()}/`));
    };
    expect(
      found.filter((dir) => !named(dir)),
      'add a line for each to the map in docs/contributing.md',
    ).toEqual([]);
  });
});
