// The output formats, in a module of their own: flag parsing needs the list at start-up, before
// (and without) loading any renderer.
export type Format = 'table' | 'json' | 'ndjson' | 'csv';
export const FORMATS: readonly Format[] = ['table', 'json', 'ndjson', 'csv'];
