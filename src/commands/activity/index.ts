// `lms activity`: what changed in your courses and groups — topics, announcements, conversations,
// grades, notifications — newest first; `--summary` counts it by type; `--watch` follows it.
import { item, list, type Verbs } from '../../model/command.js';
import { command } from '../../model/define.js';
import type { ApiClient } from '../../client/client.js';
import type { ActivityItem } from '../../spec/types/activity.js';
import { UsageError } from '../../errors.js';

const COLUMNS = ['id', 'type', 'title', 'read_state', 'context_type', 'course_id', 'group_id', 'updated_at'];
const DEFAULT_INTERVAL_SECONDS = 30;

const newer = (a: ActivityItem, b: { updated_at: string; id: number }) =>
  a.updated_at > b.updated_at || (a.updated_at === b.updated_at && a.id > b.id);

/**
 * The stream as it grows: the newest page once, oldest first, then at each interval what changed
 * since (an item changed again comes again), until interrupted or --limit items are out.
 */
async function* watch(client: ApiClient, intervalMs: number, limit: number | undefined): AsyncGenerator<ActivityItem> {
  let last: { updated_at: string; id: number } | undefined;
  let printed = 0;
  for (;;) {
    const fresh: ActivityItem[] = [];
    for await (const a of client.ops.users.activityStream({}, { limit: last ? 100 : 21 })) {
      if (last && !newer(a, last)) break;
      fresh.push(a);
    }
    for (const a of fresh.reverse()) {
      yield a;
      last = a;
      if (limit !== undefined && ++printed >= limit) return;
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

const showActivity = command({
  name: 'list',
  summary: 'Your activity stream, newest first; --summary counts it by type; --watch follows it',
  aliases: ['ls'],
  isDefault: true,
  routes: ['users.activityStream', 'users.activityStreamSummary'],
  columns: COLUMNS,
  options: {
    summary: { long: 'summary', description: 'count the stream by type (unread and all)' },
    watch: {
      long: 'watch',
      description: 'keep polling and print new activity as it arrives (NDJSON when piped; Ctrl-C stops)',
    },
    // No declared default: given without --watch it is refused, which a default would hide.
    interval: {
      long: 'interval',
      value: 'seconds',
      description: `seconds between polls with --watch (default ${DEFAULT_INTERVAL_SECONDS})`,
      type: 'number',
      min: 0.01,
      max: 86_400,
      unit: 'seconds',
    },
  },
  examples: [
    'lms activity --as-user 11',
    'lms activity --summary --as-user 11',
    'lms activity --watch --interval 10 --as-user 11',
  ],
  async run({ opts, ctx }) {
    if (opts.summary && opts.watch) throw new UsageError('--summary and --watch do not go together');
    if (opts.interval !== undefined && !opts.watch) throw new UsageError('--interval goes with --watch');
    const interval = opts.interval ?? DEFAULT_INTERVAL_SECONDS;
    const client = await ctx.client();
    if (opts.summary)
      return list(await client.ops.users.activityStreamSummary({}), [
        'type',
        'notification_category',
        'count',
        'unread_count',
      ]);
    if (opts.watch) return { kind: 'list', items: watch(client, interval * 1000, ctx.globals.limit), endless: true };
    return list(client.ops.users.activityStream({}, { limit: ctx.pageLimit() }));
  },
});

const hideItem = command({
  name: 'hide',
  args: [{ name: 'id' }],
  summary: 'Hide an item of your stream for good (later activity on it does not bring it back)',
  routes: ['users.hideStreamItem'],
  destroys: false,
  examples: ['lms activity hide 6 --as-user 11'],
  async run({ args, ctx }) {
    return item(await (await ctx.client()).ops.users.hideStreamItem({ id: args[0]! }));
  },
});

export const activityVerbs: Verbs = [showActivity, hideItem];
