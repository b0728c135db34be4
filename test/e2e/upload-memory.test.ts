// End to end: the memory of a spawned `lms mock serve` while large uploads arrive. Four 50 MiB
// bodies posted with no token to an upload URL that does not exist, and at the same time four
// authorized 50 MiB uploads (step 1, the bytes, step 3), each then downloaded and compared by hash:
// the server's peak resident set (VmHWM) stays within a bound far below what holding the bodies
// would take. A bound, not a timing.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { postRandom, type Posted } from '../../bench/uploads.mjs';
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

/** A multipart body of `bytes` random bytes; a hostile sender goes on writing after the answer. */
const post = (path: string, bytes: number, hostile = false): Promise<Posted> =>
  postRandom(server.url, path, bytes, { hostile });

async function api(path: string, init: RequestInit = {}): Promise<Record<string, unknown>> {
  const res = await fetch(new URL(path, server.url), {
    ...init,
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json', ...init.headers },
  });
  const text = await res.text();
  expect(res.status, text).toBeLessThan(300);
  return JSON.parse(text) as Record<string, unknown>;
}

/** Steps 1-3, then the download: whether the same bytes came back. */
async function uploadAndDownload(bytes: number): Promise<{ status: number; same: boolean }> {
  const ticket = await api('/api/v1/users/self/files', {
    method: 'POST',
    body: JSON.stringify({ name: 'big.bin', size: bytes, on_duplicate: 'rename' }),
  });
  const sent = await post(new URL(ticket.upload_url as string).pathname, bytes);
  if (sent.status !== 201) return { status: sent.status, same: false };
  const file = await api((JSON.parse(sent.body) as { location: string }).location, { method: 'POST' });
  const received = await new Promise<string>((resolve, reject) => {
    request(file.url as string, { agent: false, headers: { 'user-agent': 'upload-test/1.0' } }, (res) => {
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

it.runIf(process.platform === 'linux')(
  'holds neither hostile nor authorized 50 MiB uploads in memory',
  { timeout: 60_000 },
  async () => {
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
  },
);
