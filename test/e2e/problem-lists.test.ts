// A file with a problem in every entry: the message, the JSON error and a tool's result list the
// first 50 and count the rest, and a tool result too large for a client is cut with a note.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, e2eWorkspace, ensureBuilt, peakRss } from '../helpers/e2e.js';

const { dir, env } = e2eWorkspace('problem-lists');
const mockEnv = { ...env, LMS_MOCK: '1', LMS_MOCK_DB: join(dir, 'mock.db') };

/** `{"courses":[{},{},…]}`: every course lacks its sis_course_id. */
const emptyCourses = (n: number) => `{"courses":[${Array(n).fill('{}').join(',')}]}`;

interface Result {
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

let client: Client;

beforeAll(async () => {
  await ensureBuilt();
  client = new Client({ name: 'lms-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp'], env: mockEnv, stderr: 'pipe' }));
});

afterAll(async () => {
  await client?.close();
});

describe('problem lists end', () => {
  it('lms diff of 200,000 empty courses: exit 2, the first 50 listed and the rest counted, within bounds', async () => {
    const file = join(dir, 'courses.json');
    writeFileSync(file, emptyCourses(200_000));
    const child = spawn(process.execPath, [bin, 'diff', '-f', file, '-o', 'json'], { env: mockEnv, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    let peak = 0;
    const timer = setInterval(() => (peak = Math.max(peak, (child.pid && peakRss(child.pid)) || 0)), 20);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearInterval(timer);
    expect(code).toBe(2);
    // The JSON error: its message and its details each list 50.
    const error = JSON.parse(stderr) as { message: string; problems: { at: string }[]; more_problems: number };
    expect(error.message).toContain(`${file} has 200,000 problems; nothing was changed:`);
    expect(error.message.split('\n').filter((l) => l.startsWith(`  ${file}: courses[`))).toHaveLength(50);
    expect(error.message).toMatch(/\n {2}… and 199,950 more problems$/);
    expect(error.problems.map((p) => p.at)).toEqual(Array.from({ length: 50 }, (_, i) => `courses[${i}]`));
    expect(error.more_problems).toBe(199_950);
    expect(stderr.length).toBeLessThan(32 * 1024);
    // The YAML library holds the document (about 1.4 KB an entry); the problems add nothing to it.
    expect(peak).toBeLessThan(600 * 1024 * 1024);
  }, 60_000);

  it('the diff tool with 200,000 empty courses answers the official client with the first 50 and the count', async () => {
    const r = (await client.callTool({ name: 'diff', arguments: { file_text: emptyCourses(200_000) } })) as Result;
    expect(r.isError).toBe(true);
    expect(JSON.stringify(r).length).toBeLessThan(64 * 1024);
    expect(r.content[0].text).toContain('has 200,000 problems; nothing was changed:');
    expect(r.content[0].text).toContain('… and 199,950 more problems');
    const error = r.structuredContent!.error as { problems: unknown[]; more_problems: number };
    expect(error.problems).toHaveLength(50);
    expect(error.more_problems).toBe(199_950);
  }, 60_000);

  it('a result larger than the limit is cut, and says what was left out', async () => {
    // 50 problems, each quoting a 40 KB key: some 4 MB of message and details.
    const keys = Array.from({ length: 50 }, (_, i) => `"${String(i).padStart(2, '0')}${'k'.repeat(40_000)}":1`).join(',');
    const r = (await client.callTool({ name: 'diff', arguments: { file_text: `{"courses":[],${keys}}` } })) as Result;
    expect(r.isError).toBe(true);
    const size = JSON.stringify(r).length;
    expect(size).toBeLessThan(1024 * 1024);
    expect(size).toBeGreaterThan(256 * 1024);
    const leftOut = r.structuredContent!.left_out as { at: string; items?: number; characters?: number }[];
    expect(leftOut.length).toBeGreaterThan(0);
    expect(leftOut.some((c) => c.at.startsWith('error.'))).toBe(true);
    expect(r.content[0].text).toMatch(/this result was cut to 480 KiB: left out .+; for the rest, call again for less/);
    expect(r.content[0].text).toMatch(/characters left out\)\n\n\(this result was cut/);
  }, 60_000);
});
