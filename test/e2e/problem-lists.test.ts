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

const tooMany =
  'the file holds more than 100,000 values, the most read from one file; split it into several files (a folder of ' +
  'files is read as one), or give long rosters as `- { csv: roster.csv }`';

/**
 * Courses as a school writes them: four sections, an enrollment a student in one of them, and
 * 40 assignments. Of 3,500 students each, 4 courses hold 99,575 values, just under the bound.
 */
function realistic(courses: number, students: number): string {
  const out = ['courses:'];
  for (let c = 0; c < courses; c++) {
    out.push(`  - sis_course_id: C-${c}`, `    name: Course ${c}`, `    course_code: C${c}`, '    sections:');
    for (let s = 0; s < 4; s++) out.push(`      - sis_section_id: C-${c}-S${s}`, `        name: Section ${s}`);
    out.push('    enrollments:');
    for (let u = 0; u < students; u++)
      out.push(`      - user: sis_user_id:U-${u}`, '        type: student', `        section: C-${c}-S${u % 4}`);
    out.push('    assignments:');
    for (let a = 0; a < 40; a++)
      out.push(`      - { key: a${a}, name: Assignment ${a}, points_possible: 10, published: true }`);
  }
  return `${out.join('\n')}\n`;
}

/** `lms diff -f file -o json`: its exit code, its JSON error and its peak memory. */
async function diff(file: string): Promise<{ code: number | null; stderr: string; peak: number }> {
  const child = spawn(process.execPath, [bin, 'diff', '-f', file, '-o', 'json'], {
    env: mockEnv,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  let peak = 0;
  const timer = setInterval(() => (peak = Math.max(peak, (child.pid && peakRss(child.pid)) || 0)), 20);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearInterval(timer);
  return { code, stderr, peak };
}

interface Result {
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

let client: Client;

beforeAll(async () => {
  await ensureBuilt();
  client = new Client({ name: 'lms-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [bin, 'mcp'],
      env: { ...mockEnv, LMS_MCP_TOOLSETS: 'all' },
      stderr: 'pipe',
    }),
  );
});

afterAll(async () => {
  await client?.close();
});

describe('the values read from one file are bounded', () => {
  it('a million empty courses in 3 MB of JSON: refused ' +
    'with one problem before the YAML library reads them', async () => {
    const file = join(dir, 'million.json');
    writeFileSync(file, emptyCourses(1_000_000));
    const started = Date.now();
    const { code, stderr, peak } = await diff(file);
    expect(code).toBe(2);
    const error = JSON.parse(stderr) as { message: string; problems: unknown[]; more_problems?: number };
    expect(error.problems).toEqual([{ file, line: 1, message: tooMany }]);
    expect(error.more_problems).toBeUndefined();
    expect(error.message).toBe(`${file} has 1 problem; nothing was changed:\n  ${file}:1: ${tooMany}`);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(peak).toBeLessThan(150 * 1024 * 1024);
  }, 60_000);

  it('block YAML over the bound: refused with one problem, at the line where it passed the bound', async () => {
    const file = join(dir, 'courses.yaml');
    // The root, courses: and its list, then three values a line: a map, a key and its value.
    writeFileSync(file, `courses:\n${'  - sis_course_id: C-1\n'.repeat(200_000)}`);
    const { code, stderr, peak } = await diff(file);
    expect(code).toBe(2);
    expect((JSON.parse(stderr) as { problems: unknown[] }).problems).toEqual([
      { file, line: 33_334, message: tooMany },
    ]);
    expect(peak).toBeLessThan(150 * 1024 * 1024);
  }, 60_000);

  it('the diff tool refuses a million empty courses with the same one problem', async () => {
    const r = (await client.callTool({ name: 'diff', arguments: { file_text: emptyCourses(1_000_000) } })) as Result;
    expect(r.isError).toBe(true);
    expect(r.content[0].text).toContain(`has 1 problem; nothing was changed:`);
    expect(r.content[0].text).toContain(tooMany);
    expect((r.structuredContent!.error as { problems: unknown[] }).problems).toHaveLength(1);
  }, 60_000);

  it('a realistic file just under the bound is read, and its own problems listed', async () => {
    const file = join(dir, 'school.yaml');
    writeFileSync(file, realistic(4, 3_500));
    const { code, stderr, peak } = await diff(file);
    expect(code).toBe(2);
    const error = JSON.parse(stderr) as {
      message: string;
      problems: { at: string; message: string }[];
      more_problems: number;
    };
    expect(error.message).toContain(`${file} has 14,000 problems on this instance; nothing was changed:`);
    expect(error.problems[0]).toMatchObject({
      at: 'courses[0].enrollments[0]',
      message: 'user "sis_user_id:U-0" not found',
    });
    expect(error.more_problems).toBe(13_950);
    // Measured at about 175 MB (Node 20) and 290 MB (Node 24); see docs/performance.md.
    expect(peak).toBeLessThan(400 * 1024 * 1024);
  }, 60_000);
});

describe('problem lists end', () => {
  it('lms diff of 90,000 empty courses: exit 2, the first 50 listed and the rest counted, within bounds', async () => {
    const file = join(dir, 'courses.json');
    writeFileSync(file, emptyCourses(90_000));
    const { code, stderr, peak } = await diff(file);
    expect(code).toBe(2);
    // The JSON error: its message and its details each list 50.
    const error = JSON.parse(stderr) as { message: string; problems: { at: string }[]; more_problems: number };
    expect(error.message).toContain(`${file} has 90,000 problems; nothing was changed:`);
    expect(error.message.split('\n').filter((l) => l.startsWith(`  ${file}: courses[`))).toHaveLength(50);
    expect(error.message).toMatch(/\n {2}… and 89,950 more problems$/);
    expect(error.problems.map((p) => p.at)).toEqual(Array.from({ length: 50 }, (_, i) => `courses[${i}]`));
    expect(error.more_problems).toBe(89_950);
    expect(stderr.length).toBeLessThan(32 * 1024);
    // The YAML library holds the document (about 1.4 KB an entry); the problems add nothing to it.
    expect(peak).toBeLessThan(600 * 1024 * 1024);
  }, 60_000);

  it('the diff tool with 90,000 empty courses answers ' +
    'the official client with the first 50 and the count', async () => {
    const r = (await client.callTool({ name: 'diff', arguments: { file_text: emptyCourses(90_000) } })) as Result;
    expect(r.isError).toBe(true);
    expect(JSON.stringify(r).length).toBeLessThan(64 * 1024);
    expect(r.content[0].text).toContain('has 90,000 problems; nothing was changed:');
    expect(r.content[0].text).toContain('… and 89,950 more problems');
    const error = r.structuredContent!.error as { problems: unknown[]; more_problems: number };
    expect(error.problems).toHaveLength(50);
    expect(error.more_problems).toBe(89_950);
  }, 60_000);

  it('a result larger than the limit is cut, and says what was left out', async () => {
    // 50 problems, each quoting a 40 KB key: some 4 MB of message and details.
    const keys = Array.from({ length: 50 }, (_, i) => `"${String(i).padStart(2, '0')}${'k'.repeat(40_000)}":1`).join(
      ',',
    );
    const r = (await client.callTool({ name: 'diff', arguments: { file_text: `{"courses":[],${keys}}` } })) as Result;
    expect(r.isError).toBe(true);
    const size = JSON.stringify(r).length;
    expect(size).toBeLessThan(1024 * 1024);
    expect(size).toBeGreaterThan(256 * 1024);
    const leftOut = r.structuredContent!.left_out as { at: string; items?: number; characters?: number }[];
    expect(leftOut.length).toBeGreaterThan(0);
    expect(leftOut.some((c) => c.at.startsWith('error.'))).toBe(true);
    // Each long text is cut on its own first, its rest kept for read_rest.
    expect(r.content[0].text).toMatch(/long text cut at 8,000 characters: error\..+; read on with read_rest/);
    expect(r.content[0].text).toMatch(/characters left out\)\n\n\(long text cut/);
  }, 60_000);
});
