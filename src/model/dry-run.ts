// How a dry run shows the write it stopped at (see src/transport/dry-run.ts, and dryRunning() in
// command.ts, which runs the verb): as the API would receive it, and as a curl command line.
// Loaded only when a dry run stops at a write.
import { matchRoute } from '../spec/match.js';
import type { Route, RouteId } from '../spec/routes.js';
import { previewRequest, type BodyPart, type DryRun, type RequestPreview } from '../transport/dry-run.js';
import { err } from '../io/streams.js';
import type { ApiRequest } from '../transport/types.js';
import type { Context } from './context.js';
import { shownFormat } from './command.js';

/** What `-o json` (and every other data format) prints for a dry run. */
export interface DryRunOutput {
  dry_run: true;
  requests: { method: string; url: string; content_type?: string; body: unknown }[];
  /** The read that told whether the write would find its target, and its status. */
  checked?: DryRun['checked'];
  /** Present when the verb would send more writes, which depend on the first one's answer. */
  note?: string;
}

/** The write a dry run stopped at, as the command's output: text on a terminal, data otherwise. */
export async function previewResult(
  ctx: Context,
  stopped: ApiRequest,
  declared: readonly RouteId[],
  checked?: DryRun['checked'],
): Promise<{ kind: 'text'; text: string } | { kind: 'item'; value: DryRunOutput }> {
  const preview = previewRequest(stopped);
  const note = followUpNote(declared, preview);
  err(ctx.io, `Dry run: nothing was sent. The first write is shown${note ? `; ${note}` : ''}.\n`);
  // What was checked, and what a read cannot tell (a login taken, a rule only the write meets).
  err(
    ctx.io,
    checked
      ? `Checked: GET ${checked.url} answered ${checked.status}; the write itself may still be refused.\n`
      : 'Nothing was checked: no read tells whether this write would succeed.\n',
  );
  const format = shownFormat(ctx);
  if (format === 'table') return { kind: 'text', text: describe(preview) };
  return {
    kind: 'item',
    value: { dry_run: true, requests: [asData(preview)], ...(checked ? { checked } : {}), ...(note ? { note } : {}) },
  };
}

function asData(p: RequestPreview): DryRunOutput['requests'][number] {
  const body = p.body;
  const value =
    body.kind === 'none'
      ? null
      : body.kind === 'json'
        ? body.value
        : // Decoded, field by field, as the server reads them (the curl line keeps the form as sent).
          body.kind === 'form'
          ? body.pairs
          : body.kind === 'multipart'
            ? body.parts
            : `(${body.size} bytes of ${body.contentType}, not shown)`;
  return {
    method: p.method,
    url: p.url,
    ...(body.kind !== 'none' && p.contentType ? { content_type: p.contentType } : {}),
    body: value,
  };
}

/**
 * When the write is the first step of the API's file upload (a POST to a `…/files` route of a verb
 * that uploads), the steps after it go to addresses only its answer gives, and the verb's own write
 * comes after those: none of them can be shown.
 */
function followUpNote(declared: readonly RouteId[], preview: RequestPreview): string | undefined {
  if (!declared.includes('files.upload')) return undefined;
  const matched = routeOf(preview, declared);
  if (matched?.method !== 'POST' || !matched.path.endsWith('/files')) return undefined;
  return 'it starts a file upload, and the writes after it go where its answer says, so they depend on it';
}

/** The declared route a request was made for, by method and path. */
function routeOf(preview: RequestPreview, declared: readonly RouteId[]): Route | undefined {
  let segments: string[];
  try {
    segments = new URL(preview.url).pathname.split('/');
  } catch {
    return undefined;
  }
  // A base URL may carry a path of its own in front of the API's: the route is a tail of the path.
  for (let i = 1; i < segments.length; i++) {
    const match = matchRoute(preview.method, `/${segments.slice(i).join('/')}`, declared);
    if (match) return match.route;
  }
  return undefined;
}

/** The request as a person reads it, then as a curl command line with the token left to the shell. */
function describe(p: RequestPreview): string {
  const lines = [`${p.method} ${p.url}`];
  const body = p.body;
  if (body.kind !== 'none') {
    lines.push(`Content-Type: ${p.contentType ?? 'application/octet-stream'}`, '');
    if (body.kind === 'json') lines.push(JSON.stringify(body.value, null, 2));
    else if (body.kind === 'form') lines.push(...body.pairs.map(([k, v]) => `${k}=${v}`));
    else if (body.kind === 'multipart') lines.push(...body.parts.map(partText));
    else lines.push(`(${body.size} bytes, not shown)`);
  }
  return `${lines.join('\n')}\n\n${curl(p)}\n`;
}

function partText(part: BodyPart): string {
  return 'value' in part
    ? `${part.name}=${part.value}`
    : `${part.name}=@${part.file} (${part.size} bytes${part.type ? `, ${part.type}` : ''})`;
}

function curl(p: RequestPreview): string {
  const words = ['curl', '-X', p.method, quote(p.url)];
  // The token is the shell's to fill in: it never appears in a preview.
  if (p.authorized) words.push('-H', '"Authorization: Bearer $LMS_TOKEN"');
  const body = p.body;
  if (body.kind === 'json')
    words.push('-H', quote('Content-Type: application/json'), '--data', quote(JSON.stringify(body.value)));
  else if (body.kind === 'form')
    words.push(...body.pairs.flatMap(([k, v]) => ['--data-urlencode', quote(`${k}=${v}`)]));
  else if (body.kind === 'multipart')
    words.push(
      ...body.parts.flatMap((part) => [
        '-F',
        quote('value' in part ? `${part.name}=${part.value}` : `${part.name}=@${part.file}`),
      ]),
    );
  return words.join(' ');
}

/** One word for a POSIX shell. */
function quote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
