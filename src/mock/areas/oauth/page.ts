// The consent page of the authorization step: what the user is asked, and the form that answers.
// Everything the request carried is written back escaped, and the page loads nothing, runs nothing
// and cannot be framed (a consent button under someone else's page is a classic clickjack).

export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
} as const;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export interface ConsentPage {
  appName: string;
  instance: string;
  redirectUri: string;
  scope: string;
  /** The fields the confirm step needs back, as the authorization request gave them. */
  fields: Record<string, string>;
}

export function consentPage(p: ConsentPage): string {
  const hidden = Object.entries(p.fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n      ');
  const scope = p.scope ? `<p>Scopes requested: <code>${escapeHtml(p.scope)}</code></p>` : '';
  return (
    `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Authorize ${escapeHtml(p.appName)}</title>
  <style>
    body { font-family: system-ui, sans-serif; max-width: 36rem; margin: 3rem auto; padding: 0 1rem; line-height: 1.5; }
    input[type=password] { width: 100%; padding: .4rem; margin: .3rem 0 1rem; }
    button { padding: .5rem 1.2rem; margin-right: .5rem; }
  </style>
</head>
<body>
  <main>
    <h1>${escapeHtml(p.appName)} is requesting access to your account</h1>
    <p>It will act as you on ${escapeHtml(p.instance)} until you log it out, and then return to ` +
    `<code>${escapeHtml(p.redirectUri)}</code>.</p>
    ${scope}
    <form method="post" action="/login/oauth2/confirm">
      ${hidden}
      <label for="access_token">This mock has no passwords: sign with your API token (<code>lms mock tokens</code> ` +
    `lists them).</label>
      <input type="password" id="access_token" name="access_token" autocomplete="off" required>
      <button type="submit" name="approve" value="1">Authorize</button>
      <button type="submit" name="deny" value="1">Cancel</button>
    </form>
  </main>
</body>
</html>
`
  );
}
