// A "yes" at a terminal holds for the plan it was asked about: the state changes between the
// question and the answer (a person answering it changes the instance first), and the command,
// planning again after the answer, runs nothing, exits 5 and shows what changed; asked again, it
// runs the new plan. --yes runs what it planned as it ran, as before.
import { describe, expect, it } from 'vitest';
import type { Prompter } from '../../src/model/prompter.js';
import { asAnotherClient } from '../helpers/declared-routes.js';
import { COURSE_YAML, counted, issueCourse, type Counted } from '../apply/helpers.js';

/** Answers yes, after `meanwhile` (what happens while the question is open), and records the questions. */
function answering(meanwhile: () => Promise<void> = async () => undefined): Prompter & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    secret: async () => '',
    async confirm(message) {
      asked.push(message);
      await asAnotherClient(meanwhile);
      return true;
    },
  };
}

const json = async <T>(s: Counted, line: string[]): Promise<T> => {
  const r = await s.run([...line, '-o', 'json']);
  expect(r.exitCode, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as T;
};

const writesSince = (s: Counted, from: number) =>
  s
    .writes()
    .slice(from)
    .map((q) => `${q.method} ${new URL(q.url).pathname}`);

describe('enrollments import --sync, answered at a terminal', () => {
  const ROSTER = 'user,type\nsam,student\nsofia,student\n';
  const JOINERS = ['new1', 'new2', 'new3', 'new4', 'new5'];
  const import_ = (roster: string, ...more: string[]) => [
    ...['enrollments', 'import', '--course', '1', '--sync'],
    ...more,
    roster,
  ];

  async function live(s: Counted): Promise<number[]> {
    const line = ['enrollments', 'list', '--course', '1', '--type', 'student', '--all'];
    const listed = await json<{ id: number }[]>(s, line);
    return listed.map((e) => e.id).sort();
  }

  const conclusions = (s: Counted) =>
    s.writes().filter((q) => q.method === 'DELETE' && /\/courses\/1\/enrollments\/\d+/.test(q.url));

  /** Makes the users now; what it answers enrols them in course 1 when called. */
  async function joining(s: Counted, logins: string[]): Promise<() => Promise<void>> {
    const ids: string[] = [];
    for (const login of logins) {
      const line = ['users', 'create', '--account', '1', '--login-id', login, '--name', login];
      const user = await json<{ id: number }>(s, line);
      ids.push(String(user.id));
    }
    return async () => {
      for (const id of ids) {
        expect((await s.run(['enrollments', 'add', '--course', '1', '--user', id])).exitCode).toBe(0);
      }
    };
  }

  it('runs nothing when five students join between question and answer: exit 5, the changed plan shown', async () => {
    const s = counted();
    const roster = s.file('roster.csv', ROSTER);
    const join = await joining(s, JOINERS);
    const before = await live(s);
    const prompter = answering(join);
    const r = await s.run(import_(roster), { tty: true, prompter });
    const planned = before.length - 2;
    const question = new RegExp(`^Conclude ${planned} enrollments of course 1 that .*roster\\.csv does not list\\?$`);
    expect(prompter.asked).toEqual([expect.stringMatching(question)]);
    expect(r.exitCode, r.stderr).toBe(5);
    expect(r.stderr).toMatch(/^error: the plan changed after it was asked about; nothing was changed\.\n/);
    expect(r.stderr).toMatch(/\n {2}asked: Conclude \d+ /);
    expect(r.stderr).toContain(`  now:   Conclude ${planned + 5} enrollments of course 1`);
    for (const login of JOINERS) {
      expect(r.stderr).toMatch(new RegExp(`\\n {2}\\+ concluded: user ${login} \\(id \\d+\\)`));
    }
    expect(r.stderr).toMatch(/hint: run the command again: it plans afresh and asks about the new plan/);
    expect(conclusions(s)).toEqual([]);
    expect((await live(s)).length).toBe(before.length + 5);

    // Asked again, with nothing changing meanwhile: the new plan runs.
    const again = answering();
    const done = await s.run(import_(roster), { tty: true, prompter: again });
    expect(done.exitCode, done.stderr).toBe(0);
    expect(again.asked).toEqual([expect.stringMatching(new RegExp(`^Conclude ${planned + 5} enrollments`))]);
    expect(conclusions(s)).toHaveLength(planned + 5);
  });

  it('-o json: the error names what the plan gained', async () => {
    const s = counted();
    const roster = s.file('roster.csv', ROSTER);
    const join = await joining(s, ['late1']);
    const r = await s.run(import_(roster, '-o', 'json'), { tty: true, prompter: answering(join) });
    expect(r.exitCode).toBe(5);
    const error = JSON.parse(r.stderr.trim().split('\n').at(-1)!) as Record<string, unknown>;
    expect(error).toMatchObject({
      error: 'PlanChangedError',
      exit_code: 5,
      plan_changed: true,
      removed: [],
      added: [{ object: expect.stringMatching(/^user late1 \(id \d+\)$/), change: 'concluded' }],
    });
    expect(conclusions(s)).toEqual([]);
  });

  it('--yes runs what it plans as it runs, asking no one', async () => {
    const s = counted();
    const roster = s.file('roster.csv', ROSTER);
    const before = await live(s);
    const r = await s.run(import_(roster, '--yes'));
    expect(r.exitCode, r.stderr).toBe(0);
    expect(conclusions(s)).toHaveLength(before.length - 2);
  });
});

describe('apply --prune, answered at a terminal', () => {
  const SPARE = '      - { sis_section_id: BIO-201-C, name: Spare }\n';
  const B = '      - { sis_section_id: BIO-201-B,';
  const WITH_SPARE = COURSE_YAML.replace(B, `${SPARE}${B}`);

  async function sections(s: Counted): Promise<(string | null)[]> {
    const line = ['sections', 'list', '--course', 'sis_course_id:BIO-201'];
    const listed = await json<{ sis_section_id: string | null }[]>(s, line);
    return listed.map((x) => x.sis_section_id).sort();
  }

  const made = (s: Counted, line: string[]) => async () => expect((await s.run(line)).exitCode).toBe(0);

  it('runs nothing when a section to prune is made between question and answer: exit 5, the plan shown', async () => {
    const s = counted();
    expect((await s.run(['apply', '-f', issueCourse(s, WITH_SPARE), '--yes'])).exitCode).toBe(0);
    const path = issueCourse(s);
    const before = await sections(s);
    const extra = ['sections', 'create', '--course', 'sis_course_id:BIO-201', '--name', 'X', '--sis-id', 'BIO-201-X'];
    const prompter = answering(made(s, extra));
    const writes = s.writes().length;
    const r = await s.run(['apply', '-f', path, '--prune'], { tty: true, prompter });
    const question = /^Apply \d+ changes to 1 course \(0 to create, 0 to update, 1 to delete, \d+ unchanged\)\?$/;
    expect(prompter.asked).toEqual([expect.stringMatching(question)]);
    expect(r.exitCode, r.stderr).toBe(5);
    expect(r.stderr).toMatch(/error: the plan changed after it was asked about; nothing was changed\.\n/);
    expect(r.stderr).toMatch(/\n {2}asked: Apply 1 changes /);
    expect(r.stderr).toMatch(/\n {2}now: {3}Apply 2 changes .*2 to delete/);
    expect(r.stderr).toMatch(/\n {2}\+ delete: section BIO-201-X \(id \d+\) of course BIO-201\n/);
    // The only write is the section made while the question was open.
    expect(writesSince(s, writes)).toEqual([expect.stringMatching(/^POST .*\/sections$/)]);
    expect(await sections(s)).toEqual([...before, 'BIO-201-X'].sort());

    const again = answering();
    const done = await s.run(['apply', '-f', path, '--prune'], { tty: true, prompter: again });
    expect(done.exitCode, done.stderr).toBe(0);
    expect(again.asked).toEqual([expect.stringMatching(/2 to delete/)]);
    expect(await sections(s)).not.toContain('BIO-201-X');
    expect(await sections(s)).not.toContain('BIO-201-C');
  });

  it('goes ahead when what changed meanwhile destroys nothing', async () => {
    const s = counted();
    expect((await s.run(['apply', '-f', issueCourse(s, WITH_SPARE), '--yes'])).exitCode).toBe(0);
    const path = issueCourse(s);
    // Another course gains a section: the file's course is planned the same.
    const prompter = answering(made(s, ['sections', 'create', '--course', '1', '--name', 'Elsewhere']));
    const r = await s.run(['apply', '-f', path, '--prune'], { tty: true, prompter });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(await sections(s)).not.toContain('BIO-201-C');
  });
});
