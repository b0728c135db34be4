// Every read command, on every payload of test/fixtures/real (responses shaped as real instances send
// them, from canvas-lms's API documentation and canvasapi's recorded fixtures, plus edge values
// written for the corpus), in every format: nothing crashes, nothing prints `undefined`,
// `[object Object]` or `NaN`, and `-o json` is what the instance sent. The mock's shapes are one case;
// these are the others.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { sendsWrites } from '../../src/model/command.js';
import { run } from '../../src/cli/entry.js';
import { openMock, type MockRuntime } from '../../src/mock/runtime.js';
import { isIdentifierColumn } from '../../src/output/columns.js';
import { allRoutes, type Route } from '../../src/spec/routes.js';
import type { ApiRequest, ApiResponse } from '../../src/transport/types.js';
import { fakeIO } from '../helpers/fake-io.js';
import { seedSchool } from '../helpers/mock-client.js';
import { memoryKeychain } from '../helpers/keychain.js';
import { FIXED_NOW, splitArgs } from '../helpers/run-lms.js';
import { declaredVerbs } from '../helpers/verbs.js';

const routes = allRoutes();

interface Payload {
  name: string;
  /** Where it came from: a canvas-lms controller, a canvasapi fixture, or `written for this corpus`. */
  source: string;
  edge?: boolean;
  /** A single answer. */
  body?: unknown;
  /** A list, page by page (pages after the first are reached through a Link header). */
  pages?: unknown[][];
}

const CORPUS_DIR = join(import.meta.dirname, '../fixtures/real');
const corpus = new Map<string, Payload[]>();
/** The command lines a corpus file names in `reads`: each is run on its payloads as it is. */
const plainReads: Read[] = [];
for (const file of readdirSync(CORPUS_DIR).filter((f) => f.endsWith('.json'))) {
  const { operation, reads, payloads } = JSON.parse(readFileSync(join(CORPUS_DIR, file), 'utf8')) as {
    operation: string;
    reads?: string[];
    payloads: Payload[];
  };
  expect(file, 'a corpus file is named after its operation').toBe(`${operation}.json`);
  corpus.set(operation, payloads);
  for (const line of reads ?? []) plainReads.push({ line, op: operation });
}

interface Read {
  /** The command line, without a format. */
  line: string;
  /** The operation whose payloads it is run on (the others it calls get their first payload). */
  op: string;
  /** Why `-o json` is not the payload, where the command legitimately reshapes it. */
  reshapes?: string;
  /** The payload (by name) to answer another operation with, where its first would stop the command. */
  with?: Record<string, string>;
  /** What the command is meant to refuse (a payload, a format): the documented exit code and message, and why. */
  refuses?: { exitCode: number; message: RegExp; why: string }[];
}

const COURSE_WITH_SIS_ID = 'edge: a course with a SIS id, unicode and quotes in its names';
const COURSE_FILE_FORMATS = {
  exitCode: 2,
  message: /a course file is YAML .* or JSON .*, not (table|ndjson|csv)/,
  why: 'a course file is written as YAML or JSON only',
};

/**
 * Every read command, each way of calling it that reaches a different operation: the lines the
 * corpus files name, and here those that need more than a line (a reshape, a refusal, an answer).
 */
