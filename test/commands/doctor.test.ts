// `lms doctor`: every check's way of going wrong, through a fake probe of the machine and the
// instance; then the command itself against the mock, where the probe is the real one.
import { chmodSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runChecks, type Check, type DoctorProbe, type InstanceReport } from '../../src/commands/doctor/checks.js';
import { checkLines, writable } from '../../src/commands/doctor/index.js';
import { ApiError, NetworkError, UsageError } from '../../src/errors.js';
import { MOCK_ADMIN_TOKEN } from '../../src/mock/runtime.js';
import { session } from '../helpers/run-lms.js';

const NOW = Date.parse('2026-11-02T12:00:00Z');

/** A machine where everything is fine: a remote instance with a token that works. */
function healthy(): DoctorProbe {
  return {
    node: '24.11.0',
    platform: 'linux',
    sqlite: async () => ({ driver: 'node:sqlite' }),
    instance: async () => ({
      kind: 'remote',
      url: 'https://lms.example.edu',
      source: 'the default profile "prod"',
      overridden: [],
      tokenSource: 'profile "prod"',
    }),
    configFile: async () => ({ path: '/home/u/.config/lms/config.json', mode: 0o100600, dirMode: 0o40700 }),
    proxy: async () => ({ kind: 'none', host: 'lms.example.edu' }),
    trust: async () => ({ kind: 'roots', host: 'lms.example.edu', unread: [] }),
    whoami: async () => ({
      user: { id: 1, name: 'Ada Admin', login_id: 'admin' },
      date: new Date(NOW).toUTCString(),
      remaining: '598.3721',
      cost: '0.0152',
      throttled: 0,
    }),
    actAs: async (id) => ({ id: Number(id), name: 'Sam Student' }),
    accountUsers: async () => [
      { id: 1, name: 'Ada Admin' },
      { id: 7, name: 'Sam Student' },
    ],
    now: () => NOW,
    cacheDir: async () => '/home/u/.cache/lms',
    stateDir: async () => '/home/u/.local/state/lms',
    stateToMove: async () => undefined,
    writable: async () => ({ writable: true, exists: true }),
  };
}

const byName = (checks: Check[]) => Object.fromEntries(checks.map((c) => [c.check, c]));

const refused = (status: number, path: string) =>
  new ApiError({
    status,
    method: 'GET',
    url: `https://lms.example.edu${path}`,
    messages: ['user not authorized to perform that action'],
  });
const throttledError = () =>
  new ApiError({
    status: 403,
    method: 'GET',
    url: 'https://lms.example.edu/api/v1/users/self',
    messages: ['403 Forbidden (Rate Limit Exceeded)'],
    throttled: true,
  });

