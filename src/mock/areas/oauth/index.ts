import { defineArea } from '../../area.js';
import { schema } from './schema.js';

export const oauthArea = defineArea({
  name: 'oauth',
  schema,
  load: async () => ({ handlers: (await import('./handlers.js')).oauthHandlers }),
  seed: async () => (await import('./seed.js')).seedDeveloperKeys,
  // The authorization page is public; the token endpoint authenticates the client, not a user; the
  // consent step reads the approving user's token itself, from the header or the consent form.
  publicRoutes: ['oauth.authorize', 'oauth.token', 'oauth.confirm'],
});