const READS: Read[] = [
  ...plainReads,
  {
    line: 'users export --account 1',
    op: 'users.list',
    reshapes: 'writes the columns `users import` reads, not the API records',
  },
  {
    line: 'enrollments export --course 1',
    op: 'enrollments.listCourse',
    reshapes: 'writes the columns `enrollments import` reads, not the API records',
  },
  {
    line: 'outcomes export --course 1',
    op: 'outcomes.listSubgroups',
    reshapes: 'writes the outcome tree as the file `outcomes import` reads',
  },
  {
    line: 'outcomes export --account 1',
    op: 'outcomes.listLinks',
    reshapes: 'writes the outcome tree as the file `outcomes import` reads',
  },
  {
    line: 'outcomes tree --course 1',
    op: 'outcomes.listSubgroups',
    reshapes: 'prints the groups and outcomes as one tree',
  },
  {
    line: 'outcomes tree --account 1',
    op: 'outcomes.listLinks',
    reshapes: 'prints the groups and outcomes as one tree',
  },
  {
    line: 'grade export --course 1 --assignment 1',
    op: 'submissions.list',
    reshapes: 'writes the grades CSV that `grade --csv` reads',
  },
  {
    line: 'grade export --course 1',
    op: 'assignments.list',
    reshapes: 'writes the gradebook CSV that `grade --csv` reads',
  },
  {
    line: 'conv unread',
    op: 'conversations.unreadCount',
    reshapes: 'the count the API sends as a string is printed as a number',
  },
  {
    line: 'sis list',
    op: 'sis.list',
    reshapes: 'the API wraps the list as {"sis_imports": [...]}; lms prints the imports',
  },
  {
    line: 'terms list --state all',
    op: 'terms.list',
    reshapes: 'the API wraps the list as {"enrollment_terms": [...]}; lms prints the terms',
  },
  {
    line: 'export course 1',
    op: 'sections.list',
    with: { 'courses.get': COURSE_WITH_SIS_ID },
    reshapes: 'writes the course file `lms apply` reads',
    refuses: [COURSE_FILE_FORMATS],
  },
  {
    line: 'export course 1',
    op: 'enrollments.listCourse',
    with: { 'courses.get': COURSE_WITH_SIS_ID },
    reshapes: 'writes the course file `lms apply` reads',
    refuses: [COURSE_FILE_FORMATS],
  },
  {
    line: 'export course 1',
    op: 'assignments.list',
    with: { 'courses.get': COURSE_WITH_SIS_ID },
    reshapes: 'writes the course file `lms apply` reads',
    refuses: [COURSE_FILE_FORMATS],
  },
  {
    line: 'export course 1',
    op: 'discussions.listTopics',
    with: { 'courses.get': COURSE_WITH_SIS_ID },
    reshapes: 'writes the course file `lms apply` reads',
    refuses: [COURSE_FILE_FORMATS],
  },
  {
    line: 'export course 1',
    op: 'quizzes.list',
    with: { 'courses.get': COURSE_WITH_SIS_ID },
    reshapes: 'writes the course file `lms apply` reads',
    refuses: [COURSE_FILE_FORMATS],
  },
  {
    line: 'export course 1',
    op: 'users.get',
    with: { 'courses.get': COURSE_WITH_SIS_ID },
    reshapes: 'writes the course file `lms apply` reads',
    refuses: [COURSE_FILE_FORMATS],
  },
  {
    line: 'export course 1',
    op: 'courses.get',
    reshapes: 'writes the course file `lms apply` reads',
    refuses: [
      {
        exitCode: 1,
        message: /has no sis_course_id you may see/,
        why: 'a course file finds its course by SIS id, and most payloads have none',
      },
      COURSE_FILE_FORMATS,
    ],
  },
];

/**
 * Read verbs this table does not run, and why. Every other verb that only reads must have a row
 * above, so a new read verb brings its payloads with it.
 */
const NOT_RUN: Record<string, string> = {
  diff: 'compares a course file with the instance: its reads are a plan, tested with apply',
};
/**
 * Nouns that act on this machine, not on the instance (profile add and auth status read only who a token is; doctor
 * shows pass or fail).
 */
const LOCAL = /^(profile|mock|api|completion|mcp|auth|doctor) /;

// ---- the derived payloads: every real payload again, with the values real instances vary in

const HOSTILE = `O'Brien, "Bobby" — محمد العتيبي 👩🏽‍🏫 ${'Hohenzollern-Sigmaringen '.repeat(6)}`;
const ID_KEY = /(^|_)id$/;
const TEXT_KEY = /name|title|message|subject|description|body|display_name|context_name|login|email/;

function mapScalars(value: unknown, change: (key: string, v: unknown) => unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => mapScalars(v, change, key));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapScalars(v, change, k)]));
  return change(key, value);
}

const DERIVED: [string, (key: string, v: unknown) => unknown][] = [
  ['every id as a string', (k, v) => (ID_KEY.test(k) && typeof v === 'number' ? String(v) : v)],
  [
    'every text field long, with commas, quotes, RTL and emoji',
    (k, v) => (TEXT_KEY.test(k) && typeof v === 'string' ? HOSTILE : v),
  ],
  // What identifies a record (ids, SIS ids, logins, URLs, tokens) stays: a list whose records are all
  // alike from page to page is what a server that ignores the page asked for sends, which ends a listing.
  ['every string but the identifiers null', (k, v) => (!isIdentifierColumn(k) && typeof v === 'string' ? null : v)],
];

const DERIVED_PREFIX = 'derived from ';

