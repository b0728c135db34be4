// Submissions of the seeded school in every state — unsubmitted, submitted, late, graded, resubmitted
// after grading — with comments, a rubric assessment, and a grading history over several days and
// graders. HIST-110 adds assignments of the remaining grading and submission types, one letter-graded
// with the course's own scheme.
import { interpretGrade } from '../../../spec/grading.js';
import type { Db } from '../../db/open.js';
import type { SeedOptions } from '../../area.js';
import { assignmentById, createAssignment, createGradingStandard, gradingSchemeOf } from '../assignments/repo.js';
import { courseById } from '../../school/courses/repo.js';
import { courseDay } from './present.js';
import { gradeNotice, submissionNotice } from '../activity/notifications.js';
import { addAttempt, addComment, ensureSubmission, setGrade, submissionById, type NewAttempt } from './repo.js';

export const HIST_SCHEME = [
  { name: 'A', value: 0.9 },
  { name: 'B', value: 0.8 },
  { name: 'C', value: 0.7 },
  { name: 'D', value: 0.6 },
  { name: 'F', value: 0 },
];

export function seedSubmissions(db: Db, { minimal, now }: SeedOptions): void {
  if (minimal) return;
  const standard = createGradingStandard(db, {
    id: 1,
    courseId: 3,
    title: 'HIST-110 Letters',
    scheme: HIST_SCHEME,
    now,
  });
  const hist = [
    {
      id: 6,
      name: 'Oral History Interview',
      points: 30,
      type: 'points',
      sub: ['media_recording'],
      due: '2026-10-09T23:59:00Z',
    },
    {
      id: 7,
      name: 'Archive Visit Reflection',
      points: 0,
      type: 'not_graded',
      sub: ['online_text_entry'],
      due: '2026-10-16T23:59:00Z',
    },
    {
      id: 8,
      name: 'Research Paper',
      points: 100,
      type: 'letter_grade',
      sub: ['online_upload', 'online_text_entry', 'online_url'],
      due: '2026-11-20T23:59:00Z',
      standard,
    },
  ];
  for (const a of hist) {
    createAssignment(db, {
      id: a.id,
      course: 3,
      name: a.name,
      description: `<p>${a.name}</p>`,
      points: a.points,
      gradingType: a.type,
      submissionTypes: a.sub,
      dueAt: a.due,
      gradingStandardId: a.standard ?? null,
      published: true,
      now,
    });
  }
  const submit = (assignment: number, user: number, at: string, attempt: NewAttempt) => {
    const a = assignmentById(db, assignment)!;
    return addAttempt(db, ensureSubmission(db, a, user, at), attempt, at);
  };
  const grade = (assignment: number, user: number, posted: string, grader: number, at: string) => {
    const a = assignmentById(db, assignment)!;
    const r = interpretGrade(
      { grading_type: a.grading_type, points_possible: a.points_possible, grading_scheme: gradingSchemeOf(db, a) },
      posted,
    );
    if ('error' in r) throw new Error(`seed grade ${posted}: ${r.error}`);
    const sub = ensureSubmission(db, a, user, at);
    setGrade(db, sub, { ...r, graderId: grader, now: at, day: courseDay(at, courseById(db, a.course_id)!.time_zone) });
    // As a grade given through the API does: the student's stream and messages show it.
    gradeNotice(db, submissionById(db, sub.id)!, a.name, grader, at);
  };
  const comment = (assignment: number, user: number, author: number, text: string, at: string) => {
    const sub = ensureSubmission(db, assignmentById(db, assignment)!, user, at);
    addComment(db, { submissionId: sub.id, authorId: author, comment: text, attempt: sub.attempt, now: at });
    if (author !== user) submissionNotice(db, sub, author, at);
  };
  const text = (body: string): NewAttempt => ({ type: 'online_text_entry', body: `<p>${body}</p>` });

  // BIO-101 lab report (points, due 09-14): on time and regraded, late, submitted, missing, resubmitted after grading.
  submit(1, 7, '2026-09-13T18:20:00Z', text('Onion cells under 400x.'));
  grade(1, 7, '18', 3, '2026-09-16T14:05:00Z');
  comment(1, 7, 3, 'Good drawings; label the cell wall.', '2026-09-16T14:06:00Z');
  comment(1, 7, 7, 'Thanks, I added the labels.', '2026-09-17T09:00:00Z');
  grade(1, 7, '19', 3, '2026-09-18T15:30:00Z');
  submit(1, 8, '2026-09-15T02:10:00Z', text('Cheek cells with methylene blue.'));
  grade(1, 8, '15', 5, '2026-09-16T16:45:00Z');
  submit(1, 9, '2026-09-14T20:00:00Z', text('Elodea leaf cells.'));
  submit(1, 11, '2026-09-12T11:00:00Z', text('First draft.'));
  grade(1, 11, '20', 3, '2026-09-17T13:00:00Z');
  submit(1, 11, '2026-09-20T10:00:00Z', text('Revised with a second slide.'));
  // 10 and 12 never submitted: missing.

  // Microscope quiz (pass_fail).
  submit(2, 7, '2026-09-06T10:00:00Z', text('Carry it with two hands.'));
  grade(2, 7, 'complete', 5, '2026-09-08T15:00:00Z');
  submit(2, 8, '2026-09-07T22:00:00Z', text('Use the coarse knob at 400x.'));
  grade(2, 8, 'incomplete', 3, '2026-09-08T15:20:00Z');

  // Genetics essay (letters, the default scheme).
  submit(3, 7, '2026-10-18T21:00:00Z', text('Mendel, peas and probability.'));
  grade(3, 7, 'B+', 3, '2026-10-21T17:00:00Z');
  comment(3, 7, 3, 'A clear argument; cite the Mendel paper directly.', '2026-10-21T17:01:00Z');
  submit(3, 9, '2026-10-20T08:00:00Z', { type: 'online_url', url: 'https://docs.example.edu/ravi/genetics-essay' });

  // CHEM-201's problem set takes uploads only: nobody has handed it in yet.

  // HIST-110.
  submit(5, 10, '2026-09-27T16:00:00Z', text('The Magna Carta, read closely.'));
  grade(5, 10, '85%', 4, '2026-09-30T14:00:00Z');
  submit(5, 11, '2026-09-29T03:00:00Z', text('The Rosetta Stone.'));
  submit(6, 12, '2026-10-08T12:00:00Z', { type: 'media_recording', mediaId: 'm-hist-0012', mediaType: 'audio' });
  grade(6, 12, '27', 4, '2026-10-12T19:00:00Z');
  submit(7, 11, '2026-10-15T12:00:00Z', text('The county archive keeps ledgers back to 1850.'));
  submit(8, 11, '2026-11-01T12:00:00Z', text('Trade routes of the Hanseatic League.'));
  grade(8, 11, 'B', 4, '2026-11-01T23:30:00Z');
}
