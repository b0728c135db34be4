// The table's widths: identifiers are never cut, at any terminal width and in any batch; free text
// gives way to the terminal; a later batch with wider values widens the table from there on.
import { Writable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { isIdentifierColumn } from '../../src/output/columns.js';
import { renderItem, renderList } from '../../src/output/render.js';
import { writeTableList } from '../../src/output/table.js';
import { fakeIO } from '../helpers/fake-io.js';

type Page = Record<string, unknown>[];

/** Pages as a paging source yields them: each after a wait, so each is a batch of its own. */
async function* paged(pages: Page[]): AsyncGenerator<Record<string, unknown>> {
  for (const page of pages) {
    await new Promise((resolve) => setTimeout(resolve, 1));
    yield* page;
  }
}

async function tableLines(
  pages: Page[],
  columns: string[] | undefined,
  terminalWidth: number | undefined,
): Promise<string[]> {
  // No width: `-o table` into a pipe.
  const io = fakeIO({ tty: terminalWidth !== undefined, columns: terminalWidth });
  await renderList(paged(pages), { io, format: 'table', columns });
  return io.stdoutText().trimEnd().split('\n');
}

/** Splits a drawn line at its column gaps (two spaces or more); cells here hold single spaces at most. */
const cellsOf = (line: string) => line.split(/ {2,}/);

describe('which columns are identifiers', () => {
  it.each<[string, boolean]>([
    ['id', true],
    ['user_id', true],
    ['course_section_id', true],
    ['user.id', true],
    ['parent_outcome_group.id', true],
    ['enrollment_term_ids', true],
    ['sis_user_id', true],
    ['sis_import_id', true],
    ['integration_id', true],
    ['login_id', true],
    ['user.login_id', true],
    ['login', true],
    ['email', true],
    ['primary_email', true],
    ['EMAIL', true],
    ['uuid', true],
    ['vendor_guid', true],
    ['outcome.vendor_guid', true],
    ['context_code', true],
    ['url', true],
    ['html_url', true],
    ['avatar_url', true],
    ['path', true],
    ['token', true],
    ['client_secret', true],
    ['name', false],
    ['user.name', false],
    ['sortable_name', false],
    ['title', false],
    ['message', false],
    ['description', false],
    ['course_code', false],
    ['workflow_state', false],
    ['type', false],
    ['content-type', false],
    ['identity', false],
    ['valid', false],
  ])('%s: %s', (column, expected) => {
    expect(isIdentifierColumn(column)).toBe(expected);
  });
});

const USER_COLUMNS = ['id', 'name', 'login_id', 'sis_user_id', 'email'];
const ada = { id: 1, name: 'Ada Lovelace', login_id: 'ada', sis_user_id: 'S-1', email: 'ada@school.edu' };
const bartholomew = {
  id: '4200000000000017',
  name: 'Bartholomew Featherstonehaugh-Cholmondeley',
  login_id: 'bartholomew.featherstonehaugh',
  sis_user_id: 'SIS-2024-000017',
  email: 'bartholomew.featherstonehaugh@students.school.edu',
};

describe('a users listing whose second page brings longer identifiers', () => {
  it.each<[number | undefined, string[]]>([
    [
      80,
      [
        'ID  NAME          LOGIN_ID  SIS_USER_ID  EMAIL',
        '1   Ada Lovelace  ada       S-1          ada@school.edu',
        // Identifiers alone need 109 of 80 columns: the line runs over, and the name gives way.
        '4200000000000017  Bart…  bartholomew.featherstonehaugh  SIS-2024-000017  ' +
          'bartholomew.featherstonehaugh@students.school.edu',
      ],
    ],
    [
      200,
      [
        'ID  NAME          LOGIN_ID  SIS_USER_ID  EMAIL',
        '1   Ada Lovelace  ada       S-1          ada@school.edu',
        '4200000000000017  Bartholomew Featherstonehaugh-Cholmondeley  bartholomew.featherstonehaugh  ' +
          'SIS-2024-000017  bartholomew.featherstonehaugh@students.school.edu',
      ],
    ],
    [
      40,
      [
        'ID  NAME   LOGIN_ID  SIS_USER_ID  EMAIL',
        '1   Ada …  ada       S-1          ada@school.edu',
        '4200000000000017  Bart…  bartholomew.featherstonehaugh  SIS-2024-000017  ' +
          'bartholomew.featherstonehaugh@students.school.edu',
      ],
    ],
    [
      // Not a terminal (`-o table` into a pipe): nothing to fit, nothing cut.
      undefined,
      [
        'ID  NAME          LOGIN_ID  SIS_USER_ID  EMAIL',
        '1   Ada Lovelace  ada       S-1          ada@school.edu',
        '4200000000000017  Bartholomew Featherstonehaugh-Cholmondeley  bartholomew.featherstonehaugh  ' +
          'SIS-2024-000017  bartholomew.featherstonehaugh@students.school.edu',
      ],
    ],
  ])('at %s columns', async (width, expected) => {
    expect(await tableLines([[ada], [bartholomew]], USER_COLUMNS, width)).toEqual(expected);
  });
});

describe('an enrollments listing whose later pages bring longer ids', () => {
  const COLUMNS = ['id', 'user_id', 'user.name', 'type', 'role', 'enrollment_state', 'course_id', 'course_section_id'];
  const enrollment = (id: number, userId: number, name: string) => ({
    id,
    user_id: userId,
    user: { name },
    type: 'StudentEnrollment',
    role: 'StudentEnrollment',
    enrollment_state: 'active',
    course_id: 12,
    course_section_id: 3000 + id,
  });
  const pages = [
    [enrollment(4, 7, 'Sam Student'), enrollment(5, 8, 'Sofia Lindqvist-Okonkwo-Brandt')],
    [enrollment(48213, 1042, 'Ravi'), enrollment(48214, 1043, 'Mina Okafor')],
    [enrollment(5120004, 20000017, 'Zoë')],
  ];

  it.each([80, 200, 40])('prints every id whole at %s columns, widening from the page that needs it', async (width) => {
    const lines = await tableLines(pages, COLUMNS, width);
    expect(lines).toHaveLength(6);
    const rows = lines.slice(1).map(cellsOf);
    const expected = pages.flat();
    rows.forEach((cells, i) => {
      expect(cells[0]).toBe(String(expected[i].id));
      expect(cells[1]).toBe(String(expected[i].user_id));
      expect(cells.at(-2)).toBe('12');
      expect(cells.at(-1)).toBe(String(expected[i].course_section_id));
    });
    // Each page is aligned in itself: its rows' user_id cells start at one column.
    const userIdAt = (line: string) => line.indexOf('  ', line.indexOf(' ')) + 2;
    expect(userIdAt(lines[3])).toBe(userIdAt(lines[4]));
    expect(userIdAt(lines[3])).toBeGreaterThan(userIdAt(lines[2]));
    // At 80 and 200 columns the identifiers fit, and so does every line.
    if (width >= 80) for (const line of lines) expect(line.length).toBeLessThanOrEqual(width);
  });
});

describe('wide characters in free text', () => {
  const pages = [
    [{ id: 1, name: '山田太郎', login_id: 'yamada', sis_user_id: 'S-1', email: 'yamada@school.jp' }],
    [
      {
        id: 22,
        name: '🎓🎓 Graduate ゼミナール 研究室の学生 with a long name',
        login_id: 'josé.núñez',
        sis_user_id: 'S-22',
        email: 'josé.núñez@escuela.es',
      },
      {
        id: 333,
        name: 'Ωmega',
        login_id: 'omega.persson-lindqvist-fredriksson',
        sis_user_id: 'S-333',
        email: 'omega@school.se',
      },
    ],
  ];

  it.each([90, 60, 40])(
    'at %s columns: free text is cut by display width, identifiers (accents and all) are whole',
    async (width) => {
      const lines = await tableLines(pages, USER_COLUMNS, width);
      expect(lines).toHaveLength(4);
      const identifiers = [
        '1',
        'yamada',
        'S-1',
        'yamada@school.jp',
        '22',
        'josé.núñez',
        'S-22',
        'josé.núñez@escuela.es',
        '333',
        'omega.persson-lindqvist-fredriksson',
        'S-333',
        'omega@school.se',
      ];
      const cells = lines.slice(1).flatMap(cellsOf);
      for (const identifier of identifiers) expect(cells).toContain(identifier);
      // Where the identifiers (ID 3, LOGIN_ID 35, SIS_USER_ID 11, EMAIL 21, four gaps) and the least
      // of NAME (5) fit the terminal, so does every line, counted in display columns.
      if (width >= 3 + 35 + 11 + 21 + 2 * 4 + 5)
        for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(width);
    },
  );

  it('at 200 columns nothing is cut', async () => {
    const lines = await tableLines(pages, USER_COLUMNS, 200);
    expect(lines.join('\n')).not.toContain('…');
    expect(lines[2]).toContain('🎓🎓 Graduate ゼミナール 研究室の学生 with a long name');
  });
});

describe('identifiers longer than the terminal', () => {
  it('run over the line; the free text beside them keeps its minimum', async () => {
    const url = `https://school.instructure.com/files/123/download?verifier=${'x'.repeat(60)}`;
    const lines = await tableLines([[{ id: 1, display_name: 'syllabus.pdf', url }]], ['id', 'display_name', 'url'], 40);
    expect(lines).toEqual(['ID  DISP…  URL', `1   syll…  ${url}`]);
  });

  it('a list of ids in an *_ids column is whole; other nested values still stop at 40 characters', async () => {
    const ids = Array.from({ length: 20 }, (_, i) => 1000 + i);
    const lines = await tableLines(
      [[{ id: 1, enrollment_term_ids: ids, settings: { note: 'n'.repeat(60) } }]],
      ['id', 'enrollment_term_ids', 'settings'],
      undefined,
    );
    expect(cellsOf(lines[1])[1]).toBe(JSON.stringify(ids));
    expect(cellsOf(lines[1])[2]).toHaveLength(40);
  });
});

describe('a single record (KEY/VALUE)', () => {
  const user = {
    id: '4200000000000017',
    name: 'Bartholomew Featherstonehaugh-Cholmondeley of the Very Long Name, Seventeenth of That Name',
    email: 'bartholomew.featherstonehaugh@students.school.edu',
    bio: 'Studies the long history of very long names and their very long consequences',
  };

  it.each([40, 80])('at %s columns cuts only free-text values', async (width) => {
    const io = fakeIO({ tty: true, columns: width });
    await renderItem(user, { io, format: 'table' });
    const lines = io.stdoutText().trimEnd().split('\n');
    expect(lines[1]).toBe(`id     ${user.id}`);
    expect(lines[3]).toBe(`email  ${user.email}`);
    for (const line of [lines[2], lines[4]]) {
      expect(line.length).toBe(width);
      expect(line.endsWith('…')).toBe(true);
    }
  });
});

describe('a listing of 100,000 rows', () => {
  /** A stdout that counts what it is given and keeps none of it. */
  class Sink extends Writable {
    lines = 0;
    override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
      for (const byte of chunk) if (byte === 10) this.lines++;
      done();
    }
  }

  it('keeps no record it has printed, however much the table widens', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const stdout = new Sink();
    const io = { ...fakeIO({ tty: true, columns: 80 }), stdout };
    const watched: WeakRef<object>[] = [];
    let alive = -1;
    async function* records() {
      for (let id = 1; id <= 100_000; id++) {
        // Ids and logins grow as the listing goes on, so the table keeps widening.
        const record = {
          id: id * 7919,
          name: `User number ${id}`,
          login_id: `user.${'x'.repeat(Math.floor(id / 5000))}.${id}`,
          email: `u${id}@school.edu`,
        };
        if (id <= 1000) watched.push(new WeakRef(record));
        if (id === 100_000) {
          await new Promise((resolve) => setImmediate(resolve));
          gc();
          alive = watched.filter((ref) => ref.deref() !== undefined).length;
        }
        yield record;
      }
    }
    expect(await writeTableList(records(), { io, format: 'table', columns: USER_COLUMNS })).toBe(100_000);
    expect(stdout.lines).toBe(100_001);
    expect(alive).toBe(0);
  }, 60_000);
});
