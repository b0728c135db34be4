// The instance's developer keys: the OAuth2 clients `lms auth login` logs in with against the mock,
// a confidential one (a client id and secret) and a public one (a client id alone, PKCE its proof),
// as instances now provision for command-line tools. Their ids and the secret are fixed, like the
// seeded users' tokens, so docs and tests can name them.
import type { Db } from '../../db/open.js';
import type { SeedOptions } from '../../area.js';
import { addDeveloperKey, clientIdOf } from './repo.js';

const KEY_ID = 1;
const PUBLIC_KEY_ID = 2;
export const MOCK_CLIENT_ID = clientIdOf({ id: KEY_ID });
export const MOCK_CLIENT_SECRET = 'mock-client-secret';
export const MOCK_PUBLIC_CLIENT_ID = clientIdOf({ id: PUBLIC_KEY_ID });

/**
 * Native apps' keys: each redirects to a listener on the user's own machine, on whatever port was
 * free (RFC 8252 §7.3), and to nothing else. Seeded in a reset instance too: logging in is how an
 * instance is reached, whatever it holds.
 */
export function seedDeveloperKeys(db: Db, { now }: SeedOptions): void {
  addDeveloperKey(db, {
    id: KEY_ID,
    account: 1,
    name: 'lms command-line tool',
    apiKey: MOCK_CLIENT_SECRET,
    redirectUris: ['http://127.0.0.1/', 'http://localhost/'],
    now,
  });
  addDeveloperKey(db, {
    id: PUBLIC_KEY_ID,
    account: 1,
    name: 'lms command-line tool (public client)',
    apiKey: null,
    redirectUris: ['http://127.0.0.1/', 'http://localhost/'],
    now,
  });
}
