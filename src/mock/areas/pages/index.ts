import { defineArea } from '../../area.js';
import { schema } from './schema.js';

export const pagesArea = defineArea({
  name: 'pages',
  schema,
  operations: [
    'pages.list',
    'pages.create',
    'pages.get',
    'pages.update',
    'pages.delete',
    'pages.getFront',
    'pages.updateFront',
    'pages.revisions',
    'pages.getRevision',
    'pages.revert',
  ],
  load: async () => ({ handlers: (await import('./handlers.js')).pagesHandlers }),
  seed: async () => (await import('./seed.js')).seedPages,
});