describe('lms doctor checks', () => {
  it('all pass on a healthy machine, each saying what it found', async () => {
    const checks = await runChecks(healthy());
    expect(checks.map((c) => [c.check, c.status])).toEqual([
      ['node', 'ok'],
      ['sqlite', 'ok'],
      ['instance', 'ok'],
      ['config', 'ok'],
      ['token', 'ok'],
      ['proxy', 'ok'],
      ['trust', 'ok'],
      ['reachable', 'ok'],
      ['auth', 'ok'],
      ['clock', 'ok'],
      ['rate limit', 'ok'],
      ['masquerade', 'ok'],
      ['code cache', 'ok'],
      ['state', 'ok'],
    ]);
    expect(checkLines(checks)).toBe(
      [
        'ok    node        Node.js 24.11.0, a long-term support line',
        'ok    sqlite      the mock would use node:sqlite, built into this Node; it opens',
        'ok    instance    https://lms.example.edu, from the default profile "prod"',
        'ok    config      /home/u/.config/lms/config.json (mode 0600)',
        'ok    token       present, from profile "prod" (never shown)',
        'ok    proxy       none: lms.example.edu is reached directly',
        "ok    trust       lms.example.edu's certificate is verified against Node's own roots",
        'ok    reachable   lms.example.edu answered over HTTPS, with a certificate this machine trusts',
        'ok    auth        accepted by lms.example.edu: Ada Admin (user 1, admin)',
        "ok    clock       this machine's clock is in step with the instance's",
        'ok    rate limit  598 left in the rate-limit bucket (X-Rate-Limit-Remaining; this check cost 0.02): room ' +
          'for about 11 requests at once',
        'ok    masquerade  allowed: Ada Admin (user 1) may act as other users with --as-user (tried as Sam Student ' +
          '(user 7))',
        'ok    code cache  /home/u/.cache/lms is writable',
        'ok    state       /home/u/.local/state/lms is writable',
        '',
      ].join('\n'),
    );
  });

  const mock: InstanceReport = {
    kind: 'mock',
    where: ':memory:',
    source: '--mock',
    overridden: [],
    tokenSource: "the mock's seeded admin",
  };

  /**
   * [what goes wrong, the probe's difference, the check it shows in, its status, what the line says, what it says to
   * do]
   */
  const cases: [string, Partial<DoctorProbe>, string, Check['status'], RegExp, RegExp?][] = [
    [
      'Node older than the floor',
      { node: '20.11.1' },
      'node',
      'fail',
      /Node\.js 20\.11\.1: lms needs 20\.18\.1 or newer/,
      /install Node\.js 22 or 24/,
    ],
    ['Node 20', { node: '20.19.0' }, 'node', 'warn', /support ended on 30 April 2026/, /22 or 24/],
    ['an odd Node line', { node: '25.1.0' }, 'node', 'warn', /not a long-term support line/, /22 or 24/],
    [
      'SQLite that does not open, the mock in use',
      { sqlite: async () => ({ driver: '@photostructure/sqlite', error: 'no addon' }), instance: async () => mock },
      'sqlite',
      'fail',
      /photostructure.*does not open: no addon/,
      /npm ls @photostructure/,
    ],
    [
      'SQLite that does not open, a real instance in use',
      { sqlite: async () => ({ driver: '@photostructure/sqlite', error: 'no addon' }) },
      'sqlite',
      'warn',
      /does not open/,
      /22\.13/,
    ],
    [
      'no instance configured',
      {
        instance: async () => {
          throw new UsageError('no instance configured', { hint: 'add one with `lms profile add`' });
        },
      },
      'instance',
      'fail',
      /^no instance configured$/,
      /lms profile add/,
    ],
    [
      'a source that lost is named',
      { instance: async () => ({ ...mock, overridden: ['LMS_BASE_URL'] }) },
      'instance',
      'ok',
      /the mock \(:memory:\), from --mock; not used: LMS_BASE_URL/,
    ],
    [
      'a profile file others can read',
      { configFile: async () => ({ path: '/h/config.json', mode: 0o100644, dirMode: 0o40700 }) },
      'config',
      'fail',
      /\/h\/config\.json holds tokens and others may read or write it \(mode 0644\)/,
      /^chmod 600 \/h\/config\.json$/,
    ],
    [
      'a profile directory others can list',
      { configFile: async () => ({ path: '/h/lms/config.json', mode: 0o100600, dirMode: 0o40755 }) },
      'config',
      'warn',
      /its directory \(mode 0755\)/,
      /^chmod 700 \/h\/lms$/,
    ],
    [
      'no profile file',
      { configFile: async () => ({ path: '/h/config.json' }) },
      'config',
      'ok',
      /no profile file yet/,
    ],
    [
      'Windows, where modes do not apply',
      { platform: 'win32', configFile: async () => ({ path: 'C:\\u\\config.json', mode: 0o100666 }) },
      'config',
      'ok',
      /file modes do not apply/,
    ],
    [
      'no token',
      {
        instance: async () => ({
          kind: 'remote',
          url: 'https://lms.example.edu',
          source: 'LMS_BASE_URL in the environment',
          overridden: [],
        }),
      },
      'token',
      'fail',
      /no token for https:\/\/lms\.example\.edu/,
      /LMS_TOKEN/,
    ],
    [
      'a token the instance refuses',
      {
        whoami: async () => {
          throw new ApiError({
            status: 401,
            method: 'GET',
            url: 'https://lms.example.edu/api/v1/users/self',
            messages: ['Invalid access token.'],
          });
        },
      },
      'auth',
      'fail',
      /lms\.example\.edu did not accept the token \(401\)/,
      /new token/,
    ],
    [
      'an instance that cannot be reached',
      {
        whoami: async () => {
          throw new NetworkError('127.0.0.1:4010 refused the connection', {
            code: 'ECONNREFUSED',
            neverSent: true,
            hint: 'is the base URL right, and is the server up?',
          });
        },
      },
      'reachable',
      'fail',
      /^not reachable: 127\.0\.0\.1:4010 refused the connection$/,
      /server up/,
    ],
    [
      'a network failure with no hint of its own',
      {
        whoami: async () => {
          throw new NetworkError('GET lms.example.edu: socket hang up', { code: 'ECONNRESET' });
        },
      },
      'reachable',
      'fail',
      /not reachable: GET lms\.example\.edu: socket hang up/,
      /proxy, a VPN/,
    ],
    [
      'no answer leaves the token unchecked, not failed',
      {
        whoami: async () => {
          throw new NetworkError('refused', { code: 'ECONNREFUSED' });
        },
      },
      'auth',
      'warn',
      /^not checked: no answer from lms\.example\.edu$/,
    ],
    [
      'an expired certificate',
      {
        whoami: async () => {
          throw new NetworkError('GET lms.example.edu: certificate has expired', { code: 'CERT_HAS_EXPIRED' });
        },
      },
      'reachable',
      'fail',
      /TLS certificate of lms\.example\.edu is not trusted here \(CERT_HAS_EXPIRED\): GET lms\.example\.edu: certificate has expired/,
      /NODE_EXTRA_CA_CERTS.*this machine's date/,
    ],
    [
      'a certificate from a private authority',
      {
        whoami: async () => {
          throw new NetworkError('GET lms.example.edu: self-signed certificate in certificate chain', {
            code: 'SELF_SIGNED_CERT_IN_CHAIN',
          });
        },
      },
      'reachable',
      'fail',
      /not trusted here \(SELF_SIGNED_CERT_IN_CHAIN\)/,
      /LMS_CA_FILE \(or the profile's --ca-file, or NODE_EXTRA_CA_CERTS\) at its PEM file; otherwise its certificate needs fixing on the server$/,
    ],
    [
      'a certificate the transport explained',
      {
        whoami: async () => {
          throw new NetworkError(
            'cannot verify the TLS certificate of lms.example.edu (UNABLE_TO_VERIFY_LEAF_SIGNATURE): unable to ' +
              'verify the first certificate',
            {
              code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
              hint: 'the CA file /etc/school.pem (from LMS_CA_FILE) does not vouch for it',
            },
          );
        },
      },
      'reachable',
      'fail',
      /^cannot verify the TLS certificate of lms\.example\.edu \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\): unable to verify the first certificate$/,
      /^the CA file \/etc\/school\.pem \(from LMS_CA_FILE\) does not vouch for it$/,
    ],
    [
      'a proxy',
      {
        proxy: async () => ({
          kind: 'proxy',
          host: 'lms.example.edu',
          proxy: 'http://[REDACTED]@proxy.school.example:3128',
          variable: 'HTTPS_PROXY',
        }),
      },
      'proxy',
      'ok',
      /^lms\.example\.edu is reached through http:\/\/\[REDACTED\]@proxy\.school\.example:3128 \(from HTTPS_PROXY\)$/,
    ],
    [
      'a proxy NO_PROXY bypasses',
      {
        proxy: async () => ({ kind: 'bypassed', host: 'lms.example.edu', variable: 'no_proxy', entry: '.example.edu' }),
      },
      'proxy',
      'ok',
      /^bypassed by no_proxy \("\.example\.edu"\): lms\.example\.edu is reached directly$/,
    ],
    [
      "a CA bundle from curl's variable, another not read",
      {
        trust: async () => ({
          kind: 'file',
          host: 'lms.example.edu',
          file: { label: 'the CA bundle /etc/ssl/cert.pem (from CURL_CA_BUNDLE)', certificates: 140 },
          extra: '/etc/school.pem',
          unread: ['SSL_CERT_FILE (CURL_CA_BUNDLE comes first)'],
        }),
      },
      'trust',
      'ok',
      /^lms\.example\.edu's certificate is verified against the CA bundle \/etc\/ssl\/cert\.pem \(from CURL_CA_BUNDLE\), 140 certificates, besides Node's own roots and NODE_EXTRA_CA_CERTS \(\/etc\/school\.pem\); not read: SSL_CERT_FILE \(CURL_CA_BUNDLE comes first\)$/,
    ],
    [
      'a CA file that cannot be read',
      {
        trust: async () => {
          throw new UsageError('cannot read the CA bundle /nope.pem (from SSL_CERT_FILE): no such file', {
            hint: 'point SSL_CERT_FILE at a PEM bundle',
          });
        },
      },
      'trust',
      'fail',
      /^cannot read the CA bundle \/nope\.pem \(from SSL_CERT_FILE\): no such file$/,
      /^point SSL_CERT_FILE at a PEM bundle$/,
    ],
    [
      'a plain http instance',
      { trust: async () => ({ kind: 'plain', host: 'lms.example.edu' }) },
      'trust',
      'ok',
      /^not used: lms\.example\.edu is plain HTTP$/,
    ],
    [
      'a malformed proxy variable',
      {
        proxy: async () => {
          throw new UsageError('HTTPS_PROXY names a socks5:// proxy (socks5://p:1080), which lms does not support', {
            hint: 'use an http:// proxy',
          });
        },
      },
      'proxy',
      'fail',
      /^HTTPS_PROXY names a socks5/,
      /^use an http:\/\/ proxy$/,
    ],
    [
      'a proxy that refuses the tunnel',
      {
        whoami: async () => {
          throw new NetworkError(
            'the proxy http://proxy:3128 (from HTTPS_PROXY) refused to connect to lms.example.edu:443 (403)',
            {
              code: 'ERR_PROXY_FORBIDDEN',
              neverSent: true,
              hint: 'ask its administrators to allow lms.example.edu:443',
            },
          );
        },
      },
      'reachable',
      'fail',
      /^not reachable: the proxy http:\/\/proxy:3128 \(from HTTPS_PROXY\) refused/,
      /^ask its administrators/,
    ],
    [
      'a request the client refuses to send',
      {
        whoami: async () => {
          throw new UsageError('refusing to send the token over plain http to lms.example.edu', {
            hint: 'use an https:// URL',
          });
        },
      },
      'reachable',
      'fail',
      /^not asked: refusing to send the token over plain http/,
      /https:\/\/ URL/,
    ],
    [
      'a refused token still reached the instance',
      {
        whoami: async () => {
          throw new ApiError({
            status: 401,
            method: 'GET',
            url: 'https://lms.example.edu/api/v1/users/self',
            messages: [],
          });
        },
      },
      'reachable',
      'ok',
      /^lms\.example\.edu answered \(401\) over HTTPS/,
    ],
    [
      'an instance trusted through a CA file',
      {
        instance: async () => ({
          kind: 'remote',
          url: 'https://lms.school.example',
          source: 'the default profile "school"',
          overridden: [],
          tokenSource: 'profile "school"',
          caFile: 'the CA file /etc/ssl/school-ca.pem (from profile "school")',
        }),
      },
      'reachable',
      'ok',
      /^lms\.school\.example answered over HTTPS, with a certificate this machine trusts through the CA file \/etc\/ssl\/school-ca\.pem \(from profile "school"\)$/,
    ],
    [
      'an instance over plain http',
      {
        instance: async () => ({
          kind: 'remote',
          url: 'http://127.0.0.1:4010',
          source: 'LMS_BASE_URL in the environment',
          overridden: [],
          tokenSource: 'LMS_TOKEN',
        }),
      },
      'reachable',
      'ok',
      /^127\.0\.0\.1:4010 answered over plain HTTP$/,
    ],
    [
      'a throttled answer is no verdict on the token',
      {
        whoami: async () => {
          throw throttledError();
        },
      },
      'auth',
      'warn',
      /^not checked: lms\.example\.edu throttled the request$/,
    ],
    [
      'an instance throttling the token now',
      {
        whoami: async () => {
          throw throttledError();
        },
      },
      'rate limit',
      'fail',
      /^lms\.example\.edu is throttling this token now: it answered 403 \(Rate Limit Exceeded\) to every try$/,
      /wait a minute.*--concurrency.*--per-page/,
    ],
    [
      'little headroom left',
      { whoami: async () => ({ user: { id: 1 }, remaining: '120.5', cost: '12' }) },
      'rate limit',
      'fail',
      /^only 121 left in the rate-limit bucket \(X-Rate-Limit-Remaining; this check cost 12\): under 200, what lms's 4 requests at once are charged up front/,
      /wait a minute for the bucket to refill/,
    ],
    [
      'just enough headroom',
      { whoami: async () => ({ user: { id: 1 }, remaining: '200' }) },
      'rate limit',
      'ok',
      /^200 left in the rate-limit bucket \(X-Rate-Limit-Remaining\): room for about 4 requests at once$/,
    ],
    [
      'a bucket overdrawn',
      { whoami: async () => ({ user: { id: 1 }, remaining: '-35.2' }) },
      'rate limit',
      'fail',
      /^only -35 left/,
      /refill/,
    ],
    [
      'throttled before it answered',
      { whoami: async () => ({ user: { id: 1 }, remaining: '640.00', cost: '10', throttled: 2 }) },
      'rate limit',
      'fail',
      /^lms\.example\.edu throttled this check 2 times before it answered; 640 left/,
      /refill/,
    ],
    [
      'throttled once, no header',
      { whoami: async () => ({ user: { id: 1 }, throttled: 1 }) },
      'rate limit',
      'fail',
      /^lms\.example\.edu throttled this check once before it answered$/,
      /refill/,
    ],
    [
      'an instance that sends no rate-limit header',
      { whoami: async () => ({ user: { id: 1 } }) },
      'rate limit',
      'ok',
      /^not measured: lms\.example\.edu sent no X-Rate-Limit-Remaining \(it does not throttle this token, or a proxy in between drops the header\)$/,
    ],
    [
      'a header that is no number',
      { whoami: async () => ({ user: { id: 1 }, remaining: 'lots' }) },
      'rate limit',
      'ok',
      /^not measured/,
    ],
    [
      'the mock, its headers dropped on the way',
      { instance: async () => mock, whoami: async () => ({ user: { id: 1 } }) },
      'rate limit',
      'ok',
      /^not measured: the mock sent no X-Rate-Limit-Remaining \(it sends one with every answer: a proxy in between drops it\?\)$/,
    ],
    [
      'no answer to read the headroom from',
      {
        whoami: async () => {
          throw new NetworkError('timed out', { code: 'ETIMEDOUT' });
        },
      },
      'rate limit',
      'warn',
      /^not checked: no answer/,
    ],
    [
      'a token that may not list the account',
      {
        accountUsers: async () => {
          throw refused(401, '/api/v1/accounts/self/users');
        },
      },
      'masquerade',
      'ok',
      /^not allowed: Ada Admin \(user 1\) may not list the root account's users \(401\), so is no admin there; acting as others needs .*become_user/,
    ],
    [
      'a token the instance will not let act as another',
      {
        actAs: async () => {
          throw refused(401, '/api/v1/users/self?as_user_id=7');
        },
      },
      'masquerade',
      'ok',
      /^not allowed: lms\.example\.edu refused to let Ada Admin \(user 1\) act as Sam Student \(user 7\) \(401\); acting as others needs/,
    ],
    [
      'an account with no one else in it',
      { accountUsers: async () => [{ id: 1, name: 'Ada Admin' }] },
      'masquerade',
      'ok',
      /^not measured: the account has no other user to try acting as$/,
    ],
    [
      'throttled while trying to act as another',
      {
        actAs: async () => {
          throw throttledError();
        },
      },
      'masquerade',
      'warn',
      /^not checked: rate limited/,
    ],
    [
      '--as-user that works',
      { asUser: 'sis_user_id:S-007', actAs: async () => ({ id: 7, name: 'Sam Student' }) },
      'masquerade',
      'ok',
      /^allowed: --as-user sis_user_id:S-007 acts as Sam Student \(user 7\)$/,
    ],
    [
      '--as-user the instance refuses',
      {
        asUser: '7',
        actAs: async () => {
          throw refused(401, '/api/v1/users/self?as_user_id=7');
        },
      },
      'masquerade',
      'fail',
      /^not allowed: lms\.example\.edu refused to let Ada Admin \(user 1\) act as user 7 \(401\), so every command with --as-user 7 fails$/,
      /^check the id \(lms users get 7\); acting as others needs .*; or drop --as-user$/,
    ],
    [
      '--as-user naming no one',
      {
        asUser: '999',
        actAs: async () => {
          throw refused(404, '/api/v1/users/self?as_user_id=999');
        },
      },
      'masquerade',
      'fail',
      /act as user 999 \(404\)/,
      /lms users get 999/,
    ],
    [
      '--as-user with no answer',
      {
        asUser: '7',
        actAs: async () => {
          throw new NetworkError('reset', { code: 'ECONNRESET' });
        },
      },
      'masquerade',
      'warn',
      /^not checked: reset$/,
    ],
    [
      'no user to start masquerading from',
      {
        whoami: async () => {
          throw refused(401, '/api/v1/users/self');
        },
      },
      'masquerade',
      'warn',
      /^not checked: no user to start from$/,
    ],
    [
      'a URL that is not the API',
      {
        whoami: async () => {
          throw new ApiError({
            status: 404,
            method: 'GET',
            url: 'https://lms.example.edu/api/v1/users/self',
            messages: [],
          });
        },
      },
      'auth',
      'fail',
      /answered GET \/api\/v1\/users\/self with 404/,
      /instance's address/,
    ],
    [
      'an answer that is no user',
      { whoami: async () => ({ user: '<html>', date: new Date(NOW).toUTCString() }) },
      'auth',
      'fail',
      /without a user/,
      /address/,
    ],
    [
      'a clock five minutes behind',
      { whoami: async () => ({ user: { id: 1 }, date: new Date(NOW + 300_000).toUTCString() }) },
      'clock',
      'warn',
      /5 min behind the instance's/,
      /network time/,
    ],
    [
      'a clock two days ahead',
      { whoami: async () => ({ user: { id: 1 }, date: new Date(NOW - 2 * 86_400_000).toUTCString() }) },
      'clock',
      'warn',
      /2 days ahead of the instance's/,
      /network time/,
    ],
    ['no Date header', { whoami: async () => ({ user: { id: 1 } }) }, 'clock', 'warn', /no Date header/],
    [
      'no answer to compare the clock with',
      {
        whoami: async () => {
          throw new NetworkError('timed out', { code: 'ETIMEDOUT' });
        },
      },
      'clock',
      'warn',
      /not checked: no answer/,
    ],
    [
      'a code cache that cannot be written',
      {
        writable: async (dir) =>
          dir.endsWith('cache') ? { writable: false, reason: 'EACCES' } : { writable: true, exists: true },
        cacheDir: async () => '/c/cache',
        stateDir: async () => '/s/state',
      },
      'code cache',
      'warn',
      /\/c\/cache is not writable \(EACCES\): commands compile from scratch/,
      /LMS_CACHE_DIR/,
    ],
    [
      'state an older lms kept in the cache directory',
      { stateToMove: async () => '/home/u/.cache/lms' },
      'state',
      'ok',
      /^\/home\/u\/\.local\/state\/lms is writable; the audit log, journals and apply's keys an older lms kept in \/home\/u\/\.cache\/lms move here when a command next uses them$/,
    ],
    [
      'a state directory that cannot be written',
      {
        writable: async (dir) =>
          dir.endsWith('state') ? { writable: false, reason: 'EROFS' } : { writable: true, exists: false },
        cacheDir: async () => '/c/cache',
        stateDir: async () => '/s/state',
      },
      'state',
      'fail',
      /\/s\/state is not writable \(EROFS\): bulk imports/,
      /LMS_STATE_DIR/,
    ],
  ];

  it.each(cases)('%s', async (_name, change, name, status, detail, fix) => {
    const check = byName(await runChecks({ ...healthy(), ...change }))[name];
    expect(check.status).toBe(status);
    expect(check.detail).toMatch(detail);
    if (fix) expect(check.fix).toMatch(fix);
    else expect(check.fix).toBeUndefined();
  });

  it('asks the instance nothing it cannot ask: no instance, or no token', async () => {
    let asked = 0;
    const count =
      <T>(answer: T) =>
      async () => {
        asked++;
        return answer;
      };
    const quiet = { whoami: count({ user: { id: 1 } }), actAs: count({ id: 7 }), accountUsers: count([{ id: 7 }]) };
    const none = byName(
      await runChecks({
        ...healthy(),
        ...quiet,
        instance: async () => {
          throw new UsageError('no instance configured');
        },
      }),
    );
    expect(
      ['token', 'reachable', 'auth', 'clock', 'rate limit', 'masquerade'].map((name) => [
        name,
        none[name].status,
        none[name].detail,
      ]),
    ).toEqual([
      ['token', 'warn', 'not checked: no instance'],
      ['reachable', 'warn', 'not checked: no instance'],
      ['auth', 'warn', 'not checked: no instance'],
      ['clock', 'warn', 'not checked: no answer from the instance'],
      ['rate limit', 'warn', 'not checked: no instance'],
      ['masquerade', 'warn', 'not checked: no instance'],
    ]);
    const tokenless = byName(
      await runChecks({
        ...healthy(),
        ...quiet,
        asUser: '7',
        instance: async () => ({
          kind: 'remote',
          url: 'https://x.edu',
          source: 'LMS_BASE_URL in the environment',
          overridden: [],
        }),
      }),
    );
    expect([tokenless.auth.detail, tokenless['rate limit'].detail, tokenless.masquerade.detail]).toEqual([
      'not checked: no token',
      'not checked: no token',
      'not checked: no token',
    ]);
    expect(asked).toBe(0);
  });

  it('tries --as-user itself, and no one else, when it is given', async () => {
    const tried: string[] = [];
    let listed = 0;
    const checks = byName(
      await runChecks({
        ...healthy(),
        asUser: 'sis_user_id:S-007',
        actAs: async (id) => {
          tried.push(id);
          return { id: 7, name: 'Sam Student' };
        },
        accountUsers: async () => {
          listed++;
          return [];
        },
      }),
    );
    expect(tried).toEqual(['sis_user_id:S-007']);
    expect(listed).toBe(0);
    // Whose the token is stays the token's own user.
    expect(checks.auth.detail).toBe('accepted by lms.example.edu: Ada Admin (user 1, admin)');
  });

  it("without --as-user, tries the first user of the account who is not the token's own", async () => {
    const tried: string[] = [];
    await runChecks({
      ...healthy(),
      accountUsers: async () => [
        { id: 1, name: 'Ada Admin' },
        { id: 3, name: 'Tess Teacher' },
      ],
      actAs: async (id) => {
        tried.push(id);
        return { id: Number(id) };
      },
    });
    // Acting as oneself proves nothing: a real instance always allows it.
    expect(tried).toEqual(['3']);
  });

  it('the mock needs no clock check: it runs on this machine', async () => {
    expect(
      byName(await runChecks({ ...healthy(), instance: async () => mock, whoami: async () => ({ user: { id: 1 } }) }))
        .clock,
    ).toMatchObject({ status: 'ok' });
  });
});

