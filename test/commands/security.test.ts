// Tokens stay secret: no plain http to remote hosts without consent, and no token in any output,
// trace, journal, failed-rows file or JSON error.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { session } from '../helpers/run-lms.js';

const TOKEN = '2~mock-helpdesk';

describe('plain http', () => {
  it('refuses to send a token to a remote http host, unless --insecure', async () => {
    const lms = session();
    const env = { LMS_MOCK: '', LMS_BASE_URL: 'http://lms.example.edu', LMS_TOKEN: 'tok-123' };
    const refused = await lms.run('users get self', { env });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('refusing to send the token over plain http to lms.example.edu');
    // With consent it tries (and here fails to resolve the name: a network error, not a refusal).
    const allowed = await lms.run('users get self --insecure --timeout 2', {
      env: { ...env, LMS_BASE_URL: 'http://lms.invalid' },
    });
    expect(allowed.stderr).toContain('warning: sending the token over plain http to lms.invalid');
    expect(allowed.exitCode).toBe(7);
    expect(allowed.stdout + allowed.stderr).not.toContain('tok-123');
  });

  it('accepts loopback over http, and refuses a remote http profile without --insecure', async () => {
    const lms = session();
    const add = await lms.run('profile add remote --url http://lms.example.edu --token-stdin --no-verify', {
      stdin: 'tok',
    });
    expect(add.exitCode).toBe(2);
    expect(
      (
        await lms.run('profile add remote --url http://lms.example.edu --token-stdin --insecure --no-verify', {
          stdin: 'tok',
        })
      ).exitCode,
    ).toBe(0);
    expect(
      (await lms.run('profile add local --url http://127.0.0.1:4010 --token-stdin --no-verify', { stdin: 'tok' }))
        .exitCode,
    ).toBe(0);
  });
});

describe('no token anywhere', () => {
  it('keeps the token out of stdout, stderr, traces, journals, failed-row files and JSON errors', async () => {
    const state = mkdtempSync(join(tmpdir(), 'lms-state-'));
    const lms = session({ LMS_TOKEN: TOKEN, LMS_STATE_DIR: state });
    const dir = mkdtempSync(join(tmpdir(), 'lms-sec-'));
    const csv = join(dir, 'in.csv');
    const failedOut = join(dir, 'failed.csv');
    // The helpdesk admin may not set SIS ids, so one row fails.
    writeFileSync(csv, 'name,login_id,sis_user_id\nAna,ana,\nBo,bo,SIS-B\n');
    const outputs = [
      await lms.run(`-v users import ${csv} --failed-out ${failedOut} -o json`),
      await lms.run('-v users get 987654321 -o json'),
      await lms.run('-v users list --as-user 7 -o json'),
      await lms.run('-v api GET /api/v1/users/self -f access_token=x -o json'),
    ];
    const journals = readdirSync(join(state, 'journals')).map((f) => readFileSync(join(state, 'journals', f), 'utf8'));
    const everything = [
      ...outputs.flatMap((o) => [o.stdout, o.stderr]),
      readFileSync(failedOut, 'utf8'),
      ...journals,
    ].join('\n');
    expect(outputs.map((o) => o.exitCode)).toEqual([1, 4, 3, 0]);
    expect(everything).toContain('→ GET');
    expect(everything).not.toContain(TOKEN);
    expect(everything).not.toContain('mock-helpdesk');
  });
});
