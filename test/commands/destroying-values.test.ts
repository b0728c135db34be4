// A value that ends access (an enrollment's state inactive) is destructive wherever it comes from:
// a flag, an import's column, an apply file's roster. In a script it needs --yes, and without it
// nothing is changed; a dry run asks nothing and marks what would destroy.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { session, type Session } from '../helpers/run-lms.js';

function workspace() {
  const dir = mkdtempSync(join(tmpdir(), 'lms-destroying-'));
  return {
    env: { LMS_STATE_DIR: join(dir, 'state') },
    file: (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    },
  };
}

/** The state of user 8's student enrollment in course 1 (section 1). */
async function stateOf(lms: Session): Promise<string> {
  const r = await lms.run('enrollments list --course 1 --user 8 --state active --state inactive -o json');
  const found = (JSON.parse(r.stdout) as { course_section_id: number; type: string; enrollment_state: string }[]).find(
    (e) => e.type === 'StudentEnrollment' && e.course_section_id === 1,
  );
  return found!.enrollment_state;
}

describe('enrollments add --state inactive', () => {
  it('in a script without --yes: exit 2 naming --yes, and the enrollment stays active', async () => {
    const lms = session();
    const r = await lms.run('enrollments add --course 1 --user 8 --state inactive');
    expect(r.exitCode, r.stderr).toBe(2);
    // One line, in its own words: the flag's help is for --help.
    expect(r.stderr).toBe(
      'error: --state inactive destroys data: pass --yes to confirm when not running interactively\n',
    );
    expect(await stateOf(lms)).toBe('active');
  });

  it('with --yes deactivates it; --state active asks nothing', async () => {
    const lms = session();
    expect((await lms.run('enrollments add --course 1 --user 8 --state inactive --yes -o json')).exitCode).toBe(0);
    expect(await stateOf(lms)).toBe('inactive');
    expect((await lms.run('enrollments add --course 1 --user 8 --state active -o json')).exitCode).toBe(0);
    expect(await stateOf(lms)).toBe('active');
  });

  it('a dry run asks nothing', async () => {
    const r = await session().run('enrollments add --course 1 --user 8 --state inactive --dry-run');
    expect(r.exitCode, r.stderr).toBe(0);
  });
});

describe('enrollments import with a state that deactivates', () => {
  const ROSTER = 'user,type,section,state\n8,student,,inactive\n';

  it('in a script without --yes: exit 2 naming how many it would deactivate, and nothing is written', async () => {
    const lms = session();
    const w = workspace();
    const r = await lms.run(`enrollments import --course 1 --update ${w.file('r.csv', ROSTER)}`, { env: w.env });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/error: Deactivate 1 enrollment of course 1 \(.*r\.csv: line 2\): pass --yes to confirm/);
    expect(await stateOf(lms)).toBe('active');
    const yes = await lms.run(`enrollments import --course 1 --update --yes ${w.file('r.csv', ROSTER)} -o json`, {
      env: w.env,
    });
    expect(yes.exitCode, yes.stderr).toBe(0);
    expect(await stateOf(lms)).toBe('inactive');
  });

  it('the dry run marks the row that would deactivate, and asks nothing', async () => {
    const lms = session();
    const w = workspace();
    const r = await lms.run(`enrollments import --course 1 --update --dry-run ${w.file('r.csv', ROSTER)} -o json`, {
      env: w.env,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { rows: unknown[] }).rows).toEqual([
      expect.objectContaining({ line: 2, status: 'updated', destructive: true }),
    ]);
    expect(r.stderr).toMatch(/would deactivate 1 enrollment of course 1/);
  });

  it('rows that change nothing, or activate, ask nothing', async () => {
    const lms = session();
    const w = workspace();
    const r = await lms.run(
      `enrollments import --course 1 --update ${w.file('r.csv', 'user,type,section,state\n8,student,,active\n')} -o ` +
        'json',
      { env: w.env },
    );
    expect(r.exitCode, r.stderr).toBe(0);
  });
});

