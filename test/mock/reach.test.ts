// Whom a user may message, as real instances reckon it, through sending and through recipient
// search: a course seen whole (its people, sections and groups), seen only in one's own sections
// (a section-limited role), or seen only as far as its teachers, TAs and the students one observes
// (an observer, or a role without the right to send messages); students do not see other
// students' observers. What lies out of reach is refused when named as a context, dropped (so
// `invalid` when nothing is left) when named as a person, and never found by search.
import { beforeEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/client/client.js';
import type { Recipient, SearchRecipientsParams } from '../../src/spec/types/search.js';
import type { MockRuntime } from '../../src/mock/runtime.js';
import { clientFor, collect, failure, freshMock, TOKENS } from '../helpers/mock-client.js';

let mock: MockRuntime;
beforeEach(() => {
  mock = freshMock();
});

const DESIGNER = '6~mock-designer';
const as = (token: string): ApiClient['ops'] => clientFor(mock, token).ops;
const idsOf = (list: Recipient[]) => list.map((r) => r.id);

const INVALID = { status: 400, body: [{ attribute: 'recipients', message: 'invalid' }] };
const RESTRICTED = { status: 400, body: [{ attribute: 'recipients', message: 'restricted by role' }] };

/** The people each new conversation reaches (one conversation per recipient when several are named). */
async function reached(token: string, recipients: string[]): Promise<number[]> {
  const made = await as(token).conversations.create({ recipients, body: 'Hello' });
  return made.flatMap((c) => c.audience).sort((a, b) => a - b);
}

describe('sending', () => {
  it.each([
    // Olive observes Sam (7) in BIO-101.
    ["an observer, to the course's teachers", TOKENS.observer, ['course_1_teachers'], [3]],
    ["an observer, to the course's TAs", TOKENS.observer, ['course_1_tas'], [5]],
    ['an observer, to the teacher', TOKENS.observer, ['3'], [3]],
    ['an observer, to the TA', TOKENS.observer, ['5'], [5]],
    ['an observer, to the student observed', TOKENS.observer, ['7'], [7]],
    // A student sees the observers of their own, not those of others.
    ['a student, to their own observer', TOKENS.student, ['13'], [13]],
    // Tara's TA role is limited to section A (Sam 7, Sofia 8, Lucas 11).
    [
      "a section-limited TA, to the course's students: those of her section",
      TOKENS.ta,
      ['course_1_students'],
      [7, 8, 11],
    ],
    // The designer's role has no right to send messages: like an observer, only the instructors.
    ['an enrollment without the right to send messages, to the teacher', DESIGNER, ['3'], [3]],
    // A course seen whole includes its groups, as on real instances, member or not.
    ['a student, to a group of their course they are not in', TOKENS.student, ['group_2'], [9, 10, 12]],
    ['a teacher, to anyone in her course', TOKENS.teacher, ['course_1_observers', '9'], [9, 13]],
  ] as const)('reaches %s', async (_what, token, recipients, expected) => {
    expect(await reached(token, [...recipients])).toEqual(expected);
  });

  it.each([
    ['an observer, to a student they do not observe', TOKENS.observer, ['8'], INVALID],
    ['an observer, to the designer', TOKENS.observer, ['6'], INVALID],
    ['an observer, to a section', TOKENS.observer, ['section_1'], RESTRICTED],
    // The class as a whole is for those who may message the entire class, which observers may not.
    ["an observer, to the course's students", TOKENS.observer, ['course_1_students'], RESTRICTED],
    ['an observer, to the whole course', TOKENS.observer, ['course_1'], RESTRICTED],
    ['an observer, to the group of the student observed', TOKENS.observer, ['group_1'], RESTRICTED],
    ["a student, to another student's observer", TOKENS.otherStudent, ['13'], INVALID],
    ['a section-limited TA, to a student of another section', TOKENS.ta, ['9'], INVALID],
    ['a section-limited TA, to another section', TOKENS.ta, ['section_2'], RESTRICTED],
    ['a section-limited TA, to a group with no one in her section', TOKENS.ta, ['group_2'], RESTRICTED],
    ['an enrollment without the right to send messages, to a student', DESIGNER, ['7'], INVALID],
    ['an enrollment without the right to send messages, to a section', DESIGNER, ['section_1'], RESTRICTED],
  ] as const)('refuses %s', async (_what, token, recipients, expected) => {
    expect(await failure(as(token).conversations.create({ recipients: [...recipients], body: 'Hello' }))).toEqual(
      expected,
    );
  });

  it('drops the people out of reach when some are in reach', async () => {
    expect(await reached(TOKENS.observer, ['8', '3', '9'])).toEqual([3]);
  });

  it('adds to a group conversation only people in reach', async () => {
    const [c] = await as(TOKENS.observer).conversations.create({
      recipients: ['3', '5'],
      body: 'Hello',
      group_conversation: true,
    });
    expect(await failure(as(TOKENS.observer).conversations.addRecipients({ id: c.id, recipients: ['8'] }))).toEqual(
      INVALID,
    );
    expect(
      (await as(TOKENS.observer).conversations.addRecipients({ id: c.id, recipients: ['7', '8'] })).audience,
    ).toEqual([3, 5, 7]);
  });
});

describe('recipient search', () => {
  it.each([
    [
      'an observer, in the course: the instructors, the student observed, herself',
      TOKENS.observer,
      { context: 'course_1' },
      [5, 13, 7, 3],
    ],
    ["an observer, among the course's students", TOKENS.observer, { context: 'course_1_students' }, [7]],
    ['an observer, by name, for a student she does not observe', TOKENS.observer, { search: 'sofia' }, []],
    ['an observer, in a section', TOKENS.observer, { context: 'section_1' }, []],
    ['an observer, in a group', TOKENS.observer, { context: 'group_1' }, []],
    ["a student, among the course's observers: his own", TOKENS.student, { context: 'course_1_observers' }, [13]],
    [
      "another student, among the course's observers: none of hers",
      TOKENS.otherStudent,
      { context: 'course_1_observers' },
      [],
    ],
    ['a section-limited TA, in the course: her section', TOKENS.ta, { context: 'course_1' }, [5, 6, 11, 13, 7, 8, 3]],
    ['a section-limited TA, in another section', TOKENS.ta, { context: 'section_2' }, []],
    ['a section-limited TA, by name, for a student of another section', TOKENS.ta, { search: 'ravi' }, []],
    [
      'a section-limited TA, the sections she may address',
      TOKENS.ta,
      { search: 'section', type: 'context' },
      ['section_1'],
    ],
    ['an enrollment without the right to send messages, in the course', DESIGNER, { context: 'course_1' }, [5, 6, 3]],
    ['a student, in a group of his course he is not in', TOKENS.student, { context: 'group_2' }, [10, 9, 12]],
  ] as const)('finds %s', async (_what, token, params, expected) => {
    expect(idsOf(await collect(as(token).search.recipients(params as SearchRecipientsParams)))).toEqual(expected);
  });

  it("offers an observer the course's lists as she sees them, and no sections or groups", async () => {
    const found = await collect(
      as(TOKENS.observer).search.recipients({ context: 'course_1', synthetic_contexts: true, type: 'context' }),
    );
    expect(found.map((r) => [r.id, r.user_count])).toEqual([
      ['course_1_teachers', 1],
      ['course_1_tas', 1],
      ['course_1_students', 1],
      ['course_1_observers', 1],
    ]);
  });

  it('offers a section-limited TA her section and the groups with people in it', async () => {
    const found = await collect(
      as(TOKENS.ta).search.recipients({ context: 'course_1', synthetic_contexts: true, type: 'context' }),
    );
    expect(found.map((r) => [r.id, r.user_count ?? r.item_count])).toEqual([
      ['course_1_teachers', 1],
      ['course_1_tas', 1],
      ['course_1_students', 3],
      ['course_1_observers', 1],
      ['course_1_sections', 1],
      ['course_1_groups', 1],
    ]);
    expect(idsOf(await collect(as(TOKENS.ta).search.recipients({ search: 'group', type: 'context' })))).toEqual([
      'group_1',
    ]);
  });

  it('reports the courses a person shares with the caller as the caller sees them', async () => {
    const [sam] = await collect(as(TOKENS.observer).search.recipients({ user_id: 7 }));
    expect(sam).toMatchObject({ id: 7, common_courses: { 1: ['StudentEnrollment'] }, common_groups: {} });
  });
});
