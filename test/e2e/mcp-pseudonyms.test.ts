// End to end: `lms mcp --pseudonymize` driven by the official SDK's client over stdio against
// --mock. No student's (or observer's) name, login, SIS id or email reaches a result; staff stay
// named unless =all; a pseudonym given back lands on the real person; a key file keeps them.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { chmodSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, e2eWorkspace, ensureBuilt, spawnLms } from '../helpers/e2e.js';

const { dir, env } = e2eWorkspace('mcp-pseudonyms');
const mockEnv = { LMS_MOCK_DB: join(dir, 'pseudo.db') };

interface Result {
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

interface Session {
  call(name: string, args?: Record<string, unknown>): Promise<Result>;
  close(): Promise<void>;
}

async function connect(args: string[], extraEnv: Record<string, string> = {}): Promise<Session> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, '--mock', 'mcp', ...args],
    env: { ...env, ...mockEnv, LMS_MCP_TOOLSETS: 'all', ...extraEnv },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'lms-test', version: '1.0.0' });
  await client.connect(transport);
  return {
    call: async (name, a = {}) => (await client.callTool({ name, arguments: a })) as Result,
    close: () => client.close(),
  };
}

/** The seeded school's students and observer, with every form a result could name them by. */
const HIDDEN = [
  ['Sam Student', 'Student, Sam', 'sam', 'S-007', 'sam@example.edu'],
  ['Sofia Student', 'Student, Sofia', 'sofia', 'S-008', 'sofia@example.edu'],
  ['Ravi Patel', 'Patel, Ravi', 'ravi', 'S-009', 'ravi@example.edu'],
  ['Mina Okafor', 'Okafor, Mina', 'mina', 'S-010', 'mina@example.edu'],
  ['Lucas Moreau', 'Moreau, Lucas', 'lucas', 'S-011', 'lucas@example.edu'],
  ['Hana Sato', 'Sato, Hana', 'hana', 'S-012', 'hana@example.edu'],
  ['Olive Observer', 'Observer, Olive', 'olive', 'O-013', 'olive@example.edu'],
].flat();
const TEACHER = ['Tess Teacher', 'tteacher', 'T-003', 'tteacher@example.edu'];

/** Lists, gets, submissions with comments, conversations, gradebook history, recipients, activity, enrollments. */
const CALLS: [string, Record<string, unknown>][] = [
  ['users_list', { limit: 100 }],
  ['users_get', { id: 7 }],
  ['users_get', { id: 'sis_user_id:O-013' }],
  ['enrollments_list', { course: 1, limit: 100 }],
  ['enrollments_list', { course: 1, type: ['observer'] }],
  ['submissions_list', { course: 1, assignment: ['1'], limit: 100 }],
  [
    'submissions_get',
    { course: 1, assignment: '1', user: '7', include: ['submission_comments', 'user', 'submission_history'] },
  ],
  ['conv_list', { limit: 100 }],
  ['history_feed', { course: 1, limit: 100 }],
  ['history_days', { course: 1 }],
  ['recipients_search', { term: ['Sa'] }],
  ['recipients_search', { context: 'course_1' }],
  ['activity_list', { limit: 100 }],
  ['grade_export', { course: 1, assignment: '1' }],
  ['topics_list', { course: 1 }],
];

/** Which of the forms appear in a result, text and structured content both, as words. */
function named(result: Result, forms: string[]): string[] {
  const all = JSON.stringify([result.content, result.structuredContent]);
  return forms.filter((form) =>
    new RegExp(`(?<![\\w.-])${form.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`, 'i').test(all),
  );
}

beforeAll(async () => {
  await ensureBuilt();
  const seeded = await spawnLms(['--mock', 'mock', 'seed', '--yes'], { ...env, ...mockEnv });
  expect(seeded.exitCode, seeded.stderr).toBe(0);
});

