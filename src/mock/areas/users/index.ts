import { defineArea } from '../../area.js';
import { schema, searchIndex } from '../../school/users/schema.js';

export const usersArea = defineArea({
  name: 'users',
  schema,
  operations: [
    'users.list',
    'users.get',
    'users.create',
    'users.update',
    'users.delete',
    'users.getSettings',
    'users.updateSettings',
    'users.follow',
    'users.unfollow',
    'users.profile',
    'users.avatars',
    'users.pageViews',
    'users.uploadFile',
    'courses.users',
  ],
  load: async () => ({ handlers: (await import('./handlers.js')).usersHandlers }),
  seed: async () => (await import('./seed.js')).seedPeople,
  bulkIndexes: [searchIndex],
});
