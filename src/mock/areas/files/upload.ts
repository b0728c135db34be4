// Step 1 of the three-step upload, which every area that accepts files hands out, and the rules of
// the names and media types it accepts.
import { CONTROL_CHARACTERS } from '../../../controls.js';
import { contentTypeFor } from '../../../mime.js';
import { badRequest, crypto, int, str, type MockCtx } from '../../kit.js';
import { createPendingAttachment } from './repo.js';

/** Step 1, shared by every area that accepts files. */
export function startUpload(ctx: MockCtx, owner: { type: string; id: number }, folder: string): unknown {
  const name = safeFileName(str(ctx.params, 'name') ?? '');
  if (!name) throw badRequest('name is required');
  const size = int(ctx.params, 'size');
  if (size !== undefined && size < 0) throw badRequest('size must not be negative');
  const contentType = mediaType(str(ctx.params, 'content_type'), 'content_type') ?? contentTypeFor(name);
  const onDuplicate = str(ctx.params, 'on_duplicate') ?? 'overwrite';
  if (!['overwrite', 'rename'].includes(onDuplicate))
    throw badRequest(`on_duplicate must be overwrite or rename, not ${onDuplicate}`);
  const folderPath = str(ctx.params, 'parent_folder_path')?.replace(/^\/+|\/+$/g, '') || folder;
  const token = crypto().randomUUID().replace(/-/g, '');
  const now = ctx.now();
  createPendingAttachment(ctx.db, {
    uuid: crypto().randomUUID().replace(/-/g, ''),
    owner,
    folderPath,
    name,
    contentType,
    size,
    onDuplicate,
    uploadToken: token,
    now,
  });
  return {
    upload_url: `${ctx.origin}/files_api/uploads/${token}`,
    upload_params: { filename: name, content_type: contentType },
    file_param: 'file',
  };
}

/** Control characters (CR, LF, NUL, DEL, C1…) and path separators never reach a stored name; at most 255 characters. */
export function safeFileName(raw: string): string {
  const cleaned = wellFormed(raw).replace(CONTROL_CHARACTERS, '').replace(/[/\\]/g, '_').trim();
  return Array.from(cleaned).slice(0, 255).join('');
}

/** A lone surrogate (possible in JSON) becomes U+FFFD, so the name can be encoded at all. */
export function wellFormed(text: string): string {
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

/** A media type fit for a header (`type/subtype`, optional parameters, printable ASCII only). */
export function mediaType(value: string | undefined, field: string): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^[\w!#$&^.+-]+\/[\w!#$&^.+-]+(\s*;[\x20-\x7e]*)?$/.test(value) || value.length > 255)
    throw badRequest(`${field} is not a valid media type`);
  return value;
}