function variants(op: string): Payload[] {
  const payloads = corpus.get(op);
  if (!payloads?.length) throw new Error(`no payload in test/fixtures/real for ${op}: a read command needs one`);
  const first = payloads.find((p) => !p.edge)!;
  const derived = DERIVED.map(
    ([name, change]): Payload => ({
      name: `${DERIVED_PREFIX}"${first.name}": ${name}`,
      source: first.source,
      edge: true,
      ...(first.pages
        ? { pages: first.pages.map((page) => mapScalars(page, change) as unknown[]) }
        : { body: mapScalars(first.body, change) }),
    }),
  );
  return [...payloads, ...derived];
}

// ---- a transport that answers each GET from the corpus, by route

const getRoutes = routes
  .filter((r) => r.method === 'GET')
  .map((r) => ({ r, re: new RegExp(`^${r.path.replace(/:\w+/g, '[^/]+')}$`) }))
  // The most literal route wins: `gradebook_history/days` over `gradebook_history/:date`.
  .sort((a, b) => a.r.params.length - b.r.params.length);

function routeOf(req: ApiRequest): Route {
  const path = new URL(req.url).pathname;
  const found = getRoutes.find(({ r, re }) => r.method === req.method && re.test(path));
  if (!found) throw new Error(`no route for ${req.method} ${path}`);
  return found.r;
}

function answer(req: ApiRequest, payload: Payload, paginated: boolean): ApiResponse {
  const json = (value: unknown, headers: Record<string, string> = {}): ApiResponse => ({
    status: 200,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    body: JSON.stringify(value),
  });
  if (!payload.pages) return json(payload.body);
  const url = new URL(req.url);
  const page = Number(url.searchParams.get('page') ?? '1');
  if (!paginated || page >= payload.pages.length) return json(payload.pages[paginated ? page - 1 : 0] ?? []);
  url.searchParams.set('page', String(page + 1));
  return json(payload.pages[page - 1], { link: `<${url.href}>; rel="next"` });
}

/** What `-o json` prints for this payload: the body, or every page's items in order. */
const expected = (payload: Payload): unknown => (payload.pages ? payload.pages.flat() : payload.body);

let mock: MockRuntime;
// Read commands write nothing, but should one, it writes here rather than in the user's directories.
const home = mkdtempSync(join(tmpdir(), 'lms-real-payloads-'));

beforeAll(async () => {
  mock = openMock(':memory:', { LMS_MOCK_NOW: FIXED_NOW, LMS_MOCK_JOB_TICK_MS: '0' }, seedSchool);
});

async function runOn(read: Read, payload: Payload, extra: string[], io: { tty?: boolean; columns?: number } = {}) {
  const seen: string[] = [];
  // The first object an operation is asked about gets the payload; a walk down a tree (an outcome
  // group's subgroups, theirs, ...) finds the others empty, so it ends as a real tree does.
  const firstPath = new Map<string, string>();
  mock.handler = async (req) => {
    const route = routeOf(req);
    seen.push(route.operation);
    if (route.method !== 'GET') throw new Error(`a read command sent ${req.method} ${req.url}`);
    const chosen = read.with?.[route.operation];
    const answers =
      route.operation === read.op
        ? [payload]
        : corpus.get(route.operation)?.filter((p) => chosen === undefined || p.name === chosen);
    if (!answers?.length)
      throw new Error(
        `no payload in test/fixtures/real for ${route.operation} (${req.method} ${new URL(req.url).pathname})`,
      );
    const path = new URL(req.url).pathname;
    if (!firstPath.has(route.operation)) firstPath.set(route.operation, path);
    if (firstPath.get(route.operation) !== path && route.paginated)
      return answer(req, { ...answers[0], pages: [[]] }, false);
    // A list in several pages is paged whatever the route table says: real instances page lists it calls unpaged.
    return answer(req, answers[0], route.paginated || (answers[0].pages?.length ?? 0) > 1);
  };
  const fake = fakeIO({ tty: io.tty, columns: io.columns });
  const exitCode = await run([...splitArgs(read.line), ...extra], {
    io: fake,
    env: { LMS_MOCK: '1', LMS_STATE_DIR: join(home, 'state') },
    mock,
    keychain: memoryKeychain(),
    configDir: join(home, 'config'),
  });
  return { exitCode, stdout: fake.stdoutText(), stderr: fake.stderrText(), seen };
}

