// End to end: the memory of a spawned `lms mock serve` while large uploads arrive. Four 50 MiB
// bodies posted with no token to an upload URL that does not exist, and at the same time four
// authorized 50 MiB uploads (step 1, the bytes, step 3), each then downloaded and compared by hash:
// the server's peak resident set (VmHWM) stays within a bound far below what holding the bodies
// would take. A bound, not a timing.
import { createHash, randomFillSync } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN, e2eWorkspace, ensureBuilt, serveMock, type Served } from '../helpers/e2e.js';

const MiB = 1024 * 1024;
const UPLOAD = 50 * MiB;
const { dir, env } = e2eWorkspace('upload-memory');
let server: Served;

beforeAll(async () => {
  await ensureBuilt();
  server = await serveMock({ ...env, LMS_MOCK_DB: join(dir, 'uploads.db') }, ['--quiet']);
});

afterAll(async () => {
  await server?.stop();
});

interface Sent {
  status: number;
  body: string;
  sha256: string;
}

/**
 * A multipart body whose file part is `bytes` random bytes, written 64 KiB at a time. A hostile
 * sender goes on writing after the answer, until the server closes the connection.
 */
function post(path: string, bytes: number, hostile = false): Promise<Sent> {
  const { hostname, port } = new URL(server.url);
  const head = Buffer.from('--b0undary\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n');
  const tail = Buffer.from('\r\n--b0undary--\r\n');
  const hash = createHash('sha256');
  return new Promise((resolve, reject) => {
    let answer: Sent | undefined;
    const done = () => answer && resolve(answer);
    const req = request({
      host: hostname,
      port,
      method: 'POST',
      path,
      agent: false,
      headers: { 'content-type': 'multipart/form-data; boundary=b0undary', 'content-length': head.length + bytes + tail.length },
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        answer = { status: res.statusCode!, body: Buffer.concat(chunks).toString('utf8'), sha256: hash.digest('hex') };
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

async function api(path: string, init: RequestInit = {}): Promise<Record<string, unknown>> {
  const res = await fetch(new URL(path, server.url), { ...init, headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json', ...init.headers } });
  const text = await res.text();
  expect(res.status, text).toBeLessThan(300);
  return JSON.parse(text) as Record<string, unknown>;
}

/** Steps 1-3, then the download: whether the same bytes came back. */
async function uploadAndDownload(bytes: number): Promise<{ status: number; same: boolean }> {
  const ticket = await api('/api/v1/users/self/files', { method: 'POST', body: JSON.stringify({ name: 'big.bin', size: bytes, on_duplicate: 'rename' }) });
  const sent = await post(new URL(ticket.upload_url as string).pathname, bytes);
  if (sent.status !== 201) return { status: sent.status, same: false };
  const file = await api((JSON.parse(sent.body) as { location: string }).location, { method: 'POST' });
  const received = await new Promise<string>((resolve, reject) => {
    request(file.url as string, { agent: false }, (res) => {
      const hash = createHash('sha256');
      res.on('data', (c: Buffer) => hash.update(c));
      res.on('end', () => resolve(res.statusCode === 200 ? hash.digest('hex') : `status ${res.statusCode}`));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
  return { status: sent.status, same: received === sent.sha256 };
}

function kib(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
}

it.runIf(process.platform === 'linux')('holds neither hostile nor authorized 50 MiB uploads in memory', { timeout: 60_000 }, async () => {
  const pid = server.child.pid!;
  // What an upload first loads (the multipart parser, the files area) is part of the baseline.
  await Promise.all([post('/files_api/uploads/deadbeef', 1024, true), uploadAndDownload(1024)]);
  const baseline = kib(pid, 'VmRSS');
  try {
    // The peak from here on, not from start-up (seeding the database).
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // Without it the peak is the process's whole life's, which only makes the bound harder to meet.
  }

  const [hostile, authorized] = await Promise.all([
    Promise.all(Array.from({ length: 4 }, () => post('/files_api/uploads/deadbeef', UPLOAD, true))),
    Promise.all(Array.from({ length: 4 }, () => uploadAndDownload(UPLOAD))),
  ]);
  expect(hostile.map((a) => a.status)).toEqual([404, 404, 404, 404]);
  expect(hostile[0].body).toContain('unknown or used upload URL');
  expect(authorized).toEqual(Array.from({ length: 4 }, () => ({ status: 201, same: true })));

  // 400 MiB went in and 200 MiB came out; holding any of it whole would be far over this.
  const overBaselineMiB = (kib(pid, 'VmHWM') - baseline) / 1024;
  expect(overBaselineMiB).toBeLessThan(300);
});
