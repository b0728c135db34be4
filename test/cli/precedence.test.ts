// Which instance a command talks to: --mock / --no-mock, then -p, then LMS_BASE_URL, LMS_MOCK,
// LMS_PROFILE, then the default profile — a flag beats the environment, which beats the profile
// file — and which token goes with it. -v names the winner, where it came from and what lost.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseInstance, resolveRemote, type InstanceFlags } from '../../src/config/instance.js';
import { openProfiles, type Profile } from '../../src/config/profiles.js';
import { session } from '../helpers/run-lms.js';

const PROFILES: Record<string, Profile> = {
  prod: { url: 'https://prod.example.edu', token: 'prod-tok' },
  staging: { url: 'https://staging.example.edu', token: 'staging-tok' },
  bare: { url: 'https://bare.example.edu' },
  lax: { url: 'http://lax.example.edu', token: 'lax-tok', insecure: true },
};

const store = (current?: string) => ({
  get: (name: string) => PROFILES[name],
  current: () => current,
  list: () => Object.entries(PROFILES).map(([name, profile]) => ({ name, profile, current: name === current })),
});

type Expected =
  | { mock: '--mock' | 'LMS_MOCK'; lost?: string[] }
  | {
      url: string;
      from: string;
      token?: string;
      tokenSource?: string;
      unusedToken?: string;
      lost?: string[];
      insecure?: boolean;
    }
  | { error: string };

