// Groups of a course (supporting endpoint): what group-context commands need to find group ids.
import { keysetSource, paginate, type Handler } from '../../kit.js';
import { readableCourse } from '../access.js';
import { groupsOfCourseQuery, type GroupRow } from './repo.js';

const list: Handler = (ctx) => {
  const course = readableCourse(ctx, ctx.path.course_id);
  return paginate(ctx, keysetSource<GroupRow>(ctx.db, groupsOfCourseQuery(course.id)), (g) => ({
    id: g.id,
    name: g.name,
    description: g.description,
    course_id: g.course_id,
    group_category_id: g.group_category_id,
    context_type: 'Course',
    members_count: g.members_count,
    is_public: false,
    join_level: 'invitation_only',
    created_at: g.created_at,
    html_url: `${ctx.origin}/groups/${g.id}`,
  }));
};

export const groupsHandlers = { 'groups.list': list };
