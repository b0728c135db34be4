// Reads a multipart body posted to an upload URL as it arrives (busboy, loaded with this module,
// which the HTTP server imports when an upload first comes): the file part goes to the upload
// desk's sink piece by piece, the text fields are kept for the handler. What the request holds at
// any moment is the sink's one chunk, the fields (at most `maxFieldBytes`) and the socket's buffers.
import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import type { ReceivedFile, UploadDesk, UploadSink } from './file-bytes.js';

export interface StreamLimits {
  /** Bytes of the whole body, framing included. */
  maxBytes: number;
  /** Bytes of the text fields' names and values together. */
  maxFieldBytes: number;
  /** Parts of the body (text fields and files). */
  maxParams: number;
}

export type Streamed =
  /** The whole body read; `sink` holds the file part's bytes until the upload adopts them or `discard`. */
  | { kind: 'read'; fields: [string, string][]; file?: ReceivedFile; sink?: UploadSink }
  | { kind: 'too-large' }
  | { kind: 'fields-too-large' }
  /** The upload stopped being pending while the body arrived (another request completed it). */
  | { kind: 'gone' }
  | { kind: 'aborted' }
  | { kind: 'malformed'; message: string }
  /** Storing failed (the disk, the database): an internal error. */
  | { kind: 'failed'; error: unknown };

/**
 * The body of `req`, read to its end or to the first reason to stop. On any outcome but `read`,
 * the bytes stored so far are discarded and the request is left unread from there on, for the
 * caller to refuse.
 */
export function receiveMultipart(
  req: IncomingMessage,
  contentType: string,
  desk: UploadDesk,
  uploadId: string,
  limits: StreamLimits,
): Promise<Streamed> {
  return new Promise((resolve) => {
    const fields: [string, string][] = [];
    let fieldBytes = 0;
    let total = 0;
    let sink: UploadSink | undefined;
    let part: { filename: string; contentType: string } | undefined;
    let settled = false;
    let parser: busboy.Busboy;

    const count = (chunk: Buffer) => {
      total += chunk.byteLength;
      if (total > limits.maxBytes) settle({ kind: 'too-large' });
    };
    const closed = () => {
      if (!req.complete) settle({ kind: 'aborted' });
    };
    const settle = (outcome: Streamed) => {
      if (settled) return;
      settled = true;
      req.off('data', count);
      req.off('close', closed);
      if (outcome.kind !== 'read') {
        req.unpipe(parser);
        parser.destroy();
        try {
          sink?.discard();
        } catch (error) {
          if (outcome.kind !== 'failed') return resolve({ kind: 'failed', error });
        }
      }
      resolve(outcome);
    };

    try {
      parser = busboy({
        headers: { 'content-type': contentType },
        // Names as the client sent them (browsers and undici write UTF-8), never rewritten to a base name.
        defParamCharset: 'utf8',
        preservePath: true,
        // Names and values are checked as any request's are once the body is read; these only bound memory.
        limits: { parts: limits.maxParams + 2, fieldSize: limits.maxFieldBytes + 1 },
      });
    } catch {
      // No boundary, or not multipart at all.
      return resolve({ kind: 'malformed', message: 'the multipart body could not be read' });
    }
    parser.on('file', (name, stream, info) => {
      // A body cut short errors its open file stream too; the parser's own error says what happened.
      stream.on('error', () => undefined);
      if (settled || name !== desk.fileParam || sink) return void stream.resume();
      try {
        sink = desk.open(uploadId);
      } catch (error) {
        stream.resume();
        return settle({ kind: 'failed', error });
      }
      if (!sink) {
        stream.resume();
        return settle({ kind: 'gone' });
      }
      part = { filename: info.filename ?? '', contentType: info.mimeType };
      const into = sink;
      stream.on('data', (piece: Buffer) => {
        if (settled) return;
        try {
          into.write(piece);
        } catch (error) {
          settle({ kind: 'failed', error });
        }
      });
    });
    parser.on('field', (name, value, info) => {
      if (settled) return;
      fieldBytes += Buffer.byteLength(name) + Buffer.byteLength(value);
      if (info.valueTruncated || fieldBytes > limits.maxFieldBytes) return settle({ kind: 'fields-too-large' });
      fields.push([name, value]);
    });
    parser.on('partsLimit', () =>
      settle({ kind: 'malformed', message: `too many parameters (more than ${limits.maxParams})` }),
    );
    parser.on('error', () => settle({ kind: 'malformed', message: 'the multipart body could not be read' }));
    parser.on('close', () => {
      if (settled) return;
      let bytes = 0;
      try {
        bytes = sink?.finish() ?? 0;
      } catch (error) {
        return settle({ kind: 'failed', error });
      }
      settle({
        kind: 'read',
        fields,
        sink,
        file: sink && part ? { ...part, receipt: sink.receipt, bytes } : undefined,
      });
    });
    req.on('data', count);
    req.on('close', closed);
    req.pipe(parser);
  });
}