describe('the precedence of the instance sources', () => {
  it.each<[string, InstanceFlags, Record<string, string>, string | undefined, Expected]>([
    ['nothing, no default profile', {}, {}, undefined, { error: 'no instance configured' }],
    [
      'the default profile',
      {},
      {},
      'staging',
      { url: 'https://staging.example.edu', from: 'default', token: 'staging-tok', tokenSource: 'profile "staging"' },
    ],
    [
      'LMS_PROFILE over the default profile',
      {},
      { LMS_PROFILE: 'prod' },
      'staging',
      { url: 'https://prod.example.edu', from: 'LMS_PROFILE', token: 'prod-tok' },
    ],
    ['LMS_MOCK over the default profile', {}, { LMS_MOCK: '1' }, 'staging', { mock: 'LMS_MOCK' }],
    [
      'LMS_MOCK over LMS_PROFILE',
      {},
      { LMS_MOCK: '1', LMS_PROFILE: 'prod' },
      'staging',
      { mock: 'LMS_MOCK', lost: ['LMS_PROFILE'] },
    ],
    [
      '-p over LMS_MOCK (the reported case)',
      { profile: 'prod' },
      { LMS_MOCK: '1' },
      'staging',
      { url: 'https://prod.example.edu', from: '--profile', token: 'prod-tok', lost: ['LMS_MOCK'] },
    ],
    [
      'LMS_BASE_URL over LMS_MOCK',
      {},
      { LMS_MOCK: '1', LMS_BASE_URL: 'http://127.0.0.1:4010', LMS_TOKEN: 'env-tok' },
      'staging',
      {
        url: 'http://127.0.0.1:4010',
        from: 'LMS_BASE_URL',
        token: 'env-tok',
        tokenSource: 'LMS_TOKEN',
        lost: ['LMS_MOCK'],
      },
    ],
    [
      'LMS_BASE_URL over LMS_PROFILE, whose token it borrows without LMS_TOKEN',
      {},
      { LMS_BASE_URL: 'http://127.0.0.1:4010', LMS_PROFILE: 'prod' },
      'staging',
      { url: 'http://127.0.0.1:4010', from: 'LMS_BASE_URL', token: 'prod-tok', tokenSource: 'profile "prod"' },
    ],
    [
      "LMS_BASE_URL borrowing the default profile's token",
      {},
      { LMS_BASE_URL: 'http://127.0.0.1:4010' },
      'staging',
      { url: 'http://127.0.0.1:4010', from: 'LMS_BASE_URL', token: 'staging-tok' },
    ],
    [
      'LMS_BASE_URL with an unknown LMS_PROFILE',
      {},
      { LMS_BASE_URL: 'http://127.0.0.1:4010', LMS_PROFILE: 'nope', LMS_TOKEN: 'env-tok' },
      undefined,
      { url: 'http://127.0.0.1:4010', from: 'LMS_BASE_URL', token: 'env-tok' },
    ],
    [
      "-p over LMS_BASE_URL, keeping the profile's own token over LMS_TOKEN",
      { profile: 'prod' },
      { LMS_BASE_URL: 'http://127.0.0.1:4010', LMS_TOKEN: 'env-tok' },
      'staging',
      {
        url: 'https://prod.example.edu',
        from: '--profile',
        token: 'prod-tok',
        tokenSource: 'profile "prod"',
        unusedToken: 'LMS_TOKEN',
        lost: ['LMS_BASE_URL'],
      },
    ],
    [
      '-p over LMS_PROFILE',
      { profile: 'prod' },
      { LMS_PROFILE: 'staging' },
      'staging',
      { url: 'https://prod.example.edu', from: '--profile', lost: ['LMS_PROFILE'] },
    ],
    [
      '-p of a profile without a token takes LMS_TOKEN',
      { profile: 'bare' },
      { LMS_TOKEN: 'env-tok' },
      undefined,
      { url: 'https://bare.example.edu', from: '--profile', token: 'env-tok', tokenSource: 'LMS_TOKEN' },
    ],
    [
      '-p of a profile without a token, and no LMS_TOKEN',
      { profile: 'bare' },
      {},
      undefined,
      { url: 'https://bare.example.edu', from: '--profile', token: undefined },
    ],
    [
      'LMS_TOKEN over the token of a profile from LMS_PROFILE',
      {},
      { LMS_PROFILE: 'prod', LMS_TOKEN: 'env-tok' },
      undefined,
      {
        url: 'https://prod.example.edu',
        from: 'LMS_PROFILE',
        token: 'env-tok',
        tokenSource: 'LMS_TOKEN',
        unusedToken: 'the token of profile "prod"',
      },
    ],
    [
      "LMS_TOKEN over the default profile's token",
      {},
      { LMS_TOKEN: 'env-tok' },
      'staging',
      {
        url: 'https://staging.example.edu',
        from: 'default',
        token: 'env-tok',
        unusedToken: 'the token of profile "staging"',
      },
    ],
    [
      '--mock over everything in the environment',
      { mock: true },
      { LMS_BASE_URL: 'http://127.0.0.1:4010', LMS_PROFILE: 'prod', LMS_MOCK: '0' },
      'staging',
      { mock: '--mock', lost: ['LMS_BASE_URL', 'LMS_PROFILE'] },
    ],
    [
      '--no-mock over LMS_MOCK',
      { mock: false },
      { LMS_MOCK: '1' },
      'staging',
      { url: 'https://staging.example.edu', from: 'default', lost: ['LMS_MOCK'] },
    ],
    [
      '--no-mock, then LMS_PROFILE',
      { mock: false },
      { LMS_MOCK: 'true', LMS_PROFILE: 'prod' },
      undefined,
      { url: 'https://prod.example.edu', from: 'LMS_PROFILE', lost: ['LMS_MOCK'] },
    ],
    ['LMS_MOCK=0 is off', {}, { LMS_MOCK: '0' }, 'staging', { url: 'https://staging.example.edu', from: 'default' }],
    [
      'LMS_MOCK=false is off',
      {},
      { LMS_MOCK: 'False' },
      'staging',
      { url: 'https://staging.example.edu', from: 'default' },
    ],
    ['an empty LMS_BASE_URL is unset', {}, { LMS_BASE_URL: '', LMS_MOCK: '1' }, 'staging', { mock: 'LMS_MOCK' }],
    [
      '-p of an unknown profile',
      { profile: 'nope' },
      { LMS_BASE_URL: 'http://127.0.0.1:4010' },
      'staging',
      { error: 'no profile named "nope"' },
    ],
    [
      'LMS_PROFILE of an unknown profile',
      {},
      { LMS_PROFILE: 'nope' },
      'staging',
      { error: 'no profile named "nope" (from LMS_PROFILE)' },
    ],
    [
      "a profile's consent to plain http, for its own URL",
      { profile: 'lax' },
      {},
      undefined,
      { url: 'http://lax.example.edu', from: '--profile', insecure: true },
    ],
    [
      "a profile's consent to plain http, not for LMS_BASE_URL",
      {},
      { LMS_BASE_URL: 'http://other.example.edu', LMS_PROFILE: 'lax' },
      undefined,
      { url: 'http://other.example.edu', from: 'LMS_BASE_URL', token: 'lax-tok', insecure: false },
    ],
  ])('%s', (_what, flags, env, current, expected) => {
    const choice = chooseInstance(flags, env);
    if ('mock' in expected) {
      expect(choice).toEqual({ kind: 'mock', from: expected.mock, overridden: expected.lost ?? [] });
      return;
    }
    expect(choice.kind).toBe('remote');
    if (choice.kind !== 'remote') return;
    if ('error' in expected) {
      expect(() => resolveRemote(choice, env, store(current))).toThrow(expected.error);
      return;
    }
    expect(choice.from).toBe(expected.from);
    expect(choice.overridden).toEqual(expected.lost ?? []);
    const remote = resolveRemote(choice, env, store(current));
    expect(remote.baseUrl).toBe(expected.url);
    if ('token' in expected) expect(remote.token).toBe(expected.token);
    if (expected.tokenSource) expect(remote.tokenSource).toBe(expected.tokenSource);
    expect(remote.unusedToken).toBe(expected.unusedToken);
    if (expected.insecure !== undefined) expect(remote.insecure).toBe(expected.insecure);
  });
});

