// What a real terminal is sent when an instance's data holds control characters (a name saved
// before they were refused: a one-byte CSI U+009B, NEL U+0085, DEL, ESC): the built binary under a
// pseudo-terminal (util-linux `script`) writes each as its escape in every format; piped, it
// writes the data exact.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { bin, e2eWorkspace, ensureBuilt, hasScript, quote, spawnLms } from '../helpers/e2e.js';

const { env } = e2eWorkspace('e2e-controls-tty');
const TOKEN = '1~controls-token';
const NAME = 'Eve\u009b31m\u0085Admin\u007f\u001b[2J';
// A right-to-left override: drawn as it is, the short name would read "eve\u202e" + "exe.txt".
const SHORT = 'eve\u202etxt.exe';
const USER = { id: 7, name: NAME, sortable_name: 'Admin, Eve', login_id: 'eve', short_name: SHORT };

let server: Server;
let instance: Record<string, string>;

beforeAll(async () => {
  await ensureBuilt();
  server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(USER));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  instance = { ...env, LMS_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, LMS_TOKEN: TOKEN };
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** The bytes a terminal is sent by `lms args` (the pseudo-terminal turns each LF into CR LF). */
async function onTerminal(args: string[]): Promise<string> {
  const command = `stty cols 200 rows 50 && exec ${[process.execPath, bin, ...args].map(quote).join(' ')}`;
  const r = await execa('script', ['-qec', command, '/dev/null'], {
    env: instance,
    reject: false,
    extendEnv: true,
    stripFinalNewline: false,
  });
  expect(r.exitCode, r.stdout).toBe(0);
  return r.stdout.replace(/\r\n/g, '\n');
}

// eslint-disable-next-line no-control-regex
const ACTED_ON = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

describe.skipIf(!hasScript)('on a terminal', () => {
  it.each([
    ['json', '"name": "Eve\\u009b31m\\u0085Admin\\u007f\\u001b[2J"'],
    ['ndjson', '"name":"Eve\\u009b31m\\u0085Admin\\u007f\\u001b[2J"'],
    ['yaml', 'name: "Eve\\u009b31m\\u0085Admin\\u007f\\e[2J"'],
    ['csv', 'Eve\\u009b31m\\u0085Admin\\u007f\\u001b[2J'],
  ])('-o %s shows %s', async (format, shown) => {
    const text = await onTerminal(['users', 'get', '7', '-o', format]);
    expect(text).toContain(shown);
    expect(text).not.toMatch(ACTED_ON);
  });

  it('a table shows the name on one line, acting on nothing', async () => {
    const text = await onTerminal(['users', 'get', '7']);
    expect(text).toContain('Eve\\u009b31m\\u0085Admin\\u007f\\u001b[2J');
    expect(text).not.toMatch(ACTED_ON);
    // The override is shown by its code in a table; JSON carries it as it is.
    expect(text).toContain('eve\\u202etxt.exe');
    expect(text).not.toMatch(/\p{Cf}/u);
    expect(JSON.parse(await onTerminal(['users', 'get', '7', '-o', 'json'])).short_name).toBe(SHORT);
  });
});

describe('piped', () => {
  it.each([
    ['json', (text: string) => (JSON.parse(text) as typeof USER).name],
    ['ndjson', (text: string) => (JSON.parse(text) as typeof USER).name],
    ['yaml', (text: string) => (parse(text) as typeof USER).name],
    ['csv', (text: string) => text.split('\n')[1].split(',')[1]],
  ])('-o %s carries the name exact', async (format, nameIn) => {
    const r = await spawnLms(['users', 'get', '7', '-o', format, '--fields', 'id,name'], instance);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(nameIn(r.stdout)).toBe(NAME);
  });
});
