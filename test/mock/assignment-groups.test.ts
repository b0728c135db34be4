// A course's assignment groups in the mock, and the grades the course computes from them: groups
// in position order, weights and drop rules checked as given, a delete that moves the group's
// assignments or takes them along, and Canvas's GradeCalculator (drop rules that keep the best
// ratio, weights scaled when those that count come to less than 100) behind the submissions
// list's totals and the enrollments' grades.
import { beforeEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/client/client.js';
import { courseScores } from '../../src/spec/course-grades.js';
import type { MockRuntime } from '../../src/mock/runtime.js';
import type { StudentSubmissions } from '../../src/spec/types/submissions.js';
import { clientFor, collect, failure, freshMock, statusOf, TOKENS } from '../helpers/mock-client.js';

let mock: MockRuntime;
beforeEach(() => {
  mock = freshMock();
});

const as = (token: string): ApiClient['ops'] => clientFor(mock, token).ops;
const teacher = () => as(TOKENS.teacher);
const C = { course_id: 1 };

async function samTotals(): Promise<[number | null | undefined, number | null | undefined]> {
  const [sam] = (await collect(
    teacher().submissions.listStudents({ course_id: 1, student_ids: [7], grouped: true, include: ['total_scores'] }),
  )) as StudentSubmissions[];
  return [sam.computed_current_score, sam.computed_final_score];
}

describe('assignment groups', () => {
  it('lists the seeded groups in order, with their assignments on request', async () => {
    const groups = await collect(teacher().assignmentGroups.list({ ...C, include: ['assignments'] }));
    expect(groups.map((g) => [g.id, g.name, g.position, g.group_weight, g.rules])).toEqual([
      [1, 'Assignments', 1, 0, {}],
      [6, 'Exams', 2, 0, {}],
    ]);
    expect(groups[0].assignments?.map((a) => [a.id, a.assignment_group_id])).toEqual([
      [1, 1],
      [2, 1],
      [3, 1],
    ]);
    expect(groups[1].assignments).toEqual([]);
    expect((await teacher().assignmentGroups.get({ ...C, assignment_group_id: 1 })).assignments).toBeUndefined();
  });

  it('shows students the published assignments only', async () => {
    await teacher()
      .assignments.update({ ...C, id: 3, assignment: { published: false } })
      .catch(() => undefined);
    const made = await teacher().assignments.create({
      ...C,
      assignment: { name: 'Draft lab', published: false, assignment_group_id: 6 },
    });
    const [, exams] = await collect(as(TOKENS.student).assignmentGroups.list({ ...C, include: ['assignments'] }));
    expect(exams.assignments).toEqual([]);
    const [, staff] = await collect(teacher().assignmentGroups.list({ ...C, include: ['assignments'] }));
    expect(staff.assignments?.map((a) => a.id)).toEqual([made.id]);
  });

  it('creates at the end or at a position, and reorders the rest around a move', async () => {
    const labs = await teacher().assignmentGroups.create({ ...C, name: 'Labs', group_weight: 30 });
    expect(labs).toMatchObject({ name: 'Labs', position: 3, group_weight: 30, rules: {} });
    const first = await teacher().assignmentGroups.create({ ...C, name: 'Participation', position: 1 });
    expect(first.position).toBe(1);
    await teacher().assignmentGroups.update({ ...C, assignment_group_id: labs.id, position: 2 });
    const order = (await collect(teacher().assignmentGroups.list(C))).map((g) => [g.name, g.position]);
    expect(order).toEqual([
      ['Participation', 1],
      ['Labs', 2],
      ['Assignments', 3],
      ['Exams', 4],
    ]);
  });

  it('keeps drop rules as given, and refuses what is not a count', async () => {
    const g = await teacher().assignmentGroups.update({
      ...C,
      assignment_group_id: 1,
      rules: { drop_lowest: 1, drop_highest: 0, never_drop: [3] },
    });
    // A 0 is kept: canvas-lms's AssignmentGroup#rules_hash= writes every count it is given.
    expect(g.rules).toEqual({ drop_lowest: 1, drop_highest: 0, never_drop: [3] });
    expect(
      await failure(teacher().assignmentGroups.update({ ...C, assignment_group_id: 1, rules: { drop_lowest: -1 } })),
    ).toMatchObject({ status: 400 });
    expect(
      await failure(teacher().assignmentGroups.update({ ...C, assignment_group_id: 1, group_weight: 'lots' as never })),
    ).toMatchObject({ status: 400 });
    // Rules not named stay.
    expect((await teacher().assignmentGroups.update({ ...C, assignment_group_id: 1, name: 'Homework' })).rules).toEqual(
      { drop_lowest: 1, drop_highest: 0, never_drop: [3] },
    );
  });

  it('deletes a group, moving its assignments, or taking them along', async () => {
    await teacher().assignmentGroups.delete({ ...C, assignment_group_id: 1, move_assignments_to: 6 });
    expect((await teacher().assignments.get({ ...C, id: 1 })).assignment_group_id).toBe(6);
    expect(await statusOf(teacher().assignmentGroups.get({ ...C, assignment_group_id: 1 }))).toBe(404);
    expect(
      await failure(teacher().assignmentGroups.delete({ ...C, assignment_group_id: 6, move_assignments_to: 99 })),
    ).toMatchObject({ status: 400 });
    const gone = await teacher().assignmentGroups.delete({ ...C, assignment_group_id: 6 });
    expect(gone.workflow_state).toBe('deleted');
    expect(await statusOf(teacher().assignments.get({ ...C, id: 1 }))).toBe(404);
    // A course left with no group makes "Assignments" again for its next assignment.
    const next = await teacher().assignments.create({ ...C, assignment: { name: 'Fresh start' } });
    const [again] = await collect(teacher().assignmentGroups.list(C));
    expect([again.name, next.assignment_group_id]).toEqual(['Assignments', again.id]);
  });

  it('assignments name their group on create and update, a group of the same course only', async () => {
    const a = await teacher().assignments.create({ ...C, assignment: { name: 'Midterm', assignment_group_id: 6 } });
    expect(a.assignment_group_id).toBe(6);
    const groupOfChem = (await collect(as(TOKENS.admin).assignmentGroups.list({ course_id: 2 })))[0].id;
    expect(
      await failure(teacher().assignments.update({ ...C, id: a.id, assignment: { assignment_group_id: groupOfChem } })),
    ).toMatchObject({ status: 400 });
  });

  it('only those who manage the content write them; every reader reads them', async () => {
    for (const token of [TOKENS.student, TOKENS.observer, TOKENS.otherTeacher])
      expect(await statusOf(as(token).assignmentGroups.create({ ...C, name: 'Mine' }))).toBe(401);
    expect(await statusOf(as(TOKENS.ta).assignmentGroups.create({ ...C, name: 'TA group' }))).toBe('ok');
    expect(await statusOf(as(TOKENS.observer).assignmentGroups.get({ ...C, assignment_group_id: 1 }))).toBe('ok');
  });
});

describe("the course's grade", () => {
  it('is points over points until the course weighs its groups', async () => {
    // Sam: 19/20 + 10/10 + 89/100.
    expect(await samTotals()).toEqual([90.77, 90.77]);
    const essays = await teacher().assignmentGroups.create({ ...C, name: 'Essays', group_weight: 40 });
    await teacher().assignments.update({ ...C, id: 3, assignment: { assignment_group_id: essays.id } });
    await teacher().assignmentGroups.update({ ...C, assignment_group_id: 1, group_weight: 60 });
    expect(await samTotals()).toEqual([90.77, 90.77]);
    const course = await teacher().courses.update({ id: 1, course: { apply_assignment_group_weights: true } });
    expect(course.apply_assignment_group_weights).toBe(true);
    // 29/30 × 60 + 89/100 × 40.
    expect(await samTotals()).toEqual([93.6, 93.6]);
    // Dropping the lowest of the first group keeps 10/10.
    await teacher().assignmentGroups.update({ ...C, assignment_group_id: 1, rules: { drop_lowest: 1 } });
    expect(await samTotals()).toEqual([95.6, 95.6]);
    // …unless it may never be dropped: then 19/20 goes.
    await teacher().assignmentGroups.update({
      ...C,
      assignment_group_id: 1,
      rules: { drop_lowest: 1, never_drop: [2] },
    });
    expect(await samTotals()).toEqual([95.6, 95.6]);
    await teacher().assignmentGroups.update({
      ...C,
      assignment_group_id: 1,
      rules: { drop_lowest: 1, never_drop: [1] },
    });
    expect(await samTotals()).toEqual([92.6, 92.6]);
  });

  it(
    "shows in a student enrollment's grades to the " + 'student, their observer and their teachers, no one else',
    async () => {
      const grades = async (token: string) =>
        (await collect(as(token).enrollments.listCourse({ course_id: 1, user_id: 7 } as never))).find(
          (e) => e.user_id === 7 && e.type === 'StudentEnrollment',
        )?.grades as Record<string, unknown> | undefined;
      for (const token of [TOKENS.teacher, TOKENS.ta])
        expect(await grades(token)).toMatchObject({ current_score: 90.77, final_score: 90.77 });
      const own = await collect(as(TOKENS.student).enrollments.listUser({ user_id: 'self' }));
      expect(own.find((e) => e.course_id === 1)?.grades).toMatchObject({ current_score: 90.77 });
      const sofia = await collect(as(TOKENS.otherStudent).enrollments.listCourse({ course_id: 1 }));
      const samSeen = sofia.find((e) => e.user_id === 7 && e.type === 'StudentEnrollment');
      if (samSeen) expect(samSeen.grades).toEqual({ html_url: expect.any(String) });
    },
  );

  it('a teacher may turn weighting on, but nothing else of the course', async () => {
    expect(
      await statusOf(
        teacher().courses.update({ id: 1, course: { apply_assignment_group_weights: true, name: 'Bio' } }),
      ),
    ).toBe(401);
    expect(
      await statusOf(as(TOKENS.student).courses.update({ id: 1, course: { apply_assignment_group_weights: true } })),
    ).toBe(401);
    expect((await as(TOKENS.student).courses.get({ id: 1 })).apply_assignment_group_weights).toBe(false);
  });
});

describe('the grade calculator', () => {
  const work = (group: number, ...subs: [number, number | null, number][]) =>
    subs.map(([id, score, points]) => ({ assignment_id: id, group_id: group, points, score, excused: 0 }));
  const group = (id: number, weight = 0, rules = {}) => ({ id, group_weight: weight, rules });

  it('drops the score whose loss raises the ratio most, not the lowest percentage', () => {
    // Dropping 4/10 (40%) leaves 140/200; dropping 45/100 (45%) leaves 99/110.
    const w = work(1, [1, 4, 10], [2, 45, 100], [3, 95, 100]);
    expect(courseScores(w, [group(1, 0, { drop_lowest: 1 })], false).current_score).toBe(90);
    expect(courseScores(w, [group(1, 0, { drop_highest: 1 })], false).current_score).toBe(44.55);
  });

  it('never drops a group to nothing, and leaves never-drop work alone', () => {
    const w = work(1, [1, 5, 10], [2, 10, 10]);
    expect(courseScores(w, [group(1, 0, { drop_lowest: 5 })], false).current_score).toBe(100);
    expect(courseScores(w, [group(1, 0, { drop_lowest: 1, never_drop: [1] })], false).current_score).toBe(50);
  });

  it('scales weights that come to less than 100, and does not scale more than 100 down', () => {
    const w = [...work(1, [1, 8, 10]), ...work(2, [2, 5, 10])];
    expect(courseScores(w, [group(1, 30), group(2, 20)], true).current_score).toBe(68);
    expect(courseScores(w, [group(1, 80), group(2, 40)], true).current_score).toBe(84);
    // A group with nothing graded yet does not count now, and counts as zero in the final grade.
    const pending = [...work(1, [1, 8, 10]), ...work(2, [2, null, 10])];
    expect(courseScores(pending, [group(1, 50), group(2, 50)], true)).toEqual({ current_score: 80, final_score: 40 });
    expect(courseScores([], [group(1, 50)], true)).toEqual({ current_score: null, final_score: null });
  });

  it('leaves excused work out of both', () => {
    const w = work(1, [1, 8, 10], [2, null, 10]);
    w[1].excused = 1;
    expect(courseScores(w, [group(1)], false)).toEqual({ current_score: 80, final_score: 80 });
  });
});
