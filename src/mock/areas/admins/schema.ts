export const schema = `
CREATE TABLE account_users (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES accounts(id),
  user_id INTEGER NOT NULL REFERENCES users(id),
  role_id INTEGER NOT NULL REFERENCES roles(id),
  workflow_state TEXT NOT NULL DEFAULT 'active',
  created_at TEXT NOT NULL
);
CREATE INDEX account_users_user ON account_users(user_id, account_id);
CREATE INDEX account_users_account ON account_users(account_id, id);
`;
