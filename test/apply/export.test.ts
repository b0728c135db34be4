// `lms export course`: a course written as the file `lms apply` reads. The round trip is the proof —
// export a seeded course, apply it under other SIS ids, export that: the same file, SIS ids aside;
// and the first export applied to the course it came from changes nothing, with no write sent.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { slug } from '../../src/apply/export.js';
import { counted, issueCourse, type Counted } from './helpers.js';

/** The first export with the SIS ids apply must not find again: the course's and its sections'. */
const moved = (text: string, from: string, to: string) =>
  text
    .replace(new RegExp(`^(\\s+- sis_course_id:) ${from}$`, 'm'), `$1 ${to}`)
    .replace(new RegExp(`\\b${from}-([A-Z])\\b`, 'g'), `${to}-$1`);

async function exported(s: Counted, course: string, out: string, more: string[] = []) {
  mkdirSync(join(s.dir, out, '..'), { recursive: true });
  const r = await s.run(['export', 'course', course, '--out', join(s.dir, out), ...more]);
  expect(r.exitCode, r.stderr).toBe(0);
  return { text: readFileSync(join(s.dir, out), 'utf8'), stderr: r.stderr };
}

interface FileCourse {
  sis_course_id: string;
  [kind: string]: unknown;
}
const courseOf = (text: string) => (parse(text) as { courses: FileCourse[] }).courses[0];

