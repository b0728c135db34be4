// Where every write passes: a transport that writes down each request other than a GET once its
// answer (or its failure) is known, one line right after it, with who sent it, through which
// surface and which verb. It sits above the retries, so a write retried three times is one line
// with the status it ended on; a dry run has none, since it sends no write.
import { redactUrl } from '../redact.js';
import type { ApiRequest, ApiResponse, Transport } from '../transport/types.js';
import { bodyText } from '../transport/types.js';
import type { AuditEntry, AuditLog, AuditUser } from './log.js';

/** Which surface ran the verb that writes: the CLI, `lms apply`, or a tool of `lms mcp`. */
export interface AuditScope {
  /** `cli`, `apply`, `mcp:<tool>`. */
  surface: string;
  /** `lms users delete`. */
  verb?: string;
  /** The plan a person confirmed before the run, when one was. */
  confirmed?: AuditEntry['confirmed'];
}

export interface TrailOptions {
  scope: AuditScope;
  /** The instance's origin, or `mock:<database path>`. */
  instance: string;
  /** Where the token came from: a profile's name, `LMS_TOKEN`, `seeded admin`. */
  via: string;
  asUser?: string;
  /** The log, opened (and its settings checked) when the first write is about to go. */
  open: () => Promise<AuditLog>;
  warn: (message: string) => void;
  now?: () => Date;
}

export interface AuditTrail {
  wrap(inner: Transport): Transport;
  /** A bulk job's (or apply's) outcome, after its rows: its counts and its journal. */
  job(job: NonNullable<AuditEntry['job']>): Promise<void>;
}

/** The user endpoints whose answer names the token's user; a command that reads one tells the log who it is. */
const SELF = /^\/api\/v1\/users\/self(?:\/profile)?$/;

export function auditTrail(options: TrailOptions): AuditTrail {
  const { scope, instance, asUser } = options;
  const now = options.now ?? (() => new Date());
  const user: AuditUser = { via: options.via };
  let log: Promise<AuditLog> | undefined;
  let failed = false;

  const write = async (entry: Omit<AuditEntry, 'time' | 'instance' | 'user' | 'surface' | 'verb' | 'as_user'>) => {
    const full: AuditEntry = {
      time: now().toISOString(),
      instance,
      user: { ...user },
      ...(asUser !== undefined ? { as_user: asUser } : {}),
      surface: scope.surface,
      ...(scope.verb !== undefined ? { verb: scope.verb } : {}),
      ...(scope.confirmed ? { confirmed: scope.confirmed } : {}),
      ...entry,
    };
    try {
      (await log!).append(full);
    } catch (error) {
      // The write itself went through: failing the command now would say it had not.
      if (failed) return;
      failed = true;
      options.warn(`could not write the audit log: ${(error as Error).message}`);
    }
  };

  return {
    wrap: (inner) => async (req) => {
      if (req.method === 'GET') {
        const res = await inner(req);
        // Under --as-user the answer is the masqueraded user's, not the token's.
        if (asUser === undefined) learnUser(req, res, user);
        return res;
      }
      // Opened before the write is sent: a bad LMS_AUDIT_KEEP_DAYS stops the command with nothing sent.
      log ??= options.open();
      await log;
      const path = shownPath(req);
      let res: ApiResponse;
      try {
        res = await inner(req);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        await write({
          method: req.method,
          path,
          status: null,
          error: typeof code === 'string' ? code : (error as Error).name,
        });
        throw error;
      }
      await write({ method: req.method, path, status: res.status });
      return res;
    },
    async job(job) {
      // A job that sent no write (all rows done already, or all failed validation) leaves no line.
      if (!log) return;
      await write({ job });
    },
  };
}

/** The path and query as traces show them: secrets masked, a one-time URL only by its origin. */
function shownPath(req: ApiRequest): string {
  const shown = req.traceUrl ?? redactUrl(req.url);
  try {
    const url = new URL(shown);
    const origin = new URL(req.url).origin;
    if (url.origin === origin && !shown.endsWith('[REDACTED]')) return shown.slice(origin.length) || '/';
  } catch {
    // Not absolute: shown as it is.
  }
  return shown;
}

function learnUser(req: ApiRequest, res: ApiResponse, user: AuditUser): void {
  if (res.status !== 200) return;
  let path: string;
  try {
    path = new URL(req.url).pathname;
  } catch {
    return;
  }
  if (!SELF.test(path)) return;
  let body: unknown = res.json;
  if (body === undefined) {
    try {
      body = JSON.parse(bodyText(res.body).replace(/^while\(1\);/, ''));
    } catch {
      return;
    }
  }
  if (typeof body !== 'object' || body === null) return;
  const { id, login_id: loginId } = body as Record<string, unknown>;
  if (typeof id === 'number' || typeof id === 'string') user.id = id;
  if (typeof loginId === 'string') user.login = loginId;
}
