// Canvas's own Gradebook export, both ways (`lms grade --csv` reads it, `lms grade export --format
// canvas` writes it), and the dialects spreadsheets write for every CSV lms reads, against the
// in-memory mock. The Canvas fixtures are shaped as canvas-lms lib/gradebook_exporter.rb writes
// them (see test/fixtures/grading/README.md).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApiRequest } from '../../src/transport/types.js';
import { session, type Session } from '../helpers/run-lms.js';
import { value } from '../helpers/sql.js';

const fixture = (name: string) => new URL(`../fixtures/grading/${name}`, import.meta.url).pathname;
const TEACHER = { LMS_TOKEN: '3~mock-tteacher' };

function workspace() {
  const dir = mkdtempSync(join(tmpdir(), 'lms-gradebook-'));
  return {
    dir,
    env: { ...TEACHER, LMS_STATE_DIR: join(dir, 'state') },
    file: (name: string, content: string | Buffer) => {
      writeFileSync(join(dir, name), content);
      return join(dir, name);
    },
  };
}

/** What the server holds for a student's submission of an assignment. */
const held = (lms: Session, assignment: number, user: number) =>
  lms.mock.db
    .prepare(`SELECT score, grade, excused FROM submissions WHERE assignment_id = ? AND user_id = ?`)
    .get(assignment, user) as { score: number | null; grade: string | null; excused: number };
/** Every grade ever written: a run that changes nothing adds none. */
const versions = (lms: Session) => value(lms.mock.db, `SELECT count(*) FROM submission_versions`) as number;

