// Submitting (types the assignment allows, sanitised HTML, URLs, uploads, media, attempts), and
// listing and reading submissions: graders see their students', students their own, observers
// their students'; both contexts (courses and sections, with SIS forms).
import { describe, expect, it } from 'vitest';
import type { Submission, StudentSubmissions } from '../../src/spec/types/submissions.js';
import { uploadFile } from '../../src/client/upload.js';
import { clientFor, collect, freshMock, statusOf, TOKENS } from '../helpers/mock-client.js';
import { value } from '../helpers/sql.js';

const ids = (subs: { user_id: number }[]) => subs.map((s) => s.user_id);

describe('submit', () => {
  it('keeps each attempt: a text entry, then a URL, with sanitised HTML and http assumed', async () => {
    const mock = freshMock();
    const sam = clientFor(mock, TOKENS.student);
    const first = await sam.ops.submissions.submit({
      course_id: 1,
      assignment_id: 3,
      submission: {
        submission_type: 'online_text_entry',
        body: '<p onclick="steal()">Hi<script>alert(1)</script></p><a href="javascript:x()">x</a>',
      },
      comment: { text_comment: 'First go' },
    });
    expect(first).toMatchObject({
      attempt: 2,
      submission_type: 'online_text_entry',
      body: '<p>Hi</p><a href="#">x</a>',
      workflow_state: 'submitted',
      grade: 'B+',
      grade_matches_current_submission: false,
    });
    expect(first.submission_comments?.at(-1)).toMatchObject({ author_id: 7, comment: 'First go' });
    const second = await sam.ops.submissions.submit({
      section_id: 'sis_section_id:BIO-101-A',
      assignment_id: 3,
      submission: { submission_type: 'online_url', url: 'example.edu/essay' },
    });
    expect(second).toMatchObject({ attempt: 3, submission_type: 'online_url', url: 'http://example.edu/essay' });
    const got = await sam.ops.submissions.get({
      course_id: 'sis_course_id:BIO-101',
      assignment_id: 3,
      user_id: 'self',
      include: ['submission_history'],
    });
    expect(got.submission_history!.map((h) => [h.attempt, h.submission_type])).toEqual([
      [1, 'online_text_entry'],
      [2, 'online_text_entry'],
      [3, 'online_url'],
    ]);
    // The B+ belongs to the attempt it was given on.
    expect(got.submission_history!.map((h) => h.grade)).toEqual(['B+', null, null]);
  });

  it.each([
    [
      'a type the assignment does not allow',
      { submission_type: 'online_upload', file_ids: [1] },
      'Invalid submission[submission_type] given',
    ],
    ['an unknown type', { submission_type: 'on_paper' }, 'Invalid submission[submission_type] given'],
    ['a text entry without a body', { submission_type: 'online_text_entry', body: '  ' }, 'Required: submission[body]'],
    ['a URL of another scheme', { submission_type: 'online_url', url: 'ftp://example.edu/x' }, 'http or https'],
    ['a URL without one', { submission_type: 'online_url' }, 'Required: submission[url]'],
  ])('refuses %s with a 400', async (_what, submission, message) => {
    const mock = freshMock();
    const sam = clientFor(mock, TOKENS.student);
    const before = await sam.ops.submissions.get({ course_id: 1, assignment_id: 3, user_id: 'self' });
    const err = await sam.ops.submissions
      .submit({ course_id: 1, assignment_id: 3, submission: submission as never })
      .catch((e: Error & { status: number }) => e);
    expect(err).toMatchObject({ status: 400 });
    expect(err.message).toContain(message);
    expect((await sam.ops.submissions.get({ course_id: 1, assignment_id: 3, user_id: 'self' })).attempt).toBe(
      before.attempt,
    );
  });

  it('takes uploaded files of the submitting student only, and media recordings', async () => {
    const mock = freshMock();
    const ravi = clientFor(mock, '9~mock-ravi');
    const ticket = await ravi.ops.submissions.uploadFile({
      course_id: 1,
      assignment_id: 1,
      user_id: 'self',
      name: 'report.txt',
      size: 5,
    });
    const file = await uploadFile(ravi, ticket, {
      name: 'report.txt',
      data: new TextEncoder().encode('cells'),
      contentType: 'text/plain',
    });
    const sub = await ravi.ops.submissions.submit({
      course_id: 1,
      assignment_id: 1,
      submission: { submission_type: 'online_upload', file_ids: [file.id] },
    });
    expect(sub).toMatchObject({ attempt: 2, submission_type: 'online_upload' });
    expect(sub.attachments?.map((a) => a.display_name)).toEqual(['report.txt']);
    // Sam may not submit Ravi's file, nor start an upload as Ravi.
    const sam = clientFor(mock, TOKENS.student);
    expect(
      await statusOf(
        sam.ops.submissions.submit({
          course_id: 1,
          assignment_id: 1,
          submission: { submission_type: 'online_upload', file_ids: [file.id] },
        }),
      ),
    ).toBe(400);
    expect(
      await statusOf(
        sam.ops.submissions.uploadFile({ course_id: 1, assignment_id: 1, user_id: 9, name: 'x.txt', size: 1 }),
      ),
    ).toBe(401);
    const lucas = clientFor(mock, '11~mock-lucas');
    const media = await lucas.ops.submissions.submit({
      course_id: 3,
      assignment_id: 6,
      submission: { submission_type: 'media_recording', media_comment_id: 'm-1', media_comment_type: 'audio' },
    });
    expect(media).toMatchObject({
      submission_type: 'media_recording',
      media_comment: { media_id: 'm-1', media_type: 'audio' },
    });
  });

  it.each([
    ['a teacher', TOKENS.teacher, 401],
    ['an observer', TOKENS.observer, 401],
    ['a student whose enrollment is completed', '12~mock-hana', 401],
    ['an inactive student', TOKENS.privateStudent, 401],
  ])('lets only active students submit: %s', async (_who, token, status) => {
    const mock = freshMock();
    expect(
      await statusOf(
        clientFor(mock, token).ops.submissions.submit({
          course_id: 2,
          assignment_id: 4,
          submission: { submission_type: 'online_upload', file_ids: [1] },
        }),
      ),
    ).toBe(status);
  });

  it('answers 201 with a Location', async () => {
    const mock = freshMock();
    const res = await mock.handler({
      method: 'POST',
      url: 'http://lms.mock/api/v1/courses/1/assignments/3/submissions',
      headers: { authorization: `Bearer ${TOKENS.student}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'submission[submission_type]=online_url&submission[url]=https://a.example',
    });
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe('http://lms.mock/api/v1/courses/1/assignments/3/submissions/7');
  });
});

describe('list and read', () => {
  it.each([
    ['the teacher: every student of the course', TOKENS.teacher, { course_id: 1 }, [7, 8, 9, 10, 11, 12]],
    ['a TA limited to section A: its students', TOKENS.ta, { course_id: 1 }, [7, 8, 11]],
    ['the teacher through section B', TOKENS.teacher, { section_id: 'sis_section_id:BIO-101-B' }, [9, 10, 12]],
  ] as const)('%s', async (_who, token, where, expected) => {
    const mock = freshMock();
    const subs = await collect(
      clientFor(mock, token, { perPage: 2 }).ops.submissions.list({ ...where, assignment_id: 1 }),
    );
    expect(ids(subs)).toEqual(expected);
  });

  // Real instances ask for manage_grades or view_all_grades before anything else (a missing
  // assignment included); a student or an observer lists through /students/submissions.
  it.each([
    ['a student', TOKENS.student, { course_id: 1 }, 1],
    ['a student, through their section', TOKENS.student, { section_id: 1 }, 1],
    ['a student, of an assignment that does not exist', TOKENS.student, { course_id: 1 }, 999],
    ['an observer', TOKENS.observer, { course_id: 1 }, 1],
  ] as const)(
    "refuses every student's submissions of an assignment to %s (401)",
    async (_who, token, where, assignment) => {
      const mock = freshMock();
      expect(
        await statusOf(collect(clientFor(mock, token).ops.submissions.list({ ...where, assignment_id: assignment }))),
      ).toBe(401);
    },
  );

  it(
    'lists the current students only: a concluded, inactive or deleted enrollment leaves the course and section ' +
      'lists',
    async () => {
      const mock = freshMock();
      const teacher = clientFor(mock, TOKENS.teacher);
      const listed = async (where: { course_id: number } | { section_id: number }, assignment: number) =>
        ids(await collect(teacher.ops.submissions.list({ ...where, assignment_id: assignment })));
      // CHEM-201: Hana's enrollment is completed and Mina's inactive; Lucas is invited (a current student).
      expect(await listed({ course_id: 2 }, 4)).toEqual([7, 8, 9, 11]);
      expect(await listed({ section_id: 3 }, 4)).toEqual([7, 8, 9, 11]);
      // Their submissions stay, and a list across students still shows the concluded one's.
      const across = (await collect(
        teacher.ops.submissions.listStudents({ course_id: 2, student_ids: ['all'], assignment_ids: [4] }),
      )) as Submission[];
      expect(ids(across)).toEqual([7, 8, 9, 11, 12]);

      // BIO-101: Sam (section A) concluded, Lucas (A) deactivated, Mina (B) deleted.
      const enrollment = (user: number) =>
        value(
          mock.db,
          `SELECT id FROM enrollments WHERE course_id = 1 AND user_id = ? AND type = 'StudentEnrollment'`,
          user,
        ) as number;
      for (const [user, task] of [
        [7, 'conclude'],
        [11, 'deactivate'],
        [10, 'delete'],
      ] as const) {
        await teacher.ops.enrollments.end({ course_id: 1, id: enrollment(user), task });
      }
      expect(await listed({ course_id: 1 }, 1)).toEqual([8, 9, 12]);
      expect(await listed({ section_id: 1 }, 1)).toEqual([8]);
      expect(await listed({ section_id: 2 }, 1)).toEqual([9, 12]);
      // A concluded or inactive student's submission is kept, only no longer listed.
      expect(value(mock.db, `SELECT count(*) FROM submissions WHERE assignment_id = 1 AND user_id IN (7, 11)`)).toBe(2);
    },
  );

  it('shows every state: graded, late, submitted, missing, resubmitted after grading', async () => {
    const mock = freshMock();
    const subs = await collect(
      clientFor(mock, TOKENS.teacher).ops.submissions.list({ course_id: 1, assignment_id: 1, include: ['user'] }),
    );
    const view = subs.map((s) => [
      s.user_id,
      s.workflow_state,
      s.grade,
      s.late,
      s.missing,
      s.grade_matches_current_submission,
    ]);
    expect(view).toEqual([
      [7, 'graded', '19', false, false, true],
      [8, 'graded', '15', true, false, true],
      [9, 'submitted', null, false, false, true],
      [10, 'unsubmitted', null, false, true, true],
      [11, 'submitted', '20', true, false, false],
      [12, 'unsubmitted', null, false, true, true],
    ]);
    expect(subs[0].user).toMatchObject({ id: 7, login_id: 'sam', sis_user_id: 'S-007' });
  });

  it('reads one submission with its comments, rubric assessment and assignment', async () => {
    const mock = freshMock();
    const s = await clientFor(mock, TOKENS.observer).ops.submissions.get({
      course_id: 1,
      assignment_id: 1,
      user_id: 'sis_user_id:S-007',
      include: ['submission_comments', 'rubric_assessment', 'assignment'],
    });
    expect(s.submission_comments!.map((c) => c.author_name)).toEqual(['Tess Teacher', 'Sam Student']);
    expect(s.rubric_assessment).toEqual({
      hypothesis: { rating_id: 'hyp_full', points: 5, comments: null },
      method: { rating_id: 'met_full', points: 5, comments: null },
      analysis: { rating_id: 'ana_full', points: 9, comments: 'Discuss the error bars.' },
    });
    expect(s.assignment).toMatchObject({ id: 1, name: 'Cell Structure Lab Report' });
  });

  it.each([
    ['a student reading another', TOKENS.student, 1, 8, 401],
    ['the observer reading a student they do not observe', TOKENS.observer, 1, 8, 401],
    ['the limited TA reading section B', TOKENS.ta, 1, 9, 401],
    ['a user who is no student of the course', TOKENS.teacher, 1, 13, 404],
    ['an assignment of another course', TOKENS.teacher, 4, 7, 404],
  ])('refuses %s', async (_what, token, assignment, user, status) => {
    const mock = freshMock();
    expect(
      await statusOf(
        clientFor(mock, token).ops.submissions.get({ course_id: 1, assignment_id: assignment, user_id: user }),
      ),
    ).toBe(status);
  });

  it('lists students across assignments: the caller by default, chosen students, grouped with totals', async () => {
    const mock = freshMock();
    const sam = clientFor(mock, TOKENS.student);
    const mine = (await collect(sam.ops.submissions.listStudents({ course_id: 1 }))) as Submission[];
    expect(mine.map((s) => [s.user_id, s.assignment_id])).toEqual([
      [7, 1],
      [7, 2],
      [7, 3],
    ]);
    expect(await statusOf(collect(sam.ops.submissions.listStudents({ course_id: 1, student_ids: [8] })))).toBe(401);
    const teacher = clientFor(mock, TOKENS.teacher);
    const two = (await collect(
      teacher.ops.submissions.listStudents({
        course_id: 1,
        student_ids: [8, 'sis_user_id:S-009'],
        assignment_ids: [1],
      }),
    )) as Submission[];
    expect(two.map((s) => [s.user_id, s.assignment_id, s.grade])).toEqual([
      [8, 1, '15'],
      [9, 1, null],
    ]);
    const grouped = (await collect(
      teacher.ops.submissions.listStudents({
        course_id: 1,
        student_ids: ['all'],
        grouped: true,
        include: ['total_scores'],
      }),
    )) as StudentSubmissions[];
    expect(grouped.map((g) => g.user_id)).toEqual([7, 8, 9, 10, 11, 12]);
    // Sam: 19/20 + 10/10 + 89/100 graded of 130 points.
    expect(grouped[0]).toMatchObject({ computed_current_score: 90.77, computed_final_score: 90.77 });
    expect(grouped[0].submissions.map((s) => s.assignment_id)).toEqual([1, 2, 3]);
    const observed = (await collect(
      clientFor(mock, TOKENS.observer).ops.submissions.listStudents({ course_id: 1, student_ids: ['all'] }),
    )) as Submission[];
    expect(new Set(observed.map((s) => s.user_id))).toEqual(new Set([7]));
  });
});

describe('an assignment deleted', () => {
  it('keeps its submissions, versions and rubric, as real instances do, and shows them to no one', async () => {
    const mock = freshMock();
    const { deleteAssignment } = await import('../../src/mock/areas/assignments/repo.js');
    const count = (table: string, where: string) =>
      value(mock.db, `SELECT count(*) FROM ${table} WHERE ${where}`) as number;
    const kept = () => [
      count('submissions', 'assignment_id = 1'),
      count('submission_versions', 'assignment_id = 1'),
      count('rubric_associations', `association_type = 'Assignment' AND association_id = 1`),
      count('rubric_assessments', 'rubric_id = 1'),
    ];
    const before = kept();
    expect(before.every((n) => n > 0)).toBe(true);
    mock.db.transaction(() => deleteAssignment(mock.db, 1, '2026-11-02T12:00:00.000Z'));
    expect(kept()).toEqual(before);
    const teacher = clientFor(mock, TOKENS.teacher);
    const assignmentIds = (ids: { id: number }[]) => ids.map((a) => a.id);
    expect(assignmentIds(await collect(teacher.ops.assignments.list({ course_id: 1 })))).not.toContain(1);
    expect(await statusOf(teacher.ops.assignments.get({ course_id: 1, id: 1 }))).toBe(404);
    expect(await statusOf(teacher.ops.submissions.get({ course_id: 1, assignment_id: 1, user_id: 7 }))).toBe(404);
    expect(
      (await collect(teacher.ops.submissions.listStudents({ course_id: 1, student_ids: ['all'] }))).map(
        (s) => s.assignment_id,
      ),
    ).not.toContain(1);
    expect(
      (await teacher.ops.history.days({ course_id: 1 })).flatMap((d) =>
        d.graders.flatMap((g) => g.assignments.map((a) => a.id)),
      ),
    ).not.toContain(1);
    expect((await collect(teacher.ops.history.feed({ course_id: 1 }))).map((v) => v.assignment_id)).not.toContain(1);
  });

  it('is what deleting a graded topic does: the grades given in it stay', async () => {
    const mock = freshMock();
    const teacher = clientFor(mock, TOKENS.teacher);
    const topic = await teacher.ops.discussions.createTopic({
      course_id: 1,
      title: 'Graded talk',
      published: true,
      assignment: { points_possible: 10 },
    } as never);
    const assignmentId = (topic as { assignment_id: number }).assignment_id;
    await teacher.ops.submissions.grade({
      course_id: 1,
      assignment_id: assignmentId,
      user_id: 7,
      submission: { posted_grade: '8' },
    });
    await teacher.ops.discussions.deleteTopic({ course_id: 1, topic_id: topic.id } as never);
    expect(value(mock.db, `SELECT score FROM submissions WHERE assignment_id = ? AND user_id = 7`, assignmentId)).toBe(
      8,
    );
    expect(await statusOf(teacher.ops.assignments.get({ course_id: 1, id: assignmentId }))).toBe(404);
  });
});
