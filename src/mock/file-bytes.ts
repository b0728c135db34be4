// File bytes between `lms mock serve` and the mock without whole copies in memory: the bytes of an
// upload go into storage as they arrive, and a download is read out of storage a piece at a time.
// In process (`--mock`) there is no stream to spare: the client hands the mock a whole multipart
// body and reads a whole download, and the same handlers serve it.
//
// The HTTP server knows only the shapes here; the files area gives them their substance, so the
// server never imports an area.
import type { ApiRequest, ApiResponse, Transport } from '../transport/types.js';

/**
 * The mock as a transport. `uploads` is for an HTTP server in front of it: where the bytes of a
 * step 2 upload go as they arrive, so that it never holds a whole body.
 */
export type MockHandler = Transport & { readonly uploads?: UploadDesk };

/**
 * What a multipart body posted to an upload URL may carry beyond the file size its step 1
 * declared: the part's boundary and headers and the upload's form fields. A body further over is
 * refused (413) before it is read, or as soon as it passes the mark.
 */
export const UPLOAD_SLACK_BYTES = 64 * 1024;

/** Whether an upload URL is waiting for its bytes, and the file size its step 1 declared, if any. */
type UploadAdmission = 'unknown' | { declaredBytes: number | undefined };

/** Where the HTTP server puts the bytes of an upload as they arrive. */
export interface UploadDesk {
  /** The form field whose file part is the upload (the ticket's `file_param`). */
  readonly fileParam: string;
  /** The most a sink holds in memory before it stores what it has. */
  readonly bytesHeldPerSink: number;
  /** Reads only: whether `uploadId` may be posted to now. */
  admit(uploadId: string): UploadAdmission;
  /** A sink for the file part posted to `uploadId`; undefined when the upload is no longer pending. */
  open(uploadId: string): UploadSink | undefined;
}

/**
 * One file part's bytes on their way into storage, kept under a receipt. The upload handler adopts
 * the receipt; `discard` drops the bytes unless it did, and runs whatever happened to the request.
 */
export interface UploadSink {
  readonly receipt: number;
  write(piece: Uint8Array): void;
  /** Stores what is still held; the number of bytes received. */
  finish(): number;
  discard(): void;
}

/** A file part the HTTP server stored as it arrived, in place of its bytes. */
export interface ReceivedFile {
  filename: string;
  contentType: string;
  receipt: number;
  bytes: number;
}

/** A request whose multipart body the HTTP server has read: its text fields are the body, its file part stored. */
export interface ReceivedRequest extends ApiRequest {
  received?: ReceivedFile;
}

export function receivedFile(req: ApiRequest): ReceivedFile | undefined {
  return (req as ReceivedRequest).received;
}

/** Stored bytes, read a piece at a time; `size` is what the pieces add up to. */
export interface StoredBytes {
  readonly size: number;
  pieces(): Iterable<Uint8Array>;
}

export function isStoredBytes(v: unknown): v is StoredBytes {
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof (v as StoredBytes).size === 'number' &&
    typeof (v as StoredBytes).pieces === 'function'
  );
}

/**
 * An answer whose body is stored bytes: the HTTP server sends the pieces as it reads them; an
 * in-process reader gets them joined, on first use.
 */
export class StoredBytesAnswer implements ApiResponse {
  #joined: Uint8Array | undefined;
  constructor(
    public status: number,
    public headers: Record<string, string>,
    readonly stored: StoredBytes,
  ) {}

  get body(): Uint8Array {
    this.#joined ??= join(this.stored);
    return this.#joined;
  }
}

export function storedBytesOf(res: ApiResponse): StoredBytes | undefined {
  return res instanceof StoredBytesAnswer ? res.stored : undefined;
}

function join(stored: StoredBytes): Uint8Array {
  const out = new Uint8Array(stored.size);
  let at = 0;
  for (const piece of stored.pieces()) {
    if (at + piece.byteLength > out.byteLength) throw new Error('stored bytes longer than their recorded size');
    out.set(piece, at);
    at += piece.byteLength;
  }
  if (at !== out.byteLength) throw new Error('stored bytes shorter than their recorded size');
  return out;
}
