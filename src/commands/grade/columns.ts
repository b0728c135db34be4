// What each column of a grades file is, as data: one table for both layouts `lms grade --csv`
// reads — lms's own (`user`, `name`, `section`, then `grade`/`comment` or a column per assignment)
// and Canvas's Gradebook export (`Student`, `ID`, `SIS User ID`, `SIS Login ID`, `Section`, a column
// per assignment headed `Name (id)`, then the read-only totals). A new kind of column is one row of
// COLUMN_RULES; the reader acts on the kind.
//
// Canvas's facts (canvas-lms lib/gradebook_exporter.rb, app/models/gradebook_importer.rb): the header
// starts with `Student` (or `LastName`, `FirstName`) and `ID`; the student's columns end with
// `Section`; a total's header holds one of Current/Final/Override Score/Points/Grade/Status,
// wherever it stands (`Unposted Current Score`, `Homework Final Points`, `Final Score (Fall 2020)`),
// and is never imported.

/** The two layouts of a grades file. */
export type GradeLayout = 'lms' | 'canvas';

export type ColumnKind =
  /** lms: the student, as any user reference (id, sis_user_id:X, a login, email:X). */
  | 'user'
  /** lms: the student's name, checked against the student the row names. */
  | 'name'
  /** Canvas: the student's Canvas id, which names the student. */
  | 'student_id'
  /** Canvas: the student's SIS id, checked against the student `ID` names (names them when `ID` is empty). */
  | 'sis_user_id'
  /** Canvas: the student's login, which names them when both ids are empty. */
  | 'sis_login_id'
  /** Said for the person editing the file and never read: a section, a Canvas name, an integration id. */
  | 'info'
  /** lms, one assignment: the grade. */
  | 'grade'
  /** lms, one assignment: a comment sent with a changed grade. */
  | 'comment'
  /** The failed-rows file's reason, ignored so that file grades as it is. */
  | 'error'
  /** Canvas: a total or an override, worked out by Canvas and never imported. */
  | 'read_only'
  /** A column of grades for one assignment: by `(id)` in a Canvas header, by id or name in lms's. */
  | 'assignment';

interface ColumnRule {
  kind: ColumnKind;
  layouts: readonly GradeLayout[];
  /** Whether a header (as written; trimmed) is this kind; an assignment's rule gives the id it names, if any. */
  match(header: string): boolean | { id?: string; title: string };
}

const named =
  (...names: string[]) =>
  (header: string) =>
    names.includes(header.toLowerCase());

/** Canvas's read-only columns: every header holding one of these words, its prefixes and suffixes aside. */
const CANVAS_TOTAL = /(?:Current|Final|Override) (?:Score|Points|Grade|Status)/;

/** Canvas's assignment header: its title, a space and its id in brackets. */
const TITLE_WITH_ID = /^(.*\S)\s+\((\d+)\)$/;

/**
 * The kinds of column, first match wins: a Canvas total is read-only before it can be taken for an
 * assignment; anything no rule above takes is an assignment's.
 */
const COLUMN_RULES: readonly ColumnRule[] = [
  { kind: 'user', layouts: ['lms'], match: named('user') },
  { kind: 'name', layouts: ['lms'], match: named('name') },
  { kind: 'info', layouts: ['lms'], match: named('section') },
  { kind: 'grade', layouts: ['lms'], match: named('grade') },
  { kind: 'comment', layouts: ['lms'], match: named('comment') },
  { kind: 'error', layouts: ['lms', 'canvas'], match: named('error') },
  { kind: 'info', layouts: ['canvas'], match: named('student', 'lastname', 'firstname') },
  { kind: 'student_id', layouts: ['canvas'], match: named('id') },
  { kind: 'sis_user_id', layouts: ['canvas'], match: (h) => /^SIS\s+User\s+ID$/i.test(h) },
  { kind: 'sis_login_id', layouts: ['canvas'], match: (h) => /^SIS\s+Login\s+ID$/i.test(h) },
  {
    kind: 'info',
    layouts: ['canvas'],
    match: (h) => /^(?:Integration\s+ID|Root\s+Account|Section)$/i.test(h),
  },
  { kind: 'read_only', layouts: ['canvas'], match: (h) => CANVAS_TOTAL.test(h) },
  {
    kind: 'assignment',
    layouts: ['canvas'],
    match: (h) => {
      const m = TITLE_WITH_ID.exec(h);
      return m ? { id: m[2], title: m[1] } : { title: h };
    },
  },
  { kind: 'assignment', layouts: ['lms'], match: (h) => ({ title: h }) },
];

export interface Column {
  /** Its place in the header. */
  index: number;
  /** Its header as written (trimmed). */
  header: string;
  kind: ColumnKind;
  /** An assignment column's id, when its header gives one (Canvas's `Name (id)`). */
  id?: string;
  /** An assignment column's title: its header without the id. */
  title?: string;
}

/** Each column of a header as the layout's rules read it. */
export function columnsOf(header: readonly string[], layout: GradeLayout): Column[] {
  return header.map((raw, index) => {
    const h = raw.trim();
    for (const rule of COLUMN_RULES) {
      if (!rule.layouts.includes(layout)) continue;
      const m = rule.match(h);
      if (m === false) continue;
      return { index, header: h, kind: rule.kind, ...(m === true ? {} : m) };
    }
    // The last rule of each layout matches anything.
    throw new Error(`no column rule for ${JSON.stringify(h)}`);
  });
}

/**
 * Whether a header is Canvas's Gradebook export: `Student` and `ID` first (or `LastName`,
 * `FirstName`, `ID`), as Canvas's own import tells it, and a `Section` column among the student's.
 */
export function isCanvasGradebook(header: readonly string[]): boolean {
  const h = header.map((c) => c.trim());
  const first =
    (h.length > 3 && h[0] === 'Student' && h[1] === 'ID') ||
    (h.length > 4 && h[0] === 'LastName' && h[1] === 'FirstName' && h[2] === 'ID');
  return first && h.slice(0, 8).includes('Section');
}

/** Canvas's row of points possible: its first cell says so (`    Points Possible`). */
export const isPointsPossibleRow = (cells: readonly string[]) => (cells[0] ?? '').includes('Points Possible');

/** Canvas's row marking muted or manually posted assignments: every cell empty, `Muted` or `Manual Posting…`. */
export const isPostingRow = (cells: readonly string[]) =>
  cells.every((c) => /^\s*(?:Muted|Manual Posting.*)?\s*$/i.test(c)) && cells.some((c) => c.trim() !== '');

/** A row of nothing but separators and spaces, which Canvas's import skips. */
export const isBlankRow = (cells: readonly string[]) => cells.every((c) => c.trim() === '');

/** A points-possible cell that marks its column read-only (`(read only)`). */
export const READ_ONLY_MARK = /read\s+only/i;
