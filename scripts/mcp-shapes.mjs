// Writes src/mcp/result-shapes.ts: the shape of each operation's result, read with the TypeScript
// compiler off `Endpoints` in src/spec/types/endpoints.ts (the types the client returns and the
// mock's presenters build), as data the MCP server makes each tool's outputSchema from.
//   node scripts/mcp-shapes.mjs           (npm run mcp-shapes)
//   node scripts/mcp-shapes.mjs --check   exit 1 while the committed file differs
// A route's shape is one level deep: each top-level field with its JSON types; a nested object or
// list is `object` or `array`. Optional fields may be null, as real instances send them. The verbs
// that answer with no route's record name their result type in `VerbResults`
// (src/commands/verb-results.ts); their shapes go two levels further down: a field of one object
// type (or a list of one) names that type's shape (`PlanAction`, `PlanAction[]`).
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = fileURLToPath(new URL('..', import.meta.url));
const source = `${root}src/spec/types/endpoints.ts`;
const verbSource = `${root}src/commands/verb-results.ts`;
const target = `${root}src/mcp/result-shapes.ts`;

const program = ts.createProgram([source, verbSource], {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
});
const checker = program.getTypeChecker();
const file = program.getSourceFile(source);
const endpoints = file.statements.find((s) => ts.isInterfaceDeclaration(s) && s.name.text === 'Endpoints');
if (!endpoints) throw new Error('no interface Endpoints in endpoints.ts');
const verbFile = program.getSourceFile(verbSource);
const verbResults = verbFile.statements.find((s) => ts.isInterfaceDeclaration(s) && s.name.text === 'VerbResults');
if (!verbResults) throw new Error('no interface VerbResults in verb-results.ts');

/** An object type that is no array, tuple or function. */
const isRecord = (t) =>
  !!(t.getFlags() & (ts.TypeFlags.Object | ts.TypeFlags.Intersection)) &&
  !checker.isArrayType(t) &&
  !checker.isTupleType(t) &&
  t.getCallSignatures().length === 0;

/**
 * The JSON types a TypeScript type may be, or undefined for "anything". With `nest`, a type of one
 * object type or a list of one (each maybe null) is that type's shape by name: `['Row[]', 'null']`.
 */
function jsonTypes(type, nest) {
  if (nest) {
    const members = (type.isUnion() ? type.types : [type]).filter(
      (t) => !(t.getFlags() & (ts.TypeFlags.Undefined | ts.TypeFlags.Void | ts.TypeFlags.Null)),
    );
    const nullable = (type.isUnion() ? type.types : [type]).some((t) => t.getFlags() & ts.TypeFlags.Null);
    const [only] = members;
    const named = (t) => isRecord(t) && checker.getPropertiesOfType(t).length > 0 && nest(t);
    if (members.length === 1 && named(only)) return [named(only), ...(nullable ? ['null'] : [])];
    const element = members.length === 1 && checker.isArrayType(only) && checker.getTypeArguments(only)[0];
    if (element && named(element)) return [`${named(element)}[]`, ...(nullable ? ['null'] : [])];
  }
  const kinds = new Set();
  const members = type.isUnion() ? type.types : [type];
  for (const t of members) {
    const f = t.getFlags();
    if (f & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return undefined;
    if (f & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)) continue;
    if (f & ts.TypeFlags.Null) kinds.add('null');
    else if (f & ts.TypeFlags.StringLike) kinds.add('string');
    else if (f & ts.TypeFlags.NumberLike) kinds.add('number');
    else if (f & ts.TypeFlags.BooleanLike) kinds.add('boolean');
    else if (checker.isArrayType(t) || checker.isTupleType(t)) kinds.add('array');
    else if (f & ts.TypeFlags.Object || f & ts.TypeFlags.Intersection) kinds.add('object');
    else return undefined;
  }
  return [...kinds].sort(order);
}

const ORDER = ['string', 'number', 'boolean', 'object', 'array', 'null'];
const order = (a, b) => ORDER.indexOf(a) - ORDER.indexOf(b);

/**
 * An object type's fields: name → JSON types (an optional field may also be null). Of a union of
 * object types (a recipient is a user or a context), every member's fields, each optional.
 */
function fieldsOf(type, at = endpoints, nest = undefined) {
  if (type.isUnion()) {
    const fields = {};
    for (const member of type.types)
      for (const [name, types] of Object.entries(fieldsOf(member, at, nest)))
        fields[name] = [...new Set([...(fields[name] ?? []), ...types, 'null'])].sort(order);
    return fields;
  }
  const fields = {};
  for (const symbol of checker.getPropertiesOfType(type)) {
    const declared = checker.getTypeOfSymbolAtLocation(symbol, at);
    const types = jsonTypes(declared, nest && ((t) => nest(t, symbol.getName())));
    if (!types?.length) continue;
    if (symbol.getFlags() & ts.SymbolFlags.Optional && !types.includes('null')) types.push('null');
    fields[symbol.getName()] = types;
  }
  return fields;
}

