// Spreadsheets run a cell that starts with = + - @ (and some a TAB or CR before one) as a formula:
// a user named `=cmd|' /C calc'!A0` in an export runs a command on the machine of whoever opens it.
// Every CSV lms writes puts a `'` before such a cell (OWASP's CSV-injection advice), and every CSV
// it reads takes that `'` off again, so an export imported back unedited changes nothing.

/** What a spreadsheet may read as the start of a formula. */
const TRIGGER = /^'*[=+\-@\t\r]/;

/**
 * A plain decimal number, signed or not (`-5`, `+3.5`, `1e3`): a spreadsheet reads it as that number
 * and runs nothing, and a grade of -5 must stay a number a gradebook can sum, so it is left as it is.
 */
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * The cell as written: a `'` before text a spreadsheet would run. Text that already starts with
 * `'`s before such a character gets one more, so that reading it back (unguardCell) gives it as it was.
 */
export function guardCell(text: string): string {
  return TRIGGER.test(text) && !NUMBER.test(text) ? `'${text}` : text;
}

/** A cell as read: the `'` guardCell added, taken off again; any other cell as it is. */
export function unguardCell(text: string): string {
  return text.startsWith("'") && TRIGGER.test(text) ? text.slice(1) : text;
}
