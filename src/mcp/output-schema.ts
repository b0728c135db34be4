// A tool's outputSchema: the JSON Schema of its structuredContent, made from the result type of the
// route the verb answers with (src/mcp/result-shapes.ts, generated from src/spec/types), as a record
// or as a page of them. Nothing is required, since every result may instead be an error
// (`{ error }`), a dry run or a plan; fields beyond the type's pass (what every answer may carry
// besides its record: `error`, `left_out`, `read_back`, `confirm`), as real instances send more.
import { sendsWrites, type CommandSpec } from '../model/command.js';
import { route, type RouteId } from '../spec/routes.js';
import { RESULT_TYPES, RESULTS, type JsonType } from './result-shapes.js';

export interface ObjectSchema {
  type: 'object';
  properties?: Record<string, Record<string, unknown>>;
}

/** What a page of a list carries around its items. */
const PAGE: Record<string, Record<string, unknown>> = {
  count: { type: 'integer' },
  more: { type: 'boolean' },
  next_cursor: { type: 'string' },
};

/** An operation's id without its context (`discussions.listTopics@courses` → `discussions.listTopics`). */
const operationOf = (id: RouteId): string => id.split('@')[0];

/**
 * The result the verb answers with: that of its own operation (by name: `get`, `entries` for
 * listEntries), else the one type all its operations answer with (a list of a course's, a
 * section's or a user's enrollments), else the one its writes answer with. A verb of reads of
 * several types and no name among them (grade export) answers with rows of its own making, which
 * no route's type says.
 */
function resultOf(spec: CommandSpec<never>, path: readonly string[]): (typeof RESULTS)[string] | undefined {
  const ops = [...new Set((spec.routes ?? []).map(operationOf))].filter((op) => Object.hasOwn(RESULTS, op));
  const verb = (path.at(-1) ?? '').replace(/[-_](\w)/g, (_, c: string) => c.toUpperCase());
  const named = ops.find((op) => {
    const name = op.split('.')[1];
    return name === verb || name === `list${verb[0]?.toUpperCase()}${verb.slice(1)}`;
  });
  if (named) return RESULTS[named];
  const one = (of: string[]) => {
    const results = new Set(of.map((op) => RESULTS[op].join(' ')));
    return results.size === 1 ? RESULTS[of[0]] : undefined;
  };
  const writes = (spec.routes ?? []).filter((id) => route(id).method !== 'GET').map(operationOf);
  return one(ops) ?? (sendsWrites(spec) ? one([...new Set(writes)].filter((op) => ops.includes(op))) : undefined);
}

/**
 * Verbs that answer with their route's record remade, by command line: what the API sends as text
 * (`conv unread`'s unread_count, "3") they answer as a number.
 */
const REMADE = new Set(['conv unread']);

/**
 * What a bulk job answers with (src/bulk/command.ts, grade --csv): its counts and a row a line,
 * each with its status; shared by every verb that writes failed rows out (`--failed-out`).
 */
const BULK_RUN: ObjectSchema = {
  type: 'object',
  properties: {
    rows: { type: 'array', items: { type: 'object', properties: { status: { type: 'string' } } } },
    failed: { type: 'number' },
    dry_run: { type: 'boolean' },
  },
};

export function outputSchemaOf(spec: CommandSpec<never>, path: readonly string[], paged: boolean): ObjectSchema {
  if ((spec.options ?? []).some((o) => o.long === 'failed-out')) return BULK_RUN;
  // A verb whose argument is a file it reads (an import) answers with a report of its job, not a record.
  const readsFile = Object.values(spec.fileArgs ?? {}).includes('read');
  const result = readsFile || REMADE.has(path.join(' ')) ? undefined : resultOf(spec, path);
  // A verb that answers with no route's record (a report of a bulk job, a text, a plan).
  if (!result) return { type: 'object' };
  const [type, list] = result;
  const record: ObjectSchema = { type: 'object', properties: fieldSchemas(RESULT_TYPES[type]) };
  if (!paged && !list) return record;
  return { type: 'object', properties: { items: { type: 'array', items: record }, ...PAGE } };
}

function fieldSchemas(fields: Record<string, readonly JsonType[]>): Record<string, Record<string, unknown>> {
  return Object.fromEntries(
    Object.entries(fields).map(([name, types]) => [name, { type: types.length === 1 ? types[0] : [...types] }]),
  );
}