describe('lms mcp --pseudonymize', () => {
  let s: Session;
  beforeAll(async () => {
    s = await connect(['--pseudonymize', '--allow-writes']);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('names no student or observer in any result, and the teacher by name', async () => {
    const plain = await connect([]);
    try {
      let teacherNamed = 0;
      for (const [name, args] of CALLS) {
        const r = await s.call(name, args);
        expect(r.isError, `${name}: ${r.content[0]?.text}`).toBeFalsy();
        expect(named(r, HIDDEN), `${name} ${JSON.stringify(args)}`).toEqual([]);
        if (named(r, TEACHER).length) teacherNamed++;
        // The same call without --pseudonymize does name them: the check above can fail.
        const open = await plain.call(name, args);
        if (
          ['users_list', 'users_get', 'enrollments_list', 'submissions_get', 'history_feed', 'grade_export'].includes(
            name,
          )
        )
          expect(named(open, HIDDEN).length, name).toBeGreaterThan(0);
      }
      expect(teacherNamed).toBeGreaterThan(2);
    } finally {
      await plain.close();
    }
  });

  it('hides students in the tools of a toolset enabled at run time too', async () => {
    const dynamic = await connect(['--pseudonymize', '--dynamic-toolsets'], { LMS_MCP_TOOLSETS: '' });
    try {
      const enabled = await dynamic.call('enable_toolset', { toolset: 'roster' });
      expect(enabled.isError, enabled.content[0]?.text).toBeFalsy();
      const r = await dynamic.call('users_list', { limit: 100 });
      expect(r.isError, r.content[0]?.text).toBeFalsy();
      expect(named(r, HIDDEN)).toEqual([]);
      expect(JSON.stringify(r.structuredContent)).toMatch(/Student [0-9a-f]{8}/);
    } finally {
      await dynamic.close();
    }
  });

  it('keeps ids, and gives each person one pseudonym in all its forms', async () => {
    const r = await s.call('users_get', { id: 7 });
    const u = r.structuredContent as Record<string, string | number>;
    expect(u.id).toBe(7);
    const hex = /^Student ([0-9a-f]{8})$/.exec(String(u.name))?.[1];
    expect(hex, String(u.name)).toBeDefined();
    expect(u).toMatchObject({
      sortable_name: `Student ${hex}`,
      short_name: `Student ${hex}`,
      login_id: `student-${hex}`,
      sis_user_id: `student-${hex}`,
      email: `student-${hex}@pseudonym.invalid`,
    });
    const teacher = (await s.call('users_get', { id: 3 })).structuredContent as Record<string, unknown>;
    expect(teacher).toMatchObject({ name: 'Tess Teacher', login_id: 'tteacher' });
  });

  it('takes a pseudonym back wherever a user is named, and refuses one it never handed out', async () => {
    const sofia = (await s.call('users_get', { id: 8 })).structuredContent as Record<string, string>;
    const byLogin = await s.call('submissions_get', { course: 1, assignment: '1', user: sofia.login_id });
    expect(byLogin.isError, byLogin.content[0].text).toBeFalsy();
    expect(byLogin.structuredContent).toMatchObject({ user_id: 8 });
    const bySis = await s.call('users_get', { id: `sis_user_id:${sofia.sis_user_id}` });
    expect(bySis.structuredContent).toMatchObject({ id: 8, name: sofia.name });
    const byName = await s.call('users_get', { id: sofia.name });
    expect(byName.structuredContent).toMatchObject({ id: 8 });
    const unknown = await s.call('users_get', { id: 'student-00000000' });
    expect(unknown.isError).toBe(true);
    expect(unknown.content[0].text).toMatch(/"student-00000000" is not a pseudonym this server handed out/);
    expect(unknown.structuredContent?.error).toMatchObject({ class: 'usage' });
  });

  it('grades a pseudonym from CSV text, and the grade lands on the real student', async () => {
    const ravi = (await s.call('users_get', { id: 9 })).structuredContent as Record<string, string>;
    const r = await s.call('grade_set', { course: 1, assignment: '1', csv_text: `user,grade\n${ravi.login_id},17\n` });
    expect(r.isError, r.content[0].text).toBeFalsy();
    expect(named(r, HIDDEN)).toEqual([]);
    const read = await spawnLms(
      [
        '--mock',
        'submissions',
        'get',
        '--course',
        '1',
        '--assignment',
        '1',
        '--user',
        'sis_user_id:S-009',
        '-o',
        'json',
      ],
      { ...env, ...mockEnv },
    );
    expect(read.exitCode, read.stderr).toBe(0);
    expect(JSON.parse(read.stdout)).toMatchObject({ user_id: 9, score: 17 });
  });
});

describe('lms mcp --pseudonymize, driven by a teacher', () => {
  it(
    'names the fellow staff of their course, who the teacher ' + 'may not look up one by one, and hides its students',
    async () => {
      const s = await connect(['--pseudonymize'], { LMS_TOKEN: '3~mock-tteacher' });
      try {
        const r = await s.call('enrollments_list', { course: 1, limit: 100 });
        expect(r.isError, r.content[0]?.text).toBeFalsy();
        expect(named(r, ['Tess Teacher', 'Tara Assistant', 'Dev Designer'])).toEqual([
          'Tess Teacher',
          'Tara Assistant',
          'Dev Designer',
        ]);
        expect(named(r, HIDDEN)).toEqual([]);
      } finally {
        await s.close();
      }
    },
  );
});

describe('lms mcp --pseudonymize=all', () => {
  it('names the teacher by pseudonym too', async () => {
    const s = await connect(['--pseudonymize=all']);
    try {
      for (const [name, args] of CALLS) {
        const r = await s.call(name, args);
        expect(r.isError, `${name}: ${r.content[0]?.text}`).toBeFalsy();
        expect(named(r, [...HIDDEN, ...TEACHER]), name).toEqual([]);
      }
      const teacher = (await s.call('users_get', { id: 3 })).structuredContent as Record<string, unknown>;
      expect(teacher.name).toMatch(/^Staff [0-9a-f]{8}$/);
    } finally {
      await s.close();
    }
  });
});

describe('lms mcp --pseudonym-key', () => {
  const nameOf7 = async (args: string[]) => {
    const s = await connect(['--pseudonymize', ...args]);
    try {
      return ((await s.call('users_get', { id: 7 })).structuredContent as { name: string }).name;
    } finally {
      await s.close();
    }
  };

  it('keeps a pseudonym across server processes with the same key file, and not without one', async () => {
    const key = join(dir, 'pseudonym.key');
    const first = await nameOf7(['--pseudonym-key', key]);
    expect(statSync(key).mode & 0o777).toBe(0o600);
    expect(await nameOf7(['--pseudonym-key', key])).toBe(first);
    const a = await nameOf7([]);
    const b = await nameOf7([]);
    expect(new Set([first, a, b]).size).toBe(3);
  });

  it('refuses a key file others can read, with exit 2', async () => {
    const key = join(dir, 'open.key');
    writeFileSync(key, 'a key of thirty-two characters..\n');
    chmodSync(key, 0o644);
    const r = await spawnLms(['--mock', 'mcp', '--pseudonymize', '--pseudonym-key', key], { ...env, ...mockEnv });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/can be read by others than its owner.*refused/);
    expect(r.stdout).toBe('');
  });
});

describe('lms mcp --pseudonymize with no instance', () => {
  it('answers a call with the error of the missing instance, as a result, not a failed request', async () => {
    const { LMS_MOCK: _mock, LMS_BASE_URL: _url, LMS_TOKEN: _token, ...bare } = env;
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bin, 'mcp', '--pseudonymize'],
      env: bare,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'lms-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const result = (await client.callTool({ name: 'users_list', arguments: {} })) as Result;
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toMatch(/profile|instance/i);
    } finally {
      await client.close();
    }
  });
});

