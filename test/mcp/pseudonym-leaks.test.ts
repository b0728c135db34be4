// The holes of the fourth hostile pass in `lms mcp --pseudonymize`, each held in process against an
// in-memory mock: cursors that carried the instance's bookmark (a sortable name) and the search term
// a pseudonym was mapped back to; a dry run's form body shown encoded, where the net cannot read a
// name; forms under three letters (a login `al`, a SIS id `S2`) and two-letter CJK names never
// netted; and a grade CSV's comment rewritten to a user id on its way to the instance.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createContext, type Deps, type GlobalOptions } from '../../src/model/context.js';
import { callTool, newCursorKey, type Session, type ToolResult } from '../../src/mcp/call.js';
import { instanceDirectory } from '../../src/mcp/directory.js';
import { Pseudonyms } from '../../src/mcp/pseudonyms.js';
import { toolsOf, type Tool } from '../../src/mcp/tools.js';
import { openMock } from '../../src/mock/runtime.js';
import type { MockRuntime } from '../../src/mock/runtime.js';
import { commandModel } from '../../src/commands/index.js';
import { fakeIO } from '../helpers/fake-io.js';
import { jsonChecked, seedSchool, TOKENS } from '../helpers/mock-client.js';
import { FIXED_NOW } from '../helpers/run-lms.js';

const GLOBALS: GlobalOptions = {
  all: false,
  perPage: 100,
  verbose: false,
  color: false,
  input: false,
  yes: false,
  timeoutSeconds: 30,
  insecure: false,
};

/** The seeded students and observer, every form a result could name them by, and the ones made below. */
const HIDDEN = [
  ['Sam Student', 'Student, Sam', 'S-007', 'sam@example.edu'],
  ['Sofia Student', 'Student, Sofia', 'S-008', 'sofia@example.edu'],
  ['Ravi Patel', 'Patel, Ravi', 'Patel', 'S-009', 'ravi@example.edu'],
  ['Mina Okafor', 'Okafor, Mina', 'S-010'],
  ['Lucas Moreau', 'Moreau, Lucas', 'S-011'],
  ['Hana Sato', 'Sato, Hana', 'S-012'],
  ['Olive Observer', 'Observer, Olive', 'O-013'],
  ['Alan Li', 'Li, Alan', 'S2', 'wangfang', '王芳'],
].flat();

let tools: Map<string, Tool>;
let mock: MockRuntime;
let al: string;
let fang: string;

/** A server on the one mock, driven with the token given (the admin's by default). */
function server(token: string = TOKENS.admin, pseudonymize = true, verbose = false): Session {
  const deps: Deps = {
    io: fakeIO(),
    env: { LMS_MOCK: '1', LMS_TOKEN: token, LMS_STATE_DIR: mkdtempSync(join(tmpdir(), 'lms-leaks-state-')) },
    mock,
    configDir: mkdtempSync(join(tmpdir(), 'lms-leaks-config-')),
  };
  const ctx = createContext(deps, { ...GLOBALS, verbose });
  const pseudonyms = pseudonymize
    ? new Pseudonyms({
        scope: 'students',
        key: Buffer.alloc(32, 7),
        instance: async () => (await ctx.client()).baseUrl,
        directory: instanceDirectory(() => ctx.client()),
      })
    : undefined;
  return {
    ctx,
    model: commandModel,
    allowWrites: true,
    allowDestructive: false,
    cursorKey: newCursorKey(),
    pseudonyms,
  };
}

async function call(session: Session, name: string, input: Record<string, unknown>): Promise<ToolResult> {
  const r = await callTool(tools.get(name)!, input, session);
  expect(r.isError, `${name}: ${r.content[0]?.text}`).toBeFalsy();
  return r;
}

/** The hidden forms that appear in a text: as words, or (for the unspaced) anywhere. */
function leaked(text: string, forms = HIDDEN): string[] {
  return forms.filter((f) =>
    /^[\x20-\x7e]+$/.test(f)
      ? new RegExp(`(?<![\\w-])${f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`).test(text)
      : text.includes(f),
  );
}

const everything = (r: ToolResult) => JSON.stringify([r.content, r.structuredContent]);

/**
 * A cursor as text, with whatever its base64 runs decode to, three deep (a bookmark is base64 inside a link inside it).
 */
const opened = (cursor: string) => {
  let text = cursor;
  for (let depth = 0; depth < 3; depth++) {
    const runs = [...text.matchAll(/[A-Za-z0-9+/_-]{8,}/g)].map((m) => Buffer.from(m[0], 'base64url').toString('utf8'));
    text = `${text} ${runs.join(' ')}`;
    try {
      text = decodeURIComponent(text);
    } catch {
      // Not all of it percent-encoded: left as it is.
    }
  }
  return text;
};

