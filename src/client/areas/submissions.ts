// Submissions and grading: submit, list, read, grade one, grade many (update_grades → a Progress).
import { op } from '../operation.js';
import type { Id } from '../../spec/types/common.js';
import type { Progress } from '../../spec/types/progress.js';
import type { UploadTicket } from '../../spec/types/school.js';
import type { GradeDataEntry, GradeParams, NewSubmission, StudentSubmissions, Submission, SubmissionContext, SubmissionInclude } from '../../spec/types/submissions.js';

type InAssignment = SubmissionContext & { assignment_id: Id };

export const submissions = {
  submit: op('submissions.submit').as<InAssignment & { submission: NewSubmission; comment?: { text_comment?: string } }, Submission>(),
  list: op('submissions.list').as<InAssignment & { include?: SubmissionInclude[] }, Submission>(),
  listStudents: op('submissions.listStudents').as<
    SubmissionContext & { student_ids?: (Id | 'all')[]; assignment_ids?: Id[]; grouped?: boolean; include?: SubmissionInclude[] },
    Submission | StudentSubmissions
  >(),
  get: op('submissions.get').as<InAssignment & { user_id: Id; include?: SubmissionInclude[] }, Submission>(),
  uploadFile: op('submissions.uploadFile').as<InAssignment & { user_id: Id; name: string; size?: number; content_type?: string }, UploadTicket>(),
  grade: op('submissions.grade', undefined, { appends: ['comment'] }).as<InAssignment & { user_id: Id } & GradeParams, Submission>(),
};

export const grading = {
  updateGrades: op('grading.updateGrades').as<InAssignment & { grade_data: Record<string, GradeDataEntry> }, Progress>(),
};
