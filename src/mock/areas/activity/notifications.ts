// The notifications other areas send, in one place so that their wording and categories agree.
import type { Db } from '../../db/open.js';
import { courseById } from '../../school/courses/repo.js';
import { usersInCourse } from '../../school/enrollments/repo.js';
import { membersOfGroup } from '../groups/repo.js';
import { publishStreamItem, sendMessage, type StreamContext } from './repo.js';

/** An invitation to a course: the invitee's stream gets a Message (category Invitation). */
export function enrollmentInvitation(
  db: Db,
  e: { user_id: number; course_id: number; type: string },
  now: string,
): void {
  const course = courseById(db, e.course_id);
  const role = e.type
    .replace(/Enrollment$/, '')
    .replace('Ta', 'TA')
    .toLowerCase();
  sendMessage(db, {
    user: e.user_id,
    category: 'Invitation',
    subject: `Course invitation: ${course?.name ?? `course ${e.course_id}`}`,
    body:
      `You have been invited to join ${course?.name ?? `course ${e.course_id}`} as a ${role}. Accept the ` +
      'invitation to take part.',
    url: `/courses/${e.course_id}`,
    context: { type: 'Course', id: e.course_id },
    now,
  });
}

/** Who sees what happens in a course or group: its enrolled users, or its members. */
export function audienceOf(db: Db, context: StreamContext): number[] {
  return context.type === 'Course' ? usersInCourse(db, context.id) : membersOfGroup(db, context.id);
}

/**
 * A new announcement: a Message (category Announcement) to everyone in its context but its author,
 * about the announcement, so that it shows to each only while the announcement does (not before a
 * delayed one posts). `at`: when it posts, which is where it sits in the streams.
 */
export function announcementNotice(
  db: Db,
  a: { id: number; context: StreamContext; title: string; path: string; author: number },
  at: string,
): void {
  for (const user of audienceOf(db, a.context)) {
    if (user === a.author) continue;
    sendMessage(db, {
      user,
      category: 'Announcement',
      subject: `New announcement: ${a.title}`,
      body: a.title,
      url: a.path,
      context: a.context,
      about: { type: 'Announcement', id: a.id },
      now: at,
    });
  }
}

/** A submission its student should look at (a grade, someone else's comment): it comes up in their stream. */
export function submissionNotice(
  db: Db,
  sub: { id: number; user_id: number; course_id: number },
  by: number,
  now: string,
): void {
  publishStreamItem(db, {
    type: 'Submission',
    assetId: sub.id,
    context: { type: 'Course', id: sub.course_id },
    users: [sub.user_id],
    author: by,
    now,
  });
}

/** A new grade: the submission in the student's stream, and a Message (category Grading). */
export function gradeNotice(
  db: Db,
  sub: {
    id: number;
    user_id: number;
    course_id: number;
    assignment_id: number;
    grade: string | null;
    excused: number | boolean | null;
  },
  assignmentName: string,
  by: number,
  now: string,
): void {
  submissionNotice(db, sub, by, now);
  sendMessage(db, {
    user: sub.user_id,
    category: 'Grading',
    subject: `Grade posted: ${assignmentName}`,
    body: sub.excused
      ? `You are excused from ${assignmentName}.`
      : `Your grade for ${assignmentName} is ${sub.grade ?? 'cleared'}.`,
    url: `/courses/${sub.course_id}/assignments/${sub.assignment_id}/submissions/${sub.user_id}`,
    context: { type: 'Course', id: sub.course_id },
    now,
  });
}