beforeAll(async () => {
  tools = new Map((await toolsOf(commandModel)).map((t) => [t.name, t]));
  mock = jsonChecked(openMock(':memory:', { LMS_MOCK_NOW: FIXED_NOW, LMS_MOCK_JOB_TICK_MS: '0' }, seedSchool));
  const admin = server(TOKENS.admin, false);
  const make = async (name: string, login: string, sis: string) => {
    const id = String(
      (
        await call(admin, 'users_create', {
          account: '1',
          name,
          sortable_name: name,
          login_id: login,
          sis_user_id: sis,
        })
      ).structuredContent.id,
    );
    await call(admin, 'enrollments_add', { course: '1', user: id, type: 'student', state: 'active' });
    return id;
  };
  al = await make('Alan Li', 'al', 'S2');
  fang = await make('王芳', 'wangfang', 'CN-1');
  // A second match for Ravi's name, so a search for him has a second page.
  await make('Ravi Patelson', 'rpatelson', 'S-099');
  await call(admin, 'grade_set', {
    course: '1',
    assignment: '1',
    csv_text: `user,grade,comment\n${fang},13,王芳同学很好\n${al},12,see al\n`,
  });
});

describe('cursors under --pseudonymize', () => {
  const lists: [string, string, Record<string, unknown>][] = [
    ['admin', 'users_list', {}],
    ['admin', 'enrollments_list', { course: '1' }],
    ['admin', 'recipients_search', { context: 'course_1' }],
    ['teacher', 'enrollments_list', { course: '1' }],
    ['teacher', 'recipients_search', { context: 'course_1' }],
  ];
  it.each(lists)(
    'as %s, %s: every cursor is opaque, and the pages still follow each other',
    async (who, name, args) => {
      const s = server(who === 'admin' ? TOKENS.admin : TOKENS.teacher);
      const seen: unknown[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const r = await call(s, name, { ...args, limit: 1, ...(cursor ? { cursor } : {}) });
        const page = r.structuredContent as { items: unknown[]; next_cursor?: string };
        expect(leaked(everything(r)), `page ${pages}`).toEqual([]);
        seen.push(...page.items);
        cursor = page.next_cursor;
        if (cursor) {
          expect(cursor).toMatch(/^[A-Za-z0-9_-]{24}$/);
          expect(leaked(opened(cursor)), `cursor of page ${pages}`).toEqual([]);
        }
        pages++;
      } while (cursor && pages < 60);
      expect(pages).toBeGreaterThan(5);
      expect(new Set(seen.map((x) => JSON.stringify(x))).size).toBe(seen.length);
    },
  );

  it('carries no search term a pseudonym was mapped back to', async () => {
    const s = server();
    const ravi = (await call(s, 'users_get', { id: '9' })).structuredContent as { name: string };
    const first = await call(s, 'users_list', { search: ravi.name, limit: 1 });
    const cursor = (first.structuredContent as { next_cursor?: string }).next_cursor;
    expect(cursor, 'a second page').toBeDefined();
    expect(opened(cursor!)).not.toMatch(/Ravi|Patel|search_term/);
    const second = await call(s, 'users_list', { search: ravi.name, limit: 1, cursor });
    expect((second.structuredContent as { items: unknown[] }).items).toHaveLength(1);
    expect(leaked(everything(second))).toEqual([]);
  });

  it('with -v, traces the search in the notes with the pseudonym, not the name it was mapped back to', async () => {
    const s = server(TOKENS.admin, true, true);
    const ravi = (await call(s, 'users_get', { id: '9' })).structuredContent as { name: string };
    const r = await call(s, 'users_list', { search: ravi.name, limit: 1 });
    expect(r.content[0].text).toContain(`search_term=${ravi.name}`);
    expect(everything(r)).not.toMatch(/Ravi|Patel/);
  });

  it('refuses a cursor of another server, or of another list', async () => {
    const s = server();
    const cursor = (await call(s, 'users_list', { limit: 1 })).structuredContent.next_cursor as string;
    for (const [session, args] of [
      [server(), { limit: 1, cursor }],
      [s, { limit: 1, search: 'a', cursor }],
    ] as const) {
      const r = await callTool(tools.get('users_list')!, args, session);
      expect(r.isError).toBe(true);
      expect(r.content[0].text).toMatch(/the cursor is not one this server handed out for this list/);
    }
  });
});