const BROKEN = /\bundefined\b|\[object Object\]|\bNaN\b/;

function clean(r: { exitCode: number; stdout: string; stderr: string }, what: string, refuses?: Read['refuses']): void {
  const refused = (refuses ?? []).some((refusal) => r.exitCode === refusal.exitCode && refusal.message.test(r.stderr));
  if (!refused) expect(r.exitCode, `${what}: exit ${r.exitCode}\n${r.stderr}`).toBe(0);
  expect(r.stdout, `${what}: stdout`).not.toMatch(BROKEN);
  expect(r.stderr, `${what}: stderr`).not.toMatch(BROKEN);
}

/** A field of the records `-o json` printed, for --fields. */
function someField(printed: unknown): string | undefined {
  const record = Array.isArray(printed) ? printed[0] : printed;
  return record !== null && typeof record === 'object' ? Object.keys(record)[0] : undefined;
}

describe('the corpus covers every read command', () => {
  it('has a row (or a reason not to) for every verb that only reads', async () => {
    const verbs = (await declaredVerbs())
      .filter(({ spec }) => (spec.routes ?? []).length > 0 && !sendsWrites(spec))
      .map(({ path, spec }) => [...path.slice(0, -1), spec.name].join(' '));
    const covered = (verb: string) => {
      const words = verb.split(' ').filter((w) => !/^[<[]/.test(w));
      return READS.some((r) => r.line.startsWith(`${words.join(' ')} `) || r.line === words.join(' '));
    };
    const missing = verbs.filter((v) => !(v in NOT_RUN) && !LOCAL.test(`${v} `) && !covered(v));
    expect(
      missing,
      "read verbs with no line: name one in `reads` of its operation's file in test/fixtures/real",
    ).toEqual([]);
  });

  it('has a payload for every operation a row names', () => {
    for (const read of READS) expect(corpus.get(read.op)?.length, read.line).toBeGreaterThan(0);
  });
});

describe.each(READS)('lms $line', (read) => {
  it.each(variants(read.op).map((p) => [p.name, p] as const))('renders %s', async (_name, payload) => {
    const what = (format: string) => `${read.line} ${format} on "${payload.name}" (${payload.source})`;

    const json = await runOn(read, payload, ['-o', 'json']);
    clean(json, what('-o json'), read.refuses);
    if (json.exitCode !== 0) return;
    expect(json.seen, `${read.line} reads ${read.op}`).toContain(read.op);
    const printed: unknown = JSON.parse(json.stdout);
    if (!read.reshapes) expect(printed, what('-o json equals the payload')).toEqual(expected(payload));

    // The formats that carry the data whole read back as what -o json printed: none drops a field.
    const readBack: Record<string, (stdout: string) => unknown> = {
      '-o ndjson': (stdout) => {
        const records = stdout
          .split('\n')
          .filter((l) => l !== '')
          .map((l) => JSON.parse(l) as unknown);
        return Array.isArray(printed) ? records : records[0];
      },
      // Records are written for YAML 1.1 readers too; a file of the command's own (a course file) for lms, which reads
      // 1.2.
      '-o yaml': (stdout) => parseYaml(stdout, { version: read.reshapes ? '1.2' : '1.1' }),
      '--jq': (stdout) => JSON.parse(stdout),
    };
    for (const [format, extra, io] of [
      ['on a terminal (80 columns)', [], { tty: true, columns: 80 }],
      ['on a terminal (200 columns)', [], { tty: true, columns: 200 }],
      ['-o table off a terminal', ['-o', 'table'], {}],
      ['-o ndjson', ['-o', 'ndjson'], {}],
      ['-o csv', ['-o', 'csv'], {}],
      ['-o yaml', ['-o', 'yaml'], {}],
      ['--jq', ['-o', 'json', '--jq', '.'], {}],
    ] as const) {
      // jq reads the JSON lms prints, whatever command printed it: it is run on the corpus's own
      // payloads, not again on each derived one (every run starts jq in a worker of its own).
      if (format === '--jq' && payload.name.startsWith(DERIVED_PREFIX)) continue;
      const r = await runOn(read, payload, [...extra], io);
      clean(r, what(format), read.refuses);
      const parse = readBack[format];
      // A command that reshapes may shape its NDJSON otherwise than its JSON (a tree as one document, its nodes as
      // lines).
      if (parse && r.exitCode === 0 && !(format === '-o ndjson' && read.reshapes))
        expect(parse(r.stdout), what(`${format} reads back as -o json`)).toEqual(printed);
    }

    const field = printed === undefined ? undefined : someField(printed);
    if (field !== undefined) {
      for (const format of ['json', 'csv', 'table'])
        clean(
          await runOn(read, payload, ['-o', format, '--fields', field]),
          what(`-o ${format} --fields ${field}`),
          read.refuses,
        );
    }
  });
});

describe('what the flattened views show of real shapes', () => {
  const payload = (op: string, name: string): Payload => {
    const found = corpus.get(op)?.find((p) => p.name === name);
    if (!found) throw new Error(`no payload "${name}" for ${op}`);
    return found;
  };
  const onTerminal = (line: string, op: string, name: string) =>
    runOn({ line, op }, payload(op, name), [], { tty: true, columns: 200 });

  it(
    'draws a documented /view thread: no created_at, ' + 'deleted entries without user or message, string ids',
    async () => {
      const r = await onTerminal(
        'topics view 1 --course 1',
        'discussions.viewTopic',
        'edge: deleted entries without user or message, string ids, no created_at, emoji and RTL in messages',
      );
      expect(r.exitCode, r.stderr).toBe(0);
      const lines = r.stdout.split('\n');
      expect(lines[0]).toBe(`● #5 2026-09-01 10:00  👩🏽‍🏫 Ms. Núñez ✨: O'Brien, "Bobby", Jr.; a=b c`);
      expect(lines).toContain('    #6 2026-09-01 11:00  [deleted]');
      expect(lines).toContain('●   #7  محمد بن سلمان العتيبي: محمد بن سلمان العتيبي');
      expect(lines).toContain('      #8  [deleted]');
      expect(lines).toContain('  #9  [deleted]');
      expect(lines).toContain('  #10  user 99: ');
      expect(r.stdout).toContain('6 entries, 2 unread');
    },
  );

  it('draws the documented example, whose entries have neither times nor names', async () => {
    const r = await onTerminal(
      'topics view 1 --course 1',
      'discussions.viewTopic',
      'full topic @example_response: no created_at, no user_name, entry_ratings, forced_entries',
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain('●   #3  user 2: ...html....');
    expect(r.stdout).toContain('4 entries, 3 unread');
  });

  it("shows a grader's assignments given as bare ids (history day)", async () => {
    const r = await runOn(
      { line: 'history day 2026-09-16 --course 1', op: 'history.day' },
      payload('history.day', 'graders with assignments as bare ids'),
      ['-o', 'csv'],
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe('id,name,assignments\n27,John Smith,1; 2; 3\n30,Jenny Parker,4; 5; 6\n');
  });

  it('names the assignments of each grader, whatever their shape (history days)', async () => {
    const real = await runOn(
      { line: 'history days --course 1', op: 'history.days' },
      payload('history.days', 'days (assignments as objects without a name)'),
      ['-o', 'csv'],
    );
    expect(real.stdout).toBe(
      'date,grader_id,grader,assignments\n2018-08-09,49,John Smith,44\n2019-10-24,32,Sara Hanks,19\n',
    );
    const edge = await runOn(
      { line: 'history days --course 1', op: 'history.days' },
      payload('history.days', "edge: graders' assignments as bare ids, and a grader with no name"),
      ['-o', 'csv'],
    );
    expect(edge.stdout).toBe(
      'date,grader_id,grader,assignments\n2026-09-16,3,👩🏽‍🏫 Ms. Núñez ✨,1; 2\n2026-09-16,0,,4\n',
    );
  });

  it('keeps a row for each submission whose versions are null (history submissions)', async () => {
    const r = await runOn(
      { line: 'history submissions 2026-09-16 --course 1 --grader 1 --assignment 1', op: 'history.submissions' },
      payload('history.submissions', 'versions: null'),
      ['-o', 'csv'],
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      'submission_id,user_id,user_name,previous_grade,new_grade,new_graded_at,new_grader\n4,,,,,,\n7,,,,,,\n',
    );
  });

  it.each([
    ['7', 7],
    [null, null],
    ['many', 'many'],
  ])('prints an unread count of %j as %j (conv unread)', async (sent, shown) => {
    const r = await runOn(
      { line: 'conv unread', op: 'conversations.unreadCount' },
      { name: 'count', source: 'written for this corpus', body: { unread_count: sent } },
      ['-o', 'json'],
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ unread_count: shown });
  });
});
