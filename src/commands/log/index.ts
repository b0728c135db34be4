// `lms log`: the audit log of every write lms has sent from this machine, whichever surface sent it
// (the CLI, lms apply, a tool of lms mcp), oldest first; `--follow` keeps printing new writes.
import type { Verbs } from '../../model/command.js';
import { command } from '../../model/define.js';
import { InterruptedError, UsageError } from '../../errors.js';
import type { AuditEntry } from '../../audit/log.js';

const COLUMNS = [
  'time',
  'surface',
  'verb',
  'method',
  'path',
  'status',
  'user.login',
  'user.via',
  'as_user',
  'instance',
];
const UNITS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** `--since`: a duration back from now (90m, 1h, 7d, 2w) or a date (YYYY-MM-DD, UTC) or time (ISO 8601). */
export function sinceTime(value: string, now: number): number {
  const duration = /^(\d+(?:\.\d+)?)\s*([smhdw])$/i.exec(value.trim());
  if (duration) return now - Number(duration[1]) * UNITS[duration[2].toLowerCase()];
  const t = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(t))
    throw new UsageError(
      `--since must be a duration (30m, 1h, 7d, 2w) or a date (YYYY-MM-DD) or time (ISO 8601), not "${value}"`,
    );
  return t;
}

interface Filter {
  since?: number;
  surface?: string;
  instance?: string;
}

/** `--surface mcp` takes every tool's writes; `--surface mcp:users_delete` one tool's. */
function matches(entry: AuditEntry, { since, surface, instance }: Filter): boolean {
  if (since !== undefined && !(Date.parse(entry.time) >= since)) return false;
  if (surface !== undefined && entry.surface !== surface && !entry.surface?.startsWith(`${surface}:`)) return false;
  if (instance !== undefined && !sameInstance(entry.instance, instance)) return false;
  return true;
}

/**
 * An instance as given (https://lms.example.edu/, lms.example.edu, mock:/path/mock.db, mock) against the one written.
 */
function sameInstance(written: string | undefined, given: string): boolean {
  if (written === undefined) return false;
  if (written === given) return true;
  if (given === 'mock') return written.startsWith('mock:');
  const origin = (text: string) => {
    const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`;
    return URL.canParse(withScheme) ? new URL(withScheme).host.toLowerCase() : text.toLowerCase();
  };
  return !written.startsWith('mock:') && origin(written) === origin(given);
}

async function* filtered(
  entries: Iterable<AuditEntry> | AsyncIterable<AuditEntry>,
  filter: Filter,
  limit: number | undefined,
): AsyncGenerator<AuditEntry> {
  let shown = 0;
  for await (const entry of entries) {
    if (!matches(entry, filter)) continue;
    yield entry;
    if (limit !== undefined && ++shown >= limit) return;
  }
}

const showLog = command({
  name: 'list',
  summary:
    'The writes lms sent from this machine, oldest first: when, to which instance, as whom, through which surface ' +
    'and verb',
  aliases: ['ls'],
  isDefault: true,
  columns: COLUMNS,
  options: {
    since: {
      long: 'since',
      value: 'when',
      description: 'only writes from this long ago (30m, 1h, 7d, 2w) or this date (YYYY-MM-DD) or time (ISO 8601) on',
    },
    surface: {
      long: 'surface',
      value: 'surface',
      description: 'only writes through this surface: cli, apply, mcp (every tool) or mcp:<tool>',
    },
    instance: {
      long: 'instance',
      value: 'url',
      description: 'only writes to this instance: its URL or host, or mock (every mock database)',
    },
    follow: {
      short: 'f',
      long: 'follow',
      description:
        'keep printing writes as they are logged (NDJSON when piped; Ctrl-C stops); with --since, the earlier ones ' +
        'first',
    },
  },
  examples: [
    'lms log --since 1h',
    'lms log --surface mcp -o json',
    'lms log --instance lms.example.edu --since 2026-09-01',
    'lms log --follow',
  ],
  async run({ opts, ctx }) {
    const [{ auditLogPath, keepDaysOf }, { readEntries, followEntries }] = await Promise.all([
      import('../../audit/log.js'),
      import('../../audit/read.js'),
    ]);
    // Checked here too, so a mistaken setting is found by reading the log, not only at the next write.
    keepDaysOf(ctx.env);
    const filter: Filter = {
      since: opts.since === undefined ? undefined : sinceTime(opts.since, Date.now()),
      surface: opts.surface,
      instance: opts.instance,
    };
    const path = await auditLogPath(ctx);
    const limit = ctx.globals.limit;
    if (!opts.follow) {
      return {
        kind: 'list',
        items: filtered(readEntries(path), filter, limit),
        columns: COLUMNS,
        whenEmpty: `No writes logged${opts.since || opts.surface || opts.instance ? ' that match' : ''} in ${path}.`,
      };
    }
    const stop = new AbortController();
    ctx.stopOnInterrupt(() => stop.abort());
    // With --since, the rotated files first, then the current one from its start, and on as it grows.
    const since = filter.since !== undefined;
    const followed = async function* () {
      yield* followEntries(path, { signal: stop.signal, fromStart: since, rotatedFirst: since });
      // Following ends only when stopped: Ctrl-C, which is exit 130 here as everywhere, after what
      // was printed (never "No results.", which would say the log is empty).
      if (stop.signal.aborted) throw new InterruptedError();
    };
    return { kind: 'list', items: filtered(followed(), filter, limit), columns: COLUMNS, endless: true };
  },
});

export const logVerbs: Verbs = [showLog];