describe("grade --csv with Canvas's Gradebook export", () => {
  it(
    'grades from ID and the (id) of each column, excuses EX, and ignores totals, points possible and custom ' +
      'columns',
    async () => {
      const lms = session(TEACHER);
      const r = await lms.run(`grade --course 1 --csv ${fixture('canvas-gradebook.csv')} -o csv`);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout.trim().split('\n')).toEqual([
        'line,user,assignment_id,old_grade,new_grade,status,error',
        '3,7,1,19,20,updated,',
        '3,7,2,complete,complete,unchanged,',
        '3,7,3,B+,B+,unchanged,',
        '4,8,1,15,15,unchanged,',
        '4,8,2,incomplete,incomplete,unchanged,',
        '4,8,3,,EX,updated,',
        '5,9,1,,17.5,updated,',
        '5,9,2,,complete,updated,',
        // Lucas resubmitted since his 20: Canvas's import reads the score alone, so 20.00 is no change.
        '7,11,1,20,20,unchanged,',
      ]);
      expect(r.stderr).toContain('"Notes" is no assignment (a custom column?) and left as it is');
      expect(held(lms, 1, 7)).toMatchObject({ score: 20, grade: '20' });
      expect(held(lms, 3, 8)).toMatchObject({ score: null, grade: null, excused: 1 });
      expect(held(lms, 1, 9)).toMatchObject({ score: 17.5 });
      expect(held(lms, 2, 9)).toMatchObject({ score: 10, grade: 'complete' });
      // N/A (Mina) and - (Hana) change nothing.
      expect(held(lms, 1, 10).score).toBeNull();
      expect(held(lms, 1, 12).score).toBeNull();
      // Read again, the same file changes nothing: EX is excused already.
      const before = versions(lms);
      const again = await lms.run(`grade --course 1 --csv ${fixture('canvas-gradebook.csv')} -o json`);
      expect(JSON.parse(again.stdout)).toMatchObject({ updated: 0, failed: 0 });
      expect(versions(lms)).toBe(before);
    },
  );

  it(
    'reads a Canvas export with only SIS Login ID, a Manual ' +
      'Posting row, a read-only column and decimal commas (;)',
    async () => {
      const w = workspace();
      const lms = session(w.env);
      const r = await lms.run(`grade --course 1 --csv ${fixture('canvas-gradebook-semicolon.csv')} -o csv`);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout.trim().split('\n')).toEqual([
        'line,user,assignment_id,old_grade,new_grade,status,error',
        '4,7,1,19,18.5,updated,',
        // No ID: the student is found by SIS Login ID.
        '5,sis_login_id:sofia,1,15,15,unchanged,',
      ]);
      // The essay's column is read-only in the points possible row: its 50,00 for Sam is not sent.
      expect(held(lms, 3, 7)).toMatchObject({ grade: 'B+' });
    },
  );

  it.each([
    [
      'a column whose id is not the course’s',
      'Student,ID,SIS Login ID,Section,Homework 9 (999)\n"Student, Sam",7,sam,A,5\n',
      ':1: "Homework 9 (999)": assignment 999 is not an assignment of course 1',
    ],
    [
      'an ID and a SIS User ID of two students',
      'Student,ID,SIS User ID,SIS Login ID,Section,Cell Structure Lab Report (1)\n"Student, Sam",7,S-008,sam,A,5\n',
      ':2: SIS User ID "S-008" is not the SIS id of user 7 (S-007)',
    ],
    [
      'a row naming no student',
      'Student,ID,SIS Login ID,Section,Cell Structure Lab Report (1)\n"Student, Sam",,,A,5\n',
      ':2: names no student: ID, SIS User ID and SIS Login ID are all empty',
    ],
    [
      'a grade wrong for its column',
      'Student,ID,SIS Login ID,Section,Microscope Safety Quiz (2)\n"Student, Sam",7,sam,A,7.00\n',
      ':2: a pass_fail assignment takes only 0 or 10 (complete or incomplete), not "7.00" (Microscope Safety Quiz (2))',
    ],
  ])('refuses %s, and sends nothing', async (_what, text, message) => {
    const w = workspace();
    const lms = session(w.env);
    const before = versions(lms);
    const r = await lms.run(`grade --course 1 --csv ${w.file('canvas.csv', text)}`);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(message);
    expect(versions(lms)).toBe(before);
  });

  it('refuses --assignment with a Canvas export, which has a column per assignment', async () => {
    const r = await session(TEACHER).run(
      `grade --course 1 --assignment 1 --csv ${fixture('canvas-gradebook.csv')} --dry-run`,
    );
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(
      'is a Canvas gradebook export, with a column per assignment: give it without --assignment',
    );
  });

  it('dry-runs a Canvas export as it would grade it, and sends nothing', async () => {
    const lms = session(TEACHER);
    const before = versions(lms);
    const r = await lms.run(`grade --course 1 --csv ${fixture('canvas-gradebook.csv')} --dry-run -o json`);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ updated: 4, unchanged: 5, dry_run: true });
    expect(versions(lms)).toBe(before);
  });

  it('grades one PUT a row with --per-row, excusing with excuse', async () => {
    const w = workspace();
    const lms = session(w.env);
    const r = await lms.run(`grade --course 1 --csv ${fixture('canvas-gradebook.csv')} --per-row -o json`);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ updated: 4, unchanged: 5, failed: 0 });
    expect(held(lms, 3, 8).excused).toBe(1);
  });

  it(
    'writes failed rows in the layout and dialect of the ' + 'file: its header, points possible, ";", CRLF and BOM',
    async () => {
      const w = workspace();
      const lms = session(w.env);
      // A server that quietly drops Sam's grade from every batch.
      const real = lms.mock.handler;
      lms.mock.handler = (req: ApiRequest) =>
        real(
          typeof req.body === 'string' && req.url.includes('update_grades')
            ? { ...req, body: req.body.replace(/grade_data%5B7%5D%5Bposted_grade%5D=[^&]*&?/, '') }
            : req,
        );
      const text = readFileSync(fixture('canvas-gradebook.csv'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => line.split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/).join(';'))
        .join('\r\n');
      const failedOut = join(w.dir, 'failed.csv');
      const r = await lms.run(
        `grade --course 1 --csv ${w.file('in.csv', `\uFEFF${text}\r\n`)} --failed-out ${failedOut} -o json`,
      );
      expect(r.exitCode).toBe(1);
      const out = readFileSync(failedOut, 'utf8');
      expect(
        out.startsWith('\uFEFFStudent;ID;SIS User ID;SIS Login ID;Section;Notes;Cell Structure Lab Report (1);'),
      ).toBe(true);
      const lines = out.slice(1).split('\r\n');
      expect(lines[0].endsWith(';Unposted Final Score;error')).toBe(true);
      expect(lines[1].startsWith('    Points Possible;;;;;;20.00;10.00;100.00;(read only)')).toBe(true);
      // A comma needs no quotes where ";" separates.
      expect(lines[2]).toMatch(
        /^Student, Sam;7;S-007;sam;BIO-101 Section A;;20\.00;10\.00;89\.00;.*;"the server kept ""19"""$/,
      );
      expect(lines).toHaveLength(4);
      expect(lines[3]).toBe('');
      // The failed-rows file grades as it is, once the server behaves.
      lms.mock.handler = real;
      const retry = await lms.run(`grade --course 1 --csv ${failedOut} -o json`);
      expect(retry.exitCode, retry.stderr).toBe(0);
      expect(held(lms, 1, 7).score).toBe(20);
    },
  );
});

