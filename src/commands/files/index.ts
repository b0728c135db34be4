// `lms files`: the record of an uploaded file.
import { item, type Verbs } from '../../model/command.js';
import { command } from '../../model/define.js';

const getFile = command({
  name: 'get',
  args: [{ name: 'id' }],
  summary: "Show a file's record (name, type, size, download URL)",
  routes: ['files.get'],
  examples: ['lms files get 1 -o json'],
  columns: ['id', 'display_name', 'content-type', 'size', 'url'],
  async run({ args, ctx }) {
    return item(await (await ctx.client()).ops.files.get({ id: args[0] }));
  },
});

export const filesVerbs: Verbs = [getFile];
