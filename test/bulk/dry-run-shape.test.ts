// A dry run is shaped like its run: for every verb that plans (the bulk imports, grade --csv,
// apply's plan and lms diff), `-o json` and `-o yaml` of the dry run are the run's object with the
// same keys and `dry_run: true`, the counts what the run then does — and nothing is written.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { counted, issueCourse, type Counted } from '../apply/helpers.js';

const USERS = 'name,login_id,email\nDry Run One,dry1,dry1@example.edu\nDry Run Two,dry2,dry2@example.edu\n';
const ROSTER = 'user,type\nsam,student\nravi,teacher\n';
const GRADES = 'user,grade\nsam,18\nravi,\n';
const TREE_YAML =
  'groups:\n  - title: G\n    vendor_guid: dry-g\n    outcomes:\n      - { title: O, vendor_guid: dry-o }\n';
const TREE_CSV = 'vendor_guid,object_type,title,parent_guids\ndry-g,group,G,\ndry-o,outcome,O,dry-g\n';

/** [verb, its file, the dry run's arguments, the run's arguments (the file's path is FILE)]. */
const verbs: [string, (s: Counted) => string, string[], string[]][] = [
  [
    'users import',
    (s) => s.file('users.csv', USERS),
    ['users', 'import', '--account', '1', 'FILE', '--dry-run'],
    ['users', 'import', '--account', '1', 'FILE'],
  ],
  [
    'enrollments import',
    (s) => s.file('roster.csv', ROSTER),
    ['enrollments', 'import', '--course', '1', 'FILE', '--dry-run'],
    ['enrollments', 'import', '--course', '1', 'FILE'],
  ],
  [
    'enrollments import --sync',
    (s) => s.file('roster.csv', ROSTER),
    ['enrollments', 'import', '--course', '1', '--sync', 'FILE', '--dry-run'],
    ['enrollments', 'import', '--course', '1', '--sync', 'FILE', '--yes'],
  ],
  [
    'grade --csv',
    (s) => s.file('grades.csv', GRADES),
    ['grade', '--course', '1', '--assignment', '1', '--csv', 'FILE', '--dry-run'],
    ['grade', '--course', '1', '--assignment', '1', '--csv', 'FILE'],
  ],
  [
    'outcomes import (a tree)',
    (s) => s.file('tree.yaml', TREE_YAML),
    ['outcomes', 'import', '--course', '1', 'FILE', '--dry-run'],
    ['outcomes', 'import', '--course', '1', 'FILE'],
  ],
  [
    'outcomes import (CSV)',
    (s) => s.file('tree.csv', TREE_CSV),
    ['outcomes', 'import', '--course', '1', 'FILE', '--dry-run'],
    ['outcomes', 'import', '--course', '1', 'FILE'],
  ],
  ['apply --dry-run', (s) => issueCourse(s), ['apply', '-f', 'FILE', '--dry-run'], ['apply', '-f', 'FILE', '--yes']],
  ['apply --plan', (s) => issueCourse(s), ['apply', '-f', 'FILE', '--plan'], ['apply', '-f', 'FILE', '--yes']],
  ['diff', (s) => issueCourse(s), ['diff', '-f', 'FILE'], ['apply', '-f', 'FILE', '--yes']],
];

const withFile = (args: string[], file: string) => args.map((a) => (a === 'FILE' ? file : a));
/** The counts of an object: its values that are numbers, and those of its `summary`. */
const counts = (o: Record<string, unknown>) =>
  Object.fromEntries(Object.entries({ ...o, ...(o.summary as object) }).filter(([, v]) => typeof v === 'number'));
/** What each row is (or would be): bulk rows' statuses; a plan's actions. */
const outcomesOf = (o: Record<string, unknown>) =>
  Array.isArray(o.rows)
    ? (o.rows as { status: string }[]).map((r) => r.status)
    : (o.courses as { actions: { action: string; kind: string; key: string }[] }[]).flatMap((c) =>
        c.actions.map((a) => `${a.action} ${a.kind} ${a.key}`),
      );

describe('a dry run is its run’s object, with dry_run: true', () => {
  it.each(verbs)('%s', async (_verb, write, dryArgs, runArgs) => {
    for (const format of ['json', 'yaml'] as const) {
      const read = (text: string) => (format === 'json' ? JSON.parse(text) : parse(text)) as Record<string, unknown>;
      const planned = counted();
      const dry = await planned.run([...withFile(dryArgs, write(planned)), '-o', format]);
      expect(dry.exitCode, dry.stderr).toBe(0);
      expect(planned.writes()).toEqual([]);
      const plan = read(dry.stdout);

      // The run, on a school of its own just like it.
      const applied = counted();
      const done = await applied.run([...withFile(runArgs, write(applied)), '-o', format]);
      expect(done.exitCode, done.stderr).toBe(0);
      expect(applied.writes().length).toBeGreaterThan(0);
      const run = read(done.stdout);

      expect(run).not.toHaveProperty('dry_run');
      expect(plan.dry_run).toBe(true);
      expect(Object.keys(plan).sort()).toEqual([...Object.keys(run), 'dry_run'].sort());
      for (const key of Object.keys(run)) expect(typeof plan[key], key).toBe(typeof run[key]);
      // What the dry run says would happen is what the run did.
      expect(counts(plan)).toEqual(counts(run));
      expect(outcomesOf(plan)).toEqual(outcomesOf(run));
    }
  });

  it('keeps the run’s row keys, a row done by an earlier run reading as skipped', async () => {
    const s = counted();
    const file = s.file('tree.yaml', TREE_YAML);
    const run = JSON.parse((await s.run(['outcomes', 'import', '--course', '1', file, '-o', 'json'])).stdout) as {
      rows: Record<string, unknown>[];
    };
    const again = JSON.parse((await s.run(['outcomes', 'import', '--course', '1', file, '-o', 'json'])).stdout) as {
      rows: Record<string, unknown>[];
    };
    const writes = s.writes().length;
    const plan = JSON.parse(
      (await s.run(['outcomes', 'import', '--course', '1', file, '--dry-run', '-o', 'json'])).stdout,
    ) as { rows: Record<string, unknown>[] };
    expect(s.writes()).toHaveLength(writes);
    expect(run.rows.map((r) => r.status)).toEqual(['created', 'created']);
    expect(again.rows.map((r) => [r.status, r.skipped])).toEqual([
      ['skipped', true],
      ['skipped', true],
    ]);
    expect(plan.rows).toEqual(again.rows);
  });
});
