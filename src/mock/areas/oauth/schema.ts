// Developer keys (the OAuth2 clients an instance knows), the authorization codes handed out at the
// consent step, and the tokens exchanged for them. Codes and tokens are credentials: only their
// SHA-256 is kept, as real instances keep only an HMAC of theirs, so a copy of the database logs no
// one in. A key's secret is kept as given: `lms mock tokens` shows it, as real instances show theirs
// to an admin. A public key (a native app's, PKCE only) has none: it cannot keep one.
export const schema = `
CREATE TABLE developer_keys (
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES accounts(id),
  name TEXT NOT NULL,
  -- 'confidential': the token endpoint wants the secret; 'public': the PKCE verifier is its proof.
  client_type TEXT NOT NULL DEFAULT 'confidential' CHECK (client_type IN ('confidential', 'public')),
  api_key TEXT CHECK ((client_type = 'public') = (api_key IS NULL)),
  -- JSON array of redirect URIs; a loopback one stands for any port (RFC 8252 §7.3).
  redirect_uris TEXT NOT NULL,
  workflow_state TEXT NOT NULL DEFAULT 'active',
  created_at TEXT NOT NULL
);

CREATE TABLE oauth_tokens (
  id INTEGER PRIMARY KEY,
  developer_key_id INTEGER NOT NULL REFERENCES developer_keys(id),
  user_id INTEGER NOT NULL REFERENCES users(id),
  crypted_token TEXT NOT NULL UNIQUE,
  crypted_refresh_token TEXT NOT NULL UNIQUE,
  scopes TEXT NOT NULL DEFAULT '',
  expires_at TEXT NOT NULL,
  workflow_state TEXT NOT NULL DEFAULT 'active',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX oauth_tokens_user ON oauth_tokens(user_id);

CREATE TABLE oauth_codes (
  crypted_code TEXT PRIMARY KEY,
  developer_key_id INTEGER NOT NULL REFERENCES developer_keys(id),
  user_id INTEGER NOT NULL REFERENCES users(id),
  redirect_uri TEXT NOT NULL,
  code_challenge TEXT NOT NULL,
  scopes TEXT NOT NULL DEFAULT '',
  expires_at TEXT NOT NULL,
  -- Set when the code is exchanged (or spent by a wrong verifier); a second exchange finds it.
  used_at TEXT,
  token_id INTEGER REFERENCES oauth_tokens(id)
);
`;
