// A course's files in the mock: the three-step upload into them (courses_controller.rb#create_file)
// for whoever adds to the course's files and no student, the file read by the course's members, and
// a File module item made of one, whose must_view a student meets.
import { beforeEach, describe, expect, it } from 'vitest';
import { uploadFile } from '../../src/client/upload.js';
import { attachmentById } from '../../src/mock/areas/files/repo.js';
import type { MockRuntime } from '../../src/mock/runtime.js';
import type { ModuleItem } from '../../src/spec/types/modules.js';
import { clientFor, collect, freshMock, statusOf, TOKENS } from '../helpers/mock-client.js';

let mock: MockRuntime;
beforeEach(() => {
  mock = freshMock();
});

const HANDOUT = { name: 'handout.pdf', data: new TextEncoder().encode('%PDF-1.4'), contentType: 'application/pdf' };

async function upload(token: string, course = 1) {
  const client = clientFor(mock, token);
  const ticket = await client.ops.courses.uploadFile({ course_id: course, name: HANDOUT.name, size: 8 });
  return uploadFile(client, ticket, HANDOUT);
}

describe("a course's file upload", () => {
  it("runs the three steps for the teacher, and the file is the course's, in its root folder", async () => {
    const file = await upload(TOKENS.teacher);
    expect(file).toMatchObject({ display_name: 'handout.pdf', 'content-type': 'application/pdf', size: 8 });
    expect(attachmentById(mock.db, file.id)).toMatchObject({
      context_type: 'Course',
      context_id: 1,
      folder_path: 'course files',
      workflow_state: 'available',
    });
    const download = await mock.handler({ method: 'GET', url: file.url, headers: {} });
    expect(Buffer.from(download.body as Uint8Array).toString()).toBe('%PDF-1.4');
  });

  it('lets a TA who manages the content upload, and refuses students and strangers', async () => {
    expect(attachmentById(mock.db, (await upload(TOKENS.ta)).id)?.context_type).toBe('Course');
    const start = (token: string) =>
      statusOf(clientFor(mock, token).ops.courses.uploadFile({ course_id: 1, name: 'x.txt', size: 1 }));
    expect(await start(TOKENS.student)).toBe(401);
    expect(await start(TOKENS.observer)).toBe(401);
    expect(await start(TOKENS.otherTeacher)).toBe(401);
    expect(await start(TOKENS.admin)).toBe('ok');
  });

  it("is read by the course's members, students too, and by no one outside it", async () => {
    const file = await upload(TOKENS.teacher);
    for (const token of [TOKENS.student, TOKENS.observer, TOKENS.ta, TOKENS.admin])
      expect(await clientFor(mock, token).ops.files.get({ id: file.id }), token).toMatchObject({ id: file.id });
    expect(await statusOf(clientFor(mock, TOKENS.otherTeacher).ops.files.get({ id: file.id }))).toBe(401);
  });

  it("confirms only for whoever adds to the course's files", async () => {
    const teacher = clientFor(mock, TOKENS.teacher);
    const ticket = await teacher.ops.courses.uploadFile({ course_id: 1, name: 'a.txt', size: 1 });
    const step2 = await mock.handler({
      method: 'POST',
      url: ticket.upload_url,
      headers: { 'content-type': 'multipart/form-data; boundary=b' },
      body: '--b\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nA\r\n--b--\r\n',
    });
    const location = step2.headers.location as string;
    const as = (token: string) =>
      mock.handler({ method: 'POST', url: location, headers: { authorization: `Bearer ${token}` } });
    expect((await as(TOKENS.student)).status).toBe(401);
    expect((await as(TOKENS.teacher)).status).toBe(201);
  });
});

describe('a File module item of an uploaded course file', () => {
  it('is added, shown to a student, and met by their viewing it (must_view)', async () => {
    const file = await upload(TOKENS.teacher);
    const t = clientFor(mock, TOKENS.teacher).ops;
    const mod = await t.modules.create({ course_id: 1, module: { name: 'Handouts' } });
    const on = { course_id: 1, module_id: mod.id };
    const item = await t.modules.createItem({
      ...on,
      module_item: { type: 'File', content_id: file.id, completion_requirement: { type: 'must_view' } },
    });
    expect(item).toMatchObject({ type: 'File', title: 'handout.pdf', content_id: file.id });
    expect(item.url).toBe(`http://lms.mock/api/v1/files/${file.id}`);
    await t.modules.update({ course_id: 1, id: mod.id, module: { published: true } });

    const sam = clientFor(mock, TOKENS.student).ops;
    const seen = async () =>
      (await collect(sam.modules.listItems(on))).map((i: ModuleItem) => i.completion_requirement);
    expect(await seen()).toEqual([{ type: 'must_view', completed: false }]);
    expect(await sam.files.get({ id: file.id })).toMatchObject({ id: file.id });
    await sam.modules.markRead({ ...on, id: item.id });
    expect(await seen()).toEqual([{ type: 'must_view', completed: true }]);
    expect((await sam.modules.get({ course_id: 1, id: mod.id })).state).toBe('completed');
  });
});
