// Attachments: the bytes of uploaded files, with the state of their three-step upload
// (`pending_upload:<on_duplicate>` → `uploaded:<on_duplicate>` → `available`, or `deleted`).
// The bytes are chunk rows under a receipt (see schema.ts): written as they arrive, then adopted by
// the attachment in the transaction that ends step 2.
import type { Db } from '../../db/open.js';
import { all, insert, one, run } from '../../db/statements.js';

/** The bytes of one chunk row: large enough that a file is few rows, small enough to hold one per upload. */
export const CHUNK_BYTES = 1024 * 1024;

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
  /** The size step 1 declared, when it did. */
  declared_size: number | null;
  /** Whose chunks are the file's bytes; null until step 2 is done. */
  receipt: number | null;
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

/** A pending upload's declared size (null when step 1 declared none); undefined when the token is unknown or spent. */
export function pendingUploadAllowance(db: Db, token: string): { declared_size: number | null } | undefined {
  return one(
    db,
    `SELECT declared_size FROM attachments WHERE upload_token = ? AND workflow_state LIKE 'pending_upload%'`,
    token,
  );
}

export function createPendingAttachment(
  db: Db,
  a: {
    uuid: string;
    owner: { type: string; id: number };
    folderPath: string;
    name: string;
    contentType: string;
    size?: number;
    onDuplicate: string;
    uploadToken: string;
    now: string;
  },
): number {
  return insert(
    db,
    'INSERT INTO attachments (uuid, context_type, context_id, folder_path, display_name, filename, content_type, ' +
      `size, declared_size, workflow_state, upload_token, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    a.uuid,
    a.owner.type,
    a.owner.id,
    a.folderPath,
    a.name,
    a.name,
    a.contentType,
    a.size ?? 0,
    a.size ?? null,
    `pending_upload:${a.onDuplicate}`,
    a.uploadToken,
    a.now,
    a.now,
  );
}

/** Step 2 done with the bytes at hand (in process, seeds): stored in chunks, adopted at once. */
export function storeUpload(db: Db, row: AttachmentRow, data: Uint8Array, contentType: string, now: string): void {
  const receipt = openReceipt(db, row.id, now);
  for (let at = 0, seq = 0; at < data.byteLength; at += CHUNK_BYTES, seq++)
    writeChunk(db, receipt, seq, data.subarray(at, at + CHUNK_BYTES));
  adoptReceipt(db, row, receipt, data.byteLength, contentType, now);
}

/**
 * Step 2 done: the attachment takes the receipt's bytes and the one-time upload token is spent.
 * False, changing nothing, when the receipt is not one of this attachment's still being received.
 */
export function adoptReceipt(
  db: Db,
  row: AttachmentRow,
  receipt: number,
  size: number,
  contentType: string,
  now: string,
): boolean {
  if (run(db, `DELETE FROM upload_receipts WHERE id = ? AND attachment_id = ?`, receipt, row.id) === 0) return false;
  run(
    db,
    'UPDATE attachments SET receipt = ?, size = ?, content_type = ?, workflow_state = ?, upload_token = NULL, ' +
      'updated_at = ? WHERE id = ?',
    receipt,
    size,
    contentType,
    row.workflow_state.replace('pending_upload', 'uploaded'),
    now,
    row.id,
  );
  return true;
}

/** A new receipt for bytes on their way to an attachment, recorded with the process receiving them. */
export function openReceipt(db: Db, attachmentId: number, now: string): number {
  return insert(
    db,
    `INSERT INTO upload_receipts (attachment_id, pid, started_at) VALUES (?, ?, ?)`,
    attachmentId,
    process.pid,
    now,
  );
}

export function writeChunk(db: Db, receipt: number, seq: number, data: Uint8Array): void {
  // A Buffer view, not a copy: a Buffer is what every driver binds as a blob.
  run(
    db,
    `INSERT INTO attachment_chunks (receipt, seq, data) VALUES (?, ?, ?)`,
    receipt,
    seq,
    Buffer.from(data.buffer, data.byteOffset, data.byteLength),
  );
}

/** Removes a receipt still being received, and its bytes; an adopted receipt's bytes stay. */
export function discardReceipt(db: Db, receipt: number): void {
  db.transaction(() => {
    if (run(db, `DELETE FROM upload_receipts WHERE id = ?`, receipt) > 0)
      run(db, `DELETE FROM attachment_chunks WHERE receipt = ?`, receipt);
  }, 'immediate');
}

/** The processes with receipts still open (to find those of processes that are gone). */
export function receivingProcesses(db: Db): number[] {
  return all<{ pid: number }>(db, `SELECT DISTINCT pid FROM upload_receipts`).map((r) => r.pid);
}

export function receiptsOfProcess(db: Db, pid: number): number[] {
  return all<{ id: number }>(db, `SELECT id FROM upload_receipts WHERE pid = ?`, pid).map((r) => r.id);
}

/** The file's bytes in order, a chunk at a time (each read when the previous one is done with). */
export function* chunksOf(db: Db, receipt: number): Generator<Uint8Array> {
  for (let seq = 0; ; seq++) {
    const row = one<{ data: Uint8Array }>(
      db,
      `SELECT data FROM attachment_chunks WHERE receipt = ? AND seq = ?`,
      receipt,
      seq,
    );
    if (!row) return;
    yield row.data;
  }
}

/** Available files in the same folder as this one. */
export function namesakesOf(db: Db, row: AttachmentRow): { id: number; display_name: string }[] {
  return all(
    db,
    'SELECT id, display_name FROM attachments WHERE context_type = ? AND context_id = ? AND folder_path = ? AND ' +
      `workflow_state = 'available' AND id <> ?`,
    row.context_type,
    row.context_id,
    row.folder_path,
    row.id,
  );
}

export function makeAvailable(db: Db, id: number, displayName: string, now: string): void {
  run(
    db,
    `UPDATE attachments SET workflow_state = 'available', display_name = ?, updated_at = ? WHERE id = ?`,
    displayName,
    now,
    id,
  );
}

export function deleteAttachment(db: Db, id: number): void {
  run(db, `UPDATE attachments SET workflow_state = 'deleted' WHERE id = ?`, id);
}

/** Available images of an owner (a user's avatar choices). */
export function imagesOf(
  db: Db,
  contextType: string,
  contextId: number,
): { id: number; uuid: string; display_name: string; filename: string; content_type: string; size: number }[] {
  return all(
    db,
    `SELECT id, uuid, display_name, filename, content_type, size FROM attachments
     WHERE context_type = ? AND context_id = ? AND workflow_state = 'available' AND content_type LIKE 'image/%' ` +
      'ORDER BY id',
    contextType,
    contextId,
  );
}

/** Bytes of the user's stored files (their quota's use). */
export function userFileBytes(db: Db, userId: number): number {
  return one<{ n: number }>(
    db,
    `SELECT coalesce(sum(size), 0) AS n FROM attachments WHERE context_type = 'User' AND context_id = ? AND ` +
      `workflow_state = 'available'`,
    userId,
  )!.n;
}
