// `lms upcoming`: what is coming up for you this week — calendar events and assignments due.
import { list, type Verbs } from '../../model/command.js';
import { command } from '../../model/define.js';

const listUpcoming = command({
  name: 'list',
  summary: 'Your calendar events and assignment due dates of the coming week, soonest first (at most 20)',
  aliases: ['ls'],
  isDefault: true,
  routes: ['users.upcomingEvents'],
  columns: ['id', 'title', 'start_at', 'end_at', 'context_code', 'location_name'],
  examples: ['lms upcoming', 'lms upcoming --as-user 7 -o json --fields id,title,start_at'],
  async run({ ctx }) {
    return list(await (await ctx.client()).ops.users.upcomingEvents({}));
  },
});

export const upcomingVerbs: Verbs = [listUpcoming];
