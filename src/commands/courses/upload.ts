import { basename } from 'node:path';
import { item } from '../../model/command.js';
import { command } from '../../model/define.js';
import { UsageError } from '../../errors.js';
import { contentTypeFor } from '../../mime.js';

export const upload = command({
  name: 'upload',
  args: [{ name: 'course' }, { name: 'file' }],
  argIds: { course: 'course' },
  fileArgs: { file: 'uploaded' },
  summary: "Upload a file into a course's files (three-step upload), e.g. for a File module item",
  routes: ['courses.uploadFile', 'files.upload', 'files.confirm'],
  columns: ['id', 'display_name', 'content-type', 'size', 'url'],
  options: {
    folder: {
      long: 'folder',
      value: 'path',
      description: 'folder path inside the course\'s files, e.g. "course files/week 1"',
    },
    name: { long: 'name', value: 'name', description: 'file name to store (default: the local name)' },
    contentType: { long: 'content-type', value: 'type', description: 'MIME type (default: guessed from the name)' },
    onDuplicate: {
      long: 'on-duplicate',
      value: 'action',
      description: 'when a file of that name exists',
      choices: ['overwrite', 'rename'],
      default: 'overwrite',
    },
  },
  examples: [
    'lms courses upload 1 ./syllabus.pdf',
    'lms courses upload 1 ./syllabus.pdf --folder "course files/week 1" --on-duplicate rename',
  ],
  async run({ args, opts, ctx }) {
    const [course, path] = args;
    // On use: node:fs/promises loads Node's readline and file watchers, which the rest of `lms courses` never needs.
    const { readFile, stat } = await import('node:fs/promises');
    const info = await stat(path).catch(() => undefined);
    if (!info?.isFile()) throw new UsageError(`no such file: ${path}`);
    const data = new Uint8Array(await readFile(path));
    const name = opts.name ?? basename(path);
    const contentType = opts.contentType ?? contentTypeFor(name);
    const client = await ctx.client();
    const ticket = await client.ops.courses.uploadFile({
      course_id: course,
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
