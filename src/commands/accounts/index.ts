// `lms accounts`: the accounts you administer, to find their ids.
import { item, list, type Verbs } from '../../model/command.js';
import { command } from '../../model/define.js';

const listAccounts = command({
  name: 'list',
  summary: 'List the accounts you administer',
  aliases: ['ls'],
  routes: ['accounts.list'],
  examples: ['lms accounts list'],
  columns: ['id', 'name', 'parent_account_id', 'sis_account_id'],
  async run({ ctx }) {
    return list((await ctx.client()).ops.accounts.list({}, { limit: ctx.pageLimit() }));
  },
});

const getAccount = command({
  name: 'get',
  args: [{ name: 'id' }],
  argIds: { id: 'account' },
  summary: 'Show one account',
  routes: ['accounts.get'],
  examples: ['lms accounts get sis_account_id:MSU'],
  async run({ args, ctx }) {
    return item(await (await ctx.client()).ops.accounts.get({ id: args[0] }));
  },
});

export const accountsVerbs: Verbs = [listAccounts, getAccount];
