// A Progress record as the API shows it: the job that a bulk request started.
import type { Progress } from '../../../spec/types/progress.js';
import type { ProgressRow } from '../../jobs.js';
import type { MockCtx } from '../../kit.js';

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
