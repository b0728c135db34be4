// A tool's outputSchema: the JSON Schema of its structuredContent, made from the result type of the
// route the verb answers with (src/mcp/result-shapes.ts, generated from src/spec/types), as a record
// or as a page of them. Nothing is required, since every result may instead be an error
// (`{ error }`), a dry run or a plan; fields beyond the type's pass (what every answer may carry
// besides its record: `error`, `left_out`, `read_back`, `confirm`), as real instances send more.
// A verb whose answer is no route's record (a plan, a bulk job's report, rows of its own) has its
// result type named in src/commands/verb-results.ts; the shapes its fields name are `$defs` of
// its schema, each said once however often it is used (a plan's actions, an outcome tree's groups).
import { sendsWrites, type CommandSpec } from '../model/command.js';
import { route, type RouteId } from '../spec/routes.js';
import { RESULT_TYPES, RESULTS, VERB_RESULTS } from './result-shapes.js';

export interface ObjectSchema {
  type: 'object';
  properties?: Record<string, Record<string, unknown>>;
  $defs?: Record<string, ObjectSchema>;
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

export function outputSchemaOf(spec: CommandSpec<never>, path: readonly string[], paged: boolean): ObjectSchema {
  const verb = path.join(' ');
  if (Object.hasOwn(VERB_RESULTS, verb)) return verbSchema(VERB_RESULTS[verb]);
  // A verb whose argument is a file it reads (an import) answers with a report of its job, not a record.
  const readsFile = Object.values(spec.fileArgs ?? {}).includes('read');
  const result = readsFile ? undefined : resultOf(spec, path);
  // A verb that answers with no route's record, and no row in verb-results.ts (test/mcp fails on it).
  if (!result) return { type: 'object' };
  const [type, list] = result;
  const record: ObjectSchema = { type: 'object', properties: fieldSchemas(RESULT_TYPES[type]) };
  if (!paged && !list) return record;
  return { type: 'object', properties: { items: { type: 'array', items: record }, ...PAGE } };
}

/** A verb's own result: its record's fields, its list's items, or both; the shapes they name as $defs. */
function verbSchema({ record, items }: (typeof VERB_RESULTS)[string]): ObjectSchema {
  const defs: Record<string, ObjectSchema> = {};
  const properties = {
    ...(record ? fieldSchemas(RESULT_TYPES[record], defs) : {}),
    ...(items ? { items: { type: 'array', items: shapeRef(items, defs) }, ...PAGE } : {}),
  };
  return { type: 'object', properties, ...(Object.keys(defs).length ? { $defs: defs } : {}) };
}

/** A reference to a shape, its definition added to `defs` (and those of the shapes it names). */
function shapeRef(name: string, defs: Record<string, ObjectSchema>): Record<string, unknown> {
  if (!Object.hasOwn(defs, name)) {
    defs[name] = { type: 'object' };
    defs[name].properties = fieldSchemas(RESULT_TYPES[name], defs);
  }
  return { $ref: `#/$defs/${name}` };
}

const JSON_TYPES = new Set(['string', 'number', 'boolean', 'object', 'array', 'null']);

function fieldSchemas(
  fields: Record<string, readonly string[]>,
  defs?: Record<string, ObjectSchema>,
): Record<string, Record<string, unknown>> {
  // A route record's field that can only be said to be an object or a list (its shape is not one
  // level down) is left to pass as any other field, unless the record has no other.
  const typed = Object.entries(fields).filter(([, types]) =>
    types.some((t) => t !== 'object' && t !== 'array' && t !== 'null'),
  );
  const said = defs !== undefined || !typed.length ? Object.entries(fields) : typed;
  return Object.fromEntries(
    said.map(([name, types]) => {
      const shape = defs && types.find((t) => !JSON_TYPES.has(t));
      if (!shape) return [name, { type: types.length === 1 ? types[0] : [...types] }];
      const of = shape.endsWith('[]') ? shape.slice(0, -2) : shape;
      const ref = shapeRef(of, defs);
      const schema = shape.endsWith('[]') ? { type: 'array', items: ref } : ref;
      return [name, types.includes('null') ? { anyOf: [schema, { type: 'null' }] } : schema];
    }),
  );
}
