// Control characters in what a request writes, refused once for every route as parameters are
// decoded: a name (of a person, course, section, topic, quiz, outcome, assignment, event) or an
// identifier (login, SIS id) takes none of C0, DEL or C1; free text (messages, bodies, descriptions,
// comments) keeps its tabs and line breaks but takes no other control character. The 400 names the
// parameter as it was sent, form or JSON. An upload's file name is cleaned instead, as before.
import { beforeEach, describe, expect, it } from 'vitest';
import type { MockRuntime } from '../../src/mock/runtime.js';
import { clientFor, collect, freshMock, TOKENS } from '../helpers/mock-client.js';

let mock: MockRuntime;
beforeEach(() => {
  mock = freshMock();
});

type Method = 'GET' | 'POST' | 'PUT';

/** A request as a client would send it: form fields (bracket names) or a JSON body. */
async function send(token: string, method: Method, path: string, fields: Record<string, string> | { json: unknown }) {
  const json = 'json' in fields;
  const form = json ? '' : new URLSearchParams(fields as Record<string, string>).toString();
  const res = await mock.handler({
    method,
    url: `http://lms.mock${path}${method === 'GET' && form ? `?${form}` : ''}`,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': json ? 'application/json' : 'application/x-www-form-urlencoded',
    },
    body: method === 'GET' ? undefined : json ? JSON.stringify((fields as { json: unknown }).json) : form,
  });
  const text = typeof res.body === 'string' ? res.body : new TextDecoder().decode(res.body);
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined };
}

const refusal = (field: string) => ({
  status: 400,
  body: { errors: [{ message: `${field} must not contain control characters` }] },
});

const NEW_USER = { 'pseudonym[unique_id]': 'newcomer' };
const NEW_COURSE = { 'course[name]': 'Botany' };

