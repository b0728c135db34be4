// The upload desk of `lms mock serve`: before a byte of a step 2 body is read, whether its upload
// URL is still pending and how large a file its step 1 declared; then a sink that stores the file
// part as it arrives, a chunk row at a time, under a receipt the step 2 handler adopts.
import type { Db } from '../../db/open.js';
import { processAlive } from '../../../process-alive.js';
import type { UploadDesk, UploadSink } from '../../file-bytes.js';
import {
  attachmentByUploadToken,
  CHUNK_BYTES,
  discardReceipt,
  openReceipt,
  pendingUploadAllowance,
  receiptsOfProcess,
  receivingProcesses,
  writeChunk,
} from './repo.js';

export function createUploadDesk(db: Db, now: () => string): UploadDesk {
  return {
    fileParam: 'file',
    bytesHeldPerSink: CHUNK_BYTES,
    admit(uploadId) {
      const pending = pendingUploadAllowance(db, uploadId);
      return pending ? { declaredBytes: pending.declared_size ?? undefined } : 'unknown';
    },
    open(uploadId) {
      discardOrphans(db);
      const row = attachmentByUploadToken(db, uploadId);
      if (!row?.workflow_state.startsWith('pending_upload')) return undefined;
      return sink(db, openReceipt(db, row.id, now()));
    },
  };
}

/** Each write is copied into one chunk-sized buffer, stored (and the buffer reused) whenever it fills. */
function sink(db: Db, receipt: number): UploadSink {
  let held: Buffer | undefined;
  let fill = 0;
  let seq = 0;
  let total = 0;
  const store = () => {
    if (fill === 0 || !held) return;
    writeChunk(db, receipt, seq++, held.subarray(0, fill));
    fill = 0;
  };
  return {
    receipt,
    write(piece) {
      total += piece.byteLength;
      held ??= Buffer.allocUnsafe(CHUNK_BYTES);
      for (let at = 0; at < piece.byteLength; ) {
        const n = Math.min(piece.byteLength - at, CHUNK_BYTES - fill);
        held.set(piece.subarray(at, at + n), fill);
        fill += n;
        at += n;
        if (fill === CHUNK_BYTES) store();
      }
    },
    finish() {
      store();
      held = undefined;
      return total;
    },
    discard() {
      held = undefined;
      discardReceipt(db, receipt);
    },
  };
}

/** The bytes of receipts whose process is gone (a server killed mid-upload): no one will adopt them. */
function discardOrphans(db: Db): void {
  for (const pid of receivingProcesses(db)) {
    if (pid === process.pid || processAlive(pid)) continue;
    for (const receipt of receiptsOfProcess(db, pid)) discardReceipt(db, receipt);
  }
}