describe('writable', () => {
  it('is a directory that exists, or one that could be made under the nearest that does', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lms-doctor-'));
    expect(await writable(dir)).toEqual({ writable: true, exists: true });
    expect(await writable(join(dir, 'a', 'b'))).toEqual({ writable: true, exists: false });
    writeFileSync(join(dir, 'file'), '');
    expect(await writable(join(dir, 'file', 'x'))).toEqual({
      writable: false,
      reason: `${join(dir, 'file')} is not a directory`,
    });
  });
});

describe('lms doctor against the mock', () => {
  it('passes, as a line per check, and as data with -o json', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lms-doctor-run-'));
    const lms = session({ LMS_STATE_DIR: join(dir, 'state'), LMS_CACHE_DIR: join(dir, 'cache') });
    const table = await lms.run('doctor', { tty: true });
    expect(table.exitCode, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/^ok    instance    the mock \(:memory:\), from LMS_MOCK in the environment$/m);
    expect(table.stdout).toMatch(/^ok    reachable   the mock answers in this process$/m);
    expect(table.stdout).toMatch(/^ok    auth        accepted by the mock: Ada Admin \(user 1, admin\)$/m);
    expect(table.stdout).toMatch(
      /^ok    rate limit  700 left in the rate-limit bucket \(X-Rate-Limit-Remaining; this check cost [\d.]+\)/m,
    );
    expect(table.stdout).toMatch(
      /^ok    masquerade  allowed: Ada Admin \(user 1\) may act as other users with --as-user \(tried as [^()]+ \(user \d+\)\)$/m,
    );
    const json = await lms.run('--mock doctor -o json');
    expect(json.exitCode, json.stderr).toBe(0);
    const checks = JSON.parse(json.stdout) as Check[];
    expect(checks.map((c) => c.check)).toEqual([
      'node',
      'sqlite',
      'instance',
      'config',
      'token',
      'proxy',
      'trust',
      'reachable',
      'auth',
      'clock',
      'rate limit',
      'masquerade',
      'code cache',
      'state',
    ]);
    expect(checks.every((c) => c.status === 'ok' || c.status === 'warn')).toBe(true);
    expect(checks.find((c) => c.check === 'instance')?.detail).toContain('from --mock');
    for (const r of [table, json]) expect(r.stdout + r.stderr).not.toContain(MOCK_ADMIN_TOKEN);
  });

  it(
    'names the state directory (XDG_STATE_HOME/lms without ' + 'LMS_STATE_DIR) and the cache directory, making neither',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'lms-doctor-dirs-'));
      const lms = session({
        LMS_STATE_DIR: '',
        XDG_STATE_HOME: join(dir, 'xdg-state'),
        LMS_CACHE_DIR: join(dir, 'cache'),
      });
      const r = await lms.run('doctor -o json');
      expect(r.exitCode, r.stderr).toBe(0);
      const checks = byName(JSON.parse(r.stdout) as Check[]);
      expect(checks.state.detail.startsWith(`${join(dir, 'xdg-state', 'lms')} is writable (made on first use)`)).toBe(
        true,
      );
      expect(checks['code cache'].detail).toBe(`${join(dir, 'cache')} is writable (made on first use)`);
      expect(readdirSync(dir)).toEqual([]);
    },
  );

  it('fails, exit 1, when the profile file can be read by others, and says how to fix it', async () => {
    const lms = session();
    expect(
      (
        await lms.run('profile add prod --url https://lms.example.edu --token-stdin --no-verify', {
          stdin: 'secret-token\n',
        })
      ).exitCode,
    ).toBe(0);
    const path = join(lms.configDir, 'config.json');
    chmodSync(path, 0o644);
    const r = await lms.run('doctor -o json');
    expect(r.exitCode).toBe(1);
    expect(JSON.parse(r.stdout).find((c: Check) => c.check === 'config')).toEqual({
      check: 'config',
      status: 'fail',
      detail: `${path} holds tokens and others may read or write it (mode 0644)`,
      fix: `chmod 600 ${path}`,
    });
    expect(JSON.parse(r.stderr)).toMatchObject({ message: '1 check failed: config', exit_code: 1 });
    expect(r.stdout + r.stderr).not.toContain('secret-token');
  });

  it('names LMS_TOKEN as not used when the profile named with -p keeps its own token', async () => {
    const lms = session();
    // A port nothing listens on: the checks that ask the instance fail at once; the instance check reads no network.
    expect(
      (await lms.run('profile add prod --url http://127.0.0.1:9 --token-stdin --no-verify', { stdin: 'prod-token\n' }))
        .exitCode,
    ).toBe(0);
    const r = await lms.run('-p prod doctor -o json', { env: { LMS_MOCK: '', LMS_TOKEN: 'env-token' } });
    expect(JSON.parse(r.stdout).find((c: Check) => c.check === 'instance')).toEqual({
      check: 'instance',
      status: 'ok',
      detail: 'http://127.0.0.1:9, from --profile prod; not used: LMS_TOKEN',
    });
  });

  /** A session whose runs keep the cache and state directories out of the user's own. */
  function isolated() {
    const dir = mkdtempSync(join(tmpdir(), 'lms-doctor-run-'));
    return session({ LMS_STATE_DIR: join(dir, 'state'), LMS_CACHE_DIR: join(dir, 'cache') });
  }

  it('with --as-user, says whose the token is and tries acting as that user', async () => {
    const r = await isolated().run('doctor --as-user 7 -o json');
    expect(r.exitCode, r.stderr).toBe(0);
    const checks = byName(JSON.parse(r.stdout) as Check[]);
    // Not Sam: the token check asks without as_user_id.
    expect(checks.auth.detail).toBe('accepted by the mock: Ada Admin (user 1, admin)');
    expect(checks.masquerade).toEqual({
      check: 'masquerade',
      status: 'ok',
      detail: 'allowed: --as-user 7 acts as Sam Student (user 7)',
    });
  });

  it('a token that may not act as others is information, not a failure', async () => {
    const lms = isolated();
    const helpdesk = await lms.run('doctor -o json', { env: { LMS_TOKEN: '2~mock-helpdesk' } });
    expect(helpdesk.exitCode, helpdesk.stderr).toBe(0);
    expect(byName(JSON.parse(helpdesk.stdout) as Check[]).masquerade).toMatchObject({
      status: 'ok',
      detail: expect.stringMatching(
        /^not allowed: the mock refused to let Hal Helpdesk \(user 2\) act as .+ \(401\); acting as others needs/,
      ),
    });
    const teacher = await lms.run('doctor -o json', { env: { LMS_TOKEN: '3~mock-tteacher' } });
    expect(teacher.exitCode, teacher.stderr).toBe(0);
    expect(byName(JSON.parse(teacher.stdout) as Check[]).masquerade).toMatchObject({
      status: 'ok',
      detail: expect.stringMatching(
        /^not allowed: Tess Teacher \(user 3\) may not list the root account's users \(401\)/,
      ),
    });
  });

  it('fails, exit 1, when --as-user names someone the token may not act as', async () => {
    const r = await isolated().run('doctor --as-user 7', { tty: true, env: { LMS_TOKEN: '2~mock-helpdesk' } });
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toMatch(/^ok    auth        accepted by the mock: Hal Helpdesk \(user 2, helpdesk\)$/m);
    expect(r.stdout).toMatch(
      /^fail  masquerade  not allowed: the mock refused to let Hal Helpdesk \(user 2\) act as user 7 \(401\), so every command with --as-user 7 fails; fix: check the id \(lms users get 7\);/m,
    );
    expect(r.stderr).toBe('error: 1 check failed: masquerade\n');
  });

  it('names a missing profile as the instance failure, with what to do', async () => {
    const r = await session().run('--no-mock -p nope doctor', { tty: true });
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toMatch(/^fail  instance    no profile named "nope"; fix: lms profile list shows the profiles$/m);
    expect(r.stderr).toBe('error: 1 check failed: instance\n');
  });
});
