import { basename } from 'node:path';
import { item } from '../../model/command.js';
import { command, contextFlags } from '../../model/define.js';
import { UsageError } from '../../errors.js';
import { contentTypeFor } from '../../mime.js';

/** The flags of an upload into someone's files: the folder (inside `where`), the stored name and type, a duplicate. */
export const uploadFlags = (where: string) =>
  ({
    folder: { long: 'folder', value: 'path', description: `folder path inside ${where}` },
    name: { long: 'name', value: 'name', description: 'file name to store (default: the local name)' },
    contentType: { long: 'content-type', value: 'type', description: 'MIME type (default: guessed from the name)' },
    onDuplicate: {
      long: 'on-duplicate',
      value: 'action',
      description: 'when a file of that name exists',
      choices: ['overwrite', 'rename'],
      default: 'overwrite',
    },
  }) as const;

/** A local file as an upload sends it: its bytes, and the name and type it is stored under. */
export async function localUpload(
  path: string,
  opts: { name?: string; contentType?: string },
): Promise<{ data: Uint8Array; name: string; contentType: string }> {
  // On use: node:fs/promises loads Node's readline and file watchers, which the rest of a noun never needs.
  const { readFile, stat } = await import('node:fs/promises');
  const info = await stat(path).catch(() => undefined);
  if (!info?.isFile()) throw new UsageError(`no such file: ${path}`);
  const name = opts.name ?? basename(path);
  return { data: new Uint8Array(await readFile(path)), name, contentType: opts.contentType ?? contentTypeFor(name) };
}

export const upload = command({
  name: 'upload',
  args: [{ name: 'file' }],
  fileArgs: { file: 'uploaded' },
  summary: "Upload a file into a user's personal files (three-step upload)",
  routes: ['users.uploadFile', 'files.upload', 'files.confirm'],
  columns: ['id', 'display_name', 'content-type', 'size', 'url'],
  options: {
    user: { ...contextFlags.user, description: 'whose files: yours unless given', default: 'self' },
    ...uploadFlags('the user\'s files, e.g. "my files/reports"'),
  },
  examples: ['lms users upload ./avatar.png --folder "profile pictures"'],
  async run({ args, opts, ctx }) {
    const { data, name, contentType } = await localUpload(args[0], opts);
    const client = await ctx.client();
    const ticket = await client.ops.users.uploadFile({
      user_id: opts.user,
      name,
      size: data.byteLength,
      content_type: contentType,
      parent_folder_path: opts.folder,
      on_duplicate: opts.onDuplicate,
    });
    const { uploadFile } = await import('../../client/upload.js');
    return item(await uploadFile(client, ticket, { name, data, contentType }));
  },
});
