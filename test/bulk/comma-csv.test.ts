// A file in a spreadsheet's dialect, rewritten as Canvas's SIS import reads CSV (UTF-8, commas): the
// same cells, quoted wherever Ruby's CSV would otherwise refuse them.
import { describe, expect, it } from 'vitest';
import { asCommaCsv, type CsvDialect } from '../../src/bulk/csv-input.js';

const dialect = (delimiter: CsvDialect['delimiter'], eol: CsvDialect['eol']): CsvDialect => ({
  delimiter,
  eol,
  bom: false,
  encoding: 'utf-8',
});

describe('asCommaCsv', () => {
  it.each([
    [
      'an LF in a cell of a CRLF file',
      'user_id;full_name\r\nu1;"Ann\nLee"\r\n',
      dialect(';', '\r\n'),
      'user_id,full_name\r\n' + 'u1,"Ann\nLee"\r\n',
    ],
    [
      'a CR in a cell of an LF file',
      'user_id\tfull_name\nu1\t"Ann\rLee"\n',
      dialect('\t', '\n'),
      'user_id,full_name\n' + 'u1,"Ann\rLee"\n',
    ],
    ['a comma and a quote in a cell', 'a;b\n"x, y";"say ""hi"""\n', dialect(';', '\n'), 'a,b\n"x, y","say ""hi"""\n'],
  ])('quotes %s', async (_, input, d, expected) => {
    expect((await asCommaCsv(Buffer.from(input), d)).toString('utf8')).toBe(expected);
  });
});
