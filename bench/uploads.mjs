// The memory of `lms mock serve` while uploads arrive: its peak resident set under concurrent large
// multipart bodies, next to the server's configured body budget (max(8 × --max-body-size,
// 2 × --max-upload-size): 200 MiB by default).
//   - unauthorized: bodies posted to an upload URL that does not exist, sent whole whatever the
//     server answers, as a hostile client would;
//   - authorized: the three steps (the upload URL from `users/self/files`, the bytes, the
//     confirmation), then each file downloaded and compared by hash with what was sent.
//
//   node bench/uploads.mjs                          after `npm run build`
//   node bench/uploads.mjs --uploads 4 --mib 50
//
// Peak RSS is the server's VmHWM from /proc, reset (clear_refs) after start-up and a warm-up
// request, so each scenario's peak is its own; Linux only.
import { createHash, randomFillSync } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startMockServer } from './mock-server.mjs';

const MiB = 1024 * 1024;
const ADMIN = '1~mock-admin';

/**
 * Starts a server on a seeded database of its own, runs both scenarios against it and stops it.
 * Returns figures in MiB (`ps` shows KiB).
 */
export async function uploadMemory({
  lms,
  env,
  uploads = 4,
  bytes = 50 * MiB,
  maxUploadBytes = 100 * MiB,
  maxBodyBytes = MiB,
}) {
  const scratch = mkdtempSync(join(tmpdir(), 'lms-bench-uploads-'));
  const dbEnv = { ...env, LMS_MOCK_DB: join(scratch, 'mock.db') };
  const budgetMib = Math.max(8 * maxBodyBytes, 2 * maxUploadBytes) / MiB;
  const flags = ['--max-upload-size', String(maxUploadBytes), '--max-body-size', String(maxBodyBytes)];
  /** A fresh server for each scenario, so what one leaves behind is not the next one's baseline. */
  const scenario = async (run) => {
    const server = startMockServer(lms, dbEnv, { flags });
    try {
      const url = await server.url;
      // A first upload of each kind loads what uploads need (the multipart parser, the files area).
      await Promise.all([
        postRandom(url, '/files_api/uploads/deadbeef', 1024, { hostile: true }),
        uploadAndCheck(url, 1024),
      ]);
      const baselineMib = resetPeak(server.pid);
      const started = performance.now();
      const statuses = await run(url);
      const peakMib = peakOf(server.pid);
      return {
        baselineMib,
        peakMib,
        overBaselineMib: round2(peakMib - baselineMib),
        boundMib: round2(1.5 * (baselineMib + budgetMib)),
        within: peakMib <= 1.5 * (baselineMib + budgetMib),
        seconds: round2((performance.now() - started) / 1000),
        statuses,
      };
    } finally {
      server.stop();
    }
  };
  try {
    execFileSync(process.execPath, [lms, '--mock', 'mock', 'seed', '--yes'], { env: dbEnv, stdio: 'ignore' });
    const unauthorized = await scenario(async (url) => {
      const answers = await Promise.all(
        Array.from({ length: uploads }, () => postRandom(url, '/files_api/uploads/deadbeef', bytes, { hostile: true })),
      );
      return answers.map((a) => a.status);
    });
    const authorized = await scenario(async (url) => {
      const results = await Promise.all(Array.from({ length: uploads }, () => uploadAndCheck(url, bytes)));
      const bad = results.filter((r) => !r.same);
      if (bad.length) throw new Error(`${bad.length} of ${uploads} downloads differed from what was uploaded`);
      return results.map((r) => r.status);
    });
    return { uploads, mib: bytes / MiB, budgetMib, unauthorized, authorized };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Steps 1-3 of an upload of `bytes` random bytes, then the download: whether it came back the same. */
async function uploadAndCheck(url, bytes) {
  const auth = { authorization: `Bearer ${ADMIN}` };
  const ticket = await json(
    await fetch(`${url}/api/v1/users/self/files`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'big.bin',
        size: bytes,
        content_type: 'application/octet-stream',
        on_duplicate: 'rename',
      }),
    }),
  );
  const sent = await postRandom(url, new URL(ticket.upload_url).pathname, bytes);
  if (sent.status !== 201) throw new Error(`step 2 answered ${sent.status}: ${sent.body}`);
  const location = JSON.parse(sent.body).location;
  const file = await json(await fetch(location, { method: 'POST', headers: auth }));
  const received = await download(file.url);
  return { status: sent.status, same: received === sent.sha256 };
}

async function json(res) {
  const text = await res.text();
  if (!res.ok) throw new Error(`${res.url} answered ${res.status}: ${text}`);
  return JSON.parse(text);
}