describe('names and identifiers: no control character at all', () => {
  it.each([
    ["a user's name (NUL)", TOKENS.admin, 'POST', '/api/v1/accounts/1/users', 'user[name]', 'Eve\u0000Admin', NEW_USER],
    [
      "a user's short name (a terminal escape)",
      TOKENS.admin,
      'POST',
      '/api/v1/accounts/1/users',
      'user[short_name]',
      '\u001b[31mEve',
      NEW_USER,
    ],
    [
      "a user's sortable name (a tab)",
      TOKENS.admin,
      'POST',
      '/api/v1/accounts/1/users',
      'user[sortable_name]',
      'Admin,\tEve',
      NEW_USER,
    ],
    [
      'a login id (a line feed)',
      TOKENS.admin,
      'POST',
      '/api/v1/accounts/1/users',
      'pseudonym[unique_id]',
      'eve\nadmin',
      {},
    ],
    [
      'a SIS user id (DEL)',
      TOKENS.admin,
      'POST',
      '/api/v1/accounts/1/users',
      'pseudonym[sis_user_id]',
      'S-\u007f1',
      NEW_USER,
    ],
    ["one's own name, changed", TOKENS.student, 'PUT', '/api/v1/users/self', 'user[name]', 'Sam\rStudent', {}],
    [
      "a course's name (a carriage return)",
      TOKENS.admin,
      'POST',
      '/api/v1/accounts/2/courses',
      'course[name]',
      'Botany\r',
      {},
    ],
    [
      'a course code (a bell)',
      TOKENS.admin,
      'POST',
      '/api/v1/accounts/2/courses',
      'course[course_code]',
      'BOT\u0007101',
      NEW_COURSE,
    ],
    [
      'a SIS course id (NUL)',
      TOKENS.admin,
      'POST',
      '/api/v1/accounts/2/courses',
      'course[sis_course_id]',
      'BOT\u0000',
      NEW_COURSE,
    ],
    [
      "a section's name (NUL)",
      TOKENS.teacher,
      'POST',
      '/api/v1/courses/1/sections',
      'course_section[name]',
      'Section\u0000C',
      {},
    ],
    [
      'a SIS section id (a tab)',
      TOKENS.admin,
      'POST',
      '/api/v1/courses/1/sections',
      'course_section[sis_section_id]',
      'BIO\t101-C',
      { 'course_section[name]': 'Section C' },
    ],
    [
      "a topic's title (a line feed)",
      TOKENS.teacher,
      'POST',
      '/api/v1/courses/1/discussion_topics',
      'title',
      'Week 2\nreadings',
      {},
    ],
    ["a quiz's title (NUL)", TOKENS.teacher, 'POST', '/api/v1/courses/1/quizzes', 'quiz[title]', 'Quiz\u0000', {}],
    [
      "an outcome's title (a vertical tab)",
      TOKENS.admin,
      'POST',
      '/api/v1/accounts/1/outcome_groups/1/outcomes',
      'title',
      'Reasons\u000bwell',
      {},
    ],
    [
      "an outcome's display name (NUL)",
      TOKENS.admin,
      'POST',
      '/api/v1/accounts/1/outcome_groups/1/outcomes',
      'display_name',
      'R\u0000',
      { title: 'Reasons well' },
    ],
    [
      "an outcome group's title (DEL)",
      TOKENS.admin,
      'POST',
      '/api/v1/accounts/1/outcome_groups/1/subgroups',
      'title',
      'Logic\u007f',
      {},
    ],
    [
      "an assignment's name (a backspace)",
      TOKENS.teacher,
      'POST',
      '/api/v1/courses/1/assignments',
      'assignment[name]',
      'Essay\b',
      {},
    ],
    [
      "an event's title (a form feed)",
      TOKENS.teacher,
      'POST',
      '/api/v1/calendar_events',
      'calendar_event[title]',
      'Lab\fday',
      { 'calendar_event[context_code]': 'course_1' },
    ],
  ] as const)('refuses %s', async (_what, token, method, path, field, value, rest) => {
    expect(await send(token, method, path, { ...rest, [field]: value })).toEqual(refusal(field));
  });

  it('names the parameter of a JSON body the way a form names it, and writes nothing', async () => {
    const users = async () => (await collect(clientFor(mock, TOKENS.admin).ops.users.list({ account_id: 1 }))).length;
    const before = await users();
    const body = { json: { user: { name: 'Eve\u0000Admin' }, pseudonym: { unique_id: 'newcomer' } } };
    expect(await send(TOKENS.admin, 'POST', '/api/v1/accounts/1/users', body)).toEqual(refusal('user[name]'));
    expect(await users()).toBe(before);
  });

  it('takes names with no control character, whatever else they hold', async () => {
    const r = await send(TOKENS.admin, 'POST', '/api/v1/accounts/1/users', {
      ...NEW_USER,
      'user[name]': 'Zoë Ōtani-Ng 🎓 "Z"',
    });
    expect(r).toMatchObject({ status: 200, body: { name: 'Zoë Ōtani-Ng 🎓 "Z"' } });
  });
});

describe('free text: tabs and line breaks, nothing else of C0', () => {
  it.each([
    [
      "a conversation's body (NUL)",
      TOKENS.teacher,
      'POST',
      '/api/v1/conversations',
      'body',
      'Hello\u0000',
      { 'recipients[]': '7' },
    ],
    [
      "a topic's message (a terminal escape)",
      TOKENS.teacher,
      'POST',
      '/api/v1/courses/1/discussion_topics',
      'message',
      '\u001b]0;owned\u0007',
      { title: 'Week 2' },
    ],
    [
      "an entry's message (NUL)",
      TOKENS.student,
      'POST',
      '/api/v1/courses/1/discussion_topics/2/entries',
      'message',
      'Hi\u0000',
      {},
    ],
    [
      "a quiz's description (a backspace)",
      TOKENS.teacher,
      'POST',
      '/api/v1/courses/1/quizzes',
      'quiz[description]',
      'Read\b',
      { 'quiz[title]': 'Quiz' },
    ],
    [
      'a search term (NUL)',
      TOKENS.teacher,
      'GET',
      '/api/v1/courses/1/discussion_topics',
      'search_term',
      'lab\u0000',
      {},
    ],
  ] as const)('refuses %s', async (_what, token, method, path, field, value, rest) => {
    expect(await send(token, method, path, { ...rest, [field]: value })).toEqual(refusal(field));
  });

  it.each([
    [
      "a conversation's body",
      TOKENS.teacher,
      '/api/v1/conversations',
      { 'recipients[]': '7', body: 'Line one\r\n\tLine two' },
      (b: unknown) => (b as { messages: { body: string }[] }[])[0].messages[0].body,
      'Line one\r\n\tLine two',
    ],
    [
      "a topic's message",
      TOKENS.teacher,
      '/api/v1/courses/1/discussion_topics',
      { title: 'Week 2', message: '<p>a</p>\n\t<p>b</p>' },
      (b: unknown) => (b as { message: string }).message,
      '<p>a</p>\n\t<p>b</p>',
    ],
    [
      "an entry's message",
      TOKENS.student,
      '/api/v1/courses/1/discussion_topics/2/entries',
      { message: 'First\nSecond' },
      (b: unknown) => (b as { message: string }).message,
      'First\nSecond',
    ],
  ] as const)('keeps the tabs and line breaks of %s', async (_what, token, path, fields, read, expected) => {
    const r = await send(token, 'POST', path, fields);
    expect(r.status).toBeLessThan(300);
    expect(read(r.body)).toBe(expected);
  });
});

