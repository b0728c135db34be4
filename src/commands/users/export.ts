// `lms users export`, and what every export shares (people are named by personRef, in src/client/user-ref.ts). An
// export exists to be edited and imported back, so it writes its import's format — CSV — whatever stdout is: the usual
// default (JSON when piped) made `lms users export > users.csv` a file that `lms users import` could not read.
import type { CommandResult } from '../../model/command.js';
import type { Context } from '../../model/context.js';
import { command, contextFlags } from '../../model/define.js';
import type { User } from '../../spec/types/users.js';
import { IMPORT_COLUMNS } from './import.js';

/**
 * An export's rows: CSV unless -o (or LMS_OUTPUT) names another format; `-o json` still gives JSON.
 * --fields applies as everywhere.
 */
export async function exportRows(
  ctx: Context,
  rows: AsyncIterable<unknown> | Iterable<unknown>,
  columns: string[],
): Promise<CommandResult> {
  if (ctx.globals.output !== undefined) return { kind: 'list', items: rows, columns };
  const { renderList } = await import('../../output/render.js');
  await renderList(rows, { io: ctx.io, format: 'csv', fields: ctx.globals.fields, columns, raw: ctx.globals.raw });
  return undefined;
}

/** An export reads every page: only an explicit --limit (and no --all) caps it. */
export function exportLimit(ctx: Context): number | undefined {
  return ctx.globals.all ? undefined : ctx.globals.limit;
}

const EXPORT_COLUMNS = IMPORT_COLUMNS.filter((c) => c !== 'password');

export const exportUsers = command({
  name: 'export',
  summary:
    `Write an account's users (every page, or --limit N) as \`users import\` reads them: CSV whatever stdout ` +
    `is (-o json for JSON), columns ${EXPORT_COLUMNS.join(', ')}`,
  routes: ['users.list'],
  columns: [...EXPORT_COLUMNS],
  options: { account: { ...contextFlags.account, default: 'self' } },
  examples: ['lms users export --account 1 > users.csv && lms users import --account 1 --update --dry-run users.csv'],
  async run({ opts, ctx }) {
    const client = await ctx.client();
    const users = client.ops.users.list({ account_id: opts.account }, { limit: exportLimit(ctx) });
    return exportRows(
      ctx,
      (async function* () {
        for await (const u of users as AsyncIterable<User>) {
          yield Object.fromEntries(EXPORT_COLUMNS.map((c) => [c, (c === 'email' ? u.email : u[c]) ?? '']));
        }
      })(),
      [...EXPORT_COLUMNS],
    );
  },
});
