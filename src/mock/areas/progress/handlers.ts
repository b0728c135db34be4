// GET /api/v1/progress/:id: readable by whoever may read the job's context.
import type { Progress } from '../../../spec/types/progress.js';
import { progressById, type ProgressRow } from '../../jobs.js';
import { notFound, numericId, unauthorized, type Handler, type MockCtx } from '../../kit.js';
import { courseById } from '../courses/repo.js';
import { isInCourse } from '../enrollments/repo.js';
import { administers } from '../permissions.js';

export function progressJson(ctx: Pick<MockCtx, 'origin'>, p: ProgressRow): Progress {
  const json: Progress = {
    id: p.id,
    context_id: p.context_id,
    context_type: p.context_type,
    user_id: p.user_id,
    tag: p.tag,
    completion: p.completion,
    workflow_state: p.workflow_state,
    created_at: p.created_at,
    updated_at: p.updated_at,
    message: p.message,
    url: `${ctx.origin}/api/v1/progress/${p.id}`,
  };
  if (p.workflow_state !== 'queued' && p.results !== null) json.results = JSON.parse(p.results) as unknown;
  return json;
}

function mayRead(ctx: MockCtx, p: ProgressRow): boolean {
  const caller = ctx.caller.id;
  if (p.user_id === caller) return true;
  switch (p.context_type) {
    case 'User':
      return p.context_id === caller;
    case 'Course': {
      const course = courseById(ctx.db, p.context_id);
      return !!course && (isInCourse(ctx.db, caller, course.id) || administers(ctx.db, caller, course.account_id));
    }
    case 'Account':
      return administers(ctx.db, caller, p.context_id);
    default:
      return false;
  }
}

const get: Handler = (ctx) => {
  const id = numericId(ctx.path.id!);
  const p = id === undefined ? undefined : progressById(ctx.db, id);
  if (!p) throw notFound();
  if (!mayRead(ctx, p)) throw unauthorized();
  return progressJson(ctx, p);
};

export const progressHandlers = { 'progress.get': get };
