// Every example in every command's help, run in-process against a fresh seeded in-memory mock. An
// example must exit 0 (or be listed below with why it cannot); like every in-process run, it fails
// when its command calls a route it does not declare in `routes` (test/helpers/declared-routes.ts).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { CommandSpec, NounSpec } from '../../src/model/command.js';
import { loadAllNouns } from '../../src/commands/index.js';
import { session, splitArgs, type Session } from '../helpers/run-lms.js';

type Spec = CommandSpec<never> | NounSpec;
const isNoun = (s: Spec): s is NounSpec => 'commands' in s;
const word = (name: string) => name.split(' ')[0];

/** Examples that cannot run in-process against the mock, and why. */
const SKIP: Record<string, string> = {
  'lms activity --watch --interval 10 --as-user 11': 'keeps polling until interrupted',
  'lms log --follow': 'keeps following the log until interrupted',
  'lms mock serve --port 4010 &': 'starts a server that runs until interrupted',
  'lms mock serve --host 0.0.0.0 --public-url http://mock.ci.internal:4010 --max-upload-size 20m':
    'starts a server that runs until interrupted',
  'lms mock serve --throttle --throttle-status 429 --fail-rate 0.1 --drop-rate 0.02 --latency 50 --fault-seed 7':
    'starts a server that runs until interrupted',
  'lms mock serve --port 4010 --tls-self-signed mock-ca.pem &': 'starts a server that runs until interrupted',
  'LMS_BASE_URL=http://127.0.0.1:4010 LMS_TOKEN=1~mock-admin lms users list':
    'talks to a running `lms mock serve` over HTTP',
  'lms profile add prod --url https://lms.example.edu':
    'asks for the token at a terminal prompt, then checks it with a real instance',
  'printf %s "$TOKEN" | lms profile add ci --url https://lms.example.edu --token-stdin':
    'checks the token with a real instance',
  'lms profile add school --url https://lms.school.example --ca-file /etc/ssl/school-ca.pem':
    'asks for the token at a terminal prompt, then checks it with a real instance',
  'lms auth login -p prod --url https://lms.example.edu --client-id 170000000000123':
    'logs in through a browser at a real instance',
  'printf %s "$SECRET" | lms auth login -p ci --url https://lms.example.edu --client-id 170000000000123 --client-secret-stdin --no-browser --insecure-storage':
    'logs in through a browser at a real instance',
  'lms auth login -p prod --timeout 600': 'logs in through a browser at a real instance',
  'lms auth status -p prod -o json': 'asks a real instance whose token it is',
  'lms auth logout -p prod': 'revokes the token at a real instance',
  'curl -H "Authorization: Bearer $(lms auth token -p prod)" https://lms.example.edu/api/v1/users/self':
    'curl, to a real instance',
  'lms mcp': 'serves MCP on stdio until the client closes it (test/e2e/mcp.test.ts drives it)',
  'lms mcp --toolsets roster,grading':
    'serves MCP on stdio until the client closes it (test/e2e/mcp.test.ts drives it)',
  'lms mcp --dynamic-toolsets': 'serves MCP on stdio until the client closes it (test/e2e/mcp.test.ts drives it)',
  'lms -p prod mcp --toolsets all --allow-writes':
    'serves MCP on stdio until the client closes it (test/e2e/mcp.test.ts drives it)',
  'lms --mock mcp --allow-writes --allow-destructive':
    'serves MCP on stdio until the client closes it (test/e2e/mcp.test.ts drives it)',
  'lms mcp --pseudonymize --pseudonym-key ~/.config/lms/pseudonym.key':
    'serves MCP on stdio until the client closes it (test/e2e/mcp-pseudonyms.test.ts drives it, key file included)',
};

/** Examples that run but exit non-zero against the seeded school: the exit code they give, and why. */
const FAILS: Record<string, { exitCode: number; reason: string }> = {
  'lms sis abort 1': {
    exitCode: 4,
    reason: "the seeded import has ended, and Canvas's abort finds only an import that has not (a 404)",
  },
};

const PROD = 'lms profile add prod --url https://lms.example.edu --token-stdin --no-verify < token.txt';

/** What the seeded school lacks for an example: command lines run first (their routes are not the example's). */
const SETUP: Record<string, string[]> = {
  'lms sections delete sis_section_id:BIO-101-SPARE --yes': [
    'lms sections create --course 1 --name Spare --sis-id BIO-101-SPARE',
  ],
  'lms admins add --account 1 --user sis_login_id:jdoe --role Helpdesk': [
    'lms users create --login-id jdoe --name "Jane Doe"',
  ],
  'lms enrollments add --course 1 --user sis_user_id:S-042 --state active': [
    'lms users create --login-id s042 --name "Student 42" --sis-user-id S-042',
  ],
  'lms files get 1 -o json': ['lms users upload notes.txt'],
  'lms profile use prod': [PROD],
  'lms profile show prod': [PROD],
  'lms profile remove prod': [PROD],
};

