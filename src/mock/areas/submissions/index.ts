// Submissions, grading and the gradebook history that grading writes: one area, because history is
// read from the versions grading keeps in the same tables.
import { defineArea } from '../../area.js';
import { schema } from './schema.js';

export const submissionsArea = defineArea({
  name: 'submissions',
  schema,
  operations: ['grading.updateGrades', 'history.days', 'history.day', 'history.submissions', 'history.feed'],
  streamTypes: ['Submission'],
  load: async () => {
    const [{ submissionsHandlers }, { historyHandlers }, { submissionStreamItem }] = await Promise.all([
      import('./handlers.js'),
      import('./history.js'),
      import('./stream.js'),
    ]);
    return {
      handlers: { ...submissionsHandlers, ...historyHandlers },
      streamItems: { Submission: submissionStreamItem },
    };
  },
  seed: async () => (await import('./seed.js')).seedSubmissions,
});
