// Conversations among the seeded people in every state: unread, read, starred, archived; private
// and group; with an attachment, a media comment and a forwarded message; a bulk send by the admin.
import type { Db } from '../../db/open.js';
import type { SeedOptions } from '../../area.js';
import { createPendingAttachment, makeAvailable, storeUpload, attachmentById } from '../files/repo.js';
import { deliver, postMessage } from './deliver.js';
import { setParticipant } from './repo.js';

export function seedConversations(db: Db, { minimal, now }: SeedOptions): void {
  if (minimal) return;
  const base = Date.parse(now);
  const ago = (hours: number) => new Date(base - hours * 3_600_000).toISOString();
  const send = (
    senderId: number,
    recipients: number[],
    subject: string,
    body: string,
    at: string,
    o: {
      group?: boolean;
      context?: string;
      tags?: string[];
      attachments?: number[];
      forwarded?: number[];
      media?: string;
    } = {},
  ) =>
    deliver(db, {
      senderId,
      recipients,
      group: o.group ?? false,
      subject,
      contextCode: o.context ?? null,
      tags: o.tags ?? (o.context ? [o.context] : []),
      content: {
        body,
        attachmentIds: o.attachments,
        forwardedIds: o.forwarded,
        mediaCommentId: o.media ?? null,
        mediaCommentType: o.media ? 'video' : null,
      },
      now: at,
    });
  const state = (conversation: number, user: number, change: Parameters<typeof setParticipant>[3]) =>
    setParticipant(db, conversation, user, change);

  // 1. Tess and Sam, private: Sam has replied, so it is unread for Tess.
  const c1 = send(3, [7], 'Lab report feedback', 'Your lab report is missing the data table from week 3.', ago(120), {
    context: 'course_1',
  });
  postMessage(db, c1.conversationId, 7, [3], { body: 'Thanks, I will add it tonight.' }, ago(96));

  // 2. Tess to Lab Group 1, a group conversation with the bench schedule attached; Sofia starred it.
  const file = createPendingAttachment(db, {
    uuid: 'seedbenchschedule0000000000000001',
    owner: { type: 'User', id: 3 },
    folderPath: 'conversation attachments',
    name: 'bench-schedule.txt',
    contentType: 'text/plain',
    size: 0,
    onDuplicate: 'overwrite',
    uploadToken: 'seed-bench-schedule',
    now: ago(73),
  });
  storeUpload(
    db,
    attachmentById(db, file)!,
    new TextEncoder().encode('Bench 1: Mon 9-11\nBench 2: Wed 9-11\n'),
    'text/plain',
    ago(73),
  );
  makeAvailable(db, file, 'bench-schedule.txt', ago(73));
  const c2 = send(
    3,
    [7, 8, 11],
    'Lab Group 1 schedule',
    'Here is the bench schedule for the rest of the term.',
    ago(72),
    {
      group: true,
      context: 'group_1',
      tags: ['group_1', 'course_1'],
      attachments: [file],
    },
  );
  state(c2.conversationId, 7, { workflow_state: 'read' });
  state(c2.conversationId, 8, { workflow_state: 'read', starred: true });

  // 3. Ravi asks Tess; she answers and stars it; Ravi archives it.
  const c3 = send(9, [3], 'Question about the midterm', 'Will the midterm cover chapter 7?', ago(48), {
    context: 'course_1',
  });
  postMessage(db, c3.conversationId, 3, [9], { body: 'Chapters 1 to 6 only.' }, ago(47));
  state(c3.conversationId, 3, { starred: true });
  state(c3.conversationId, 9, { workflow_state: 'archived' });

  // 4. Tara forwards Tess's feedback to Sam.
  send(5, [7], 'Fwd: Lab report feedback', 'Forwarding this so it does not get lost.', ago(24), {
    context: 'course_1',
    forwarded: [c1.messageId],
  });

  // 5. Ada's bulk message to both teachers (one private conversation each); Theo has read his.
  send(1, [3], 'Grades due Friday', 'Final grades are due by 5pm on Friday.', ago(6), {
    tags: ['course_1', 'course_2', 'course_5'],
  });
  const c6 = send(1, [4], 'Grades due Friday', 'Final grades are due by 5pm on Friday.', ago(6), {
    tags: ['course_3', 'course_5'],
  });
  state(c6.conversationId, 4, { workflow_state: 'read' });

  // 6. Mina and Hana, private, read by both, with a video comment.
  const c7 = send(10, [12], 'History study group', 'Study group on Thursday? I recorded a summary.', ago(168), {
    context: 'course_3',
    media: 'm-seed-history-1',
  });
  postMessage(db, c7.conversationId, 12, [10], { body: 'Yes, see you there.' }, ago(167));
  state(c7.conversationId, 10, { workflow_state: 'read' });
  state(c7.conversationId, 12, { workflow_state: 'read' });

  // 7. Ada's group conversation with both teachers, which Theo has left unsubscribed.
  const c8 = send(1, [3, 4], 'Department meeting', 'Agenda for Monday attached soon.', ago(3), {
    group: true,
    tags: ['course_1', 'course_3'],
  });
  state(c8.conversationId, 4, { subscribed: false, workflow_state: 'read' });
}