describe('a dry run under --pseudonymize', () => {
  it('shows the form body decoded, as the pseudonyms the call was given', async () => {
    const s = server();
    const ravi = (await call(s, 'users_get', { id: '9' })).structuredContent as { name: string };
    const r = await call(s, 'conv_send', {
      to: ['9'],
      subject: 'Marks',
      body: `Dear ${ravi.name}, well done`,
      dry_run: true,
    });
    expect(leaked(everything(r))).toEqual([]);
    const request = (r.structuredContent.requests as { body: unknown }[])[0];
    expect(request.body).toEqual([
      ['recipients[]', '9'],
      ['subject', 'Marks'],
      ['body', `Dear ${ravi.name}, well done`],
    ]);
  });

  it('nets a name the encoded form hid from the net', async () => {
    const s = server();
    await call(s, 'users_get', { id: '9' });
    const p = s.pseudonyms!;
    const preview = {
      dry_run: true,
      requests: [
        {
          method: 'PUT',
          url: 'http://lms.mock/api/v1/users/9?note=Ravi%20Patel',
          content_type: 'application/x-www-form-urlencoded',
          body: 'user%5Bbio%5D=Dear+Ravi+Patel%2C+hi',
        },
      ],
    };
    const { readablePreview } = await import('../../src/mcp/pseudonyms.js');
    const out = JSON.stringify(p.rewrite(readablePreview(preview)));
    expect(leaked(out)).toEqual([]);
    expect(out).toContain('user[bio]');
  });
});

describe('short forms and unspaced scripts under --pseudonymize', () => {
  it.each<[string, Record<string, unknown>]>([
    ['enrollments_export', { course: '1' }],
    ['grade_export', { course: '1', assignment: '1' }],
    ['users_export', {}],
    ['export_course', { course: '1' }],
    ['enrollments_list', { course: '1', limit: 100 }],
    [
      'submissions_get',
      { course: '1', assignment: '1', user: 'sis_user_id:CN-1', include: ['submission_comments', 'user'] },
    ],
    ['submissions_list', { course: '1', assignment: ['1'], include: ['submission_comments', 'user'], limit: 100 }],
  ])('%s names no one by a login al, a SIS id S2 or the name 王芳', async (name, args) => {
    const plain = everything(await call(server(TOKENS.admin, false), name, args));
    const r = await call(server(), name, args);
    expect(leaked(everything(r))).toEqual([]);
    // The same call without --pseudonymize names one of them: the check above can fail.
    expect(leaked(plain, ['S2', 'al', '王芳']).length, name).toBeGreaterThan(0);
    // Staff stay named, where the call names them.
    if (name === 'users_export' || name === 'enrollments_list') expect(everything(r)).toContain('Tess Teacher');
  });

  it('nets the short forms as fields, and 王芳 inside a run of letters', async () => {
    const s = server();
    await call(s, 'users_get', { id: al });
    await call(s, 'users_get', { id: fang });
    const p = s.pseudonyms!;
    const login = (id: string) => p.pseudonymOf(id).login;
    const display = (id: string) => p.pseudonymOf(id).display;
    expect(p.text('al')).toBe(login(al));
    expect(p.text('S2')).toBe(login(al));
    expect(p.text('user,grade\nS2,10\n"al",11\n')).toBe(`user,grade\n${login(al)},10\n"${login(al)}",11\n`);
    expect(p.text('user: sis_login_id:al')).toBe(`user: sis_login_id:${login(al)}`);
    expect(p.text('王芳同学很好')).toBe(`${display(fang)}同学很好`);
    expect(p.text('老师说王芳')).toBe(`老师说${display(fang)}`);
    // Words of prose are no fields: et al, a Salad.
    expect(p.text('see Smith et al. on salads')).toBe('see Smith et al. on salads');
  });

  it('takes a digits-only short SIS id for a person only in a reference', async () => {
    const s = server();
    const id = String(
      (
        await call(server(TOKENS.admin, false), 'users_create', {
          account: '1',
          name: 'Nia Numbers',
          login_id: 'nia',
          sis_user_id: '12',
        })
      ).structuredContent.id,
    );
    await call(s, 'users_get', { id });
    const p = s.pseudonyms!;
    expect(p.text('sis_user_id:12')).toBe(`sis_user_id:${p.pseudonymOf(id).login}`);
    expect(p.text('12')).toBe('12');
  });
});