describe('file names', () => {
  it("cleans an upload's name rather than refusing it", async () => {
    const r = await send(TOKENS.student, 'POST', '/api/v1/users/self/files', {
      name: 'lab\u0000report\r\n.txt',
      size: '3',
    });
    expect(r).toMatchObject({ status: 200, body: { upload_params: { filename: 'labreport.txt' } } });
  });
});

// C1 (U+0080–U+009F) and DEL are control characters like C0: U+009B alone starts a terminal
// sequence, U+0085 is a line break to some readers. Every route refuses them in names and in
// free text alike, with the same 400 as a C0 character.
const C1_AND_DEL = [
  ['NEL', '\u0085'],
  ['CSI', '\u009b'],
  ['DEL', '\u007f'],
] as const;

const NAME_ROUTES = [
  ["a user's name", TOKENS.admin, 'POST', '/api/v1/accounts/1/users', 'user[name]', NEW_USER],
  ['a login id', TOKENS.admin, 'POST', '/api/v1/accounts/1/users', 'pseudonym[unique_id]', {}],
  ["one's own name, changed", TOKENS.student, 'PUT', '/api/v1/users/self', 'user[name]', {}],
  ["a course's name", TOKENS.admin, 'POST', '/api/v1/accounts/2/courses', 'course[name]', {}],
  ["a section's name", TOKENS.teacher, 'POST', '/api/v1/courses/1/sections', 'course_section[name]', {}],
  ["a topic's title", TOKENS.teacher, 'POST', '/api/v1/courses/1/discussion_topics', 'title', {}],
  [
    "an announcement's title",
    TOKENS.teacher,
    'POST',
    '/api/v1/courses/1/discussion_topics',
    'title',
    { is_announcement: 'true' },
  ],
  ["an assignment's name", TOKENS.teacher, 'POST', '/api/v1/courses/1/assignments', 'assignment[name]', {}],
  ["a quiz's title", TOKENS.teacher, 'POST', '/api/v1/courses/1/quizzes', 'quiz[title]', {}],
  [
    "an event's title",
    TOKENS.teacher,
    'POST',
    '/api/v1/calendar_events',
    'calendar_event[title]',
    { 'calendar_event[context_code]': 'course_1' },
  ],
] as const;

const TEXT_ROUTES = [
  ["a conversation's body", TOKENS.teacher, 'POST', '/api/v1/conversations', 'body', { 'recipients[]': '7' }],
  ['a reply in a conversation', TOKENS.teacher, 'POST', '/api/v1/conversations/1/add_message', 'body', {}],
  [
    "a conversation's subject",
    TOKENS.teacher,
    'POST',
    '/api/v1/conversations',
    'subject',
    { 'recipients[]': '7', body: 'Hello' },
  ],
  ["a topic's message", TOKENS.teacher, 'POST', '/api/v1/courses/1/discussion_topics', 'message', { title: 'Week 2' }],
  [
    "an announcement's message",
    TOKENS.teacher,
    'POST',
    '/api/v1/courses/1/discussion_topics',
    'message',
    { title: 'Lab closed', is_announcement: 'true' },
  ],
  ["an entry's message", TOKENS.student, 'POST', '/api/v1/courses/1/discussion_topics/2/entries', 'message', {}],
  [
    'a submission comment',
    TOKENS.teacher,
    'PUT',
    '/api/v1/courses/1/assignments/1/submissions/9',
    'comment[text_comment]',
    {},
  ],
  [
    "an assignment's description",
    TOKENS.teacher,
    'POST',
    '/api/v1/courses/1/assignments',
    'assignment[description]',
    { 'assignment[name]': 'Essay' },
  ],
  [
    "a quiz's description",
    TOKENS.teacher,
    'POST',
    '/api/v1/courses/1/quizzes',
    'quiz[description]',
    { 'quiz[title]': 'Quiz' },
  ],
  [
    "an event's description",
    TOKENS.teacher,
    'POST',
    '/api/v1/calendar_events',
    'calendar_event[description]',
    { 'calendar_event[context_code]': 'course_1', 'calendar_event[title]': 'Lab' },
  ],
  ['a search term', TOKENS.teacher, 'GET', '/api/v1/courses/1/discussion_topics', 'search_term', {}],
] as const;

