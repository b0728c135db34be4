// `lms --mock users list --account 1 -o json` written by hand: the same database, the same SQLite
// driver lms uses on this line (the runtime's node:sqlite, else @photostructure/sqlite on Node 20),
// the mock's keyset query for the first page with the fields it presents, printed as JSON.
const { DatabaseSync } = process.getBuiltinModule('node:sqlite') ?? require('@photostructure/sqlite');
const db = new DatabaseSync(process.env.LMS_MOCK_DB);
const rows = db
  .prepare(
    'SELECT u.id, u.name, u.created_at, u.sortable_name, u.short_name, p.sis_user_id, p.integration_id, ' +
      `p.unique_id AS login_id,
       coalesce(u.avatar_url, 'http://lms.mock/images/messages/avatar-50.png') AS avatar_url,
       (SELECT address FROM communication_channels c WHERE c.user_id = u.id AND c.type = 'email' AND ` +
      `c.workflow_state <> 'retired' ORDER BY c.position LIMIT 1) AS email,
       u.locale, u.time_zone, u.pronouns, NULL AS last_login
     FROM users u LEFT JOIN pseudonyms p ON p.id = (SELECT id FROM pseudonyms WHERE user_id = u.id AND ` +
      `workflow_state <> 'deleted' ORDER BY id LIMIT 1)
     WHERE u.workflow_state <> 'deleted' AND EXISTS (SELECT 1 FROM pseudonyms q WHERE q.user_id = u.id AND ` +
      `q.workflow_state <> 'deleted' AND q.account_id IN (?, ?))
     ORDER BY u.sortable_name, u.id LIMIT ?`,
  )
  .all(1, 1, 100);
process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
