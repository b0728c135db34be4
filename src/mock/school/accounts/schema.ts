export const schema = `
CREATE TABLE accounts (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  parent_account_id INTEGER REFERENCES accounts(id),
  root_account_id INTEGER,
  sis_account_id TEXT,
  default_time_zone TEXT NOT NULL DEFAULT 'America/Chicago',
  workflow_state TEXT NOT NULL DEFAULT 'active'
);
CREATE UNIQUE INDEX accounts_sis ON accounts(sis_account_id) WHERE sis_account_id IS NOT NULL;
CREATE INDEX accounts_parent ON accounts(parent_account_id);

-- Built-in roles have no account; custom roles belong to an account and its sub-accounts.
CREATE TABLE roles (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  label TEXT NOT NULL,
  base_role_type TEXT NOT NULL,
  account_id INTEGER REFERENCES accounts(id),
  permissions TEXT NOT NULL,
  workflow_state TEXT NOT NULL DEFAULT 'active'
);
CREATE UNIQUE INDEX roles_name ON roles(coalesce(account_id, 0), name) WHERE workflow_state = 'active';
`;
