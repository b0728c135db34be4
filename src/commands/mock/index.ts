import { accessSync, constants, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { list, type Verbs } from '../../model/command.js';
import { command, type Flag, type OptionsOf } from '../../model/define.js';
import { UsageError } from '../../errors.js';
import { out } from '../../io/streams.js';
import type { FaultOptions, ThrottleOptions } from '../../mock/faults.js';

/** The flags of `lms mock serve`: where it listens, its limits, and the faults it injects. */
const serveFlags = {
  port: {
    long: 'port',
    value: 'n',
    description: 'port (0 picks a free one)',
    type: 'integer',
    min: 0,
    max: 65_535,
    default: '4010',
  },
  host: { long: 'host', value: 'address', description: 'address to bind', default: '127.0.0.1' },
  quiet: { long: 'quiet', description: 'only the line naming the address: no per-request log lines, no notes' },
  publicUrl: {
    long: 'public-url',
    value: 'url',
    description:
      'origin for the absolute URLs in answers (Link, upload_url, file url), e.g. https://mock.example.org; by ' +
      'default the address the client connected to',
  },
  maxBodySize: {
    long: 'max-body-size',
    value: 'size',
    description: 'largest request body, bytes or 512k/1m (larger: 413)',
    type: 'size',
    min: 1,
    max: 2 * 1024 ** 3,
    default: '1m',
  },
  maxUploadSize: {
    long: 'max-upload-size',
    value: 'size',
    description:
      'largest multipart body posted to an upload URL (/files_api/uploads/…); other bodies there have --max-body-size',
    type: 'size',
    min: 1,
    max: 2 * 1024 ** 3,
    default: '100m',
  },
  throttle: {
    long: 'throttle',
    description:
      'throttle like a real instance: a leaky bucket per token (capacity 700, 50 per request in flight, cost 10, ' +
      'drains 100/s)',
  },
  throttleStatus: {
    long: 'throttle-status',
    value: 'status',
    description: 'status of a throttled answer (default 403; implies --throttle)',
    choices: ['403', '429'],
  },
  throttleCapacity: {
    long: 'throttle-capacity',
    value: 'n',
    description: 'bucket size (default 700; implies --throttle)',
    type: 'number',
    min: 0,
  },
  throttleRate: {
    long: 'throttle-rate',
    value: 'units-per-second',
    description: 'how fast the bucket drains (default 100; implies --throttle)',
    type: 'number',
    min: 0,
  },
  throttleCost: {
    long: 'throttle-cost',
    value: 'n',
    description: 'charged per completed request (default 10; implies --throttle)',
    type: 'number',
    min: 0,
  },
  throttlePenalty: {
    long: 'throttle-penalty',
    value: 'n',
    description: 'charged while a request is in flight, refunded when it completes (default 50; implies --throttle)',
    type: 'number',
    min: 0,
  },
  failRate: {
    long: 'fail-rate',
    value: 'p',
    description: 'probability (0-1) of answering a 5xx (500, 502 or 503) without doing anything',
    type: 'number',
    min: 0,
    max: 1,
  },
  failStatus: {
    long: 'fail-status',
    value: 'codes',
    description: 'the statuses a failure picks from, comma-separated (default 500,502,503)',
  },
  dropRate: {
    long: 'drop-rate',
    value: 'p',
    description: 'probability (0-1) of dropping the connection, half before and half after the request is applied',
    type: 'number',
    min: 0,
    max: 1,
  },
  latency: {
    long: 'latency',
    value: 'ms',
    description: 'delay before every answer',
    type: 'number',
    min: 0,
    unit: 'milliseconds',
  },
  faultSeed: {
    long: 'fault-seed',
    value: 'n',
    description: 'seed for the faults, so a run can be reproduced',
    type: 'integer',
    min: 0,
  },
  requireUserAgent: {
    long: 'require-user-agent',
    negated: true,
    description:
      'answer requests that carry no User-Agent header (real instances refuse them with 403, and so does the mock ' +
      'by default), for clients that cannot set one',
  },
  tlsCert: {
    long: 'tls-cert',
    value: 'file',
    description: 'serve HTTPS with this certificate (PEM, the chain after it), with --tls-key',
  },
  tlsKey: { long: 'tls-key', value: 'file', description: 'the private key of --tls-cert (PEM)' },
  tlsSelfSigned: {
    long: 'tls-self-signed',
    value: 'cert-file',
    description:
      'serve HTTPS with a new self-signed certificate for localhost, 127.0.0.1 and ::1, written (PEM) to this file ' +
      'for clients to trust; its key stays in memory',
  },
  readyFile: {
    long: 'ready-file',
    value: 'path',
    description:
      'once listening, write the base URL to this file (replaced atomically; removed at start and on exit), for ' +
      'scripts that run the server in the background',
  },
} as const satisfies Record<string, Flag>;

type ServeOpts = OptionsOf<typeof serveFlags>;

/** `--public-url`: an http(s) origin, nothing after the host. */
function publicOrigin(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (
    !url ||
    !['http:', 'https:'].includes(url.protocol) ||
    url.username ||
    url.password ||
    url.pathname !== '/' ||
    url.search ||
    url.hash
  ) {
    throw new UsageError(`--public-url must be an http(s) origin such as https://mock.example.org, got "${raw}"`);
  }
  return url.origin;
}

/**
 * The base URL a client on this machine uses: the public origin when one is named; on a wildcard
 * bind, loopback (0.0.0.0 is no address to connect to, and the client sends a token over plain
 * http only to loopback).
 */
function clientBaseUrl(url: string, o: { publicUrl?: string; wildcard: boolean }): string {
  if (o.publicUrl) return o.publicUrl;
  if (!o.wildcard) return url;
  const u = new URL(url);
  u.hostname = u.hostname === '[::]' ? '[::1]' : '127.0.0.1';
  return u.origin;
}

/**
 * `--ready-file`: its directory must be writable before the server starts, and a stale file from an earlier run goes.
 */
function prepareReadyFile(path: string | undefined): string | undefined {
  if (path === undefined) return undefined;
  const full = resolve(path);
  try {
    accessSync(dirname(full), constants.W_OK);
    rmSync(full, { force: true });
  } catch (error) {
    throw new UsageError(
      `--ready-file ${path}: cannot write there (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  return full;
}

/** Whoever polls the file never reads half a URL: it appears whole, by rename. */
function writeReadyFile(path: string, url: string): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${url}\n`);
  renameSync(temporary, path);
}

/** The faults the flags ask for; each value checked and named by its flag. */
interface FaultFlags {
  throttle?: Partial<ThrottleOptions>;
  failRate?: number;
  failStatuses?: number[];
  dropRate?: number;
  latencyMs?: number;
  seed?: number;
}

function faultFlags(opts: ServeOpts): FaultFlags {
  const throttle: Partial<ThrottleOptions> = {};
  const set = <K extends keyof ThrottleOptions>(key: K, value: ThrottleOptions[K] | undefined) => {
    if (value !== undefined) throttle[key] = value;
  };
  set('status', opts.throttleStatus === undefined ? undefined : (Number(opts.throttleStatus) as 403 | 429));
  set('capacity', opts.throttleCapacity);
  set('leakPerSecond', opts.throttleRate);
  set('cost', opts.throttleCost);
  set('penalty', opts.throttlePenalty);
  return {
    // Any --throttle-* flag turns the throttle on.
    throttle: opts.throttle || Object.keys(throttle).length ? throttle : undefined,
    failRate: opts.failRate,
    failStatuses: statuses(opts.failStatus),
    dropRate: opts.dropRate,
    latencyMs: opts.latency,
    seed: opts.faultSeed,
  };
}

function statuses(raw: string | undefined): number[] | undefined {
  if (raw === undefined) return undefined;
  const list = raw.split(',').map((s) => s.trim());
  if (!list.every((s) => /^5\d\d$/.test(s)))
    throw new UsageError(`--fail-status must be comma-separated 5xx statuses, e.g. 502,503; got "${raw}"`);
  return list.map(Number);
}

/** Flags over LMS_MOCK_FAULTS, field by field. */
function mergeFaults(base: FaultOptions, flags: FaultFlags, defaults: ThrottleOptions): FaultOptions {
  const merged: FaultOptions = { ...base };
  if (flags.throttle) {
    merged.throttle = { ...defaults, ...base.throttle, ...flags.throttle };
    if (merged.throttle.penalty > merged.throttle.capacity) {
      throw new UsageError(
        `the in-flight penalty (${merged.throttle.penalty}) is larger than the bucket (--throttle-capacity ` +
          `${merged.throttle.capacity}): every request would be throttled`,
        {
          hint: 'raise --throttle-capacity or lower --throttle-penalty',
        },
      );
    }
  }
  if (flags.failRate !== undefined) merged.failRate = flags.failRate;
  if (flags.failStatuses !== undefined) merged.failStatuses = flags.failStatuses;
  if (flags.dropRate !== undefined) merged.dropRate = flags.dropRate;
  if (flags.latencyMs !== undefined) merged.latencyMs = flags.latencyMs;
  if (flags.seed !== undefined) merged.seed = flags.seed;
  return merged;
}

export const mockVerbs: Verbs = [
  command({
    name: 'seed',
    summary: 'Reset the mock database to the seeded school; --users N (and --courses M) add a generated large school',
    options: {
      users: {
        long: 'users',
        value: 'n',
        description: 'also generate N users with logins and emails, enrolled in generated courses',
        type: 'integer',
        min: 0,
        max: 1_000_000,
      },
      courses: {
        long: 'courses',
        value: 'm',
        description: 'with --users: how many generated courses (two sections each; default N/100, at least 1)',
        type: 'integer',
        min: 0,
        max: 100_000,
      },
    },
    examples: ['lms mock seed --yes', 'lms mock seed --yes --users 2000 --courses 20'],
    async run({ opts, ctx }) {
      const { users, courses } = opts;
      if (courses !== undefined && users === undefined) throw new UsageError('--courses goes with --users');
      const { reseed, SEED_EPOCH } = await import('../../mock/index.js');
      const mock = await ctx.mock();
      // A database this run just created holds nothing to lose; any other is erased only on purpose.
      if (!mock.created)
        await ctx.confirm(`Replace everything in the mock database ${mock.path} with the seeded school`);
      await reseed(mock.db, { clock: mock.now() });
      let extra = '';
      if (users) {
        const { generateSchool } = await (await import('../../mock/index.js')).generator();
        const made = generateSchool(mock.db, {
          users,
          courses: courses ?? Math.max(1, Math.floor(users / 100)),
          now: SEED_EPOCH,
        });
        extra = ` with ${made.users} generated users, ${made.courses} courses and ${made.enrollments} enrollments`;
      }
      ctx.io.stderr.write(
        `Seeded the mock school${extra} in ${mock.path}. \`lms mock tokens\` lists its users' tokens.\n`,
      );
      return undefined;
    },
  }),
  command({
    name: 'reset',
    summary: 'Empty the mock database, keeping only the root account and its admin',
    examples: ['lms mock reset --yes'],
    async run({ ctx }) {
      await ctx.confirm('Erase everything in the mock database');
      const { reseed } = await import('../../mock/index.js');
      const mock = await ctx.mock();
      await reseed(mock.db, { minimal: true, clock: mock.now() });
      ctx.io.stderr.write(`Reset the mock database in ${mock.path}.\n`);
      return undefined;
    },
  }),
  command({
    name: 'tokens',
    summary:
      "List the access tokens of the mock users, and the developer key's client id and secret (for lms auth login)",
    examples: ['lms mock tokens -o json'],
    columns: ['user_id', 'name', 'role', 'token', 'client_id', 'client_secret'],
    async run({ ctx }) {
      const { listTokens } = await import('../../mock/index.js');
      return list(listTokens((await ctx.mock()).db));
    },
  }),
  command({
    name: 'serve',
    summary: 'Serve the mock over HTTP or HTTPS (loopback by default); logs one line per request',
    options: serveFlags,
    examples: [
      'lms mock serve --port 4010 &',
      'LMS_BASE_URL=http://127.0.0.1:4010 LMS_TOKEN=1~mock-admin lms users list',
      'lms mock serve --host 0.0.0.0 --public-url http://mock.ci.internal:4010 --max-upload-size 20m',
      'lms mock serve --throttle --throttle-status 429 --fail-rate 0.1 --drop-rate 0.02 --latency 50 --fault-seed 7',
      'lms mock serve --port 4010 --tls-self-signed mock-ca.pem &',
    ],
    async run({ opts, ctx }) {
      const port = opts.port;
      const flags = faultFlags(opts);
      const publicUrl = publicOrigin(opts.publicUrl);
      const maxBodyBytes = opts.maxBodySize;
      const maxUploadBytes = opts.maxUploadSize;
      const readyFile = prepareReadyFile(opts.readyFile);
      const tls =
        (opts.tlsCert ?? opts.tlsKey ?? opts.tlsSelfSigned)
          ? await (await (await import('../../mock/index.js')).certificates()).serveIdentity(opts)
          : undefined;
      const mockParts = await import('../../mock/index.js');
      const { DEFAULT_THROTTLE, describeFaults, hasFaults, withFaults, requireUserAgent } = mockParts;
      const { serveMock, formatBytes } = await mockParts.server();
      const mock = await ctx.mock();
      // LMS_MOCK_FAULTS (already parsed by the runtime) is the base; flags override it.
      const faults = mergeFaults(mock.faults ?? {}, flags, DEFAULT_THROTTLE);
      const base = mock.base ?? mock.handler;
      const faulty = hasFaults(faults) ? withFaults(base, faults) : base;
      // Refused at the door, as a real instance's edge refuses it: before throttling or faults.
      const handler = opts.requireUserAgent === false ? faulty : requireUserAgent(faulty);
      const log = opts.quiet ? undefined : (line: string) => ctx.io.stderr.write(`${line}\n`);
      // The faults wrap the handler alone: uploads still stream to the mock's own desk.
      const { server, url, wildcard } = await serveMock({
        handler,
        uploads: base.uploads,
        host: opts.host,
        port,
        log,
        publicUrl,
        maxBodyBytes,
        maxUploadBytes,
        tls,
      });
      const faultNote = hasFaults(faults) ? ` with faults: ${describeFaults(faults)}` : '';
      const bodies =
        `bodies up to ${formatBytes(maxBodyBytes)}, uploads up to ${formatBytes(maxUploadBytes)}` +
        `${opts.requireUserAgent === false ? '; requests without a User-Agent are answered' : '; requests without a User-Agent are refused (403), as real instances refuse them'}`;
      const origin = publicUrl
        ? `Links and upload URLs name ${publicUrl}`
        : wildcard
          ? 'Listening on every interface: links and upload URLs name the address each client connected to (a Host ' +
            'header is believed only when it names that address or localhost); pass --public-url to name one origin'
          : `Links and upload URLs name ${url} (or localhost on the same port, when the client used it)`;
      // stdout carries only the base URL, as its first line: what `read url` or `head -n1` in a CI
      // script captures. The notice for people stays on stderr, in one write.
      const baseUrl = clientBaseUrl(url, { publicUrl, wildcard });
      await out(ctx.io, `${baseUrl}\n`);
      // --quiet: the line that names the address (scripts read it) and nothing more.
      ctx.io.stderr.write(
        `lms mock serving ${mock.path} at ${url}${faultNote} (Ctrl-C stops)\n` +
          `${opts.quiet ? '' : `${origin}; ${bodies}.\n`}`,
      );
      // A file left behind would tell the next script's wait loop that a server is up. On exit,
      // not after close: a second Ctrl-C or a kill ends the process before the server has closed.
      const removeReadyFile = () => {
        if (readyFile) rmSync(readyFile, { force: true });
      };
      if (readyFile) {
        try {
          writeReadyFile(readyFile, baseUrl);
        } catch (error) {
          server.close();
          throw new UsageError(
            `--ready-file ${opts.readyFile}: could not write the URL ` +
              `(${(error as NodeJS.ErrnoException).code ?? 'error'})`,
          );
        }
        process.once('exit', removeReadyFile);
      }
      await new Promise<void>((resolve) => {
        const stop = () => {
          if (!opts.quiet) ctx.io.stderr.write('lms mock serve: stopped\n');
          server.closeAllConnections();
          server.close(() => resolve());
        };
        ctx.stopOnInterrupt(stop);
        process.once('SIGTERM', stop);
      });
      process.removeListener('exit', removeReadyFile);
      removeReadyFile();
      return undefined;
    },
  }),
];
