// `lms terms`: a root account's enrollment terms, the term a course, a courses.csv or an SIS
// import names by its SIS id.
import { item, list, type Verbs } from '../../model/command.js';
import { command, contextFlags } from '../../model/define.js';

const account = contextFlags.rootAccount;

const COLUMNS = ['id', 'name', 'sis_term_id', 'start_at', 'end_at', 'workflow_state'];

const listTerms = command({
  name: 'list',
  summary: "A root account's terms, the latest start first",
  aliases: ['ls'],
  routes: ['terms.list'],
  columns: COLUMNS,
  options: {
    account,
    state: {
      long: 'state',
      value: 'state',
      description: 'only terms in this state (default active)',
      choices: ['active', 'deleted', 'all'],
    },
  },
  examples: ['lms terms list', 'lms terms list --state all -o json'],
  async run({ opts, ctx }) {
    const client = await ctx.client();
    return list(
      client.ops.terms.list(
        {
          account_id: opts.account,
          ...(opts.state ? { workflow_state: [opts.state as 'active' | 'deleted' | 'all'] } : {}),
        },
        { limit: ctx.pageLimit() },
      ),
      COLUMNS,
    );
  },
});

const getTerm = command({
  name: 'get',
  args: [{ name: 'term' }],
  summary: 'Show one term, by id or sis_term_id:X, with its date overrides',
  routes: ['terms.get'],
  options: { account },
  examples: ['lms terms get sis_term_id:2026-FA'],
  async run({ args, opts, ctx }) {
    return item(await (await ctx.client()).ops.terms.get({ account_id: opts.account, id: args[0] }));
  },
});

export const termsVerbs: Verbs = [listTerms, getTerm];
