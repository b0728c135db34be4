// Attachments: the bytes of uploaded files, with the state of their three-step upload
// (`pending_upload:<on_duplicate>` → `uploaded:<on_duplicate>` → `available`, or `deleted`).
import type { Db } from '../../db/open.js';
import { all, insert, one, run } from '../../db/statements.js';

export interface AttachmentRow {
  id: number;
  uuid: string;
  context_type: string;
  context_id: number;
  folder_path: string;
  display_name: string;
  filename: string;
  content_type: string;
  size: number;
  data: Buffer | null;
  workflow_state: string;
  upload_token: string | null;
  created_at: string;
  updated_at: string;
}

export function attachmentById(db: Db, id: number): AttachmentRow | undefined {
  return one<AttachmentRow>(db, `SELECT * FROM attachments WHERE id = ?`, id);
}

export function attachmentByUploadToken(db: Db, token: string): AttachmentRow | undefined {
  return one<AttachmentRow>(db, `SELECT * FROM attachments WHERE upload_token = ?`, token);
}

export function createPendingAttachment(
  db: Db,
  a: { uuid: string; owner: { type: string; id: number }; folderPath: string; name: string; contentType: string; size: number; onDuplicate: string; uploadToken: string; now: string },
): number {
  return insert(
    db,
    `INSERT INTO attachments (uuid, context_type, context_id, folder_path, display_name, filename, content_type, size, workflow_state, upload_token, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    a.uuid, a.owner.type, a.owner.id, a.folderPath, a.name, a.name, a.contentType, a.size, `pending_upload:${a.onDuplicate}`, a.uploadToken, a.now, a.now,
  );
}

/** Step 2 done: the bytes are kept and the one-time upload token is spent. */
export function storeUpload(db: Db, row: AttachmentRow, data: Uint8Array, contentType: string, now: string): void {
  run(
    db,
    `UPDATE attachments SET data = ?, size = ?, content_type = ?, workflow_state = ?, upload_token = NULL, updated_at = ? WHERE id = ?`,
    Buffer.from(data), data.byteLength, contentType, row.workflow_state.replace('pending_upload', 'uploaded'), now, row.id,
  );
}

/** Available files in the same folder as this one. */
export function namesakesOf(db: Db, row: AttachmentRow): { id: number; display_name: string }[] {
  return all(
    db,
    `SELECT id, display_name FROM attachments WHERE context_type = ? AND context_id = ? AND folder_path = ? AND workflow_state = 'available' AND id <> ?`,
    row.context_type, row.context_id, row.folder_path, row.id,
  );
}

export function makeAvailable(db: Db, id: number, displayName: string, now: string): void {
  run(db, `UPDATE attachments SET workflow_state = 'available', display_name = ?, updated_at = ? WHERE id = ?`, displayName, now, id);
}

export function deleteAttachment(db: Db, id: number): void {
  run(db, `UPDATE attachments SET workflow_state = 'deleted' WHERE id = ?`, id);
}

/** Available images of an owner (a user's avatar choices). */
export function imagesOf(db: Db, contextType: string, contextId: number): { id: number; uuid: string; display_name: string; filename: string; content_type: string; size: number }[] {
  return all(
    db,
    `SELECT id, uuid, display_name, filename, content_type, size FROM attachments
     WHERE context_type = ? AND context_id = ? AND workflow_state = 'available' AND content_type LIKE 'image/%' ORDER BY id`,
    contextType, contextId,
  );
}

/** Bytes of the user's stored files (their quota's use). */
export function userFileBytes(db: Db, userId: number): number {
  return one<{ n: number }>(db, `SELECT coalesce(sum(size), 0) AS n FROM attachments WHERE context_type = 'User' AND context_id = ? AND workflow_state = 'available'`, userId)!.n;
}
