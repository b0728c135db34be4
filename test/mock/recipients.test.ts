// Searching message recipients: the people and contexts the caller shares, every term matching the
// name (a trigram index), contexts first, the filters, and the deprecated conversations alias.
import { beforeEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/client/client.js';
import type { Recipient, SearchRecipientsParams } from '../../src/spec/types/search.js';
import type { MockRuntime } from '../../src/mock/runtime.js';
import { clientFor, collect, freshMock, TOKENS } from '../helpers/mock-client.js';

let mock: MockRuntime;
beforeEach(() => {
  mock = freshMock();
});

const as = (token: string): ApiClient['ops'] => clientFor(mock, token).ops;
const search = (token: string, params: SearchRecipientsParams) => collect(as(token).search.recipients(params));
const idsOf = (list: Recipient[]) => list.map((r) => r.id);

describe('GET /api/v1/search/recipients', () => {
  it.each([
    ['every term must match', TOKENS.teacher, { search: 'sam stud' }, [7]],
    ['a term that matches nobody', TOKENS.teacher, { search: 'sam xyz' }, []],
    ['case does not matter', TOKENS.teacher, { search: 'SOFIA' }, [8]],
    ['a term shorter than three characters', TOKENS.student, { search: 'sa' }, [12, 7]],
    [
      'contexts before people, each by name',
      TOKENS.teacher,
      { search: 'o' },
      [
        'section_7',
        'section_1',
        'section_2',
        'section_6',
        'course_5',
        'course_1',
        'group_1',
        'group_2',
        'course_2',
        11,
        13,
        10,
        12,
        8,
        4,
      ],
    ],
    ['people only', TOKENS.teacher, { search: 'lab', type: 'user' }, []],
    [
      'contexts only',
      TOKENS.admin,
      { search: 'bio', type: 'context' },
      ['section_7', 'section_1', 'section_2', 'section_6', 'course_5', 'course_1'],
    ],
    [
      "a course's people, by sortable name",
      TOKENS.teacher,
      { context: 'course_1', type: 'user' },
      [5, 6, 11, 13, 10, 9, 12, 7, 8, 3],
    ],
    ['a synthetic context', TOKENS.teacher, { context: 'course_1_teachers' }, [3]],
    ['a section', TOKENS.teacher, { context: 'section_2' }, [10, 9, 12]],
    ['a group, with a term', TOKENS.teacher, { context: 'group_1', search: 's' }, [11, 7, 8]],
    [
      'excluded users and contexts',
      TOKENS.teacher,
      { search: 'lab', exclude: ['group_1', 'section_7'] },
      ['course_5', 'group_2'],
    ],
    ['an excluded user', TOKENS.teacher, { context: 'section_2', exclude: [10] }, [9, 12]],
    ["someone outside the caller's courses", TOKENS.student, { search: 'theo' }, []],
    ['a context the caller is not in', TOKENS.student, { context: 'course_3' }, []],
    ['neither a term nor a context', TOKENS.teacher, {}, []],
    ['one user by id, the other filters ignored', TOKENS.teacher, { user_id: 9, search: 'nobody' }, [9]],
    ['a user the caller may not message', TOKENS.otherTeacher, { user_id: 1 }, []],
    ['a user met in a shared conversation', TOKENS.otherTeacher, { user_id: 1, from_conversation_id: 8 }, [1]],
  ] as const)('%s', async (_what, token, params, expected) => {
    expect(idsOf(await search(token, params as SearchRecipientsParams))).toEqual(expected);
  });

  it('answers people with their shared courses and groups, and contexts with their size and course', async () => {
    const [sam] = await search(TOKENS.otherStudent, { search: 'sam' });
    expect(sam).toEqual({
      id: 7,
      name: 'Sam',
      full_name: 'Sam Student',
      common_courses: { 1: ['StudentEnrollment'], 2: ['StudentEnrollment'] },
      common_groups: { 1: ['Member'] },
      avatar_url: 'http://lms.mock/images/messages/avatar-50.png',
      pronouns: null,
    });
    expect('type' in sam).toBe(false);
    const section = (await search(TOKENS.teacher, { search: 'section b' })).find((r) => r.id === 'section_2');
    expect(section).toEqual({
      id: 'section_2',
      name: 'BIO-101 Section B',
      avatar_url: 'http://lms.mock/images/messages/avatar-50.png',
      type: 'context',
      user_count: 3,
      permissions: {},
      context_name: 'Introduction to Biology',
    });
  });

  it('reports the permissions asked for in each context without filtering by them', async () => {
    const teacher = await search(TOKENS.teacher, {
      search: 'biology',
      type: 'context',
      permissions: ['send_messages', 'manage_grades', 'no_such_thing'],
    });
    expect(teacher.map((r) => [r.id, r.permissions])).toEqual([
      ['course_5', { send_messages: true, manage_grades: true }],
      ['course_1', { send_messages: true, manage_grades: true }],
    ]);
    const student = await search(TOKENS.student, { search: 'biology', permissions: ['manage_grades'] });
    expect(student.map((r) => [r.id, r.permissions])).toEqual([['course_1', { manage_grades: false }]]);
  });

  it("lists a course's synthetic contexts first (the non-empty ones), then its people", async () => {
    const found = await search(TOKENS.teacher, {
      context: 'course_1',
      synthetic_contexts: true,
      permissions: ['send_messages'],
    });
    expect(found.slice(0, 5)).toEqual([
      {
        id: 'course_1_teachers',
        name: 'Teachers',
        avatar_url: 'http://lms.mock/images/messages/avatar-group-50.png',
        type: 'context',
        user_count: 1,
        permissions: { send_messages: true },
      },
      expect.objectContaining({ id: 'course_1_tas', user_count: 1 }),
      expect.objectContaining({ id: 'course_1_students', user_count: 6 }),
      expect.objectContaining({ id: 'course_1_observers', user_count: 1 }),
      expect.objectContaining({ id: 'course_1_sections', item_count: 3 }),
    ]);
    expect(idsOf(found).slice(5, 7)).toEqual(['course_1_groups', 5]);
    expect(
      idsOf(await search(TOKENS.teacher, { context: 'section_2', synthetic_contexts: true, type: 'context' })),
    ).toEqual(['section_2_students']);
    expect(
      idsOf(await search(TOKENS.teacher, { context: 'course_1', synthetic_contexts: true, search: 'sam' })),
    ).toEqual([7]);
  });

  it('pages by bookmark, and finds a renamed user by the new name', async () => {
    const all = await search(TOKENS.teacher, { context: 'course_1' });
    const paged = await collect(
      clientFor(mock, TOKENS.teacher, { perPage: 3 }).ops.search.recipients({ context: 'course_1' }),
    );
    expect(idsOf(paged)).toEqual(idsOf(all));
    mock.db.prepare(`UPDATE users SET name = 'Samuel Quartermaine' WHERE id = 7`).run();
    expect(idsOf(await search(TOKENS.teacher, { search: 'quarter' }))).toEqual([7]);
    expect(idsOf(await search(TOKENS.teacher, { search: 'sam stud' }))).toEqual([]);
  });

  it('answers the same through the deprecated /conversations/find_recipients', async () => {
    for (const params of [
      { search: 'lab' },
      { context: 'course_1_students' },
      { user_id: 9 },
    ] as SearchRecipientsParams[]) {
      expect(await collect(as(TOKENS.teacher).conversations.findRecipients(params))).toEqual(
        await search(TOKENS.teacher, params),
      );
    }
  });
});