describe('C1 controls and DEL: refused like C0, in names and in free text', () => {
  const cases = [...NAME_ROUTES, ...TEXT_ROUTES].flatMap(([what, token, method, path, field, rest]) =>
    C1_AND_DEL.map(([name, c]) => [`${what} (${name})`, token, method, path, field, `a${c}b`, rest] as const),
  );
  it.each(cases)('refuses %s', async (_what, token, method, path, field, value, rest) => {
    expect(await send(token, method as Method, path, { ...rest, [field]: value })).toEqual(refusal(field));
  });

  it.each(C1_AND_DEL)('refuses %s in a JSON body, nested as a form would name it', async (_name, c) => {
    const body = { json: { assignment: { name: 'Essay', description: `<p>Read${c}</p>` } } };
    expect(await send(TOKENS.teacher, 'POST', '/api/v1/courses/1/assignments', body)).toEqual(
      refusal('assignment[description]'),
    );
  });

  it('takes the letters just past C1 (U+00A0 no-break space, U+00E9 é)', async () => {
    const r = await send(TOKENS.teacher, 'POST', '/api/v1/courses/1/assignments', {
      'assignment[name]': 'Caf\u00e9\u00a01',
      'assignment[description]': '\u00a0r\u00e9sum\u00e9',
    });
    expect(r).toMatchObject({ status: 200, body: { name: 'Caf\u00e9\u00a01', description: '\u00a0r\u00e9sum\u00e9' } });
  });
});

describe('free text keeps its tabs, line feeds and carriage returns on every route', () => {
  const TEXT = 'One\tcell\r\nTwo\rThree\nFour';
  it.each([
    [
      'a reply in a conversation',
      TOKENS.teacher,
      'POST',
      '/api/v1/conversations/1/add_message',
      { body: TEXT },
      (b: unknown) => (b as { messages: { body: string }[] }).messages[0].body,
    ],
    [
      "an announcement's message",
      TOKENS.teacher,
      'POST',
      '/api/v1/courses/1/discussion_topics',
      { title: 'Lab closed', is_announcement: 'true', message: TEXT },
      (b: unknown) => (b as { message: string }).message,
    ],
    [
      'a submission comment',
      TOKENS.teacher,
      'PUT',
      '/api/v1/courses/1/assignments/1/submissions/9',
      { 'comment[text_comment]': TEXT },
      (b: unknown) => (b as { submission_comments: { comment: string }[] }).submission_comments.at(-1)!.comment,
    ],
    [
      "an assignment's description",
      TOKENS.teacher,
      'POST',
      '/api/v1/courses/1/assignments',
      { 'assignment[name]': 'Essay', 'assignment[description]': TEXT },
      (b: unknown) => (b as { description: string }).description,
    ],
    [
      "an event's description",
      TOKENS.teacher,
      'POST',
      '/api/v1/calendar_events',
      {
        'calendar_event[context_code]': 'course_1',
        'calendar_event[title]': 'Lab',
        'calendar_event[description]': TEXT,
      },
      (b: unknown) => (b as { description: string }).description,
    ],
  ] as const)('keeps them in %s', async (_what, token, method, path, fields, read) => {
    const r = await send(token, method, path, fields);
    expect(r.status).toBeLessThan(300);
    expect(read(r.body)).toBe(TEXT);
  });
});