/** Files examples read, created in a temporary directory before they run. */
const FILES: Record<string, string | Uint8Array> = {
  // A SIS file: one row by its course, one by its section (which names the course).
  'sis-enrollments.csv':
    'course_id,section_id,user_id,role,status\nBIO-101,,S-007,ta,active\n,BIO-101-B,S-009,student,active\n',
  'sis-users.csv': 'user_id,login_id,first_name,last_name,status\nS-100,ada,Ada,Lovelace,active\n',
  // As canvas-lms doc/api/sis_csv.md's samples have them, with the seeded school's SIS ids.
  'courses.csv': 'course_id,short_name,long_name,account_id,status\nE411208,ENG115,English 115,MSU-HUM,active\n',
  'sections.csv': 'section_id,course_id,name,status\nS001,BIO-101,Section 1,active\n',
  // A school's nightly SIS files, zipped: the term is the seeded one (sis_term_id:2026-FA).
  'nightly.zip': zipSync({
    'users.csv': strToU8('user_id,login_id,full_name,status\nS-100,ada,Ada Lovelace,active\n'),
    'courses.csv': strToU8('course_id,short_name,long_name,term_id,status\nN-1,N-1,Nightly One,2026-FA,active\n'),
    'enrollments.csv': strToU8('course_id,user_id,role,status\nN-1,S-100,student,active\n'),
  }),
  'new-students.csv':
    'name,login_id,email\nNew Student,nstudent,nstudent@example.edu\nOther Student,ostudent,ostudent@example.edu\n',
  'roster.csv':
    'user,type,section,state\nsis_user_id:S-007,student,,active\n' +
    'sis_user_id:S-009,student,sis_section_id:BIO-101-B,active\ntheo,teacher,,active\n',
  'token.txt': '1~mock-admin\n',
  'notes.txt': 'Lab notes\n',
  'review.html': '<h2>Review</h2>\n',
  'syllabus.html': '<h1>Syllabus</h1>\n',
  'grades.csv': 'user,grade,comment\nsam,19,\nsis_user_id:S-008,16,Label the axes\n9,18,\n',
  'gradebook.csv': 'user,1,Genetics Essay\nsam,20,A-\nravi,17,B\n',
  'outcomes.yaml':
    'groups:\n  - title: Field Work\n    vendor_guid: msu-field\n    outcomes:\n      - title: Keeps a field ' +
    'notebook\n        vendor_guid: msu-notebook\n        ratings: ["3:Complete", "1:Partial"]\n',
  'outcomes.csv':
    'vendor_guid,object_type,title,parent_guids,mastery_points,ratings,,,\nbio-lab,group,Lab Skills,,,,,,\n' +
    'bio-pipette,outcome,Uses a pipette,bio-lab,2,3,Accurate,1,Rough\n',
  'course.yaml':
    'courses:\n  - sis_course_id: BIO-102\n    name: Biology 102\n    account: sis_account_id:MSU\n    sections:\n' +
    '      - { sis_section_id: BIO-102-A, name: Lab A }\n    enrollments:\n      - { user: sis_user_id:T-003, ' +
    'type: teacher }\n      - { user: sam, type: student, section: BIO-102-A }\n    topics:\n      - { key: ' +
    'welcome, title: Welcome, message: "<p>Hello</p>", published: true }\n',
  'syllabus.pdf': '%PDF-1.4\n%%EOF\n',
  'avatar.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]),
};

/** Commands that ask before they destroy: their examples get --yes when they do not give it. */
const DESTRUCTIVE = new Set([
  'users delete',
  'mock seed',
  'mock reset',
  'sections delete',
  'admins remove',
  'enrollments delete',
  'profile remove',
]);

interface Example {
  /** The command's words: `users settings update`. */
  path: string;
  line: string;
}

function examplesOf(specs: Spec[], prefix: string[] = []): Example[] {
  return specs.flatMap((spec) => {
    const path = [...prefix, word(spec.name)];
    if (isNoun(spec)) return examplesOf(spec.commands, path);
    return (spec.examples ?? []).map((line) => ({ path: path.join(' '), line }));
  });
}

/** The command a command line runs, and its path: verbs by name or alias, else the noun's default verb. */
function find(tree: Spec[], argv: string[]): { path: string; spec: CommandSpec<never> } {
  let specs = tree;
  const path: string[] = [];
  for (const arg of argv) {
    const next =
      specs.find((s) => word(s.name) === arg || s.aliases?.includes(arg)) ??
      specs.find((s) => !isNoun(s) && s.isDefault);
    if (!next) break;
    path.push(word(next.name));
    if (!isNoun(next)) return { path: path.join(' '), spec: next };
    specs = next.commands;
  }
  const fallback = path.length ? specs.find((s): s is CommandSpec<never> => !isNoun(s) && !!s.isDefault) : undefined;
  if (fallback) return { path: [...path, word(fallback.name)].join(' '), spec: fallback };
  throw new Error(`no command for "${argv.join(' ')}"`);
}

