// Field selection shared by every format: `--fields id,user.name` picks (and orders) values,
// reaching into nested objects with dotted paths.
import { closest } from '../closest.js';
import { UsageError } from '../errors.js';

export type JsonRecord = Record<string, unknown>;

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Lists of scalars (ids, names) still render as rows: each value becomes `{ value }`. */
export function asRecord(item: unknown): JsonRecord {
  return isRecord(item) ? item : { value: item };
}

/**
 * The value at a dotted path, or undefined when any step is missing. A key that itself contains
 * dots wins over the nested path, so flat records with dotted keys stay addressable.
 */
export function valueAt(record: JsonRecord, path: string): unknown {
  if (Object.hasOwn(record, path)) return record[path];
  let current: unknown = record;
  for (const key of path.split('.')) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, key)) return undefined;
    current = (current as JsonRecord)[key];
  }
  return current;
}

/** A new object with exactly these keys in this order; missing values become null (valid JSON). */
function selectFields(item: unknown, fields: readonly string[]): JsonRecord {
  const record = asRecord(item);
  const selected: JsonRecord = {};
  for (const field of fields) selected[field] = valueAt(record, field) ?? null;
  return selected;
}

/** An item as --fields shows it (the item itself without --fields). */
export function project(item: unknown, fields: readonly string[] | undefined): unknown {
  return fields ? selectFields(item, fields) : item;
}

/** A value that is itself an array has its fields picked per element. */
export function projectItem(item: unknown, fields: readonly string[] | undefined): unknown {
  return Array.isArray(item) && fields ? item.map((element) => project(element, fields)) : project(item, fields);
}

export function isScalar(value: unknown): boolean {
  return value === null || (typeof value !== 'object' && typeof value !== 'function');
}

/**
 * Whether a record has a field at this path. A null on the way (`user` is null, so `user.login_id`
 * cannot be looked into) counts as present: the field exists, this record just has no value there.
 */
function hasField(record: JsonRecord, path: string): boolean {
  if (Object.hasOwn(record, path)) return true;
  let current: unknown = record;
  for (const key of path.split('.')) {
    if (current === null) return true;
    if (typeof current !== 'object' || !Object.hasOwn(current, key)) return false;
    current = (current as JsonRecord)[key];
  }
  return true;
}

/**
 * Checks --fields against a sample of the output (one item, or the first of a list): a name the
 * output does not have is a usage error listing the names it does have, as `gh --json` does.
 */
export function checkFields(sample: unknown, fields: readonly string[]): void {
  const record = asRecord(sample);
  const unknown = fields.filter((field) => !hasField(record, field));
  if (unknown.length === 0) return;
  const available = availableFields(record, unknown);
  const names = unknown.map((field) => `"${field}"`).join(', ');
  // The line's --fields with each mistyped name's nearest field, when every one has one; else the whole list to choose
  // from.
  const nearest = new Map(unknown.map((field) => [field, closest(field, available)]));
  const meant = [...nearest.values()].every((near) => near !== undefined)
    ? `did you mean --fields ${fields.map((f) => nearest.get(f) ?? f).join(',')}?`
    : undefined;
  throw new UsageError(`--fields: unknown field${unknown.length > 1 ? 's' : ''} ${names}`, {
    hint: meant ?? `available fields: ${available.join(', ')}`,
    details: { unknown_fields: unknown, available_fields: available },
  });
}

/** The record's own keys, and the keys of nested objects that an unknown dotted path was reaching into. */
function availableFields(record: JsonRecord, unknown: readonly string[]): string[] {
  const names = new Set(Object.keys(record));
  for (const field of unknown) {
    const steps = field.split('.');
    let current: unknown = record;
    const walked: string[] = [];
    for (const key of steps.slice(0, -1)) {
      if (!isRecord(current) || !Object.hasOwn(current, key)) break;
      current = current[key];
      walked.push(key);
      if (isRecord(current)) for (const nested of Object.keys(current)) names.add([...walked, nested].join('.'));
    }
  }
  return [...names];
}
