import { item } from '../../model/command.js';
import { command } from '../../model/define.js';
import { localUpload, uploadFlags } from '../users/upload.js';

export const upload = command({
  name: 'upload',
  args: [{ name: 'course' }, { name: 'file' }],
  argIds: { course: 'course' },
  fileArgs: { file: 'uploaded' },
  summary: "Upload a file into a course's files (three-step upload), e.g. for a File module item",
  routes: ['courses.uploadFile', 'files.upload', 'files.confirm'],
  columns: ['id', 'display_name', 'content-type', 'size', 'url'],
  options: uploadFlags('the course\'s files, e.g. "course files/week 1"'),
  examples: [
    'lms courses upload 1 ./syllabus.pdf',
    'lms courses upload 1 ./syllabus.pdf --folder "course files/week 1" --on-duplicate rename',
  ],
  async run({ args, opts, ctx }) {
    const [course, path] = args;
    const { data, name, contentType } = await localUpload(path, opts);
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