/**
 * A multipart body with one file part of `bytes` random bytes, streamed in 64 KiB writes. A hostile
 * sender keeps writing after the answer, until the server closes the connection.
 */
export function postRandom(url, path, bytes, { hostile = false } = {}) {
  const { hostname, port } = new URL(url);
  const boundary = `bench${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: ` +
      `application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const hash = createHash('sha256');
  return new Promise((resolve, reject) => {
    let answer;
    let finished = false;
    const done = () => {
      if (finished || !answer) return;
      finished = true;
      resolve(answer);
    };
    const req = request({
      host: hostname,
      port,
      method: 'POST',
      path,
      agent: false,
      headers: {
        'user-agent': 'lms-bench/1.0',
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': head.length + bytes + tail.length,
      },
    });
    req.on('response', (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        answer = { status: res.statusCode, body: Buffer.concat(chunks).toString('utf8'), sha256: hash.digest('hex') };
        if (!hostile || req.writableFinished) done();
      });
    });
    req.on('close', done);
    req.on('error', (e) => (answer ? done() : reject(e)));
    req.write(head);
    let sent = 0;
    const pump = () => {
      while (sent < bytes) {
        if (req.destroyed || (answer && !hostile)) return;
        const chunk = randomFillSync(Buffer.allocUnsafe(Math.min(64 * 1024, bytes - sent)));
        hash.update(chunk);
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      req.end(tail);
    };
    pump();
  });
}

/** The sha256 of a download, read as it streams. */
function download(url) {
  return new Promise((resolve, reject) => {
    request(url, { agent: false, headers: { 'user-agent': 'lms-bench/1.0' } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`download answered ${res.statusCode}`));
      const hash = createHash('sha256');
      res.on('data', (c) => hash.update(c));
      res.on('end', () => resolve(hash.digest('hex')));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

function status(pid) {
  return readFileSync(`/proc/${pid}/status`, 'utf8');
}

function field(text, name) {
  return Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text)[1]) * 1024;
}

/** Sets the process's peak RSS back to its current RSS, which it returns (MiB). */
function resetPeak(pid) {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
  return round2(field(status(pid), 'VmRSS') / MiB);
}

function peakOf(pid) {
  return round2(field(status(pid), 'VmHWM') / MiB);
}

function round2(n) {
  return Math.round(n * 100) / 100;
}

/** One line per scenario, for a table. */
export function describeUploadMemory(r) {
  const line = (name, s) =>
    `${name.padEnd(13)} baseline ${s.baselineMib.toFixed(0).padStart(4)} MiB, peak ` +
    `${s.peakMib.toFixed(0).padStart(4)} MiB (+${s.overBaselineMib.toFixed(0)}), ` +
    `bound 1.5 × (baseline + budget) = ${s.boundMib.toFixed(0)} MiB: ${s.within ? 'within' : 'OVER'}; answers ` +
    `${s.statuses.join(' ')}; ${s.seconds} s`;
  return [
    `lms mock serve under ${r.uploads} concurrent ${r.mib} MiB uploads (budget ${r.budgetMib} MiB, node ` +
      `${process.version}):`,
    line('unauthorized', r.unauthorized),
    line('authorized', r.authorized),
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values: flags } = parseArgs({
    options: {
      uploads: { type: 'string', default: '4' },
      mib: { type: 'string', default: '50' },
      out: { type: 'string' },
    },
  });
  const root = fileURLToPath(new URL('..', import.meta.url));
  const scratch = mkdtempSync(join(tmpdir(), 'lms-bench-'));
  const env = {
    ...process.env,
    LMS_CONFIG_DIR: join(scratch, 'config'),
    LMS_CACHE_DIR: join(scratch, 'cache'),
    NO_COLOR: '1',
  };
  for (const name of [
    'LMS_PROFILE',
    'LMS_BASE_URL',
    'LMS_TOKEN',
    'LMS_MOCK',
    'LMS_MOCK_DB',
    'LMS_OUTPUT',
    'LMS_MOCK_FAULTS',
  ])
    delete env[name];
  try {
    const r = await uploadMemory({
      lms: join(root, 'bin', 'lms'),
      env,
      uploads: Number(flags.uploads),
      bytes: Number(flags.mib) * MiB,
    });
    console.log(describeUploadMemory(r));
    if (flags.out)
      writeFileSync(
        flags.out,
        `${JSON.stringify({ date: new Date().toISOString(), node: process.version, ...r }, null, 2)}\n`,
      );
    process.exitCode = r.unauthorized.within && r.authorized.within ? 0 : 1;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
