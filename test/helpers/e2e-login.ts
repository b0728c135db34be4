// `lms auth login` driven end to end without a browser: the test reads the authorization URL the
// command prints (--no-browser) from its stderr, opens the mock's consent page, posts its form as a
// seeded user approving, and follows the redirect to the command's listener.
import { execa, type Result } from 'execa';
import { bin, spawnLms, type Served } from './e2e.js';

export const SAM = '7~mock-sam';

export interface DeveloperKey {
  client_id: string;
  /** Null for a public key (PKCE only). */
  client_secret: string | null;
}

/**
 * One of the mock's developer keys, as `lms mock tokens` lists it: the confidential one (with a secret) or the public
 * one.
 */
export async function developerKey(
  env: Record<string, string>,
  kind: 'confidential' | 'public' = 'confidential',
): Promise<DeveloperKey> {
  const r = await spawnLms(['mock', 'tokens', '-o', 'json'], env);
  if (r.exitCode !== 0) throw new Error(`lms mock tokens failed: ${r.stderr}`);
  const key = (JSON.parse(r.stdout) as (DeveloperKey & { role?: string })[]).find(
    (row) => row.role === 'developer_key' && (row.client_secret === null) === (kind === 'public'),
  );
  if (!key) throw new Error(`lms mock tokens lists no ${kind} developer key`);
  return { client_id: key.client_id, client_secret: key.client_secret };
}

export interface Login {
  result: Result;
  /** The authorization code the redirect carried: it must appear nowhere. */
  code: string;
  /** What the listener answered the browser. */
  page: number;
}

/** A confidential key's secret goes in on stdin; a public key's login is given none (and no terminal to ask at). */
export async function loginThroughMock(
  served: Served,
  env: Record<string, string>,
  key: DeveloperKey,
  flags: string[],
  approver = SAM,
): Promise<Login> {
  const secret = key.client_secret === null ? [] : ['--client-secret-stdin'];
  const child = execa(
    process.execPath,
    [bin, 'auth', 'login', '--url', served.url, '--client-id', key.client_id, ...secret, '--no-browser', ...flags],
    {
      env,
      extendEnv: true,
      reject: false,
      ...(key.client_secret === null ? { stdin: 'ignore' as const } : { input: key.client_secret }),
    },
  );
  let stderr = '';
  const address = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const m = /^ {2}(http\S+)$/m.exec(stderr);
      if (m) resolve(m[1]);
    });
    void child.then((r) =>
      reject(new Error(`lms auth login ended before printing the URL (exit ${r.exitCode}): ${r.stderr}`)),
    );
  });
  const consent = await fetch(address);
  if (consent.status !== 200) throw new Error(`the consent page answered ${consent.status}`);
  const html = await consent.text();
  const action = /<form method="post" action="([^"]+)">/.exec(html)?.[1];
  if (!action) throw new Error('the consent page has no form');
  const unescapeHtml = (v: string) =>
    v.replace(/&#(\d+);/g, (_m, n: string) => String.fromCharCode(Number(n))).replace(/&amp;/g, '&');
  const fields = Object.fromEntries(
    [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1], unescapeHtml(m[2])]),
  );
  const approved = await fetch(new URL(action, served.url), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${approver}` },
    body: new URLSearchParams({ ...fields, approve: '1' }),
  });
  const location = approved.headers.get('location');
  if (approved.status !== 302 || !location) throw new Error(`the consent answered ${approved.status}`);
  const code = new URL(location).searchParams.get('code') ?? '';
  const back = await fetch(location);
  return { result: await child, code, page: back.status };
}
