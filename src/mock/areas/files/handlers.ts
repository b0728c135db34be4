import { receivedFile, UPLOAD_SLACK_BYTES, type StoredBytes } from '../../file-bytes.js';
import {
  badRequest,
  created,
  file,
  HttpError,
  notFound,
  numericId,
  Reply,
  str,
  type Handler,
  type MockCtx,
} from '../../kit.js';
import { domainRootAccountId } from '../lookup.js';
import { courseById } from '../../school/courses/repo.js';
import { demand } from '../access.js';
import { filesPolicy } from './policy.js';
import {
  adoptReceipt,
  attachmentById,
  attachmentByUploadToken,
  chunksOf,
  deleteAttachment,
  makeAvailable,
  namesakesOf,
  storeUpload,
  type AttachmentRow,
} from './repo.js';
import { attachmentJson } from './present.js';
import { wellFormed, mediaType } from './upload.js';

/**
 * Step 2: no bearer token; the upload URL itself is the credential, and it works once. Over HTTP
 * the server has already stored the file part as it arrived (`receivedFile`): the upload adopts
 * those bytes; in process the part comes whole.
 */
const upload: Handler = (ctx) => {
  const row = attachmentByUploadToken(ctx.db, ctx.path.upload_id);
  if (!row?.workflow_state.startsWith('pending_upload')) throw notFound('unknown or used upload URL');
  const part = receivedFile(ctx.req) ?? wholePart(ctx);
  if (!part) throw badRequest('the multipart body has no file part named "file"');
  // Over HTTP such a body is refused before it is read; this is the same rule for a file sent in process.
  if (row.declared_size !== null && part.bytes > row.declared_size + UPLOAD_SLACK_BYTES) {
    throw new HttpError(413, {
      errors: [
        { message: `the file is larger than the ${row.declared_size} bytes declared when its upload was started` },
      ],
    });
  }
  const sent = mediaType(part.contentType, "the file part's content type");
  const declared =
    mediaType(str(ctx.params, 'content_type'), 'content_type') ??
    (sent && sent !== 'application/octet-stream' ? sent : row.content_type);
  if ('data' in part) storeUpload(ctx.db, row, part.data, declared, ctx.now());
  else if (!adoptReceipt(ctx.db, row, part.receipt, part.bytes, declared, ctx.now()))
    throw notFound('unknown or used upload URL');
  const location = `${ctx.origin}/api/v1/files/${row.id}/create_success?uuid=${row.uuid}`;
  return new Reply(201, { location }, { location });
};

/** A file part that came whole, in the body (in process, or from a server that does not stream). */
function wholePart(ctx: MockCtx): { data: Uint8Array; contentType: string; bytes: number } | undefined {
  const part = file(ctx.params, 'file');
  return part && { data: part.data, contentType: part.contentType, bytes: part.data.byteLength };
}

/** Step 3: the owner confirms; the file becomes available, replacing or renaming a namesake. */
const confirm: Handler = (ctx) => {
  const row = ownedAttachment(ctx, 'manage');
  if (str(ctx.params, 'uuid') !== row.uuid) throw badRequest('uuid does not match this file');
  if (row.workflow_state.startsWith('pending_upload')) throw badRequest('the file has not been uploaded yet (step 2)');
  if (row.workflow_state.startsWith('uploaded')) {
    const onDuplicate = row.workflow_state.split(':')[1];
    const namesakes = namesakesOf(ctx.db, row);
    let displayName = row.display_name;
    if (onDuplicate === 'rename') {
      const taken = new Set(namesakes.map((n) => n.display_name));
      const dot = displayName.lastIndexOf('.');
      const [stem, ext] = dot > 0 ? [displayName.slice(0, dot), displayName.slice(dot)] : [displayName, ''];
      for (let i = 1; taken.has(displayName); i++) displayName = `${stem}-${i}${ext}`;
    } else {
      for (const n of namesakes.filter((n) => n.display_name === displayName)) {
        deleteAttachment(ctx.db, n.id);
      }
    }
    makeAvailable(ctx.db, row.id, displayName, ctx.now());
  }
  const done = attachmentById(ctx.db, row.id)!;
  return created(attachmentJson(ctx, done));
};

const get: Handler = (ctx) => {
  const row = ownedAttachment(ctx, 'read');
  if (row.workflow_state !== 'available') throw notFound();
  return attachmentJson(ctx, row);
};

/** The bytes; the URL's verifier is the credential, as in real file URLs. */
const download: Handler = (ctx) => {
  const row = attachmentInPath(ctx);
  if (row?.workflow_state !== 'available') throw notFound();
  if (str(ctx.params, 'verifier') !== row.uuid)
    throw new HttpError(401, { status: 'unauthorized', errors: [{ message: 'a valid verifier is required' }] });
  const receipt = row.receipt;
  const bytes: StoredBytes = { size: row.size, pieces: () => (receipt === null ? [] : chunksOf(ctx.db, receipt)) };
  return new Reply(200, bytes, {
    'content-type': row.content_type,
    'content-disposition': contentDisposition(row.filename),
  });
};

/**
 * RFC 6266: a plain-ASCII `filename` for old clients and the exact name as RFC 5987 `filename*`,
 * so any name (non-Latin-1, quotes, even a legacy one with control characters) makes a valid header.
 */
export function contentDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/g, '_') || 'download';
  const exact = encodeURIComponent(wellFormed(name)).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${exact}`;
}

function attachmentInPath(ctx: MockCtx): AttachmentRow | undefined {
  const id = numericId(ctx.path.id);
  return id === undefined ? undefined : attachmentById(ctx.db, id);
}

/**
 * A file the caller may reach: a user's, as `personal` says; a course's, to read as its members do,
 * or to confirm as whoever adds to its files.
 */
function ownedAttachment(ctx: MockCtx, use: 'read' | 'manage'): AttachmentRow {
  const row = attachmentInPath(ctx);
  if (!row || row.workflow_state === 'deleted') throw notFound();
  const course = row.context_type === 'Course' ? courseById(ctx.db, row.context_id) : undefined;
  if (course) {
    demand(ctx, use === 'read' ? filesPolicy.readCourse : filesPolicy.manageCourse, { course });
    return row;
  }
  demand(
    ctx,
    filesPolicy.personal,
    { account: { id: domainRootAccountId(ctx.db) } },
    row.context_type === 'User' ? row.context_id : undefined,
  );
  return row;
}

export const filesHandlers = {
  'files.upload': upload,
  'files.confirm': confirm,
  'files.confirmGet': confirm,
  'files.get': get,
  'files.download': download,
};
