// Real instances refuse API requests that carry no User-Agent header (since 2026-01-17), with a 403
// before anything else is looked at. The mock does too, so a client that forgets the header fails
// here as it would there. The answer is the usual error shape, and says nothing of a rate limit:
// clients tell a throttled 403 by "Rate Limit Exceeded" in its body, and this one must not be
// retried as if it were.
import { headerOf } from './decode.js';
import type { MockHandler } from './file-bytes.js';
import type { ApiRequest, ApiResponse } from '../transport/types.js';

const USER_AGENT_REQUIRED =
  'A User-Agent header is required: name your client and version (for example "lms/1.0" or "MyTool/2.1 ' +
  '(admin@school.edu)")';

export function requireUserAgent<H extends MockHandler>(handler: H): H {
  const wrapped = async (req: ApiRequest): Promise<ApiResponse> => {
    if (!headerOf(req, 'user-agent')?.trim()) {
      return {
        status: 403,
        headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
        body: JSON.stringify({ errors: [{ message: USER_AGENT_REQUIRED }] }),
      };
    }
    return handler(req);
  };
  return Object.assign(wrapped, handler);
}
