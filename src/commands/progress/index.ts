// `lms progress`: the state of a background job the API started (bulk grading, async messages).
import { item, withFailure, type Verbs } from '../../model/command.js';
import { command } from '../../model/define.js';
import { watchProgress } from '../../model/watch-progress.js';
import { FailureError } from '../../errors.js';

const COLUMNS = ['id', 'tag', 'workflow_state', 'completion', 'message', 'updated_at'];

const getProgress = command({
  name: 'get',
  args: [{ name: 'id' }],
  summary: 'Show a background job’s progress; --wait follows it until it completes or fails',
  routes: ['progress.get'],
  columns: COLUMNS,
  options: { wait: { long: 'wait', description: 'poll until the job completes or fails (exit 1 when it fails)' } },
  examples: ['lms progress get 1', 'lms progress get 1 --wait -v'],
  async run({ args, opts, ctx }) {
    const client = await ctx.client();
    if (!opts.wait) return item(await client.ops.progress.get({ id: args[0] }));
    const last = await watchProgress(ctx, client, args[0], { label: `progress ${args[0]}` });
    const result = item(last);
    return last.workflow_state === 'failed'
      ? withFailure(result, new FailureError(`job ${last.id} (${last.tag}) failed: ${last.message ?? 'no message'}`))
      : result;
  },
});

export const progressVerbs: Verbs = [getProgress];
