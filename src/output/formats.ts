// The output formats, and what a renderer of any of them is given, in a module of their own: flag
// parsing needs the list at start-up, before (and without) loading any renderer, and the renderers
// take their options from here rather than from render.ts, which loads them.
import type { IOStreams } from '../io/streams.js';

export type Format = 'table' | 'json' | 'ndjson' | 'csv';
export const FORMATS: readonly Format[] = ['table', 'json', 'ndjson', 'csv'];

export interface RenderOptions {
  io: IOStreams;
  format: Format;
  /** --fields a,b,c: select (and order) these keys for every format; dotted paths like user.name allowed. */
  fields?: string[];
  /** The command's default columns for a list in table and csv when --fields is absent. */
  columns?: string[];
}
