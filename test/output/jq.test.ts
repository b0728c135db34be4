// --jq: jq's own semantics over the JSON a command would print (a list as one array of every item it
// would print), strings printed raw; its mistakes are usage errors (exit 2) in jq's words, and a
// mistake in the expression is found before any request is sent.
import { Writable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { compileJq, writeJqItem } from '../../src/output/jq.js';
import { renderList } from '../../src/output/render.js';
import type { ApiRequest } from '../../src/transport/types.js';
import { fakeIO } from '../helpers/fake-io.js';
import { session } from '../helpers/run-lms.js';

/** A session against a fresh seeded mock that counts the requests it is sent. */
function counted() {
  const s = session();
  const requests: ApiRequest[] = [];
  const inner = s.mock.handler;
  s.mock.handler = async (req) => {
    requests.push(req);
    return inner(req);
  };
  return { ...s, requests };
}

const pretty = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** The seeded account's users, in the order `users list --account 1` prints them. */
const ACCOUNT_USERS = [
  [1, 'Ada Admin'],
  [5, 'Tara Assistant'],
  [6, 'Dev Designer'],
  [2, 'Hal Helpdesk'],
  [11, 'Lucas Moreau'],
  [13, 'Olive Observer'],
  [10, 'Mina Okafor'],
  [9, 'Ravi Patel'],
  [12, 'Hana Sato'],
  [7, 'Sam Student'],
  [8, 'Sofia Student'],
  [3, 'Tess Teacher'],
  [4, 'Theo Teacher'],
] as const;

describe('--jq over what a command prints', () => {
  const s = counted();

  it.each([
    [
      'select on a list: string results print raw, one a line',
      `users list --account 1 --jq '.[] | select(.id > 5) | .name'`,
      ACCOUNT_USERS.filter(([id]) => id > 5)
        .map(([, name]) => `${name}\n`)
        .join(''),
    ],
    [
      '@csv',
      `users list --account 1 --limit 3 --jq '.[] | [.id, .name] | @csv'`,
      '1,"Ada Admin"\n5,"Tara Assistant"\n6,"Dev Designer"\n',
    ],
    ['@tsv', `users list --account 1 --limit 2 --jq '.[] | [.id, .login_id] | @tsv'`, '1\tadmin\n5\ttara\n'],
    [
      'string interpolation on one record',
      `users get self --jq '"\\(.name) <\\(.email)>"'`,
      'Ada Admin <admin@example.edu>\n',
    ],
    [
      'map: other results print as JSON output does',
      `users list --account 1 --limit 4 --jq 'map(.id)'`,
      pretty([1, 5, 6, 2]),
    ],
    ['an object built from one record', `users get self --jq '{id, name}'`, pretty({ id: 1, name: 'Ada Admin' })],
    [
      'the list is one array (--limit: what the command would print)',
      `users list --account 1 --limit 4 --jq length`,
      '4\n',
    ],
    [
      '--fields applies first, as for JSON',
      `users list --account 1 --fields id,name --jq '.[0] | keys'`,
      pretty(['id', 'name']),
    ],
    ['an empty list is []', `users list --account 1 --search zzzzzz --jq 'length, .'`, '0\n[]\n'],
    ['an expression may begin with a minus', `users get self --jq '-.id'`, '-1\n'],
    [
      'strings keep their spaces and newlines',
      `users get self --jq '"  \\(.short_name)\\n  end  "'`,
      '  Ada\n  end  \n',
    ],
    ['-o json is what it implies anyway', `users get self -o json --jq .short_name`, 'Ada\n'],
    [
      '-o ndjson: each record, one line a result',
      `users list --account 1 --limit 2 -o ndjson --jq '{id}, .login_id'`,
      '{"id":1}\nadmin\n{"id":5}\ntara\n',
    ],
    ['lms api', `api GET /api/v1/users/self --jq .login_id`, 'admin\n'],
  ])('%s', async (_name, line, stdout) => {
    expect(await s.run(line)).toEqual({ exitCode: 0, stdout, stderr: '' });
  });

  it('sees every page the command would print as one array (--all)', async () => {
    s.requests.length = 0;
    const r = await s.run(`users list --account 1 --all --per-page 5 --jq 'length, (map(.id) | add)'`);
    expect(r).toEqual({ exitCode: 0, stdout: `13\n${ACCOUNT_USERS.reduce((sum, [id]) => sum + id, 0)}\n`, stderr: '' });
    expect(s.requests.length).toBe(3);
  });

  it('filters a list that keeps going (--watch) record by record, as it streams', async () => {
    const ndjson = await s.run('activity list --watch --limit 2 --interval 1 -o ndjson');
    const titles = ndjson.stdout
      .trim()
      .split('\n')
      .map((line) => `${(JSON.parse(line) as { title: string }).title}\n`);
    expect(titles).toHaveLength(2);
    expect(await s.run(`activity list --watch --limit 2 --interval 1 --jq .title`)).toEqual({
      exitCode: 0,
      stdout: titles.join(''),
      stderr: '',
    });
  });

  it('beats LMS_OUTPUT (a flag beats the environment) and a terminal', async () => {
    const r = await s.run(`users get self --jq .id`, { env: { LMS_OUTPUT: 'csv' }, tty: true });
    expect(r).toEqual({ exitCode: 0, stdout: '1\n', stderr: '' });
  });

  it('passes what jq writes to stderr on success (debug) to stderr', async () => {
    expect(await s.run(`users get self --jq '.id | debug'`)).toEqual({
      exitCode: 0,
      stdout: '1\n',
      stderr: '["DEBUG:",1]\n',
    });
  });

  it('prints the results before a jq error, then exits 2 with its message', async () => {
    const r = await s.run(
      `users list --account 1 --jq '.[] | if .id == 6 then error("stopped at \\(.name)") else .id end'`,
    );
    expect(r).toEqual({ exitCode: 2, stdout: '1\n5\n', stderr: 'error: --jq: stopped at Dev Designer\n' });
  });

  it.each([
    ['indexing a string', `users get self --jq '.name.first'`, 'error: --jq: Cannot index string with'],
    ['iterating over a number', `users get self --jq '.id[]'`, 'error: --jq: Cannot iterate over number'],
  ])("a runtime error (%s) is exit 2 with jq's message", async (_name, line, message) => {
    const r = await s.run(line);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.startsWith(message)).toBe(true);
  });

  it.each([
    ['a syntax error', `users list --account 1 --jq '.['`, 'error: --jq: syntax error, unexpected end of file'],
    ['an unknown function', `users list --account 1 --jq 'nosuch(.id)'`, 'error: --jq: nosuch/1 is not defined'],
    ['an undefined variable', `users get self --jq '$user'`, 'error: --jq: $user is not defined'],
    ['an unfinished interpolation', `users get self --jq '"\\(.name"'`, 'error: --jq: syntax error'],
    [
      'an invalid expression on a command that writes',
      `users create --name "Jo Doe" --login-id jodoe --jq '.id |'`,
      'error: --jq: syntax error',
    ],
    [
      'with -o csv',
      `users list --account 1 -o csv --jq .`,
      'error: --jq filters JSON output and cannot go with -o csv\n',
    ],
    [
      'with -o table',
      `users get self -o table --jq .`,
      'error: --jq filters JSON output and cannot go with -o table\n',
    ],
    ['with -o yaml', `users get self -o yaml --jq .`, 'error: --jq filters JSON output and cannot go with -o yaml\n'],
    ['an empty expression', `users get self --jq ''`, 'error: --jq needs a value\n'],
  ])('%s is a usage error (exit 2) before any request', async (_name, line, message) => {
    s.requests.length = 0;
    const r = await s.run(line);
    expect({ exitCode: r.exitCode, stdout: r.stdout, requests: s.requests.length }).toEqual({
      exitCode: 2,
      stdout: '',
      requests: 0,
    });
    expect(r.stderr).toContain(message);
  });

  it('shows where in the expression jq stopped', async () => {
    const r = await s.run(`users get self --jq '.name | nosuch'`);
    expect(r.stderr).toBe(
      'error: --jq: nosuch/0 is not defined at <top-level>, line 1, column 9:\n    .name | nosuch\n            ' +
        '^^^^^^\njq: 1 compile error\n',
    );
  });

  it('writes the error as one JSON object when -o json asks for JSON errors', async () => {
    const r = await s.run(`users get self -o json --jq '.['`);
    expect(r.exitCode).toBe(2);
    expect(JSON.parse(r.stderr)).toMatchObject({
      error: 'UsageError',
      exit_code: 2,
      message: expect.stringContaining('--jq: syntax error'),
    });
  });

  it('refuses a command whose output is text rather than JSON', async () => {
    expect(await s.run('completion bash --jq .')).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: 'error: --jq: this command prints text, not JSON\n',
    });
  });
});

