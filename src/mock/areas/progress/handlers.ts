// GET /api/v1/progress/:id: readable by whoever may read the job's context.
import type { Progress } from '../../../spec/types/progress.js';
import { progressById, type ProgressRow } from '../../jobs.js';
import { notFound, numericId, type Handler, type MockCtx } from '../../kit.js';
import { permit } from '../access.js';
import { mayReadProgress } from './policy.js';

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

const get: Handler = (ctx) => {
  const id = numericId(ctx.path.id!);
  const p = id === undefined ? undefined : progressById(ctx.db, id);
  if (!p) throw notFound();
  permit(mayReadProgress(ctx, p));
  return progressJson(ctx, p);
};

export const progressHandlers = { 'progress.get': get };