describe('apply with an enrollment of state inactive', () => {
  const FILE =
    'courses:\n  - sis_course_id: BIO-101\n    enrollments:\n      - { user: "8", type: student, state: inactive }\n';

  it('marks the change in the plan as one that destroys', async () => {
    const lms = session();
    const w = workspace();
    const r = await lms.run(`diff -f ${w.file('a.yaml', FILE)} -o json`, { env: w.env });
    expect(r.exitCode, r.stderr).toBe(0);
    const plan = JSON.parse(r.stdout) as {
      summary: Record<string, number>;
      courses: { actions: Record<string, unknown>[] }[];
    };
    expect(plan.summary).toMatchObject({ update: 1, delete: 0, destroy: 1 });
    expect(plan.courses[0].actions).toEqual([
      expect.objectContaining({ action: 'update', kind: 'enrollment', destroys: ['--state inactive'] }),
    ]);
    const text = await lms.run(`diff -f ${w.file('a.yaml', FILE)} -o table`, { env: w.env });
    expect(text.stdout).toMatch(/~ enrollment 8 student \(id \d+\) .*\[destroys: --state inactive\]/);
  });
});

describe('enrollments import --sync with a state that deactivates: one question for both', () => {
  const ROSTER = 'user,type,section,state\n8,student,,inactive\n';
  /** A prompter that records each question and gives `answer`. */
  const recording = (answer: boolean) => {
    const asked: string[] = [];
    return {
      asked,
      prompter: {
        confirm: async (message: string) => {
          asked.push(message);
          return answer;
        },
        secret: async () => '',
      },
    };
  };
  /** How many enrollments the dry run says --sync would conclude. */
  async function wouldConclude(lms: Session, path: string, env: Record<string, string>): Promise<number> {
    const r = await lms.run(`enrollments import --course 1 --update --sync --dry-run ${path} -o json`, { env });
    expect(r.exitCode, r.stderr).toBe(0);
    return (JSON.parse(r.stdout) as { rows: { status: string }[] }).rows.filter((x) => x.status === 'concluded').length;
  }

  it.each([
    ['no', false, 130, 'active'],
    ['yes', true, 0, 'inactive'],
  ])(
    'asked once at a terminal, naming what the sync concludes and how many it deactivates; "%s"',
    async (_answer, answer, code, state) => {
      const lms = session();
      const w = workspace();
      const path = w.file('r.csv', ROSTER);
      const n = await wouldConclude(lms, path, w.env);
      expect(n).toBeGreaterThan(0);
      const { asked, prompter } = recording(answer);
      const r = await lms.run(`enrollments import --course 1 --update --sync ${path}`, {
        env: w.env,
        tty: true,
        prompter,
      });
      expect(r.exitCode, r.stderr).toBe(code);
      expect(asked).toEqual([
        `Conclude ${n} enrollments of course 1 that ${path} does not list, and deactivate 1 enrollment of course 1 ` +
          `(${path}: line 2)?`,
      ]);
      expect(await stateOf(lms)).toBe(state);
      expect(await wouldConclude(lms, path, w.env)).toBe(answer ? 0 : n);
    },
  );

  it('in a script without --yes: one error naming both, nothing written; with --yes, no question', async () => {
    const lms = session();
    const w = workspace();
    const path = w.file('r.csv', ROSTER);
    const r = await lms.run(`enrollments import --course 1 --update --sync ${path}`, { env: w.env });
    expect(r.exitCode, r.stderr).toBe(2);
    expect(r.stderr).toMatch(
      new RegExp(
        `^error: Conclude \\d+ enrollments of course 1 that ${path} does not list, and deactivate 1 enrollment of ` +
          `course 1 \\(${path}: line 2\\): pass --yes to confirm when not running interactively\\n$`,
      ),
    );
    expect(await stateOf(lms)).toBe('active');
    const { asked, prompter } = recording(false);
    const yes = await lms.run(`enrollments import --course 1 --update --sync --yes ${path} -o json`, {
      env: w.env,
      tty: true,
      prompter,
    });
    expect(yes.exitCode, yes.stderr).toBe(0);
    expect(asked).toEqual([]);
    expect(await stateOf(lms)).toBe('inactive');
  });

  it('--sync alone (no row deactivates) asks once, naming what it concludes; a dry run asks nothing', async () => {
    const lms = session();
    const w = workspace();
    const path = w.file('r.csv', 'user,type\n8,student\n');
    const n = await wouldConclude(lms, path, w.env);
    const { asked, prompter } = recording(false);
    const dry = await lms.run(`enrollments import --course 1 --sync --dry-run ${path}`, {
      env: w.env,
      tty: true,
      prompter,
    });
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(asked).toEqual([]);
    const r = await lms.run(`enrollments import --course 1 --sync ${path}`, { env: w.env, tty: true, prompter });
    expect(r.exitCode, r.stderr).toBe(130);
    expect(asked).toEqual([`Conclude ${n} enrollments of course 1 that ${path} does not list?`]);
  });
});