describe('--jq with -o ndjson, record by record', () => {
  it('prints what has arrived whenever the source has to wait, as a stream needs', async () => {
    const jq = await compileJq('.name', {});
    const io = fakeIO();
    // The source waits until the first record's result is printed (jq runs in a thread of its own,
    // so that takes a moment): it would wait until the test's time ran out if it never were.
    async function* stream() {
      yield { name: 'first' };
      await vi.waitFor(() => expect(io.stdoutText()).toBe('first\n'), { timeout: 5_000, interval: 5 });
      yield { name: 'second' };
    }
    expect(await renderList(stream(), { io, format: 'ndjson', jq })).toBe(2);
    expect(io.stdoutText()).toBe('first\nsecond\n');
  });

  it('filters every record of a long list that never waits, in order', async () => {
    const jq = await compileJq('select(.id % 1000 == 0) | .id', {});
    const io = fakeIO();
    const records = Array.from({ length: 2500 }, (_, i) => ({ id: i + 1 }));
    expect(await renderList(records, { io, format: 'ndjson', jq })).toBe(2500);
    expect(io.stdoutText()).toBe('1000\n2000\n');
  });

  async function* waiting(records: unknown[]) {
    for (const record of records) {
      yield record;
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  }

  it.each([
    ['all at once (one batch)', (records: unknown[]) => records],
    ['one at a time (a batch each)', waiting],
  ])('reports a record jq fails on and filters the rest, as jq over NDJSON, then fails: %s', async (_name, source) => {
    const jq = await compileJq('if .id % 2 == 0 then error("even \\(.id)") else .id end', {});
    const io = fakeIO();
    const records = [1, 2, 3, 4, 5].map((id) => ({ id }));
    await expect(renderList(source(records), { io, format: 'ndjson', jq })).rejects.toThrow('--jq failed on 2 records');
    expect(io.stdoutText()).toBe('1\n3\n5\n');
    expect(io.stderrText()).toBe('--jq: even 2\n--jq: even 4\n');
  });
});

describe('--jq output streams as jq writes it', () => {
  const numbers = (n: number) => Array.from({ length: n }, (_, i) => `${i}\n`).join('');

  it("prints a run's results while the run goes on, in order, then ends it at the time limit", async () => {
    const jq = await compileJq('range(1e9)', { LMS_JQ_TIMEOUT: '2' });
    const io = fakeIO();
    let settled = false;
    const run = writeJqItem(null, { io, format: 'json', jq }).finally(() => (settled = true));
    run.catch(() => undefined);
    await vi.waitFor(() => expect(io.stdoutText().length).toBeGreaterThan(100_000), { timeout: 5_000, interval: 5 });
    expect(settled).toBe(false);
    await expect(run).rejects.toThrow('--jq: the filter ran past its time limit of 2 s');
    // Whole results only, each once, in jq's order.
    const printed = io.stdoutText();
    expect(printed).toBe(numbers(printed.split('\n').length - 1));
  });

  it('keeps a character whole that jq wrote across two chunks', async () => {
    // RS and a quote, then "xé" over and over: the 64 KiB boundary falls inside an é.
    const jq = await compileJq('"xé" * 30000', {});
    const io = fakeIO();
    await writeJqItem(null, { io, format: 'json', jq });
    expect(io.stdoutText()).toBe(`${'xé'.repeat(30000)}\n`);
  });

  it('fails when writing its output fails, though jq had finished', async () => {
    // The first write waits a second for the reader, jq finishes meanwhile, and the second write fails.
    let writes = 0;
    const failing = new Writable({
      highWaterMark: 1,
      write(_chunk, _encoding, done) {
        setTimeout(done, 1_000);
      },
    });
    const write = failing.write.bind(failing);
    const stdout = Object.assign(failing, {
      write: (text: string | Uint8Array) => {
        if (++writes === 2) throw new Error('the disk is full');
        return write(text);
      },
    });
    const jq = await compileJq('range(100000)', {});
    await expect(writeJqItem(null, { io: { ...fakeIO(), stdout }, format: 'json', jq })).rejects.toThrow(
      'the disk is full',
    );
  });

  it('holds jq back while the reader is slow, without charging the wait to the time budget', async () => {
    // A reader that takes 100 ms over every write: 3 MB of results take some 4 s to write, jq
    // itself well under a second, and the thread waits for the rest.
    const written: string[] = [];
    const slow = new Writable({
      highWaterMark: 1,
      write(chunk: Buffer, _encoding, done) {
        written.push(chunk.toString());
        setTimeout(done, 100);
      },
    });
    const io = { ...fakeIO(), stdout: slow };
    const jq = await compileJq('range(400000)', { LMS_JQ_TIMEOUT: '2' });
    await writeJqItem(null, { io, format: 'json', jq });
    expect(written.length).toBeGreaterThan(30);
    expect(written.join('')).toBe(numbers(400_000));
  }, 20_000);
});
