// Reading values of any shape for display. A command that flattens an answer into rows or lines
// reads it with these rather than trusting the documented type: real instances send nulls, leave
// out optional fields, send ids and numbers as strings, and lists of bare ids where another
// instance sends objects. Whatever arrives renders as text; nothing renders as `undefined`.
import { escapeOf } from '../controls.js';
import { isRecord, type JsonRecord } from './fields.js';

/** A value as one line of text: null and undefined empty, a record by what names it, a list joined. */
export function textOf(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value))
    return value
      .map(textOf)
      .filter((t) => t !== '')
      .join(', ');
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

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
/** Line breaks and tabs: a cell's text continues on its line, with a space where each was. */
const SPACED = /[\t\n\r]/g;

/**
 * What a cell shows by its code: every other control character (C0, DEL, C1: an escape or U+009B
 * would start a terminal sequence), the line and paragraph separators, and Unicode's format
 * characters (Cf): the bidi overrides, embeddings and isolates (U+202A–U+202E, U+2066–U+2069) and
 * marks (U+200E, U+200F, U+061C) that make a terminal draw text in another order than it is held,
 * the zero-width ones (U+200B–U+200D, U+2060, U+FEFF) that make two names look the same, and the
 * tags. Escaped, not dropped: what is seen is what the data holds. A joiner is kept where it is
 * part of what is drawn: inside an emoji, or inside a word of a script that is spelled with it.
 */
// eslint-disable-next-line no-control-regex
const ESCAPED = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\p{Cf}]/u;

/**
 * An emoji made of several joined by U+200D (👩🏽‍🏫), or a subdivision flag spelled in tags (the
 * flag of Scotland): drawn as one picture, so its joiners and tags are part of what is seen.
 */
const PICTURE = /\p{Extended_Pictographic}(?:\p{Emoji_Modifier}|\uFE0F)?/u.source;
const TAG_FLAG = /\u{1F3F4}[\u{E0020}-\u{E007E}]+\u{E007F}/u.source;
const SHOWN = new RegExp(`(${PICTURE}(?:\\u200D${PICTURE})+|${TAG_FLAG})|${ESCAPED.source}`, 'gu');

/** A letter of a script whose words are written with joiners: not Latin, Greek or Cyrillic. */
const JOINED_LETTER = /\p{L}/u;
const ALPHABET = /[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}]/u;
const joinable = (c: string | undefined) => c !== undefined && JOINED_LETTER.test(c) && !ALPHABET.test(c);

/**
 * A zero-width joiner or non-joiner between two letters of a script that spells with them (a
 * Persian word's ZWNJ, a Devanagari half form's ZWJ) is part of how the word is written.
 */
function spells(text: string, at: number): boolean {
  const before = /(\p{L})\p{M}*$/u.exec(text.slice(Math.max(0, at - 8), at))?.[1];
  const after = /^\p{L}/u.exec(text.slice(at + 1, at + 3))?.[0];
  return joinable(before) && joinable(after);
}

/**
 * Text for one line of a terminal, as a table's cells show it: tabs and line breaks become spaces,
 * and any other character that a terminal would act on or that would reorder or hide text is shown
 * as its escape (`\u001b`, `\u202e`). Format characters are escaped only here: JSON and the other
 * formats carry them as they are (their control characters are escaped on a terminal, src/io/streams.ts).
 */
export function oneLine(text: string): string {
  if (PRINTABLE_ASCII.test(text)) return text;
  return text.replace(SPACED, ' ').replace(SHOWN, (c: string, emoji: string | undefined, at: number, whole: string) => {
    if (emoji !== undefined) return emoji;
    return (c === '\u200c' || c === '\u200d') && spells(whole, at) ? c : escapeOf(c);
  });
}
