// Control characters: what a name or free text may hold, and how text quoted to a terminal shows
// them. One definition, read by the mock's decoder (what a request may write), the CSV importer
// (what a file may send) and the output layer (what a terminal is shown).
//
// C0 (U+0000–U+001F), DEL (U+007F) and C1 (U+0080–U+009F) are all control characters: C1 holds
// one-byte forms of the terminal's own introducers (U+009B is CSI, U+009D OSC), and U+0085 is a
// line break to some readers, so none of them belongs in a name, and of them all free text keeps
// only its tabs and line breaks.
/* eslint-disable no-control-regex */

/** A name, an identifier, a login, a number: one line of text, so no control character at all. */
export const NAME_CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** Free text (messages, bodies, descriptions, comments): tabs and line breaks (LF, CR), nothing else. */
export const TEXT_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/** Every control character, C0, DEL and C1, for replacing them all. */
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/g;

/** `U+0085` */
export function codePoint(c: string): string {
  return `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** `\u0085`, as JSON and JavaScript write the character; `\u{e0001}` beyond the first plane. */
export function escapeOf(c: string): string {
  const code = c.codePointAt(0)!;
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * Text shown on a terminal with each control character written as its escape (`\u001b`, `\u0085`),
 * except those in `keep` (a format's own line breaks): visible, and never acted on.
 */
export function showControls(text: string, keep = ''): string {
  return text.replace(CONTROL_CHARACTERS, (c) => (keep.includes(c) ? c : escapeOf(c)));
}
