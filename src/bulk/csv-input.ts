// Reads a CSV with a header and checks every row before anything is sent: a problem anywhere means
// a line-numbered message, and nothing goes to the server.
//
// The input is checked as it arrives, not once it is all in memory: an endless field (/dev/zero,
// a binary file, a runaway generator on stdin) or an input past MAX_INPUT_BYTES is refused within
// the first few chunks past the limit, and the rest is never read.
import { parse } from 'csv-parse/sync';
import { closest } from '../closest.js';
import { codePoint, NAME_CONTROL, showControls, TEXT_CONTROL } from '../controls.js';
import { UsageError } from '../errors.js';
import { openInput, sourceName, whyUnreadable, type InputSource } from '../io/bounded.js';
import { unguardCell } from '../output/csv-guard.js';
import { moreLine, ProblemList } from './problems.js';
// The separator's sniffing (delimiterOf, and the Delimiter type) lives in delimiter.ts, with no CSV
// parser behind it, for the MCP server's pseudonyms; import it from there.
import { delimiterOf, type Delimiter } from './delimiter.js';
export type { Delimiter } from './delimiter.js';

export interface CsvRow extends Place {
  values: Record<string, string>;
}

/**
 * Where a row (or a problem) is in its input: a CSV's line; a YAML or JSON document's line and the
 * row's place in the document (`groups[0].outcomes[3]`), which tells rows apart where lines cannot
 * (a document on one line, as `jq -c` and JSON.stringify write it).
 */
export interface Place {
  /** Line of the input where the record starts (1-based, the header is line 1). */
  line: number;
  /** Its place in a YAML or JSON document; none in a CSV. */
  at?: string;
  /** The document is on one line, so the line tells nothing: messages name the place alone. */
  oneLine?: boolean;
}

export interface Problem extends Place {
  message: string;
}

/** What tells one row of an input from another: its place in a document, else its line. */
export const rowRef = (p: Place): string => p.at ?? String(p.line);

/**
 * A row as a message names it: `roster.csv:3`; `tree.yaml:14 groups[0].outcomes[3]`; a document
 * on one line, where every row is on line 1, by its place alone: `tree.json: groups[0].outcomes[3]`.
 */
export function placeOf(source: string, p: Place): string {
  if (p.at === undefined) return `${source}:${p.line}`;
  return p.oneLine ? `${source}: ${p.at}` : `${source}:${p.line} ${p.at}`;
}

/** Another row, named within a message about this one: `line 3`; in a document on one line, `groups[0].outcomes[1]`. */
export const placeWords = (p: Place): string => (p.at !== undefined && p.oneLine ? p.at : `line ${p.line}`);

/** A place alone, of a row or problem that has more: what results and messages carry. */
export const placeFields = ({ line, at, oneLine }: Place): Place => ({
  line,
  ...(at !== undefined ? { at } : {}),
  ...(oneLine ? { oneLine } : {}),
});

/** Whether a text is on one line (a final line break aside), as programs write JSON. */
export const isOneLine = (text: string): boolean => !/[\r\n]/.test(text.replace(/[\r\n]+$/, ''));

export interface Schema {
  /** Columns the header may use. The failed-rows file's ERROR_COLUMN is accepted too, and ignored. */
  columns: readonly string[];
  required: readonly string[];
  /** Per-row checks; return messages. */
  check?: (values: Record<string, string>) => string[];
  /** Columns whose values must be unique in the file (case-insensitive). */
  unique?: readonly string[];
  /**
   * Columns of prose (a comment, a description), which may hold tabs and line breaks; every other
   * column is a name, an id, a login or a number, where no control character belongs. FREE_TEXT by
   * default.
   */
  freeText?: readonly string[];
}

/**
 * The column a failed-rows file (failed.ts) adds: why the row failed. Every bulk import accepts it
 * and ignores its values, so the file the tool hands back can be fixed and imported as it is.
 */
export const ERROR_COLUMN = 'error';

/** Columns that are prose wherever they appear, unless a schema says otherwise. */
const FREE_TEXT: readonly string[] = ['comment', 'description', 'message', 'body'];

/** The largest field (and record, and line of YAML) accepted; real exports stay far below it. */
export const MAX_FIELD_BYTES = 1024 * 1024;

/**
 * The most an import reads. A roster of a million users is about 65 MB; checking and holding the
 * rows takes some 30 times the file's size, so a larger file would exhaust the heap rather than be
 * imported.
 */
export const MAX_INPUT_BYTES = 64 * 1024 * 1024;

/** The deepest nesting of a JSON or YAML input; an outcomes tree needs a dozen levels. */
export const MAX_DEPTH = 64;

const MiB = (n: number) => `${n / 1024 / 1024} MiB`;

export const TOO_DEEP = `nested more than ${MAX_DEPTH} levels deep`;

/**
 * How an input is laid out, which decides what "too long" means while it streams: a CSV record,
 * a line (YAML), or a quoted or bare value and the nesting of brackets (JSON, YAML flow style).
 */