describe('a grade CSV under --pseudonymize', () => {
  it('sends the comment as it was written, and grades the real student', async () => {
    const s = server();
    const ravi = (await call(s, 'users_get', { id: '9' })).structuredContent as { name: string; login_id: string };
    const comment = `well done ${ravi.name}`;
    await call(s, 'grade_set', {
      course: '1',
      assignment: '1',
      csv_text: `user,grade,comment\n${ravi.login_id},17,${comment}\n`,
    });
    const read = (
      await call(server(TOKENS.admin, false), 'submissions_get', {
        course: '1',
        assignment: '1',
        user: '9',
        include: ['submission_comments'],
      })
    ).structuredContent as { score: number; submission_comments: { comment: string }[] };
    expect(read.score).toBe(17);
    expect(read.submission_comments.map((c) => c.comment)).toContain(comment);
    expect(read.submission_comments.map((c) => c.comment)).not.toContain('well done 9');
  });

  it(
    'round-trips an export: its names are pseudonyms, ' + 'and graded back they check against the real students',
    async () => {
      const s = server(TOKENS.teacher);
      const exported = (await call(s, 'grade_export', { course: '1', assignment: '1' })).structuredContent as {
        items: Record<string, string>[];
      };
      const rows = exported.items;
      expect(leaked(JSON.stringify(rows))).toEqual([]);
      const sofia = rows.find((r) => r.section.includes('Lab Online') && r.grade === '15')!;
      expect(sofia.name).toMatch(/^Student [0-9a-f]{8}$/);
      expect(sofia.user).toMatch(/^sis_user_id:student-[0-9a-f]{8}$/);
      // The CSV an assistant writes back from what it was shown, one score edited.
      const cell = (v: string) => (/[",]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
      const csv = [
        'user,name,section,grade,comment',
        ...rows.map((r) => [r.user, r.name, r.section, r === sofia ? '16' : r.grade, ''].map(cell).join(',')),
      ].join('\n');
      const graded = await call(s, 'grade_set', { course: '1', assignment: '1', csv_text: `${csv}\n` });
      expect(graded.structuredContent).toMatchObject({ updated: 1, failed: 0 });
      const read = (
        await call(server(TOKENS.admin, false), 'submissions_get', {
          course: '1',
          assignment: '1',
          user: 'sis_user_id:S-008',
        })
      ).structuredContent as { score: number };
      expect(read.score).toBe(16);
      // A name out of step is still caught: Sofia's row with another student's pseudonym.
      const other = rows.find((r) => r !== sofia)!;
      const swapped = csv.replace(`${sofia.user},${sofia.name},`, `${sofia.user},${other.name},`);
      const refused = await callTool(
        tools.get('grade_set')!,
        { course: '1', assignment: '1', csv_text: `${swapped}\n` },
        s,
      );
      expect(refused.isError).toBe(true);
      expect(refused.content[0]?.text).toContain('is not the name of user');
      expect(leaked(everything(refused))).toEqual([]);
    },
  );
});

describe('grade files in the dialects spreadsheets write, under pseudonyms', () => {
  it(
    'maps the pseudonyms of a ";" file back, and of ' + "Canvas's export in SIS User ID, SIS Login ID and Student",
    async () => {
      const s = server(TOKENS.teacher);
      const exported = (await call(s, 'grade_export', { course: '1', format: 'canvas' })).structuredContent as {
        items: Record<string, string>[];
      };
      const rows = exported.items;
      expect(leaked(JSON.stringify(rows))).toEqual([]);
      const sam = rows.find((r) => r.ID === '7')!;
      expect(sam['SIS User ID']).toMatch(/^student-[0-9a-f]{8}$/);
      expect(sam['SIS Login ID']).toMatch(/^student-[0-9a-f]{8}$/);
      const real = async () =>
        (
          (
            await call(server(TOKENS.admin, false), 'submissions_get', {
              course: '1',
              assignment: '1',
              user: '7',
            })
          ).structuredContent as { score: number }
        ).score;
      // lms's layout, separated by ";": the user cell is a pseudonym the server maps back.
      const semicolon = `user;grade\nsis_user_id:${sam['SIS User ID']};14\n`;
      const graded = await call(s, 'grade_set', { course: '1', assignment: '1', csv_text: semicolon });
      expect(graded.structuredContent).toMatchObject({ updated: 1, failed: 0 });
      expect(await real()).toBe(14);
      // Canvas's layout, tab-separated, written back from what the assistant was shown, one score edited.
      const header = Object.keys(sam);
      const lab = header.find((h) => h.endsWith('(1)'))!;
      const tsv = [header, ...rows.map((r) => header.map((h) => (r === sam && h === lab ? '12.00' : r[h])))]
        .map((cells) => cells.join('\t'))
        .join('\n');
      const canvas = await call(s, 'grade_set', { course: '1', csv_text: `${tsv}\n` });
      expect(canvas.structuredContent).toMatchObject({ updated: 1, failed: 0 });
      expect(await real()).toBe(12);
      expect(leaked(everything(canvas))).toEqual([]);
    },
  );
});
