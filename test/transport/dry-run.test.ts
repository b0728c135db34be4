// The dry run's transport: reads pass, the first write is kept and never reaches the inner
// transport, and a kept request is shown as the server would read it, with its secrets masked.
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/client/client.js';
import { encodeBody } from '../../src/client/encode.js';
import { createDryRun, DryRunStop, isSecretField, previewRequest } from '../../src/transport/dry-run.js';
import type { ApiRequest, ApiResponse } from '../../src/transport/types.js';

const ok = (json: unknown): ApiResponse => ({
  status: 200,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(json),
});

function inner() {
  const seen: ApiRequest[] = [];
  const transport = async (req: ApiRequest) => {
    seen.push(req);
    return ok({ id: 1 });
  };
  return { seen, transport };
}

describe('createDryRun', () => {
  it('sends reads, stops at the first write, keeps only that one', async () => {
    const { seen, transport } = inner();
    const dryRun = createDryRun();
    const wrapped = dryRun.wrap(transport);
    await wrapped({ method: 'GET', url: 'https://lms.example.edu/api/v1/users/1', headers: {} });
    await expect(
      wrapped({ method: 'POST', url: 'https://lms.example.edu/api/v1/a', headers: {} }),
    ).rejects.toBeInstanceOf(DryRunStop);
    await expect(wrapped({ method: 'DELETE', url: 'https://lms.example.edu/api/v1/b', headers: {} })).rejects.toThrow(
      'DELETE not sent (--dry-run)',
    );
    expect(seen.map((r) => r.method)).toEqual(['GET']);
    expect(dryRun.stopped?.url).toBe('https://lms.example.edu/api/v1/a');
  });

  it('under a client, keeps the request exactly as encoded for the wire', async () => {
    const { seen, transport } = inner();
    const dryRun = createDryRun();
    const client = new ApiClient({
      baseUrl: 'https://lms.example.edu',
      token: 'secret-token',
      transport: dryRun.wrap(transport),
      asUser: '5',
    });
    await expect(
      client.request('users.create', {
        account_id: 1,
        user: { name: 'Ada' },
        pseudonym: { unique_id: 'ada', password: 'pw' },
      }),
    ).rejects.toBeInstanceOf(DryRunStop);
    // The masquerade check is a read, and it went out; so did the dry run's check of the account the
    // user would be made in, as the masqueraded user.
    expect(seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET https://lms.example.edu/api/v1/users/5',
      'GET https://lms.example.edu/api/v1/accounts/1?as_user_id=5',
    ]);
    expect(dryRun.checked).toEqual({ method: 'GET', url: '/api/v1/accounts/1', status: 200 });
    const preview = previewRequest(dryRun.stopped!);
    expect(preview).toEqual({
      method: 'POST',
      url: 'https://lms.example.edu/api/v1/accounts/1/users?as_user_id=5',
      contentType: 'application/x-www-form-urlencoded',
      body: {
        kind: 'form',
        text: 'user%5Bname%5D=Ada&pseudonym%5Bunique_id%5D=ada&pseudonym%5Bpassword%5D=[REDACTED]',
        pairs: [
          ['user[name]', 'Ada'],
          ['pseudonym[unique_id]', 'ada'],
          ['pseudonym[password]', '[REDACTED]'],
        ],
      },
      authorized: true,
    });
    expect(JSON.stringify(preview)).not.toContain('secret-token');
  });
});

describe('previewRequest', () => {
  const post = async (
    params: Record<string, unknown>,
    encoding: 'json' | 'form' | 'multipart',
  ): Promise<ApiRequest> => {
    const encoded = await encodeBody(params as never, encoding);
    return {
      method: 'POST',
      url: 'https://lms.example.edu/api/v1/x?access_token=abc&page=2',
      headers: { 'content-type': encoded.contentType, authorization: 'Bearer t' },
      body: encoded.body,
    };
  };

  it.each([
    [
      'a JSON body, secrets masked at any depth',
      'json',
      { user: { name: 'Ada', password: 'pw' }, token: 't', list: [{ client_secret: 's' }] },
      {
        kind: 'json',
        value: {
          user: { name: 'Ada', password: '[REDACTED]' },
          token: '[REDACTED]',
          list: [{ client_secret: '[REDACTED]' }],
        },
      },
    ],
    [
      'a form body, repeated fields kept in order',
      'form',
      { ids: [1, 2], comment: { text_comment: 'a&b=c' } },
      {
        kind: 'form',
        text: 'ids%5B%5D=1&ids%5B%5D=2&comment%5Btext_comment%5D=a%26b%3Dc',
        pairs: [
          ['ids[]', '1'],
          ['ids[]', '2'],
          ['comment[text_comment]', 'a&b=c'],
        ],
      },
    ],
    [
      'a multipart body, files described and never shown',
      'multipart',
      {
        name: 'x',
        password: 'pw',
        file: new File([new Uint8Array([1, 2, 3])], 'n.bin', { type: 'application/octet-stream' }),
      },
      {
        kind: 'multipart',
        parts: [
          { name: 'name', value: 'x' },
          { name: 'password', value: '[REDACTED]' },
          { name: 'file', file: 'n.bin', size: 3, type: 'application/octet-stream' },
        ],
      },
    ],
  ] as const)('%s', async (_name, encoding, params, body) => {
    const preview = previewRequest(await post(params, encoding));
    expect(preview.body).toEqual(body);
    expect(preview.url).toBe('https://lms.example.edu/api/v1/x?access_token=[REDACTED]&page=2');
  });

  it('shows no body for a request without one, and one-time URLs by their origin only', () => {
    expect(
      previewRequest({ method: 'DELETE', url: 'https://lms.example.edu/api/v1/sections/2', headers: {} }),
    ).toMatchObject({ body: { kind: 'none' }, authorized: false });
    const upload = {
      method: 'POST' as const,
      url: 'https://files.example.com/files_api/uploads/abc?sig=1',
      traceUrl: 'https://files.example.com/[REDACTED]',
      headers: {},
      body: '',
    };
    expect(previewRequest(upload).url).toBe('https://files.example.com/[REDACTED]');
  });

  it('treats a field as secret when any part of its bracketed name is one', () => {
    expect(
      ['pseudonym[password]', 'user[avatar][token]', 'password', 'a[b][client_secret][]'].map(isSecretField),
    ).toEqual([true, true, true, true]);
    expect(['user[name]', 'ids[]', 'passwords_count'].map(isSecretField)).toEqual([false, false, false]);
  });
});