export type InputShape = 'csv' | 'lines' | 'nested';

/** The shape a file's name promises; undefined when its first significant byte must decide. */
export function shapeOfName(name: string): InputShape | undefined {
  if (/\.json$/i.test(name)) return 'nested';
  if (/\.ya?ml$/i.test(name)) return 'lines';
  if (/\.csv$/i.test(name)) return 'csv';
  return undefined;
}

const BOM = [0xef, 0xbb, 0xbf];

/** The start of every message about an input that is not UTF-8; readInput adds the command for the file. */
const NOT_UTF8 = 'not valid UTF-8';

/** An 8-bit encoding a byte that is not UTF-8 suggests, as iconv names it, and as people call it. */
interface EncodingGuess {
  iconv: string;
  said: string;
}

/**
 * The encoding a file that is not UTF-8 most likely is, from the bytes around the first that is not:
 * spreadsheets on Windows write Windows-1252, whose 0x80-0x9F are letters and punctuation (curly
 * quotes, the euro sign, œ, š); a file with none of those reads the same as ISO-8859-1 (Latin-1).
 */
function encodingGuess(bytes: Uint8Array, at: number): EncodingGuess {
  const from = Math.max(0, at - 4096);
  const to = Math.min(bytes.length, at + 65536);
  for (let i = from; i < to; i++) {
    const b = bytes[i];
    // The five bytes Windows-1252 leaves undefined are no sign of it.
    if (b >= 0x80 && b <= 0x9f && b !== 0x81 && b !== 0x8d && b !== 0x8f && b !== 0x90 && b !== 0x9d)
      return { iconv: 'WINDOWS-1252', said: 'Windows-1252' };
  }
  return { iconv: 'ISO-8859-1', said: 'Latin-1 (ISO-8859-1)' };
}

function notUtf8Message(guess: EncodingGuess | undefined): string {
  return guess
    ? `${NOT_UTF8}: it looks like ${guess.said}; convert it to UTF-8 with iconv -f ${guess.iconv} -t UTF-8`
    : `${NOT_UTF8} (save the file as UTF-8)`;
}