describe("lms mcp --pseudonymize: the fourth pass's leaks", () => {
  /** Forms of the people made here, beside the seeded ones: short ones and a CJK name. */
  const SHORT = ['Alan Li', 'S2', '王芳', 'wangfang'];
  /** A form found as it stands: the short and unspaced ones as fields or anywhere, the rest as words. */
  const found = (text: string, forms: string[]) =>
    forms.filter((f) =>
      /^[\x20-\x7e]+$/.test(f) ? new RegExp(`(?<![\\w-])${f}(?![\\w-])`).test(text) : text.includes(f),
    );
  /**
   * A cursor as text, with whatever its base64 runs decode to, three deep (a bookmark is base64 inside a link inside
   * it).
   */
  const opened = (cursor: string) => {
    let text = cursor;
    for (let depth = 0; depth < 3; depth++) {
      const runs = [...text.matchAll(/[A-Za-z0-9+/_-]{8,}/g)].map((m) =>
        Buffer.from(m[0], 'base64url').toString('utf8'),
      );
      text = `${text} ${runs.join(' ')}`;
      try {
        text = decodeURIComponent(text);
      } catch {
        // Not all of it percent-encoded: left as it is.
      }
    }
    return text;
  };
  let plain: Session;
  let s: Session;
  let al: string;
  let fang: string;

  beforeAll(async () => {
    plain = await connect(['--allow-writes']);
    s = await connect(['--pseudonymize', '--allow-writes']);
    const make = async (name: string, login: string, sis: string) => {
      const made = await plain.call('users_create', {
        account: '1',
        name,
        sortable_name: name,
        login_id: login,
        sis_user_id: sis,
      });
      expect(made.isError, made.content[0].text).toBeFalsy();
      const id = String(made.structuredContent!.id);
      const enrolled = await plain.call('enrollments_add', { course: '1', user: id, type: 'student', state: 'active' });
      expect(enrolled.isError, enrolled.content[0].text).toBeFalsy();
      return id;
    };
    al = await make('Alan Li', 'al', 'S2');
    fang = await make('王芳', 'wangfang', 'CN-1');
    await make('Ravi Patelson', 'rpatelson', 'S-099');
    const graded = await plain.call('grade_set', {
      course: 1,
      assignment: '1',
      csv_text: `user,grade,comment\n${fang},13,王芳同学很好\n${al},12,ok\n`,
    });
    expect(graded.isError, graded.content[0].text).toBeFalsy();
  });
  afterAll(async () => {
    await plain?.close();
    await s?.close();
  });

  it('hands out cursors that carry no name, as admin and as teacher, and pages on through them', async () => {
    const teacher = await connect(['--pseudonymize'], { LMS_TOKEN: '3~mock-tteacher' });
    try {
      const lists: [Session, string, Record<string, unknown>][] = [
        [s, 'users_list', {}],
        [s, 'enrollments_list', { course: 1 }],
        [s, 'recipients_search', { context: 'course_1' }],
        [teacher, 'enrollments_list', { course: 1 }],
        [teacher, 'recipients_search', { context: 'course_1' }],
      ];
      for (const [session, name, args] of lists) {
        let cursor: string | undefined;
        let pages = 0;
        do {
          const r = await session.call(name, { ...args, limit: 1, ...(cursor ? { cursor } : {}) });
          expect(r.isError, `${name}: ${r.content[0]?.text}`).toBeFalsy();
          expect(named(r, HIDDEN), name).toEqual([]);
          cursor = (r.structuredContent as { next_cursor?: string }).next_cursor;
          if (cursor) expect(found(opened(cursor), [...HIDDEN, ...SHORT]), `${name} cursor ${pages}`).toEqual([]);
          pages++;
        } while (cursor && pages < 60);
        expect(pages, name).toBeGreaterThan(5);
      }
    } finally {
      await teacher.close();
    }
  });

  it('keeps the search term a pseudonym stands for out of the cursor', async () => {
    const ravi = (await s.call('users_get', { id: 9 })).structuredContent as Record<string, string>;
    const first = await s.call('users_list', { search: ravi.name, limit: 1 });
    const cursor = (first.structuredContent as { next_cursor?: string }).next_cursor;
    expect(cursor, first.content[0].text).toBeDefined();
    expect(opened(cursor!)).not.toMatch(/Ravi|Patel|search_term/);
    const second = await s.call('users_list', { search: ravi.name, limit: 1, cursor });
    expect(second.isError, second.content[0].text).toBeFalsy();
    expect(named(second, HIDDEN)).toEqual([]);
  });

  it("shows a dry run's body decoded, with the pseudonyms it was given and no surname", async () => {
    const ravi = (await s.call('users_get', { id: 9 })).structuredContent as Record<string, string>;
    const r = await s.call('conv_send', {
      to: ['9'],
      subject: 'Marks',
      body: `Dear ${ravi.name}, well done`,
      dry_run: true,
    });
    expect(r.isError, r.content[0].text).toBeFalsy();
    expect(JSON.stringify(r)).not.toMatch(/Patel|Ravi/);
    expect((r.structuredContent!.requests as { body: unknown }[])[0].body).toContainEqual([
      'body',
      `Dear ${ravi.name}, well done`,
    ]);
  });

  it('names no one by a short login or SIS id, or a two-letter CJK name, in exports and free text', async () => {
    const calls: [string, Record<string, unknown>][] = [
      ['enrollments_export', { course: 1 }],
      ['grade_export', { course: 1, assignment: '1' }],
      ['users_export', {}],
      ['export_course', { course: 1 }],
      ['submissions_get', { course: 1, assignment: '1', user: fang, include: ['submission_comments'] }],
    ];
    for (const [name, args] of calls) {
      const r = await s.call(name, args);
      expect(r.isError, `${name}: ${r.content[0]?.text}`).toBeFalsy();
      const text = JSON.stringify([r.content, r.structuredContent]);
      expect(found(text, [...SHORT, 'al']), name).toEqual([]);
      expect(named(r, HIDDEN), name).toEqual([]);
      // Without --pseudonymize the same call names them: the check above can fail.
      const open = await plain.call(name, args);
      expect(found(JSON.stringify([open.content, open.structuredContent]), SHORT).length, name).toBeGreaterThan(0);
    }
  });

  it("sends a grade CSV's comment as it was written, not with a user id in it", async () => {
    const ravi = (await s.call('users_get', { id: 9 })).structuredContent as Record<string, string>;
    const comment = `well done ${ravi.name}`;
    const r = await s.call('grade_set', {
      course: 1,
      assignment: '1',
      csv_text: `user,grade,comment\n${ravi.login_id},18,${comment}\n`,
    });
    expect(r.isError, r.content[0].text).toBeFalsy();
    const read = await spawnLms(
      [
        '--mock',
        'submissions',
        'get',
        '--course',
        '1',
        '--assignment',
        '1',
        '--user',
        '9',
        '--include',
        'submission_comments',
        '-o',
        'json',
      ],
      { ...env, ...mockEnv },
    );
    expect(read.exitCode, read.stderr).toBe(0);
    const submission = JSON.parse(read.stdout) as { score: number; submission_comments: { comment: string }[] };
    expect(submission.score).toBe(18);
    const comments = submission.submission_comments.map((c) => c.comment);
    expect(comments).toContain(comment);
    expect(comments).not.toContain('well done 9');
  });
});
