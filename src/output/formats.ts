// The output formats, and what a renderer of any of them is given, in a module of their own: flag
// parsing needs the list at start-up, before (and without) loading any renderer, and the renderers
// take their options from here rather than from render.ts, which loads them.
import type { IOStreams } from '../io/streams.js';

export type Format = 'table' | 'json' | 'ndjson' | 'csv' | 'yaml';
export const FORMATS: readonly Format[] = ['table', 'json', 'ndjson', 'csv', 'yaml'];

/** Chooses the default: 'table' when stdout is a TTY, else 'json'. */
export function defaultFormat(io: Pick<IOStreams, 'stdoutIsTTY'>): Format {
  return io.stdoutIsTTY ? 'table' : 'json';
}

/** What --jq filters: JSON, a whole document or (ndjson) one record at a time. */
export const JQ_FORMATS: readonly Format[] = ['json', 'ndjson'];

/** A --jq expression that jq has compiled, with the jq that runs it (src/output/jq.ts makes one). */
export interface JqFilter {
  readonly expression: string;
  /**
   * Runs the expression over JSON texts with jq's flags, as jq-wasm's raw() does, handing jq's
   * stdout to `write` in pieces as jq writes it, each after the one before it has been written.
   */
  run(
    input: string,
    flags: string[],
    write: (stdout: string) => Promise<void>,
  ): Promise<{ stderr: string; exitCode: number }>;
  /** Ends jq's thread: the command has printed what it had to. */
  close(): void;
}

export interface RenderOptions {
  io: IOStreams;
  format: Format;
  /** --fields a,b,c: select (and order) these keys for every format; dotted paths like user.name allowed. */
  fields?: string[];
  /** The command's default columns for a list in table and csv when --fields is absent. */
  columns?: string[];
  /** --jq, compiled before the command sent anything; only with a format of JQ_FORMATS. */
  jq?: JqFilter;
  /** --raw: CSV cells as they are, without the `'` before text a spreadsheet would run as a formula. */
  raw?: boolean;
}
