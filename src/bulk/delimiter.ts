// The separator a CSV file was written with, read off its header line. Apart from csv-input.ts so
// that what only needs the separator (the MCP server mapping pseudonyms in a file) loads no parser.

/** A separator lms reads: `,`, `;` or a tab. */
export type Delimiter = ',' | ';' | '\t';

/** How far into a file its header is looked for: the largest field lms reads. */
const HEADER_BYTES = 1024 * 1024;

/**
 * The separator a spreadsheet wrote the file with, read off its header line: a comma, or where the
 * header has none, the `;` of a European locale's CSV or the tab of "Unicode Text" / TSV. A header
 * of one column is read with commas, as ever.
 */
export function delimiterOf(bytes: Uint8Array): Delimiter {
  const counts = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  for (let i = 0; i < bytes.length && i < HEADER_BYTES; i++) {
    const c = bytes[i];
    if (c === 0x22) quoted = !quoted;
    else if (!quoted && (c === 0x0a || c === 0x0d)) break;
    else if (!quoted && c === 0x2c) counts[',']++;
    else if (!quoted && c === 0x3b) counts[';']++;
    else if (!quoted && c === 0x09) counts['\t']++;
  }
  if (counts[','] > 0) return ',';
  if (counts[';'] > 0) return counts[';'] >= counts['\t'] ? ';' : '\t';
  return counts['\t'] > 0 ? '\t' : ',';
}
