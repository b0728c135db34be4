// Submissions, grading and the gradebook history that grading writes: one area, because history is
// read from the versions grading keeps in the same tables.
import { defineArea } from '../area.js';
import { historyHandlers } from './history.js';
import { submissionsHandlers } from './handlers.js';
import { schema } from './schema.js';
import { seedSubmissions } from './seed.js';
import { submissionStreamItem } from './stream.js';

export const submissionsArea = defineArea({ name: 'submissions', schema, handlers: { ...submissionsHandlers, ...historyHandlers }, seed: seedSubmissions, streamItems: { Submission: submissionStreamItem } });