/** `.[0].token`: the jq paths examples use. */
function jqPath(value: unknown, path: string): string {
  let current = value;
  for (const [, index, key] of path.matchAll(/\[(\d+)\]|\.([A-Za-z_]\w*)/g))
    current = (current as Record<string, unknown>)[index ?? key];
  return String(current);
}

interface Run {
  path: string;
  exitCode: number;
  stderr: string;
}

/**
 * Runs one example the way a shell would, for the little shell the examples use: `a && b`, `> file`,
 * `< file` and `$(lms … | jq -r PATH)`. Files are read from and written to `dir`.
 */
async function runExample(tree: Spec[], lms: Session, dir: string, example: Example): Promise<Run[]> {
  const runs: Run[] = [];
  const files = new Set(Object.keys(FILES));
  const step = async (text: string, given = false): Promise<Run & { stdout: string }> => {
    let line = text.trim();
    let stdin: string | undefined;
    let stdout: string | undefined;
    line = line.replace(/\s+<\s+(\S+)$/, (_, file: string) => {
      stdin = readFileSync(join(dir, basename(file)), 'utf8');
      return '';
    });
    line = line.replace(/\s+>\s+(\S+)$/, (_, file: string) => {
      stdout = basename(file.replace(/"/g, ''));
      return '';
    });
    for (const m of line.matchAll(/\$\((lms [^|)]+)\|\s*jq -r "([^"]+)"\)/g)) {
      const inner = await step(m[1]);
      if (inner.exitCode !== 0) throw new Error(`${m[1]} exited ${inner.exitCode}: ${inner.stderr}`);
      line = line.replace(m[0], jqPath(JSON.parse(inner.stdout), m[2]));
    }
    if (!line.startsWith('lms '))
      throw new Error(`cannot run "${text}" in-process: make it runnable or add it to SKIP with a reason`);
    // Files the example reads, and files it writes (--failed-out failed.csv), live in the scratch
    // directory: the tests write nothing into the checkout.
    const argv = splitArgs(line.slice(4)).map((arg) =>
      files.has(basename(arg)) || /^[\w-]+\.(csv|json|ya?ml|txt|ndjson)$/.test(arg) ? join(dir, basename(arg)) : arg,
    );
    const { path } = find(tree, argv);
    if (DESTRUCTIVE.has(path) && !argv.includes('--yes') && !argv.includes('-y')) argv.push('--yes');
    const result = await lms.run(argv, { stdin });
    if (stdout !== undefined) {
      writeFileSync(join(dir, stdout), result.stdout);
      files.add(stdout);
    }
    const run = { path, exitCode: result.exitCode, stderr: result.stderr, stdout: result.stdout };
    if (given) expect(run.exitCode, `setup: ${text}: ${run.stderr}`).toBe(0);
    else runs.push(run);
    return run;
  };
  for (const line of SETUP[example.line] ?? []) await step(line, true);
  for (const part of example.line.split(' && ')) {
    const run = await step(part);
    if (run.exitCode !== 0) break;
  }
  return runs;
}

describe('every help example runs against the mock', async () => {
  const tree = await loadAllNouns();
  const examples = examplesOf(tree);

  it('every command that calls the API has an example, so its routes are checked', () => {
    const missing = (specs: Spec[], prefix: string[] = []): string[] =>
      specs.flatMap((spec) => {
        const path = [...prefix, word(spec.name)];
        if (isNoun(spec)) return missing(spec.commands, path);
        return spec.routes?.length && !spec.examples?.length ? [path.join(' ')] : [];
      });
    expect(missing(tree)).toEqual([]);
  });

  it('finds examples, and every SKIP, FAILS or SETUP entry is still an example', () => {
    expect(examples.length).toBeGreaterThan(30);
    const lines = new Set(examples.map((e) => e.line));
    expect(
      [...Object.keys(SKIP), ...Object.keys(FAILS), ...Object.keys(SETUP)].filter((line) => !lines.has(line)),
    ).toEqual([]);
  });

  for (const example of examples) {
    const skip = SKIP[example.line];
    it.skipIf(skip !== undefined)(`${example.path}: ${example.line}${skip ? ` (skipped: ${skip})` : ''}`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'lms-examples-'));
      for (const [name, content] of Object.entries(FILES)) writeFileSync(join(dir, name), content);
      const lms = session({ LMS_STATE_DIR: join(dir, 'state'), NO_COLOR: '1' });
      const runs = await runExample(tree, lms, dir, example);
      const last = runs.at(-1)!;
      const expected = FAILS[example.line];
      if (expected) expect(last.exitCode, `listed as failing: ${expected.reason}`).toBe(expected.exitCode);
      else expect({ exitCode: last.exitCode, stderr: last.stderr }).toMatchObject({ exitCode: 0 });
    });
  }
});
