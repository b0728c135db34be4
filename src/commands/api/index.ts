import { item, list, text, type Verbs } from '../../model/command.js';
import { command } from '../../model/define.js';
import type { Params } from '../../client/encode.js';
import { UsageError } from '../../errors.js';
import { sourceName, type InputSource } from '../../io/bounded.js';
import type { HttpMethod } from '../../transport/types.js';

const METHODS: HttpMethod[] = ['GET', 'POST', 'PUT', 'DELETE'];

/**
 * `-f user[name]=Jo -f ids[]=1 -f ids[]=2` → { 'user[name]': 'Jo', ids: ['1', '2'] } (already bracketed names stay as
 * given).
 */
export function fieldsToParams(fields: string[]): Params {
  const params: Params = {};
  for (const field of fields) {
    const eq = field.indexOf('=');
    if (eq <= 0) throw new UsageError(`-f takes key=value, got "${field}"`);
    const key = field.slice(0, eq);
    const value = field.slice(eq + 1);
    if (key.endsWith('[]')) {
      const name = key.slice(0, -2);
      const existing = params[name];
      params[name] = Array.isArray(existing) ? [...existing, value] : [value];
    } else params[key] = value;
  }
  return params;
}

/**
 * The --input file as request parameters. Read as every input is (bounded, checked as it streams:
 * no value over 1 MiB, no nesting past 64 levels, which would overflow the stack that encodes the
 * body), then parsed.
 */
async function readInput(source: InputSource, stdin: NodeJS.ReadableStream): Promise<Params> {
  const { readInput: readBounded } = await import('../../bulk/csv-input.js');
  const path = sourceName(source);
  const { bytes } = await readBounded(source, stdin, { shape: 'nested', label: `--input file ${path}` });
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`--input ${path} is not JSON: ${syntaxError(e as Error, text)}`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new UsageError(`--input must hold a JSON object (${path})`);
  return parsed as Params;
}

/**
 * Where JSON.parse stopped, as line and column — a file on one line (as programs write JSON) by its
 * column alone. Node's wording differs between versions; its "at position N" does not.
 */
function syntaxError(e: Error, text: string): string {
  // Without the stretch of the file some versions quote, which may be long and span lines.
  const what = e.message.replace(
    /,? in JSON at position \d+.*$|\s*\(line \d+ column \d+\)$|, (?:"|\.\.\.).*" is not valid JSON$/s,
    '',
  );
  const at = /at position (\d+)/.exec(e.message);
  if (!at) return what;
  const before = text.slice(0, Number(at[1]));
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  return `${what} at ${text.includes('\n') ? `line ${line}, ` : ''}column ${column}`;
}

const request = command({
  name: 'request',
  args: [{ name: 'method' }, { name: 'path' }],
  summary: 'Send any request to the API (the default: `lms api GET /api/v1/users/self`)',
  isDefault: true,
  anyRequest: true,
  options: {
    field: {
      short: 'f',
      long: 'field',
      value: 'key=value',
      description: 'a parameter (query for GET/DELETE, form body otherwise); repeatable; brackets allowed',
      repeatable: true,
    },
    input: { file: 'read', long: 'input', value: 'file', description: 'a JSON body from a file, or - for stdin' },
    paginate: { long: 'paginate', description: 'follow Link rel="next" and print every item' },
  },
  examples: [
    'lms api PUT /api/v1/users/self -f "user[time_zone]=Europe/Berlin"',
    'lms api GET /api/v1/accounts/1/users -f search_term=smith --paginate',
    'lms api DELETE /api/v1/courses/1/enrollments/4 -f task=conclude --dry-run',
  ],
  async run({ args, opts, ctx }) {
    const method = args[0].toUpperCase() as HttpMethod;
    if (!METHODS.includes(method))
      throw new UsageError(`method must be one of ${METHODS.join(', ')}, got "${args[0]}"`);
    const path = args[1];
    if (!path.startsWith('/') && !/^https?:\/\//.test(path)) {
      const { redactUrl } = await import('../../redact.js');
      throw new UsageError(`path must start with / (e.g. /api/v1/users/self), got "${redactUrl(path)}"`);
    }
    if (opts.paginate && method !== 'GET') throw new UsageError('--paginate works with GET');
    const params = fieldsToParams(opts.field ?? []);
    const body = opts.input ? { ...(await readInput(ctx.input(opts.input), ctx.io.stdin)), ...params } : params;
    // A DELETE ends what it names: asked, as every verb that deletes is (a dry run shows it instead).
    if (method === 'DELETE') await ctx.confirm(`DELETE ${path}`);
    const client = await ctx.client();
    if (opts.paginate) {
      const { toQueryString } = await import('../../client/encode.js');
      return list(
        client.pages(
          `${path}${path.includes('?') ? '&' : '?'}${toQueryString({ per_page: ctx.globals.perPage, ...params })}`,
        ),
      );
    }
    const sendsBody = method === 'POST' || method === 'PUT';
    const res = await client.send(
      method,
      path,
      sendsBody ? { body, encoding: opts.input ? 'json' : undefined } : { query: params },
    );
    const { readBody } = await import('../../client/parse.js');
    const parsed = readBody(res);
    if (parsed === undefined) return undefined;
    return typeof parsed === 'string' ? text(parsed) : item(parsed);
  },
});

const routesCommand = command({
  name: 'routes',
  summary: 'List every API route lms knows (the route table)',
  examples: ['lms api routes --area users'],
  columns: ['id', 'method', 'path', 'paginated'],
  options: { area: { long: 'area', value: 'area', description: 'only this area, e.g. users' } },
  async run({ opts }) {
    const { allRoutes } = await import('../../spec/routes.js');
    return list(
      allRoutes()
        .filter((r) => r.path.startsWith('/api/') && (!opts.area || r.area === opts.area))
        .map((r) => ({ id: r.id, method: r.method, path: r.path, paginated: r.paginated })),
    );
  },
});

export const apiVerbs: Verbs = [request, routesCommand];
