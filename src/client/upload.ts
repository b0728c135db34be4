// The three-step file upload of the real API. Step 1 is an area's `.../files` operation; step 2
// posts the bytes to the upload_url it returned (without the token: that URL may be another host);
// step 3 confirms at the Location step 2 answered with, and returns the attachment.
import { FailureError } from '../errors.js';
import type { ApiClient, SendOptions } from './client.js';
import type { Params } from './encode.js';
import { readBody } from './parse.js';
import type { Attachment, UploadTicket } from '../spec/types/school.js';

export interface LocalFile {
  name: string;
  data: Uint8Array;
  contentType: string;
}

export async function uploadFile(client: ApiClient, ticket: UploadTicket, file: LocalFile): Promise<Attachment> {
  if (!ticket.upload_url) throw new FailureError('the server did not return an upload_url for step 2 of the upload');
  const fields: Params = { ...ticket.upload_params };
  fields[ticket.file_param ?? 'file'] = new File([new Uint8Array(file.data)], file.name, { type: file.contentType });
  // The upload URL is its own credential: the token never goes there, and traces and errors show
  // only its origin.
  const step2 = await client.send('POST', ticket.upload_url, {
    body: fields,
    encoding: 'multipart',
    auth: false,
    secretUrl: true,
    handBackRedirect: true,
  });
  const location = step2.headers.location ?? (readBody(step2) as { location?: string } | undefined)?.location;
  if (step2.status >= 300 && step2.status < 400 && location) {
    return readBody(await client.send('GET', location, confirmAt(client, location))) as Attachment;
  }
  if (location) {
    return readBody(await client.send('POST', location, confirmAt(client, location))) as Attachment;
  }
  // Some storage answers step 2 with the attachment itself.
  const body = readBody(step2) as Attachment | undefined;
  if (body && typeof body === 'object' && 'id' in body) return body;
  throw new FailureError('the upload finished step 2 without a Location to confirm it at');
}

/**
 * Step 3 on the API's origin carries the token (its `?uuid=` is masked in traces); anywhere else it
 * goes without, and, being as much a one-time URL as step 2's, shows only its origin.
 */
function confirmAt(client: ApiClient, url: string): SendOptions {
  const same = new URL(url, client.baseUrl).origin === new URL(client.baseUrl).origin;
  return same ? {} : { auth: false, secretUrl: true };
}