const SCORES = ['Current Score', 'Unposted Current Score', 'Final Score', 'Unposted Final Score'];
// Points current and final, then the scores current and final, each twice (posted and unposted).
const TOTALS_LUCAS = '20.00,20.00,100.00,100.00,15.38,15.38';
const TOTALS_SAM = '118.00,118.00,90.77,90.77,90.77,90.77';
const TOTALS_SOFIA = '15.00,15.00,50.00,50.00,50.00,50.00';
const UNGRADED = '0.00,0.00,,,0.00,0.00';
const EMPTY_GROUP = '0.00,0.00,,,,';

describe('grade export --format canvas', () => {
  it(
    "writes Canvas's layout: points possible, sortable names, sections as a sentence, scores to two decimals, EX, " +
      'totals',
    async () => {
      const lms = session(TEACHER);
      await lms.run('grade --course 1 --assignment 3 --user 8 --comment x'); // a comment grades nothing
      lms.mock.db.prepare(`UPDATE submissions SET excused = 1 WHERE assignment_id = 3 AND user_id = 8`).run();
      const r = await lms.run('grade export --course 1 --format canvas');
      expect(r.exitCode, r.stderr).toBe(0);
      const group = (name: string) =>
        ['Current Points', 'Final Points', ...SCORES].map((c) => `${name} ${c}`).join(',');
      expect(r.stdout.trim().split('\n')).toEqual([
        'Student,ID,SIS User ID,SIS Login ID,Section,Cell Structure Lab Report (1),Microscope Safety Quiz ' +
          `(2),Genetics Essay (3),${group('Assignments')},${group('Exams')},Current Points,Final Points,` +
          SCORES.join(','),
        `    Points Possible,,,,,20.00,10.00,100.00,${Array(18).fill('(read only)').join(',')}`,
        // Each group's totals, then the course's: the seed's assignments are all in the first group.
        `"Moreau, Lucas",11,S-011,lucas,BIO-101 Section A,20.00,,,${TOTALS_LUCAS},${EMPTY_GROUP},${TOTALS_LUCAS}`,
        `"Okafor, Mina",10,S-010,mina,BIO-101 Section B,,,,${UNGRADED},${EMPTY_GROUP},${UNGRADED}`,
        `"Patel, Ravi",9,S-009,ravi,BIO-101 Lab Online and BIO-101 Section B,,,,${UNGRADED},${EMPTY_GROUP},${UNGRADED}`,
        `"Sato, Hana",12,S-012,hana,BIO-101 Section B,,,,${UNGRADED},${EMPTY_GROUP},${UNGRADED}`,
        `"Student, Sam",7,S-007,sam,BIO-101 Section A,19.00,10.00,89.00,${TOTALS_SAM},${EMPTY_GROUP},${TOTALS_SAM}`,
        '"Student, Sofia",8,S-008,sofia,BIO-101 Lab Online and BIO-101 Section ' +
          `A,15.00,0.00,EX,${TOTALS_SOFIA},${EMPTY_GROUP},${TOTALS_SOFIA}`,
      ]);
    },
  );

  it(
    "weighs the course's groups as the instance does, " + "and drops the point totals, as Canvas's export does",
    async () => {
      const lms = session(TEACHER);
      lms.mock.db.prepare(`UPDATE assignments SET assignment_group_id = 6 WHERE id = 3`).run();
      for (const [args, expected] of [
        ['courses update 1 --weighted', 0],
        ['assignment-groups update 1 --course 1 --weight 40', 0],
        ['assignment-groups update 6 --course 1 --weight 60', 0],
      ] as const)
        expect((await lms.run(args)).exitCode).toBe(expected);
      const r = await lms.run('grade export --course 1 --format canvas -o json');
      expect(r.exitCode, r.stderr).toBe(0);
      const rows = JSON.parse(r.stdout) as Record<string, string>[];
      expect(Object.keys(rows[0]).filter((k) => /Points$/.test(k))).toEqual([]);
      // The instance's own computation of each student's grade: the enrollments' grades.
      const enrollments = JSON.parse(
        (await lms.run('enrollments list --course 1 --type StudentEnrollment -o json')).stdout,
      ) as { user_id: number; grades: { current_score: number | null; final_score: number | null } }[];
      const sam = rows.find((row) => row.ID === '7')!;
      const ofSam = enrollments.find((e) => e.user_id === 7)!.grades;
      expect(sam['Final Score']).toBe(ofSam.final_score!.toFixed(2));
      expect(sam['Current Score']).toBe(ofSam.current_score!.toFixed(2));
      // Sam: 29 of 30 in Assignments (40%), 89 of 100 in Exams (60%).
      expect(sam['Assignments Current Score']).toBe('96.67');
      expect(sam['Exams Current Score']).toBe('89.00');
      expect(sam['Final Score']).toBe('92.07');
      // And the import reads the layout back: unchanged, it writes nothing.
      const w = workspace();
      const file = w.file('weighted.csv', (await lms.run('grade export --course 1 --format canvas')).stdout);
      const back = await lms.run(`grade --course 1 --csv ${file} -o json`);
      expect(back.exitCode, back.stderr).toBe(0);
      expect(JSON.parse(back.stdout)).toMatchObject({ updated: 0, failed: 0 });
    },
  );

  it(
    'round-trips: exported, imported unchanged with zero ' + 'writes; edited, only the edited cells are written',
    async () => {
      const w = workspace();
      const lms = session(w.env);
      const exported = await lms.run('grade export --course 1 --format canvas');
      const file = w.file('canvas.csv', exported.stdout);
      const [versionsBefore, progressBefore] = [
        versions(lms),
        value(lms.mock.db, 'SELECT count(*) FROM progress') as number,
      ];
      const r = await lms.run(`grade --course 1 --csv ${file} -o json`);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ updated: 0, failed: 0 });
      expect(versions(lms)).toBe(versionsBefore);
      // Not a batch sent: nothing to send.
      expect(value(lms.mock.db, 'SELECT count(*) FROM progress')).toBe(progressBefore);
      const edited = w.file(
        'edited.csv',
        exported.stdout.replace('BIO-101 Section A,19.00,', 'BIO-101 Section A,17.25,'),
      );
      const e = await lms.run(`grade --course 1 --csv ${edited} -o json`);
      expect(JSON.parse(e.stdout)).toMatchObject({ updated: 1, failed: 0 });
      expect(versions(lms)).toBe(versionsBefore + 1);
      expect(held(lms, 1, 7).score).toBe(17.25);
    },
  );
});

