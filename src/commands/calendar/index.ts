// `lms calendar`: put an event on a course's, group's or your own calendar.
import { item, type Verbs } from '../../model/command.js';
import { command, oneContext } from '../../model/define.js';
import { UsageError } from '../../errors.js';

const createEvent = command({
  name: 'create',
  summary: 'Add an event to a calendar: --course, --group, or your own (--user self)',
  routes: ['calendar.create', 'users.get'],
  options: {
    course: { long: 'course', value: 'id', ids: 'course', description: 'a course id' },
    group: { long: 'group', value: 'id', description: 'a group id' },
    user: { long: 'user', value: 'id', ids: 'user', description: 'your own calendar: self or your user id' },
    title: { long: 'title', value: 'title', description: 'what the event is', required: true },
    start: {
      long: 'start',
      value: 'time',
      description: 'when it starts (ISO 8601, e.g. 2026-11-05T15:00:00Z)',
      required: true,
    },
    end: { long: 'end', value: 'time', description: 'when it ends (default: when it starts)' },
    allDay: { long: 'all-day', description: 'the whole day of --start' },
    description: { long: 'description', value: 'html', description: 'details' },
    location: { long: 'location', value: 'name', description: 'where' },
    address: { long: 'address', value: 'address', description: 'the address of the location' },
  },
  examples: [
    'lms calendar create --course 1 --title "Review session" --start 2026-11-05T15:00:00Z --end ' +
      '2026-11-05T16:00:00Z --location "Science Hall 101"',
  ],
  async run({ opts, ctx }) {
    const context = oneContext(opts, ['course', 'group', 'user']);
    const client = await ctx.client();
    const id =
      context.type === 'user' && context.id === 'self'
        ? String((await client.ops.users.get({ id: 'self' })).id)
        : context.id;
    if (!/^\d+$/.test(id))
      throw new UsageError(
        `--${context.type} takes a numeric id${context.type === 'user' ? ' or self' : ''}, not "${context.id}"`,
      );
    const contextCode = `${context.type}_${id}`;
    return item(
      await client.ops.calendar.create({
        calendar_event: {
          context_code: contextCode,
          title: opts.title,
          start_at: opts.start,
          end_at: opts.end,
          all_day: opts.allDay || undefined,
          description: opts.description,
          location_name: opts.location,
          location_address: opts.address,
        },
      }),
    );
  },
});

export const calendarVerbs: Verbs = [createEvent];
