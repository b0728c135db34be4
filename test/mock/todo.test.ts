// The to-do list, derived from what the other commands do: a submission makes a grading item for
// the teacher, grading it takes it away; an assignment due this week is a student's item until they
// submit; ignored items stay away until they change, permanently ignored ones for good.
import { describe, expect, it } from 'vitest';
import { clientFor, freshMock, statusOf, TOKENS } from '../helpers/mock-client.js';
import { session } from '../helpers/run-lms.js';

const WORKSHEET = 'Stereochemistry Worksheet';

async function setUp() {
  const mock = freshMock();
  const teacher = clientFor(mock, TOKENS.teacher);
  const sam = clientFor(mock, TOKENS.student);
  const sofia = clientFor(mock, TOKENS.otherStudent);
  const todo = async (who: typeof teacher) =>
    (await who.ops.users.todo({})).map((t) => [t.type, t.assignment.name, t.needs_grading_count ?? null]);
  const worksheet = (await sam.ops.users.todo({})).find((t) => t.assignment.name === WORKSHEET)!.assignment.id;
  return { mock, teacher, sam, sofia, todo, worksheet };
}

describe('GET /api/v1/users/self/todo', () => {
  it('gives a student what is due this week and not turned in, and takes it away once submitted', async () => {
    const { sam, todo, worksheet } = await setUp();
    expect(await todo(sam)).toEqual([['submitting', WORKSHEET, null]]);
    const item = (await sam.ops.users.todo({}))[0]!;
    expect(item).toMatchObject({
      course_id: 2,
      context_type: 'course',
      html_url: `http://lms.mock/courses/2/assignments/${worksheet}#submit`,
      ignore: `http://lms.mock/api/v1/users/self/todo/assignment_${worksheet}/submitting?permanent=0`,
      ignore_permanently: `http://lms.mock/api/v1/users/self/todo/assignment_${worksheet}/submitting?permanent=1`,
    });
    await sam.ops.submissions.submit({
      course_id: 2,
      assignment_id: worksheet,
      submission: { submission_type: 'online_text_entry', body: 'answers' },
    });
    expect(await todo(sam)).toEqual([]);
  });

  it('gives the teacher a grading item when a student submits, counts it, and takes it away when graded', async () => {
    const { teacher, sam, sofia, todo, worksheet } = await setUp();
    const before = (await todo(teacher)).filter((t) => t[1] === WORKSHEET);
    expect(before).toEqual([]);
    await sam.ops.submissions.submit({
      course_id: 2,
      assignment_id: worksheet,
      submission: { submission_type: 'online_text_entry', body: 'mine' },
    });
    await sofia.ops.submissions.submit({
      course_id: 2,
      assignment_id: worksheet,
      submission: { submission_type: 'online_text_entry', body: 'hers' },
    });
    expect((await todo(teacher)).filter((t) => t[1] === WORKSHEET)).toEqual([['grading', WORKSHEET, 2]]);
    expect((await teacher.ops.assignments.get({ course_id: 2, id: worksheet })).needs_grading_count).toBe(2);
    await teacher.ops.submissions.grade({
      course_id: 2,
      assignment_id: worksheet,
      user_id: 7,
      submission: { posted_grade: '14' },
    });
    expect((await todo(teacher)).filter((t) => t[1] === WORKSHEET)).toEqual([['grading', WORKSHEET, 1]]);
    await teacher.ops.submissions.grade({
      course_id: 2,
      assignment_id: worksheet,
      user_id: 8,
      submission: { posted_grade: '15' },
    });
    expect((await todo(teacher)).filter((t) => t[1] === WORKSHEET)).toEqual([]);
  });

  it('keeps an ignored item away until it changes, and a permanently ignored one for good', async () => {
    const { teacher, sam, sofia, todo, worksheet } = await setUp();
    await sam.ops.submissions.submit({
      course_id: 2,
      assignment_id: worksheet,
      submission: { submission_type: 'online_text_entry', body: 'mine' },
    });
    expect(
      await teacher.ops.users.ignoreTodo({ asset_string: `assignment_${worksheet}`, purpose: 'grading', permanent: 0 }),
    ).toEqual({ ignored: true });
    expect((await todo(teacher)).filter((t) => t[1] === WORKSHEET)).toEqual([]);
    // a second submission changes the item: it comes back
    await sofia.ops.submissions.submit({
      course_id: 2,
      assignment_id: worksheet,
      submission: { submission_type: 'online_text_entry', body: 'hers' },
    });
    expect((await todo(teacher)).filter((t) => t[1] === WORKSHEET)).toEqual([['grading', WORKSHEET, 2]]);
    await teacher.ops.users.ignoreTodo({ asset_string: `assignment_${worksheet}`, purpose: 'grading', permanent: 1 });
    // a resubmission changes the item, but it was set aside for good
    await sam.ops.submissions.submit({
      course_id: 2,
      assignment_id: worksheet,
      submission: { submission_type: 'online_text_entry', body: 'mine, again' },
    });
    expect((await todo(teacher)).filter((t) => t[1] === WORKSHEET)).toEqual([]);
  });

  it.each([
    ['an unknown purpose', 'assignment_1', 'reading', 400],
    ['an asset that is no assignment', 'quiz_1', 'grading', 400],
    ['an assignment that does not exist', 'assignment_9999', 'grading', 404],
  ] as const)('refuses %s', async (_what, asset, purpose, status) => {
    const { teacher } = await setUp();
    expect(
      await statusOf(
        teacher.ops.users.ignoreTodo({ asset_string: asset, purpose: purpose as 'grading', permanent: 0 }),
      ),
    ).toBe(status);
  });

  it('shows a section-limited TA only what their section submitted', async () => {
    const { mock, todo } = await setUp();
    const ta = clientFor(mock, TOKENS.ta);
    const teacher = clientFor(mock, TOKENS.teacher);
    const counts = async (who: typeof ta) => Object.fromEntries((await todo(who)).map((t) => [t[1], t[2]]));
    const tara = await counts(ta);
    const tess = await counts(teacher);
    expect(tara['Cell Structure Lab Report']).toBeLessThan(tess['Cell Structure Lab Report'] as number);
  });
});

describe('lms todo', () => {
  it('lists the items, and ignore sets one aside by assignment id', async () => {
    const lms = session();
    const listed = await lms.run('todo -o json --fields type,assignment.name', { env: { LMS_TOKEN: TOKENS.student } });
    expect(JSON.parse(listed.stdout)).toEqual([{ type: 'submitting', 'assignment.name': WORKSHEET }]);
    const id = (
      JSON.parse((await lms.run('todo -o json', { env: { LMS_TOKEN: TOKENS.student } })).stdout) as {
        assignment: { id: number };
      }[]
    )[0]!.assignment.id;
    const ignored = await lms.run(`todo ignore assignment_${id} --permanently -o json`, {
      env: { LMS_TOKEN: TOKENS.student },
    });
    expect(JSON.parse(ignored.stdout)).toEqual({ ignored: true });
    expect(JSON.parse((await lms.run('todo -o json', { env: { LMS_TOKEN: TOKENS.student } })).stdout)).toEqual([]);
  });

  it.each([
    ['an id that is no assignment id', 'todo ignore quiz_3', 'give an assignment id'],
    ['an assignment not on the list', 'todo ignore 2', 'assignment 2 is not on your to-do list'],
  ])('refuses %s with exit 2', async (_what, line, message) => {
    const r = await session().run(line, { env: { LMS_TOKEN: TOKENS.student } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(message);
  });
});
