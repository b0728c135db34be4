// `lms todo`: what waits for you — assignments to grade (teachers, TAs) and to turn in this week
// (students); `lms todo ignore` sets one aside until it changes, or with --permanently for good.
import { item, list, type Verbs } from '../../model/command.js';
import { command } from '../../model/define.js';
import { UsageError } from '../../errors.js';

const COLUMNS = [
  'type',
  'assignment.id',
  'assignment.name',
  'assignment.due_at',
  'needs_grading_count',
  'course_id',
  'context_name',
];

const listTodo = command({
  name: 'list',
  summary: 'Your to-do list: assignments to grade, and to turn in within the week, soonest due first',
  aliases: ['ls'],
  isDefault: true,
  routes: ['users.todo'],
  columns: COLUMNS,
  examples: ['lms todo --as-user 3', 'lms todo --as-user 7 -o json --fields type,assignment.name,ignore'],
  async run({ ctx }) {
    return list(await (await ctx.client()).ops.users.todo({}));
  },
});

const ignoreTodo = command({
  name: 'ignore',
  args: [{ name: 'assignment' }],
  summary: 'Set a to-do item aside until it changes (--permanently: for good)',
  routes: ['users.todo', 'users.ignoreTodo'],
  destroys: false,
  options: {
    permanently: { long: 'permanently', description: 'for good, even when the item changes' },
    purpose: {
      long: 'purpose',
      value: 'purpose',
      description: 'grading or submitting, when the assignment is on your list for both',
      choices: ['grading', 'submitting'],
    },
  },
  examples: ['lms todo ignore 1 --as-user 3', 'lms todo ignore assignment_1 --permanently --as-user 3'],
  async run({ args, opts, ctx }) {
    const id = /^(?:assignment_)?(\d{1,18})$/.exec(args[0] ?? '')?.[1];
    if (!id) throw new UsageError(`give an assignment id (5 or assignment_5), not "${args[0]}"`);
    const client = await ctx.client();
    // The list says for what the assignment is on it (grading or submitting).
    const matches = (await client.ops.users.todo({})).filter(
      (t) => String(t.assignment.id) === id && (!opts.purpose || t.type === opts.purpose),
    );
    if (matches.length === 0)
      throw new UsageError(`assignment ${id} is not on your to-do list${opts.purpose ? ` for ${opts.purpose}` : ''}`, {
        hint: 'lms todo lists it',
      });
    if (matches.length > 1)
      throw new UsageError(
        `assignment ${id} is on your list for ${matches.map((m) => m.type).join(' and ')}: say which with --purpose`,
      );
    const chosen = matches[0]!;
    return item(
      await client.ops.users.ignoreTodo({
        asset_string: `assignment_${id}`,
        purpose: chosen.type,
        permanent: opts.permanently ? 1 : 0,
      }),
    );
  },
});

export const todoVerbs: Verbs = [listTodo, ignoreTodo];
