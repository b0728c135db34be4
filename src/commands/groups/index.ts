// `lms groups`: the groups of a course.
import { list, type Verbs } from '../../model/command.js';
import { command, contextFlags } from '../../model/define.js';

const listGroups = command({
  name: 'list',
  summary: 'List the groups of a course',
  aliases: ['ls'],
  routes: ['groups.list'],
  examples: ['lms groups list --course sis_course_id:BIO-101'],
  columns: ['id', 'name', 'group_category_id', 'members_count'],
  options: { course: { ...contextFlags.course, required: true } },
  async run({ opts, ctx }) {
    return list((await ctx.client()).ops.groups.list({ course_id: opts.course }, { limit: ctx.pageLimit() }));
  },
});

export const groupsVerbs: Verbs = [listGroups];