describe('the dialects spreadsheets write', () => {
  const lab = readFileSync(fixture('lab-report.csv'), 'utf8');
  const dryRun = async (env: Record<string, string>, path: string, more = '') => {
    const r = await session(env).run(`grade --course 1 --assignment 1 --csv ${path} --dry-run -o json ${more}`);
    return { ...r, json: r.exitCode === 0 ? (JSON.parse(r.stdout) as unknown) : undefined };
  };

  it.each([
    ['UTF-16 LE with a BOM', (t: string) => Buffer.from(`\uFEFF${t}`, 'utf16le')],
    ['UTF-16 BE with a BOM', (t: string) => Buffer.from(`\uFEFF${t}`, 'utf16le').swap16()],
    ['UTF-8 with a BOM and CRLF', (t: string) => Buffer.from(`\uFEFF${t.replace(/\n/g, '\r\n')}`)],
    ['tabs in UTF-16 LE ("Unicode Text")', (t: string) => Buffer.from(`\uFEFF${t.replace(/,/g, '\t')}`, 'utf16le')],
  ])('grade --csv reads %s as the plain file', async (_what, encode) => {
    const w = workspace();
    const expected = await dryRun(w.env, fixture('lab-report.csv'));
    const r = await dryRun(w.env, w.file('grades.csv', encode(lab.replace('Label the axes', 'Label the axes é'))));
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.stringify(r.json)).toBe(JSON.stringify(expected.json).replace('Label the axes', 'Label the axes é'));
  });

  it('keeps a quoted comment with a line break in it, in a ";" CRLF file', async () => {
    const w = workspace();
    const lms = session(w.env);
    const path = w.file('g.csv', 'user;grade;comment\r\nsam;18;"Two lines;\r\nsecond"\r\nsofia;16;\r\n');
    const r = await lms.run(`grade --course 1 --assignment 1 --csv ${path} -o json`);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).rows[0]).toMatchObject({ line: 2, comment: 'Two lines;\r\nsecond' });
    expect(JSON.parse(r.stdout).rows[1]).toMatchObject({ line: 4 });
  });

  it.each([
    [
      'Windows-1252 (curly quotes)',
      Buffer.from('user,grade,comment\nsam,18,ok\nsofia,16,\x93bien\x94 r\xe9sum\xe9\n', 'latin1'),
      'Windows-1252',
      'WINDOWS-1252',
    ],
    [
      'Latin-1',
      Buffer.from('user,grade,comment\nsam,18,r\xe9sum\xe9\n', 'latin1'),
      'Latin-1 (ISO-8859-1)',
      'ISO-8859-1',
    ],
  ])(
    'refuses %s with exit 2, naming the encoding, the line, and the command to convert it',
    async (_what, bytes, said, iconv) => {
      const w = workspace();
      const lms = session(w.env);
      const path = w.file('grades.csv', bytes);
      const line = iconv === 'WINDOWS-1252' ? 3 : 2;
      for (const args of [`grade --course 1 --assignment 1 --csv ${path}`, `users import ${path} --account 1`]) {
        const r = await lms.run(args, { env: { LMS_TOKEN: '1~mock-admin' } });
        expect(r.exitCode).toBe(2);
        expect(r.stderr).toContain(
          `${path}:${line}: not valid UTF-8: it looks like ${said}; convert it to UTF-8 with iconv -f ${iconv} -t ` +
            `UTF-8 ${path} > ${path.replace(/\.csv$/, '.utf8.csv')}`,
        );
      }
    },
  );

  it('takes --delimiter over the separator the header suggests', async () => {
    const w = workspace();
    // A comment with commas in the header line's only row of fields: the sniffer would pick ",".
    const path = w.file('g.txt', 'user;grade;comment,note\nsam;18;a, b\n');
    const sniffed = await dryRun(w.env, path);
    expect(sniffed.exitCode).toBe(2);
    const given = await dryRun(w.env, path, '--delimiter ";"');
    expect(given.exitCode).toBe(2);
    expect(JSON.parse(given.stderr).message).toContain('unknown column "comment,note"');
    const fixed = w.file('h.txt', 'user;grade;comment\nsam;18;a, b\n');
    const r = await dryRun(w.env, fixed, '--delimiter semicolon');
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.json).toMatchObject({ rows: [{ user: 'sam', new_grade: '18', comment: 'a, b' }] });
    const bad = await dryRun(w.env, fixed, '--delimiter "|"');
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--delimiter takes , ; or tab');
  });

  it('users import takes --delimiter and writes its failed rows in the input dialect', async () => {
    const w = workspace();
    const lms = session(w.env);
    const failedOut = join(w.dir, 'failed.csv');
    // A server that refuses the second row; the file is tab-separated UTF-16 LE.
    const real = lms.mock.handler;
    lms.mock.handler = (req: ApiRequest) =>
      typeof req.body === 'string' && req.body.includes('Sam+Again')
        ? Promise.resolve({
            status: 400,
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ errors: [{ message: 'refused' }] }),
          })
        : real(req);
    const text = '\uFEFFname\tlogin_id\r\nNew Person\tnew.person\r\nSam Again\tsam.again\r\n';
    const path = w.file('u.txt', Buffer.from(text, 'utf16le'));
    const r = await lms.run(
      ['users', 'import', path, '--account', '1', '--delimiter', 'tab', '--failed-out', failedOut, '-o', 'json'],
      { env: { LMS_TOKEN: '1~mock-admin' } },
    );
    expect(r.exitCode, r.stderr + r.stdout).toBe(1);
    const out = readFileSync(failedOut);
    expect([out[0], out[1]]).toEqual([0xff, 0xfe]);
    const lines = out.subarray(2).toString('utf16le').split('\r\n');
    expect(lines[0]).toBe('name\tlogin_id\terror');
    expect(lines[1]).toMatch(/^Sam Again\tsam\.again\t.*refused/);
  });
});
