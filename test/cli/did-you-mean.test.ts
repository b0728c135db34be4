// "Did you mean": every word lms looks up and does not find names the nearest one it knows, with
// the usage exit code (2). An unknown option is reported before a missing required one: the typo is
// the mistake, and fixing it supplies the missing flag.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { session } from '../helpers/run-lms.js';

const lms = session();
const dir = mkdtempSync(join(tmpdir(), 'lms-test-did-you-mean-'));
const csv = join(dir, 'users.csv');
writeFileSync(csv, 'name,emial,login_id\nAda,ada@example.edu,ada\n');
const csvTwo = join(dir, 'two.csv');
writeFileSync(csvTwo, 'nmae,login_id,time_zon\nAda,ada,UTC\n');

beforeAll(async () => {
  for (const name of ['ci', 'prod']) {
    const r = await lms.run(`profile add ${name} --url https://${name}.example.edu --token-stdin --no-verify`, {
      stdin: 't',
    });
    expect(r.exitCode, r.stderr).toBe(0);
  }
});

describe('a mistyped word gets the nearest known one, and exit 2', () => {
  it.each<[string, string, Record<string, string>, string]>([
    ['a noun', 'usres list', {}, "error: unknown command 'usres'\nhint: did you mean users?\n"],
    [
      "a verb by another tool's name (remove)",
      'users remove 7',
      {},
      "error: unknown command 'remove'\nhint: did you mean lms users delete?\n",
    ],
    [
      "a verb by another tool's name (rm)",
      'sections rm 7',
      {},
      "error: unknown command 'rm'\nhint: did you mean lms sections delete?\n",
    ],
    [
      "a verb by another tool's name (create)",
      'enrollments create --course 1',
      {},
      "error: unknown command 'create'\nhint: did you mean lms enrollments add?\n",
    ],
    [
      'a flag, before a missing required flag',
      'sections create --nmae x',
      {},
      "error: unknown option '--nmae'\nhint: did you mean --name?\n",
    ],
    [
      'a flag, with the required ones given',
      'sections create --course 1 --nmae x',
      {},
      "error: unknown option '--nmae'\nhint: did you mean --name?\n",
    ],
    [
      "a flag of a noun's default verb",
      'grade --cours 1',
      {},
      "error: unknown option '--cours'\nhint: did you mean --course?\n",
    ],
    [
      'a choice of -o',
      'users list -o jsn',
      {},
      "error: option '-o, --output <format>' argument 'jsn' is invalid. Allowed choices are table, json, ndjson, " +
        'csv, yaml.\nhint: did you mean json?\n',
    ],
    [
      'a choice of a command flag',
      'quizzes create --course 1 --title T --quiz-type survy',
      {},
      "error: option '--quiz-type <type>' argument 'survy' is invalid. Allowed choices are practice_quiz, " +
        'assignment, graded_survey, survey.\nhint: did you mean survey?\n',
    ],
    [
      'a choice of an argument',
      'completion bsh',
      {},
      "error: command-argument value 'bsh' is invalid for argument 'shell'. Allowed choices are bash, zsh, fish.\n" +
        'hint: did you mean bash?\n',
    ],
    [
      'a field of --fields',
      'users list --account 1 --fields id,nmae',
      {},
      'error: --fields: unknown field "nmae"\nhint: did you mean --fields id,name?\n',
    ],
    [
      'LMS_OUTPUT',
      'users list',
      { LMS_OUTPUT: 'jsn' },
      'error: LMS_OUTPUT must be one of table, json, ndjson, csv, yaml, not "jsn"\nhint: did you mean json?\n',
    ],
    ['a profile of -p', '-p cj users list', {}, 'error: no profile named "cj"\nhint: did you mean ci?\n'],
    [
      'a profile of LMS_PROFILE',
      'users list',
      { LMS_PROFILE: 'prdo', LMS_MOCK: '' },
      'error: no profile named "prdo" (from LMS_PROFILE)\nhint: did you mean prod?\n',
    ],
    ['a profile to use', 'profile use cj', {}, 'error: no profile named "cj"\nhint: did you mean ci?\n'],
    ['a profile to show', 'profile show prd', {}, 'error: no profile named "prd"\nhint: did you mean prod?\n'],
    ['a profile to remove', 'profile remove cj --yes', {}, 'error: no profile named "cj"\nhint: did you mean ci?\n'],
  ])('%s', async (_what, line, env, stderr) => {
    expect(await lms.run(line, { env })).toEqual({ exitCode: 2, stdout: '', stderr });
  });

  it('a CSV column', async () => {
    const r = await lms.run(['users', 'import', csv, '--account', '1', '--dry-run']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(
      `${csv}:1: unknown column "emial" (did you mean email?); the header may use name, login_id, email,`,
    );
  });

  it('each of several CSV columns, nearest among the columns not already used', async () => {
    const r = await lms.run(['users', 'import', csvTwo, '--account', '1', '--dry-run']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('unknown columns "nmae" (did you mean name?), "time_zon" (did you mean time_zone?);');
  });

  it.each<[string, string, string]>([
    [
      'a missing required flag, alone',
      'sections create --course 1',
      "error: required option '--name <name>' not specified\n",
    ],
    [
      'a word far from every profile',
      '-p zzzzzz users list',
      'error: no profile named "zzzzzz"\nhint: lms profile list shows the profiles\n',
    ],
    [
      'a shell lms has no script for',
      'completion tcsh',
      "error: command-argument value 'tcsh' is invalid for argument 'shell'. Allowed choices are bash, zsh, fish.\n",
    ],
    [
      'a value far from every choice',
      'users list -o spreadsheet',
      "error: option '-o, --output <format>' argument 'spreadsheet' is invalid. Allowed choices are table, json, " +
        'ndjson, csv, yaml.\n',
    ],
  ])('no guess for %s', async (_what, line, stderr) => {
    expect(await lms.run(line)).toEqual({ exitCode: 2, stdout: '', stderr });
  });
});
