// Field selection shared by every format: `--fields id,user.name` picks (and orders) values,
// reaching into nested objects with dotted paths.

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
export function selectFields(item: unknown, fields: readonly string[]): JsonRecord {
  const record = asRecord(item);
  const selected: JsonRecord = {};
  for (const field of fields) selected[field] = valueAt(record, field) ?? null;
  return selected;
}

export function isScalar(value: unknown): boolean {
  return value === null || (typeof value !== 'object' && typeof value !== 'function');
}
