// An attachment as the API shows it, wherever a file is attached (conversations, topics, submissions).
import { fileUrl, type MockCtx } from '../../kit.js';
import type { AttachmentRow } from './repo.js';

export function attachmentJson(ctx: MockCtx, a: AttachmentRow): Record<string, unknown> {
  return {
    id: a.id,
    uuid: a.uuid,
    folder_id: null,
    display_name: a.display_name,
    filename: a.filename,
    'content-type': a.content_type,
    url: fileUrl(ctx, a.id, a.uuid),
    size: a.size,
    created_at: a.created_at,
    updated_at: a.updated_at,
    locked: false,
    hidden: false,
    upload_status: a.workflow_state === 'available' ? 'success' : 'pending',
    mime_class: a.content_type.split('/')[0],
  };
}
