// The OAuth2 token endpoint a client calls itself: the form both grants post and what it answers.

/** The form both grants post: authorization_code (code, redirect_uri, code_verifier) or refresh_token. */
export interface TokenParams {
  grant_type: 'authorization_code' | 'refresh_token';
  client_id: string;
  /** A confidential client's; a public client (PKCE only) sends none. */
  client_secret?: string;
  redirect_uri?: string;
  code?: string;
  code_verifier?: string;
  refresh_token?: string;
}

/** RFC 6749 §5.1, with the user real instances add. */
export interface TokenAnswer {
  access_token?: unknown;
  token_type?: unknown;
  refresh_token?: unknown;
  expires_in?: unknown;
  user?: { id?: unknown; name?: unknown };
}