/** A shell word: the name as it is when it needs no quotes, else in single quotes. */
const shellWord = (s: string) => (/^[\w./@%+=:,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** The name of the converted copy the message suggests: `grades.csv` → `grades.utf8.csv`. */
const utf8Name = (name: string) => (/\.[^./]+$/.test(name) ? name.replace(/(\.[^./]+)$/, '.utf8$1') : `${name}.utf8`);

/** A not-UTF-8 problem with the whole command for the file: `iconv -f X -t UTF-8 grades.csv > grades.utf8.csv`. */
export function withConversion(problem: Problem, name: string, stdin: boolean): Problem {
  if (!problem.message.startsWith(`${NOT_UTF8}:`)) return problem;
  const command = stdin ? '' : ` ${shellWord(name)} > ${shellWord(utf8Name(name))}`;
  return { ...problem, message: `${problem.message}${command}` };
}

/** The encodings lms reads: UTF-8, with or without a byte-order mark, and UTF-16 with one. */
export type InputEncoding = 'utf-8' | 'utf-16le' | 'utf-16be';

/** The encoding a byte-order mark at the start says: UTF-16 LE or BE; else undefined (UTF-8 is read as ever). */
function utf16Of(head: Uint8Array): 'utf-16le' | 'utf-16be' | undefined {
  if (head.length >= 2 && head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head.length >= 2 && head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  return undefined;
}

/**
 * UTF-16 text (its byte-order mark first) as UTF-8 with a byte-order mark; undefined when it is not well-formed UTF-16.
 */
function fromUtf16(bytes: Buffer, encoding: 'utf-16le' | 'utf-16be'): Buffer | undefined {
  try {
    const text = new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(bytes.subarray(2));
    return Buffer.concat([Buffer.from(BOM), Buffer.from(text, 'utf8')]);
  } catch {
    return undefined;
  }
}

/** Text as bytes of an encoding: UTF-16 with its byte-order mark, UTF-8 with one when `bom`. */
export function encodeText(text: string, encoding: InputEncoding, bom: boolean): Buffer {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (encoding === 'utf-8') return Buffer.from(bom ? `\uFEFF${body}` : body, 'utf8');
  const le = Buffer.from(`\uFEFF${body}`, 'utf16le');
  return encoding === 'utf-16le' ? le : le.swap16();
}

const enum Csv {
  FieldStart,
  Bare,
  Quoted,
  /** A quote inside a quoted field: an escaped quote if another follows, else the field's end. */
  QuoteInQuoted,
}

const enum LinePart {
  Indent,
  /** Just after a `-` of the indentation: a space or line break makes it a sequence entry. */
  Dash,
  Rest,
  Comment,
}

const enum Nested {
  Token,
  Double,
  Escape,
  Single,
  /** A quote inside a single-quoted scalar: '' is an escaped quote, anything else the end. */
  QuoteInSingle,
  Comment,
}

export interface ScanOptions {
  /**
   * The most values (maps, lists and scalars: the nodes a YAML library builds, each costing it
   * about a kilobyte) a 'nested' or 'lines' input may hold. 'nested' counts each bracket and each
   * scalar; 'lines', which does not parse, each line, `- `, bracket, comma and key's colon (see
   * lineValues). None by default.
   */
  maxValues?: number;
  /** What to do instead, said when maxValues is passed (an apply file's advice by default). */
  tooManyAdvice?: string;
}

/**
 * The most values (maps, lists, scalars) read from one YAML or JSON file: apply's course files and
 * outcome trees. The YAML library holds about 1.4 KB a value, so it is values, not bytes, that cost:
 * 3 MB of `{},` is a million of them. A file of this many (courses of 3,000 enrollments and 40
 * assignments) is read and checked in about 2.5 s at under 300 MB (docs/performance.md).
 */
export const MAX_FILE_VALUES = 100_000;

/**
 * Checks an input chunk by chunk, as it arrives: UTF-8 (to the line), and no field, record, line or
 * value over MAX_FIELD_BYTES, no nesting deeper than MAX_DEPTH, and (if asked) no more values than
 * maxValues. The first problem stops it. It counts bytes where the parsers count characters, so it
 * refuses first and names the line; a lone CR, which it takes for a line break, is the parser's
 * limit to catch.
 */
export class InputScanner {
  /** Bytes seen so far. */
  bytes = 0;
  private shape: InputShape | undefined;
  private line = 1;
  // UTF-8 (Unicode's table of well-formed byte sequences): continuation bytes still expected, and
  // the range the next one must fall in.
  private need = 0;
  private lo = 0x80;
  private hi = 0xbf;
  private utf8Line = 1;
  /** Bytes since the last line break, before the shape is known and for 'lines'. */
  private lineBytes = 0;
  // CSV
  private csv = Csv.FieldStart;
  private field = 0;
  private record = 0;
  private fieldLine = 1;
  private recordLine = 1;
  // Nested
  private nested = Nested.Token;
  private depth = 0;
  private token = 0;
  private tokenLine = 1;
  private atTokenStart = true;
  private afterSpace = true;
  /**
   * After a bracket, comma or colon (white space aside), where a quote opens a string; elsewhere
   * (`a "b, 1]` in YAML's flow style) it is part of a bare value, as the YAML library reads it.
   */
  private expectValue = true;
  // Values, counted for 'nested' and 'lines'
  private values = 0;
  private readonly maxValues: number;
  private readonly tooManyAdvice: string;
  /** 'lines': where on its line (indentation, then `- `, then the rest; a comment ends counting). */
  private linePart = LinePart.Indent;
  private lastByte = 0x0a;

  constructor(shape?: InputShape, options: ScanOptions = {}) {
    this.shape = shape;
    this.maxValues = options.maxValues ?? Infinity;
    this.tooManyAdvice =
      options.tooManyAdvice ??
      'split it into several files (a folder of files is read as one), or give long rosters as `- { csv: roster.csv }`';
    // Block YAML's root map has no mark of its own.
    if (shape === 'lines') this.values = 1;
  }

  /** The first problem in this chunk, if any; nothing should be fed after one. */
  push(chunk: Uint8Array): Problem | undefined {
    const start = this.bytes;
    this.bytes += chunk.length;
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i];
      if (this.need === 0) {
        if (b >= 0x80) {
          if (b >= 0xc2 && b <= 0xdf) this.expect(1, 0x80, 0xbf);
          else if (b === 0xe0) this.expect(2, 0xa0, 0xbf);
          else if (b === 0xed) this.expect(2, 0x80, 0x9f);
          else if (b >= 0xe1 && b <= 0xef) this.expect(2, 0x80, 0xbf);
          else if (b === 0xf0) this.expect(3, 0x90, 0xbf);
          else if (b >= 0xf1 && b <= 0xf3) this.expect(3, 0x80, 0xbf);
          else if (b === 0xf4) this.expect(3, 0x80, 0x8f);
          else return this.notUtf8(this.line, chunk, i);
        }
      } else if (b < this.lo || b > this.hi) {
        return this.notUtf8(this.utf8Line, chunk, i);
      } else {
        this.need--;
        this.lo = 0x80;
        this.hi = 0xbf;
      }
      const problem =
        this.shape === undefined
          ? this.undecided(b, start + i)
          : this.shape === 'csv'
            ? this.csvByte(b)
            : this.shape === 'lines'
              ? this.lineByte(b)
              : this.nestedByte(b);
      if (problem) return problem;
      if (b === 0x0a) this.line++;
    }
    return undefined;
  }

  /** The end of the input: a character cut off in the middle is not UTF-8. */
  end(): Problem | undefined {
    return this.need > 0 ? this.notUtf8(this.utf8Line) : undefined;
  }

  private expect(need: number, lo: number, hi: number) {
    this.need = need;
    this.lo = lo;
    this.hi = hi;
    this.utf8Line = this.line;
  }

  private notUtf8(line: number, chunk?: Uint8Array, at = 0): Problem {
    return { line, message: notUtf8Message(chunk ? encodingGuess(chunk, at) : undefined) };
  }

  private tooLong(line: number, what: string): Problem {
    return { line, message: `${what} than ${MiB(MAX_FIELD_BYTES)}` };
  }

  /** Before the first byte that is not a byte-order mark or white space. */
  private undecided(b: number, offset: number): Problem | undefined {
    if (offset < 3 && b === BOM[offset]) return undefined;
    if (b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d) return this.lineByte(b);
    this.shape = b === 0x7b || b === 0x5b ? 'nested' : 'csv';
    if (this.shape === 'nested') return this.nestedByte(b);
    if (this.lineBytes > 0) {
      // The white space before it on its line is the first field's.
      this.field = this.lineBytes;
      this.fieldLine = this.recordLine = this.line;
      this.csv = Csv.Bare;
    }
    return this.csvByte(b);
  }

  private lineByte(b: number): Problem | undefined {
    if (b === 0x0a || b === 0x0d) this.lineBytes = 0;
    else if (++this.lineBytes > MAX_FIELD_BYTES) return this.tooLong(this.line, 'a line is longer');
    return this.shape === 'lines' ? this.lineValues(b) : undefined;
  }

  // Block YAML, counted without parsing it. Quotes and comments after a value are not followed (a
  // guess at them could hide values from the count), so every line, `- `, bracket, comma and
  // key's colon counts, wherever it is; a block scalar's every line counts. That is more than the
  // values an ordinary file holds, and never fewer than two thirds of them (flow lists of
  // `key: value` pairs, three values for a comma and a colon).
  private lineValues(b: number): Problem | undefined {
    const last = this.lastByte;
    this.lastByte = b;
    const space = b === 0x20 || b === 0x09;
    const end = b === 0x0a || b === 0x0d;
    // A key's colon is followed by white space, a line break or a bracket, or follows a quoted key.
    const colon =
      (last === 0x3a && (space || end || b === 0x2c || b === 0x5b || b === 0x5d || b === 0x7b || b === 0x7d)) ||
      (b === 0x3a && (last === 0x22 || last === 0x27));
    if (end) {
      const entry = this.linePart === LinePart.Dash;
      const counted = this.linePart !== LinePart.Comment;
      this.linePart = LinePart.Indent;
      return counted && (entry || colon) ? this.oneMore() : undefined;
    }
    switch (this.linePart) {
      case LinePart.Comment:
        return undefined;
      case LinePart.Indent:
        if (space) return undefined;
        // A line that is all comment; inside a quoted or block scalar, text without values.
        if (b === 0x23) {
          this.linePart = LinePart.Comment;
          return undefined;
        }
        if (b === 0x2d) {
          this.linePart = LinePart.Dash;
          return undefined;
        }
        // The line holds something: a value, or a key and what follows it.
        this.linePart = LinePart.Rest;
        return this.oneMore() ?? this.rest(b, colon);
      case LinePart.Dash:
        // A sequence entry (what follows it on the line counts as a line's would), or a value
        // such as -1 or ---.
        if (space) {
          this.linePart = LinePart.Indent;
          return this.oneMore();
        }
        this.linePart = LinePart.Rest;
        return this.oneMore() ?? this.rest(b, colon);
      default:
        return this.rest(b, colon);
    }
  }

  private rest(b: number, colon: boolean): Problem | undefined {
    return colon || b === 0x5b || b === 0x7b || b === 0x2c ? this.oneMore() : undefined;
  }

  private oneMore(): Problem | undefined {
    if (++this.values <= this.maxValues) return undefined;
    return {
      line: this.line,
      message:
        `the file holds more than ${this.maxValues.toLocaleString('en-US')} values, the most read from one ` +
        `file; ${this.tooManyAdvice}`,
    };
  }

  // As csv-parse reads: a quote opens a field only at its start; a record ends at a line break
  // outside quotes. Counted are the fields' contents, as its max_record_size counts them.
  private csvByte(b: number): Problem | undefined {
    switch (this.csv) {
      case Csv.QuoteInQuoted:
        if (b === 0x22) {
          this.csv = Csv.Quoted;
          return this.grow();
        }
        this.csv = Csv.Bare;
        return this.csvBare(b);
      case Csv.Quoted:
        if (b === 0x22) {
          this.csv = Csv.QuoteInQuoted;
          return undefined;
        }
        return this.grow();
      case Csv.FieldStart:
        this.fieldLine = this.line;
        if (this.record === 0) this.recordLine = this.line;
        if (b === 0x22) {
          this.csv = Csv.Quoted;
          return undefined;
        }
        this.csv = Csv.Bare;
        return this.csvBare(b);
      default:
        return this.csvBare(b);
    }
  }

  private csvBare(b: number): Problem | undefined {
    if (b === 0x2c) {
      this.record += this.field;
      this.field = 0;
      this.csv = Csv.FieldStart;
    } else if (b === 0x0a || b === 0x0d) {
      this.record = 0;
      this.field = 0;
      this.csv = Csv.FieldStart;
    } else return this.grow();
    return undefined;
  }

  private grow(): Problem | undefined {
    if (++this.field > MAX_FIELD_BYTES) return this.tooLong(this.fieldLine, 'a field is larger');
    if (this.record + this.field > MAX_FIELD_BYTES) return this.tooLong(this.recordLine, 'a record is larger');
    return undefined;
  }

  // JSON, and YAML's flow style: strings in double quotes (with backslash escapes) or single
  // quotes (with '' for a quote), comments from a # after white space, brackets for nesting.
  private nestedByte(b: number): Problem | undefined {
    switch (this.nested) {
      case Nested.Escape:
        this.nested = Nested.Double;
        return this.value();
      case Nested.Double:
        if (b === 0x22) {
          this.nested = Nested.Token;
          this.afterSpace = false;
          return undefined;
        }
        if (b === 0x5c) this.nested = Nested.Escape;
        return this.value();
      case Nested.QuoteInSingle:
        if (b === 0x27) {
          this.nested = Nested.Single;
          return this.value();
        }
        this.nested = Nested.Token;
        break;
      case Nested.Single:
        if (b !== 0x27) return this.value();
        this.nested = Nested.QuoteInSingle;
        this.afterSpace = false;
        return undefined;
      case Nested.Comment:
        if (b === 0x0a || b === 0x0d) this.nested = Nested.Token;
        else return undefined;
        break;
    }
    const space = b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;
    const afterSpace = this.afterSpace;
    this.afterSpace = space;
    if (space || b === 0x2c || b === 0x3a) {
      this.atTokenStart = true;
      if (!space) this.expectValue = true;
      return undefined;
    }
    if (b === 0x5b || b === 0x7b) {
      this.atTokenStart = true;
      this.expectValue = true;
      if (++this.depth > MAX_DEPTH) return { line: this.line, message: TOO_DEEP };
      return this.oneMore();
    }
    if (b === 0x5d || b === 0x7d) {
      this.atTokenStart = true;
      if (this.depth > 0) this.depth--;
      return undefined;
    }
    if (b === 0x23 && afterSpace) {
      this.nested = Nested.Comment;
      return undefined;
    }
    if (this.atTokenStart) {
      this.atTokenStart = false;
      this.token = 0;
      this.tokenLine = this.line;
      const problem = this.oneMore();
      if (problem) return problem;
      const quoted = this.expectValue;
      this.expectValue = false;
      if (quoted && (b === 0x22 || b === 0x27)) {
        this.nested = b === 0x22 ? Nested.Double : Nested.Single;
        return undefined;
      }
    }
    return this.value();
  }

  private value(): Problem | undefined {
    return ++this.token > MAX_FIELD_BYTES ? this.tooLong(this.tokenLine, 'a value is larger') : undefined;
  }
}

/** The first problem of a whole input (see InputScanner), or undefined. */
export function scanInput(bytes: Uint8Array, shape?: InputShape, options: ScanOptions = {}): Problem | undefined {
  const scanner = new InputScanner(shape, options);
  return scanner.push(bytes) ?? scanner.end();
}

/** The message for an input refused for one problem, as a bulk command words every problem. */
/** An input refused for one problem of its own, which a caller that lists problems lists with the rest. */
export class InputProblemError extends UsageError {
  constructor(
    readonly file: string,
    readonly problem: Problem,
  ) {
    super(`${file} has 1 problem; nothing was sent:\n${formatProblems([problem], file)}`);
  }
}

function inputProblem(name: string, problem: Problem): UsageError {
  return new InputProblemError(name, problem);
}

/**
 * An import's input, a file, `-` for stdin or the text a surface handed over (any file: a FIFO, /dev/stdin and the like
 * are read as the streams they are), checked as it streams by an InputScanner of the given shape (else of the
 * shape its name or its first byte says) and refused past MAX_INPUT_BYTES; a regular file that large
 * is refused from its size, unread. `label` names the input in "cannot read" messages.
 */
export async function readInput(
  source: InputSource,
  stdin: NodeJS.ReadableStream,
  options: { shape?: InputShape; label?: string } = {},
): Promise<{ bytes: Buffer; name: string; encoding: InputEncoding }> {
  const path = sourceName(source);
  const name = source === '-' ? 'stdin' : path;
  const unreadable = (e: unknown) => new UsageError(`cannot read ${options.label ?? path}: ${whyUnreadable(e)}`);
  const tooLarge = () =>
    new UsageError(
      `${name} is larger than ${MiB(MAX_INPUT_BYTES)}, the most lms reads from one input; split it into smaller ` +
        'files. Nothing was sent.',
    );
  const refuse = (problem: Problem) => inputProblem(name, withConversion(problem, name, source === '-'));
  const stream = await openInput(source, stdin, MAX_INPUT_BYTES, { unreadable, tooLarge });
  const scanner = new InputScanner(options.shape ?? shapeOfName(name));
  const chunks: Buffer[] = [];
  let size = 0;
  // UTF-16 (a byte-order mark says so: Excel's "Unicode Text") is read whole, then checked as the UTF-8 it becomes.
  let utf16: 'utf-16le' | 'utf-16be' | undefined;
  let head: Buffer | undefined;
  try {
    // Leaving the loop (a problem, the limit) destroys the stream: nothing more is read.
    for await (const chunk of stream) {
      let bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      if (size + bytes.length > MAX_INPUT_BYTES) throw tooLarge();
      size += bytes.length;
      if (size < 2 && !utf16 && chunks.length === 0) {
        // Too short to tell yet: held until the next byte.
        head = head ? Buffer.concat([head, bytes]) : bytes;
        continue;
      }
      if (head) {
        bytes = Buffer.concat([head, bytes]);
        head = undefined;
      }
      if (chunks.length === 0 && !utf16) utf16 = utf16Of(bytes);
      if (!utf16) {
        const problem = scanner.push(bytes);
        if (problem) throw refuse(problem);
      }
      chunks.push(bytes);
    }
  } catch (e) {
    throw e instanceof UsageError ? e : unreadable(e);
  }
  if (head) {
    const problem = scanner.push(head);
    if (problem) throw refuse(problem);
    chunks.push(head);
  }
  if (utf16) {
    const bytes = fromUtf16(Buffer.concat(chunks), utf16);
    if (!bytes) throw inputProblem(name, { line: 1, message: notUtf16Message(utf16) });
    const problem = scanInput(bytes, options.shape ?? shapeOfName(name));
    if (problem) throw refuse(problem);
    return { bytes, name, encoding: utf16 };
  }
  const problem = scanner.end();
  if (problem) throw refuse(problem);
  return { bytes: Buffer.concat(chunks), name, encoding: 'utf-8' };
}

const notUtf16Message = (utf16: 'utf-16le' | 'utf-16be') =>
  `not valid ${utf16 === 'utf-16le' ? 'UTF-16 LE' : 'UTF-16 BE'}, as its byte-order mark says (save the file as UTF-8)`;

/**
 * A CSV already in memory (a member of a zip) as readInput hands a file over: UTF-16 with its
 * byte-order mark made UTF-8, anything else as it is (readCsvRecords finds what is not UTF-8).
 */
export function decodeCsv(bytes: Uint8Array): { bytes: Buffer; encoding: InputEncoding } | { problem: Problem } {
  const utf16 = utf16Of(bytes);
  if (!utf16) return { bytes: Buffer.from(bytes), encoding: 'utf-8' };
  const decoded = fromUtf16(Buffer.from(bytes), utf16);
  return decoded ? { bytes: decoded, encoding: utf16 } : { problem: { line: 1, message: notUtf16Message(utf16) } };
}

/**
 * A CSV of another dialect written again as UTF-8 with commas, the one dialect some readers take
 * (Canvas's SIS import): every cell as it was written (no guard taken off, nothing trimmed), one
 * record a line with the file's line ending, blank lines kept so that lines keep their numbers.
 */
export async function asCommaCsv(bytes: Buffer, dialect: CsvDialect): Promise<Buffer> {
  const { stringify } = await import('csv-stringify/sync');
  const records = parse(bytes, {
    bom: true,
    delimiter: dialect.delimiter,
    relax_column_count: true,
    max_record_size: MAX_FIELD_BYTES,
  }) as string[][];
  // A line break inside a cell is quoted whichever the file's line ends are: Canvas's reader refuses
  // an unquoted one, and csv-stringify quotes only the record delimiter it writes.
  return Buffer.from(
    stringify(records, { record_delimiter: dialect.eol === '\r\n' ? 'windows' : 'unix', quoted_match: /[\r\n]/ }),
    'utf8',
  );
}

export interface Parsed {
  rows: CsvRow[];
  problems: Problem[];
  /** The header's columns as given (normalised, in file order), ERROR_COLUMN left out. */
  header: string[];
}

/** A record of a CSV file and the line it starts on (a quoted field may span several). */
export interface CsvRecord {
  line: number;
  cells: string[];
}

/**
 * The header of a CSV file as its cells are written (the guard a spreadsheet export puts before text
 * taken off, not trimmed or lower-cased), to tell its layout before the rows are read; empty when it
 * cannot be read.
 */
export function csvHeader(bytes: Buffer, delimiter?: Delimiter): string[] {
  try {
    const rows = parse(bytes, {
      bom: true,
      delimiter: delimiter ?? delimiterOf(bytes),
      to_line: 1,
      relax_column_count: true,
    }) as string[][];
    return (rows[0] ?? []).map((h) => unguardCell(h));
  } catch {
    return [];
  }
}

/** The separators a `--delimiter` flag takes: the characters themselves, or their names. */
const DELIMITER_NAMES: Readonly<Record<string, Delimiter>> = {
  ',': ',',
  comma: ',',
  ';': ';',
  semicolon: ';',
  '\t': '\t',
  '\\t': '\t',
  tab: '\t',
};

/** The separator a `--delimiter` value names; a usage error for any other. */
export function delimiterFlag(value: string | undefined): Delimiter | undefined {
  if (value === undefined) return undefined;
  const found = DELIMITER_NAMES[value.toLowerCase()];
  if (!found) throw new UsageError(`--delimiter takes , ; or tab (or comma, semicolon), not ${JSON.stringify(value)}`);
  return found;
}

/**
 * How a CSV file was written, so the file lms writes back from it (failed rows) is written alike:
 * its separator, byte-order mark, line ending and encoding.
 */
export interface CsvDialect {
  delimiter: Delimiter;
  bom: boolean;
  eol: '\n' | '\r\n';
  encoding: InputEncoding;
}

/**
 * The dialect of a CSV file as readInput handed it over (UTF-8, UTF-16 already converted): the
 * separator sniffed from the header unless one is given, the byte-order mark, the header's line ending.
 */
export function dialectOf(bytes: Buffer, given: { delimiter?: Delimiter; encoding?: InputEncoding } = {}): CsvDialect {
  const encoding = given.encoding ?? 'utf-8';
  const bom = bytes[0] === BOM[0] && bytes[1] === BOM[1] && bytes[2] === BOM[2];
  let eol: '\n' | '\r\n' = '\n';
  let quoted = false;
  for (let i = 0; i < bytes.length && i < MAX_FIELD_BYTES; i++) {
    const c = bytes[i];
    if (c === 0x22) quoted = !quoted;
    else if (!quoted && (c === 0x0a || c === 0x0d)) {
      eol = c === 0x0d && bytes[i + 1] === 0x0a ? '\r\n' : '\n';
      break;
    }
  }
  // A UTF-16 file always had its byte-order mark (it is how lms knew it); the UTF-8 it became has one too.
  return { delimiter: given.delimiter ?? delimiterOf(bytes), bom: bom || encoding !== 'utf-8', eol, encoding };
}

/** A dialect as `-v` and notes say it: `";", CRLF, UTF-8 with a BOM`. */
export function dialectWords(d: CsvDialect): string {
  const encoding =
    d.encoding === 'utf-8'
      ? `UTF-8${d.bom ? ' with a byte-order mark' : ''}`
      : d.encoding === 'utf-16le'
        ? 'UTF-16 LE'
        : 'UTF-16 BE';
  return (
    `fields separated by ${separatorName(d.delimiter)}, lines ending in ${d.eol === '\r\n' ? 'CRLF' : 'LF'}, ` +
    `${encoding}`
  );
}

/** A separator as `-v` names it: `";"`, `a tab`, `","`. */
function separatorName(separator: Delimiter): string {
  return separator === '\t' ? 'a tab' : `"${separator}"`;
}

/**
 * The header (trimmed, lower-cased) and the records of a CSV file, each with the line it starts on;
 * or the one problem that stops the file being read: not UTF-8, not CSV, a field or record over
 * MAX_FIELD_BYTES, empty.
 * `relaxColumnCount` lets a record have more or fewer cells than the header.
 */
export function readCsvRecords(
  bytes: Buffer,
  {
    columns,
    relaxColumnCount = false,
    delimiter,
  }: { columns: readonly string[]; relaxColumnCount?: boolean; delimiter?: Delimiter },
): { header: string[]; records: CsvRecord[] } | { problem: Problem } {
  const problem = scanInput(bytes, 'csv');
  if (problem) return { problem };
  let parsed: { record: string[]; info: { lines: number; bytes: number } }[];
  try {
    // Records of another length are found below, where the header's names can be said too.
    parsed = parse(bytes, {
      bom: true,
      delimiter: delimiter ?? delimiterOf(bytes),
      skip_empty_lines: true,
      relax_column_count: true,
      max_record_size: MAX_FIELD_BYTES,
      info: true,
      trim: false,
    }) as unknown as typeof parsed;
  } catch (err) {
    const e = err as { lines?: number; message: string; code?: string };
    const message =
      e.code === 'CSV_MAX_RECORD_SIZE'
        ? `a record is larger than ${MiB(MAX_FIELD_BYTES)}`
        : e.code === 'CSV_QUOTE_NOT_CLOSED'
          ? 'a quoted field is never closed'
          : e.message.replace(/^Invalid Record Length: /, '').replace(/, got \d+ on line \d+$/, '');
    return { problem: { line: e.lines ?? 1, message } };
  }
  if (parsed.length === 0)
    return {
      problem: {
        line: 1,
        message: `the file is empty; it needs a header${columns.length ? `: ${columns.join(',')}` : ''}`,
      },
    };
  // Every cell without the ' an export puts before text a spreadsheet would run (csv-guard.ts).
  for (const { record } of parsed)
    record.forEach((cell, i) => {
      record[i] = unguardCell(cell);
    });
  const header = parsed[0].record.map((h) => h.trim().toLowerCase());
  const records: CsvRecord[] = [];
  // Lines counted from the bytes, a CRLF as one line break (inside a quoted field too, where the
  // parser counts it as two), and blank lines between records passed over.
  let at = parsed[0].info.bytes;
  let line = lineAfter(bytes, 0, at, 1);
  for (const { record, info } of parsed.slice(1)) {
    let start = at;
    while (start < info.bytes && (bytes[start] === 0x0a || bytes[start] === 0x0d)) start++;
    line = lineAfter(bytes, at, start, line);
    if (!relaxColumnCount && record.length !== header.length) {
      const n = record.length;
      return {
        problem: {
          line,
          message:
            `has ${n} field${n === 1 ? '' : 's'} where the header has ${header.length} (${header.join(', ')}` +
            '); a field with a comma needs quotes',
        },
      };
    }
    records.push({ line, cells: record });
    line = lineAfter(bytes, start, info.bytes, line);
    at = info.bytes;
  }
  return { header, records };
}

/** The line at `to`, counting the line breaks (CRLF, LF or a lone CR, each one) from `from`, on `line`. */
function lineAfter(bytes: Buffer, from: number, to: number, line: number): number {
  let n = line;
  for (let i = from; i < to; i++) {
    if (bytes[i] === 0x0a) n++;
    else if (bytes[i] === 0x0d && bytes[i + 1] !== 0x0a) n++;
  }
  return n;
}

/** A CSV file's rows checked against a schema; its separator sniffed from the header unless `delimiter` is given. */
export function parseCsv(bytes: Buffer, schema: Schema, options: { delimiter?: Delimiter } = {}): Parsed {
  const read = readCsvRecords(bytes, { columns: schema.columns, delimiter: options.delimiter });
  if ('problem' in read) return { rows: [], header: [], problems: [read.problem] };
  const { header, records } = read;
  const ignored = schema.columns.includes(ERROR_COLUMN) ? [] : [ERROR_COLUMN];
  const problems: Problem[] = [];
  const unknown = header.filter((h) => !schema.columns.includes(h) && !ignored.includes(h));
  const missing = schema.required.filter((c) => !header.includes(c));
  const unused = schema.columns.filter((c) => !header.includes(c));
  const named = (u: string) => {
    const near = closest(u, unused);
    return near ? `"${u}" (did you mean ${near}?)` : `"${u}"`;
  };
  if (unknown.length)
    problems.push({
      line: 1,
      message:
        `unknown column${unknown.length > 1 ? 's' : ''} ${unknown.map(named).join(', ')}; the header may use ` +
        `${schema.columns.join(', ')}`,
    });
  if (missing.length)
    problems.push({
      line: 1,
      message: `missing required column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`,
    });
  const dupes = header.filter((h, i) => header.indexOf(h) !== i);
  if (dupes.length) problems.push({ line: 1, message: `column ${dupes[0]} appears twice` });
  const kept = header.filter((h) => !ignored.includes(h));
  if (problems.length) return { rows: [], header: kept, problems };

  const rows: CsvRow[] = [];
  const seen = new Map<string, Map<string, number>>((schema.unique ?? []).map((c) => [c, new Map()]));
  for (const { line, cells } of records) {
    const values: Record<string, string> = {};
    header.forEach((h, i) => {
      if (!ignored.includes(h)) values[h] = cells[i]?.trim() ?? '';
    });
    for (const c of schema.required) if (!values[c]) problems.push({ line, message: `${c} is empty` });
    for (const message of controlCharacters(values, schema.freeText ?? FREE_TEXT)) problems.push({ line, message });
    for (const message of schema.check?.(values) ?? []) problems.push({ line, message });
    for (const [column, firstSeen] of seen) {
      const v = values[column]?.toLowerCase();
      if (!v) continue;
      const first = firstSeen.get(v);
      if (first !== undefined) problems.push({ line, message: `${column} "${values[column]}" repeats line ${first}` });
      else firstSeen.set(v, line);
    }
    rows.push({ line, values });
  }
  return { rows, header: kept, problems };
}

/**
 * A problem for each value holding a control character: none of C0, DEL or C1 in names, ids, logins
 * and numbers, where a NUL or an escape is never meant and the server would store it as it is; in
 * `freeText` columns, only tabs and line breaks.
 */
export function controlCharacters(values: Record<string, string>, freeText: readonly string[]): string[] {
  const problems: string[] = [];
  for (const [column, value] of Object.entries(values)) {
    const found = (freeText.includes(column) ? TEXT_CONTROL : NAME_CONTROL).exec(value);
    if (found) problems.push(`${column} contains a control character (${codePoint(found[0])})`);
  }
  return problems;
}

/** The problems a message lists (the first MAX_PROBLEMS_SHOWN, in line order), and the count of the rest. */
export function formatProblems(problems: Problem[] | ProblemList<Problem>, source: string): string {
  const list = problems instanceof ProblemList ? problems : new ProblemList(problems);
  // Messages quote the file's values: its control characters are shown, not sent to the terminal.
  return [
    ...list.listed.map((p) => `  ${showControls(placeOf(source, p))}: ${showControls(p.message)}`),
    ...moreLine(list.more),
  ].join('\n');
}
