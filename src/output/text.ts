// Reading values of any shape for display. A command that flattens an answer into rows or lines
// reads it with these rather than trusting the documented type: real instances send nulls, leave
// out optional fields, send ids and numbers as strings, and lists of bare ids where another
// instance sends objects. Whatever arrives renders as text; nothing renders as `undefined`.
import { CONTROL_CHARACTERS } from '../controls.js';
import { isRecord, type JsonRecord } from './fields.js';

/** A value as one line of text: null and undefined empty, a record by what names it, a list joined. */
export function textOf(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(textOf).filter((t) => t !== '').join(', ');
  if (typeof value === 'object') return labelOf(value) || JSON.stringify(value);
  return String(value);
}

/**
 * What names a record in a one-line summary: its id and name (or title, or display name), whichever
 * it has; a bare id or name is itself. `{ id: 1, name: 'Essay' }` → `1 Essay`, `7` → `7`.
 */
export function labelOf(value: unknown): string {
  if (!isRecord(value)) return textOf(value);
  return [value.id, nameField(value)].filter(isShown).map(String).join(' ');
}

/** The name a record shows alone (name, title or display name), else its label. */
export function nameOf(value: unknown): string {
  const name = isRecord(value) ? nameField(value) : undefined;
  return name !== undefined ? String(name) : labelOf(value);
}

const isShown = (v: unknown) => v !== null && v !== undefined && typeof v !== 'object';
const nameField = (record: JsonRecord) => [record.name, record.title, record.display_name].find(isShown);

/** A list field as a list: absent or null is none, a single value is a list of one. */
export function listOf(value: unknown): unknown[] {
  if (value === null || value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/** The records of a list field, leaving out what is no record (a null in the list). */
export function recordsOf(value: unknown): JsonRecord[] {
  return listOf(value).filter(isRecord);
}

/**
 * Text for one line of a terminal: control characters (tabs, newlines, an escape that would start
 * a terminal sequence) become spaces, as a table's cells do.
 */
export function oneLine(text: string): string {
  return text.replace(CONTROL_CHARACTERS, ' ');
}
