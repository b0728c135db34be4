// A client for an instance that is not (or not yet) the command's own: the token endpoint, which
// takes no token, and the instance a login is for, before its profile exists.
import type { ApiClient } from '../client/client.js';
import type { CaFile } from '../transport/ca-file.js';
import type { Transport } from '../transport/types.js';

export interface InstanceClientOptions {
  baseUrl: string;
  token?: string;
  /** The owner's consent to plain http to a host that is not this machine. */
  insecure: boolean;
  timeoutSeconds: number;
  trace?: (line: string) => void;
  warn?: (message: string) => void;
  renewToken?: (refused: string) => Promise<string | undefined>;
  /** What the command's own requests go through (retries, pacing, the spinner). */
  wrap?: (transport: Transport) => Transport;
  /** Where proxy variables and LMS_CA_FILE are read. */
  env?: NodeJS.ProcessEnv;
  /** The profile's certificate authority, trusted besides Node's roots (LMS_CA_FILE beats it). */
  caFile?: CaFile;
}

export async function instanceClient(options: InstanceClientOptions): Promise<ApiClient> {
  const [{ ApiClient }, { httpTransport }] = await Promise.all([
    import('../client/client.js'),
    import('../transport/http.js'),
  ]);
  const transport = httpTransport({
    timeoutMs: options.timeoutSeconds * 1000,
    env: options.env,
    caFile: options.caFile,
    trace: options.trace,
    insecure: options.insecure,
  });
  return new ApiClient({
    baseUrl: options.baseUrl,
    token: options.token,
    userAgent: `lms/${__LMS_VERSION__}`,
    trace: options.trace,
    plainHttp: options.insecure ? 'warn' : 'refuse',
    warn: options.warn,
    renewToken: options.renewToken,
    transport: options.wrap ? options.wrap(transport) : transport,
  });
}
