// The notifications other areas send, in one place so that their wording and categories agree.
import type { Db } from '../../db/open.js';
import { courseById } from '../courses/repo.js';
import { usersInCourse } from '../enrollments/repo.js';
import { membersOfGroup } from '../groups/repo.js';
import { sendMessage, type StreamContext } from './repo.js';

/** An invitation to a course: the invitee's stream gets a Message (category Invitation). */
export function enrollmentInvitation(db: Db, e: { user_id: number; course_id: number; type: string }, now: string): void {
  const course = courseById(db, e.course_id);
  const role = e.type.replace(/Enrollment$/, '').replace('Ta', 'TA').toLowerCase();
  sendMessage(db, {
    user: e.user_id,
    category: 'Invitation',
    subject: `Course invitation: ${course?.name ?? `course ${e.course_id}`}`,
    body: `You have been invited to join ${course?.name ?? `course ${e.course_id}`} as a ${role}. Accept the invitation to take part.`,
    url: `/courses/${e.course_id}`,
    context: { type: 'Course', id: e.course_id },
    now,
  });
}

/** Who sees what happens in a course or group: its enrolled users, or its members. */
export function audienceOf(db: Db, context: StreamContext): number[] {
  return context.type === 'Course' ? usersInCourse(db, context.id) : membersOfGroup(db, context.id);
}

/** A new announcement: a Message (category Announcement) to everyone in its context but its author. */
export function announcementNotice(db: Db, a: { context: StreamContext; title: string; path: string; author: number }, now: string): void {
  for (const user of audienceOf(db, a.context)) {
    if (user === a.author) continue;
    sendMessage(db, { user, category: 'Announcement', subject: `New announcement: ${a.title}`, body: a.title, url: a.path, context: a.context, now });
  }
}