// A stand-in for a real instance: users/self names which token reached it (never the token itself).
const TOKENS: Record<string, string> = { 'prod-tok': 'prod', 'env-tok': 'env' };
let server: Server;
let base = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    const label = TOKENS[(req.headers.authorization ?? '').replace(/^Bearer /, '')];
    res.writeHead(label ? 200 : 401, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify(
        label ? { id: 900, name: `remote via ${label}` } : { errors: [{ message: 'Invalid access token.' }] },
      ),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('the command line', () => {
  // The seeded admin (id 1) answers in process; the stand-in answers 900.
  it.each<[string, string, Record<string, string>, { id: number; name?: string; trace: RegExp }]>([
    [
      'LMS_MOCK=1 -p prod goes to prod',
      '-p prod',
      { LMS_MOCK: '1' },
      {
        id: 900,
        name: 'remote via prod',
        trace:
          /^instance: http:\/\/127\.0\.0\.1:\d+ \(from --profile prod\); token from profile "prod"; not used: LMS_MOCK$/m,
      },
    ],
    [
      'LMS_MOCK=1 with LMS_BASE_URL goes to the URL',
      '',
      { LMS_MOCK: '1', LMS_BASE_URL: '<base>', LMS_TOKEN: 'env-tok' },
      {
        id: 900,
        name: 'remote via env',
        trace:
          /^instance: http:\/\/127\.0\.0\.1:\d+ \(from LMS_BASE_URL in the environment\); token from LMS_TOKEN; not used: LMS_MOCK$/m,
      },
    ],
    [
      '--no-mock with LMS_MOCK=1 goes to the default profile',
      '--no-mock',
      { LMS_MOCK: '1' },
      {
        id: 900,
        trace:
          /^instance: http:\/\/127\.0\.0\.1:\d+ \(from the default profile "prod"\); token from profile "prod"; not used: LMS_MOCK$/m,
      },
    ],
    [
      'LMS_MOCK=1 beats the default profile',
      '',
      { LMS_MOCK: '1' },
      {
        id: 1,
        trace: /^instance: the mock \(.+\) \(from LMS_MOCK in the environment\); token from the seeded admin$/m,
      },
    ],
    [
      'LMS_MOCK=1 beats LMS_PROFILE',
      '',
      { LMS_MOCK: '1', LMS_PROFILE: 'prod' },
      {
        id: 1,
        trace:
          /^instance: the mock \(.+\) \(from LMS_MOCK in the environment\); token from the seeded admin; not used: LMS_PROFILE$/m,
      },
    ],
    [
      '--mock beats LMS_BASE_URL',
      '--mock',
      { LMS_MOCK: '', LMS_BASE_URL: '<base>', LMS_TOKEN: '' },
      {
        id: 1,
        trace: /^instance: the mock \(.+\) \(from --mock\); token from the seeded admin; not used: LMS_BASE_URL$/m,
      },
    ],
    [
      'LMS_PROFILE without LMS_MOCK',
      '',
      { LMS_MOCK: '', LMS_PROFILE: 'prod' },
      {
        id: 900,
        trace:
          /^instance: http:\/\/127\.0\.0\.1:\d+ \(from profile "prod" from LMS_PROFILE in the environment\); token from profile "prod"$/m,
      },
    ],
    [
      '-p keeps its token over LMS_TOKEN, which -v lists as not used',
      '-p prod',
      { LMS_MOCK: '', LMS_TOKEN: 'env-tok' },
      {
        id: 900,
        name: 'remote via prod',
        trace:
          /^instance: http:\/\/127\.0\.0\.1:\d+ \(from --profile prod\); token from profile "prod"; not used: LMS_TOKEN$/m,
      },
    ],
    [
      "LMS_TOKEN over the default profile's token, which -v lists as not used",
      '',
      { LMS_MOCK: '', LMS_TOKEN: 'env-tok' },
      {
        id: 900,
        name: 'remote via env',
        trace:
          /^instance: http:\/\/127\.0\.0\.1:\d+ \(from the default profile "prod"\); token from LMS_TOKEN; not used: the token of profile "prod"$/m,
      },
    ],
  ])('%s', async (_what, flags, env, expected) => {
    const lms = session();
    await openProfiles(lms.configDir).set('prod', { url: base, token: 'prod-tok' });
    const filled = Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v === '<base>' ? base : v]));
    const r = await lms.run(`-v ${flags} users get self -o json`, { env: filled });
    expect(r.stderr).not.toContain('-tok');
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ id: expected.id, ...(expected.name ? { name: expected.name } : {}) });
    expect(r.stderr).toMatch(expected.trace);
  });

  it('refuses --mock with --profile (exit 2), whichever comes first', async () => {
    const lms = session();
    for (const line of ['--mock -p prod users get self', 'users get self -p prod --mock']) {
      const r = await lms.run(line);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain('error: --mock and --profile both choose the instance: give one of them');
    }
  });

  it('lets the last of --mock and --no-mock win', async () => {
    const lms = session();
    await openProfiles(lms.configDir).set('prod', { url: base, token: 'prod-tok' });
    expect(
      JSON.parse((await lms.run('--mock --no-mock users get self -o json', { env: { LMS_MOCK: '' } })).stdout),
    ).toMatchObject({ id: 900 });
    expect(
      JSON.parse((await lms.run('--no-mock --mock users get self -o json', { env: { LMS_MOCK: '' } })).stdout),
    ).toMatchObject({ id: 1 });
  });

  it(
    'refuses an unknown -p even with LMS_MOCK set; -v ' + 'names LMS_TOKEN as the token source without showing it',
    async () => {
      const lms = session();
      const r = await lms.run('-v -p prod users get self', { env: { LMS_MOCK: '1' } });
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain('no profile named "prod"');
      const quiet = await lms.run('users get self -o json', { env: { LMS_MOCK: '1', LMS_TOKEN: '7~mock-sam' } });
      expect(quiet.stderr).toBe('');
      const traced = await lms.run('-v users get self -o json', { env: { LMS_MOCK: '1', LMS_TOKEN: '7~mock-sam' } });
      expect(traced.stderr).toMatch(
        /^instance: the mock \(.+\) \(from LMS_MOCK in the environment\); token from LMS_TOKEN$/m,
      );
      expect(traced.stderr).not.toContain('mock-sam');
    },
  );
});
