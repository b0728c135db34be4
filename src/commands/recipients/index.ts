// `lms recipients search`: the people and contexts (courses, sections, groups) you may message.
import { list, type Verbs } from '../../model/command.js';
import { command } from '../../model/define.js';
import type { SearchRecipientsParams } from '../../spec/types/search.js';
import { UsageError } from '../../errors.js';

export const recipientColumns = ['id', 'name', 'full_name', 'type', 'user_count', 'item_count', 'context_name'];

export const recipientFlags = {
  context: {
    long: 'context',
    value: 'code',
    description: 'only within course_N, section_N or group_N (course_N_students etc. too)',
  },
  type: {
    long: 'type',
    value: 'type',
    description: 'only people (user) or only contexts (context)',
    choices: ['user', 'context'],
  },
  exclude: {
    long: 'exclude',
    value: 'id',
    description: 'leave out a user id or course_N/section_N/group_N (repeatable, or comma-separated)',
    repeatable: true,
  },
  userId: {
    long: 'user-id',
    value: 'id',
    description: 'just this user, if you may message them (the other filters are ignored)',
  },
  fromConversation: {
    long: 'from-conversation',
    value: 'id',
    description: 'with --user-id: a conversation you share counts as a shared context',
  },
  synthetic: {
    long: 'synthetic',
    description:
      "with --context and no term: also the context's teachers, TAs, students, observers, sections and groups as " +
      'contexts',
  },
  permission: {
    long: 'permission',
    value: 'name',
    description: 'report whether you hold this permission in each context (repeatable; does not filter)',
    repeatable: true,
  },
} as const;

export function recipientParams(
  terms: string[],
  opts: {
    context?: string;
    type?: 'user' | 'context';
    exclude?: string[];
    userId?: string;
    fromConversation?: string;
    permission?: string[];
    synthetic?: boolean;
  },
): SearchRecipientsParams {
  const search = terms.join(' ').trim();
  if (!search && !opts.context && !opts.userId) throw new UsageError('give a search term, --context or --user-id');
  if (opts.fromConversation && !opts.userId) throw new UsageError('--from-conversation goes with --user-id');
  if (opts.synthetic && (!opts.context || search))
    throw new UsageError('--synthetic goes with --context and no search term');
  return {
    search: search || undefined,
    context: opts.context,
    type: opts.type,
    exclude: opts.exclude
      ?.flatMap((e) => e.split(','))
      .map((e) => e.trim())
      .filter(Boolean),
    user_id: opts.userId,
    from_conversation_id: opts.fromConversation,
    permissions: opts.permission,
    synthetic_contexts: opts.synthetic || undefined,
  };
}

const search = command({
  name: 'search',
  args: [{ name: 'term', optional: true, variadic: true }],
  summary: 'Find people and contexts you may message (every term must match the name; contexts first)',
  aliases: ['find'],
  routes: ['search.recipients'],
  columns: recipientColumns,
  options: recipientFlags,
  examples: [
    'lms recipients search sam',
    'lms recipients search bio --type context --permission send_messages -o json',
    'lms recipients search --context course_1_teachers',
    'lms recipients search --context course_1 --synthetic --type context',
  ],
  async run({ args, opts, ctx }) {
    const client = await ctx.client();
    return list(client.ops.search.recipients(recipientParams(args, opts), { limit: ctx.pageLimit() }));
  },
});

export const recipientsVerbs: Verbs = [search] as Verbs;