const types = {};
const results = {};
/** The name a shape is kept under: its type's own (`User`), else the operation's. */
function nameOf(type, id) {
  const symbol = type.aliasSymbol ?? type.getSymbol();
  const name = symbol?.getName();
  return name && /^[A-Z]\w*$/.test(name) ? name : id;
}
for (const member of endpoints.members) {
  if (!ts.isPropertySignature(member)) continue;
  const id = member.name.getText(file).replace(/^'|'$/g, '');
  const entry = checker.getTypeAtLocation(member);
  const result = entry.getProperty('result');
  if (!result) continue;
  let type = checker.getTypeOfSymbolAtLocation(result, member);
  // `T | undefined` (an answer that may be empty) is the shape of T.
  if (type.isUnion()) {
    const defined = type.types.filter((t) => !(t.getFlags() & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)));
    if (defined.length === 1) type = defined[0];
  }
  // No answer (a 204): the tool answers `{ ok: true }`.
  if (type.getFlags() & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)) {
    types.Done = { ok: ['boolean'] };
    results[id] = ['Done'];
    continue;
  }
  const list = checker.isArrayType(type);
  const element = list ? checker.getTypeArguments(type)[0] : type;
  const objects = (t) =>
    t.isUnion()
      ? t.types.every((m) => m.getFlags() & ts.TypeFlags.Object)
      : t.getFlags() & (ts.TypeFlags.Object | ts.TypeFlags.Intersection);
  if (!objects(element)) continue;
  const name = nameOf(element, id);
  const fields = fieldsOf(element);
  if (types[name] && JSON.stringify(types[name]) !== JSON.stringify(fields))
    throw new Error(`two shapes named ${name}`);
  types[name] = fields;
  results[id] = list ? [name, 'list'] : [name];
}

/** Names the type's own, unless it is a utility's (`Record`, `Partial`) or has none. */
const BORROWED = new Set(['Record', 'Partial', 'Pick', 'Omit', 'Required', 'Readonly', '__type', '__object']);
const pascal = (words) => words.replace(/(^|[\s_-])(\w)/g, (_, __, c) => c.toUpperCase());
const NESTED = 2;

/** A verb result's shape, kept under its name, with the shapes of its fields' object types below it. */
function verbShape(type, fallback, depth) {
  // A union (an import's record, or its dry run's) is the verb's own.
  const symbol = type.isUnion() ? undefined : (type.aliasSymbol ?? type.getSymbol());
  const own = symbol?.getName();
  const name = own && !BORROWED.has(own) && /^[A-Z]\w*$/.test(own) ? own : fallback;
  if (types[name]) return name;
  types[name] = {};
  // A map (`Partial<Record<kind, number>>`: counts by kind) stays an object: its keys are data.
  const nest =
    depth < NESTED
      ? (t, field) =>
          BORROWED.has(t.aliasSymbol?.getName()) ? undefined : verbShape(t, `${name}${pascal(field)}`, depth + 1)
      : undefined;
  const fields = fieldsOf(type, verbResults, nest);
  types[name] = fields;
  return name;
}

const verbs = {};
for (const member of verbResults.members) {
  if (!ts.isPropertySignature(member)) continue;
  const verb = member.name.getText(verbFile).replace(/^'|'$/g, '');
  const type = checker.getTypeAtLocation(member);
  const fallback = `${pascal(verb)}Result`;
  const members = type.isUnion() ? type.types : [type];
  const list = members.find((t) => checker.isArrayType(t));
  const record = members.filter((t) => !checker.isArrayType(t));
  const entry = {};
  if (list) entry.items = verbShape(checker.getTypeArguments(list)[0], `${pascal(verb)}Row`, 0);
  if (record.length) {
    const one = record.length === 1 ? record[0] : checker.getUnionType(record);
    entry.record = verbShape(one, fallback, 0);
  }
  verbs[verb] = entry;
}

const unformatted =
  `// Generated by scripts/mcp-shapes.mjs from src/spec/types/endpoints.ts and
// src/commands/verb-results.ts: do not edit.
// Each result type, one level deep (each field's JSON types), and each operation's result: a type,
// or a list of one.

export type JsonType = 'string' | 'number' | 'boolean' | 'object' | 'array' | 'null';

/** A field's types: JSON types, or a shape by name (\`Row\`), or a list of one (\`Row[]\`). */
export const RESULT_TYPES: Record<string, Record<string, readonly (JsonType | \`\${string}\`)[]>> = ` +
  `${JSON.stringify(types)};

export const RESULTS: Record<string, readonly [type: string, list?: 'list']> = ${JSON.stringify(results)};

/**
 * What the verbs of src/commands/verb-results.ts answer with, by command line: a record's shape, a
 * list's items' shape, or both (a verb that answers either).
 */
export const VERB_RESULTS: Record<string, { record?: string; items?: string }> = ${JSON.stringify(verbs)};
`;
const text = execFileSync(`${root}node_modules/.bin/biome`, ['format', '--stdin-file-path=src/mcp/result-shapes.ts'], {
  input: unformatted,
  encoding: 'utf8',
});

if (process.argv.includes('--check')) {
  const committed = readFileSync(target, 'utf8');
  if (committed !== text) {
    console.error('src/mcp/result-shapes.ts is out of step with the types: run npm run mcp-shapes');
    process.exit(1);
  }
} else writeFileSync(target, text);