describe('lms export course', () => {
  it(
    'round trip: export, apply under new SIS ids, export again: the same file but for the SIS ids; the first ' +
      'export changes nothing where it came from',
    async () => {
      const s = counted();
      const first = await exported(s, 'sis_course_id:BIO-101', 'a/course.yaml');
      const course = courseOf(first.text);
      // The natural key and the title first; then the fields the course's verbs set; then each kind, in the order apply
      // makes them.
      expect(Object.keys(course).slice(0, 3)).toEqual(['sis_course_id', 'name', 'course_code']);
      expect(Object.keys(course).slice(-12)).toEqual([
        'account',
        'sections',
        'enrollments',
        'assignment_groups',
        'assignments',
        'topics',
        'announcements',
        'quizzes',
        'rubrics',
        'pages',
        'modules',
        'outcomes',
      ]);
      expect(course).toMatchObject({
        sis_course_id: 'BIO-101',
        account: 'sis_account_id:MSU-SCI',
        outcomes: { file: 'course.outcomes.yaml' },
      });
      // Sections and enrollments one a line, people by SIS id, sections by the key the file lists them under.
      expect(first.text).toContain('      - { sis_section_id: BIO-101-A, name: BIO-101 Section A }\n');
      expect(first.text).toContain(
        '      - { user: sis_user_id:T-003, type: teacher, section: BIO-101-A, state: active }\n',
      );
      expect(first.text).toContain('        submission_types: [ online_upload, online_text_entry ]\n');
      // A section cross-listed here from another course is that course's, and so are its enrollments.
      expect(first.text).not.toContain('BIO-101L-ONL');
      // A graded topic names its assignment by the key the file gives it.
      expect(
        (course.topics as Record<string, unknown>[]).find((t) => t.title === 'Genetics essay peer review'),
      ).toMatchObject({ key: 'genetics-essay-peer-review', assignment: 'genetics-essay' });
      expect(first.stderr).toContain(
        'warning: left out: group_category_id of 1 topic (an id of this instance, which a course elsewhere does not ' +
          'have)\n',
      );
      expect(first.stderr).toMatch(
        /wrote .*course\.yaml: course BIO-101 with 2 sections, 10 enrollments, 2 assignment groups, 3 assignments, 8 topics, 1 announcement, 2 quizzes, 1 rubric, 3 pages, 3 modules; its outcome tree to .*course\.outcomes\.yaml\n$/,
      );

      // Applied under other SIS ids, it makes a new course…
      mkdirSync(join(s.dir, 'b'));
      const copy = s.file('b/course.yaml', moved(first.text, 'BIO-101', 'NEW-101'));
      s.file('b/course.outcomes.yaml', readFileSync(join(s.dir, 'a/course.outcomes.yaml'), 'utf8'));
      const applied = await s.run(['apply', '-f', copy, '--yes', '-o', 'json']);
      expect(applied.exitCode, applied.stderr).toBe(0);
      expect(JSON.parse(applied.stdout).summary).toMatchObject({ update: 0, delete: 0, unchanged: 0 });
      expect(JSON.parse(applied.stdout).courses[0].actions.every((a: { status: string }) => a.status === 'done')).toBe(
        true,
      );

      // …whose export is the same file, SIS ids aside, with the same outcome tree.
      const second = await exported(s, 'sis_course_id:NEW-101', 'c/course.yaml');
      expect(second.text).toBe(moved(first.text, 'BIO-101', 'NEW-101'));
      expect(readFileSync(join(s.dir, 'c/course.outcomes.yaml'), 'utf8')).toBe(
        readFileSync(join(s.dir, 'a/course.outcomes.yaml'), 'utf8'),
      );

      // The first export, applied to the course it came from: no changes, and not one write.
      const before = s.requests.length;
      const again = await s.run(['apply', '-f', join(s.dir, 'a/course.yaml'), '--yes'], { tty: true });
      expect(again.exitCode, again.stderr).toBe(0);
      expect(again.stdout).toContain('No changes: the instance matches the file (40 unchanged).');
      expect(s.requests.slice(before).filter((q) => q.method !== 'GET')).toEqual([]);
    },
  );

  it('writes YAML whatever stdout is, JSON with -o json (which apply reads too), and nothing else', async () => {
    const s = counted();
    const piped = await s.run(['export', 'course', 'sis_course_id:BIO-101', '--include', 'sections']);
    expect(piped.exitCode, piped.stderr).toBe(0);
    expect(piped.stdout).toMatch(/^courses:\n {2}- sis_course_id: BIO-101\n/);
    const tty = await s.run(['export', 'course', '1', '--include', 'sections'], { tty: true });
    expect(tty.stdout).toBe(piped.stdout);

    const json = await s.run([
      'export',
      'course',
      'sis_course_id:BIO-101',
      '--include',
      'sections,enrollments,quizzes',
      '-o',
      'json',
    ]);
    expect(json.exitCode, json.stderr).toBe(0);
    const yaml = await s.run([
      'export',
      'course',
      'sis_course_id:BIO-101',
      '--include',
      'sections,enrollments,quizzes',
    ]);
    expect(JSON.parse(json.stdout)).toEqual(parse(yaml.stdout));
    expect(
      (
        await s.run([
          'export',
          'course',
          'sis_course_id:BIO-101',
          '--include',
          'sections,enrollments,quizzes',
          '-o',
          'yaml',
        ])
      ).stdout,
    ).toBe(yaml.stdout);
    expect(JSON.parse(json.stdout).courses[0].quizzes[0]).toMatchObject({
      key: 'cell-biology-check-in',
      title: 'Cell Biology Check-in',
      allowed_attempts: -1,
    });
    const path = s.file('bio.json', json.stdout);
    const plan = await s.run(['diff', '-f', path, '--exit-code', '-o', 'json']);
    expect(plan.exitCode, plan.stdout).toBe(0);
    expect(JSON.parse(plan.stdout).courses[0].unchanged).toEqual({
      course: 1,
      sections: 2,
      enrollments: 10,
      quizzes: 2,
    });

    const csv = await s.run(['export', 'course', '1', '-o', 'csv']);
    expect(csv.exitCode).toBe(2);
    expect(csv.stderr).toContain('a course file is YAML (the default, or -o yaml) or JSON (-o json), not csv');
  });

  it('--include names the kinds the file lists; one it does not know is a usage error', async () => {
    const s = counted();
    const r = await s.run(['export', 'course', '1', '--include', 'quizzes,sections']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(Object.keys(courseOf(r.stdout)).slice(-3)).toEqual(['account', 'sections', 'quizzes']);
    expect(Object.keys(courseOf(r.stdout))).not.toContain('topics');
    // Without sections in the file, an enrollment names its section as the instance knows it.
    const roster = await s.run(['export', 'course', '1', '--include', 'enrollments']);
    expect(roster.stdout).toContain(
      '- { user: sis_user_id:S-007, type: student, section: sis_section_id:BIO-101-A, state: active }',
    );
    // Without assignments in the file, a graded topic cannot name its assignment.
    const topics = await s.run(['export', 'course', '1', '--include', 'topics']);
    expect(topics.stderr).toContain('warning: left out: assignment of 1 topic (assignments are not included)');
    const bad = await s.run(['export', 'course', '1', '--include', 'sections,widgets']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain(
      '--include takes sections, enrollments, assignment_groups, assignments, topics, announcements, quizzes, ' +
        'rubrics, pages, modules, outcomes; not widgets',
    );
    expect(s.writes()).toEqual([]);
  });

  it(
    'an outcome tree is a file of its own: beside --out, at --outcomes-file, or left out (with a warning) on ' +
      'stdout',
    async () => {
      const s = counted();
      const stdout = await s.run(['export', 'course', '1']);
      expect(stdout.exitCode, stdout.stderr).toBe(0);
      expect(courseOf(stdout.stdout).outcomes).toBeUndefined();
      expect(stdout.stderr).toContain(
        'warning: left out: the outcome tree of course BIO-101, as an apply file names an outcome tree as a file of ' +
          'its own: give --outcomes-file FILE, or --out FILE (the tree goes beside it)',
      );

      const asked = await s.run(['export', 'course', '1', '--include', 'outcomes']);
      expect(asked.exitCode).toBe(2);
      expect(asked.stdout).toBe('');

      const tree = join(s.dir, 'trees', 'bio.yaml');
      const named = await s.run(['export', 'course', '1', '--include', 'outcomes', '--outcomes-file', tree]);
      expect(named.exitCode, named.stderr).toBe(0);
      // Named from the folder of the course file, the current one for stdout: where apply looks.
      const file = (courseOf(named.stdout).outcomes as { file: string }).file;
      expect(resolve(process.cwd(), file)).toBe(tree);
      expect(parse(readFileSync(tree, 'utf8')).groups[0]).toMatchObject({
        title: 'BIO-101 Outcomes',
        vendor_guid: 'bio101-outcomes',
      });

      const json = await s.run([
        'export',
        'course',
        '1',
        '--include',
        'outcomes',
        '--out',
        join(s.dir, 'j', 'bio.json'),
        '-o',
        'json',
      ]);
      expect(json.exitCode, json.stderr).toBe(0);
      expect(JSON.parse(readFileSync(join(s.dir, 'j', 'bio.json'), 'utf8')).courses[0].outcomes).toEqual({
        file: 'bio.outcomes.json',
      });
      expect(JSON.parse(readFileSync(join(s.dir, 'j', 'bio.outcomes.json'), 'utf8')).groups).toHaveLength(1);

      const pointless = await s.run(['export', 'course', '1', '--include', 'sections', '--outcomes-file', tree]);
      expect(pointless.exitCode).toBe(2);
      expect(pointless.stderr).toContain('--outcomes-file goes with outcomes, which --include leaves out');
    },
  );

  it(
    'keys: the one the state remembers, else a slug of the title, remembered, so a title edited in the file is an ' +
      'update',
    async () => {
      const s = counted();
      const path = issueCourse(s);
      expect((await s.run(['apply', '-f', path, '--yes'])).exitCode).toBe(0);
      // Two topics of one title: a key each.
      for (let i = 0; i < 2; i++)
        expect(
          (
            await s.run([
              'topics',
              'create',
              '--course',
              'sis_course_id:BIO-201',
              '--title',
              'Lab 1 discussion',
              '--message',
              `<p>${i}</p>`,
            ])
          ).exitCode,
        ).toBe(0);

      const { text } = await exported(s, 'sis_course_id:BIO-201', 'x/course.yaml');
      const course = courseOf(text);
      expect((course.assignments as { key: string }[]).map((a) => a.key)).toEqual(['lab1']);
      expect((course.quizzes as { key: string }[]).map((q) => q.key)).toEqual(['q1']);
      // Remembered keys as the file gave them; the rest by title, the second of a title numbered.
      expect(
        (course.topics as { key: string; title: string; assignment?: string }[]).map(
          (t) => `${t.key} ${t.title}${t.assignment ? ` → ${t.assignment}` : ''}`,
        ),
      ).toEqual([
        'lab-1-discussion Lab 1 discussion → lab1',
        'lab-1-discussion-2 Lab 1 discussion',
        'lab-1-discussion-3 Lab 1 discussion',
        'welcome Welcome',
      ]);
      expect((course.announcements as { key: string }[]).map((a) => a.key)).toEqual(['first-week']);
      const clean = await s.run(['diff', '-f', join(s.dir, 'x/course.yaml'), '--exit-code']);
      expect(clean.exitCode, clean.stdout).toBe(0);

      // Renamed in the file: the object its key names is updated, none made or matched by the new title.
      const renamed = s.file(
        'x/course.yaml',
        text
          .replace('title: First week', 'title: The first week')
          .replace(/(key: lab-1-discussion-2\n\s+title:) Lab 1 discussion/, '$1 Lab 1, again'),
      );
      const plan = await s.run(['diff', '-f', renamed, '--prune', '-o', 'json']);
      expect(plan.exitCode, plan.stderr).toBe(0);
      expect(
        JSON.parse(plan.stdout).courses[0].actions.map(
          (a: { action: string; kind: string; key: string; changes: { field: string; to: unknown }[] }) =>
            `${a.action} ${a.kind} ${a.key} ${a.changes.map((c) => `${c.field}=${String(c.to)}`).join()}`,
        ),
      ).toEqual([
        'update topic lab-1-discussion-2 title=Lab 1, again',
        'update announcement first-week title=The first week',
      ]);
    },
  );

  it('a course with no SIS id cannot be exported: an apply file finds its course by one', async () => {
    const s = counted();
    const made = await s.run(['courses', 'create', '--account', '1', '--name', 'No SIS', '-o', 'json']);
    const r = await s.run(['export', 'course', String(JSON.parse(made.stdout).id)]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('has no sis_course_id you may see, and an apply file finds its course by one');
    expect(existsSync(join(s.dir, 'state', 'apply'))).toBe(false);
  });

  it('slugs: words of the title, lower case, hyphenated, no accents', () => {
    expect(slug('Lab 1: Cells & Tissues')).toBe('lab-1-cells-tissues');
    expect(slug('Révision — Thème 2')).toBe('revision-theme-2');
    expect(slug('!!!')).toBe('');
  });
});
