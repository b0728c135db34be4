// -o yaml. Its own module so that the yaml package is loaded only when YAML is asked for.
import {
  stringify,
  type CreateNodeOptions,
  type DocumentOptions,
  type SchemaOptions,
  type ToStringOptions,
} from 'yaml';
import { out } from '../io/streams.js';
import { project, projectItem } from './fields.js';
import type { RenderOptions } from './formats.js';

/**
 * Written for YAML 1.1 readers (PyYAML, go-yaml v2) as well as 1.2 ones: a string either would take
 * for something else (`no`, `on`, `2026-11-02T12:00:00Z`, `0o17`) is quoted, so every reader gets
 * the strings the API sent. No anchors and aliases, which JSON data never means; no folding, so a
 * long value stays on its line for grep.
 */
const OPTIONS: DocumentOptions & SchemaOptions & CreateNodeOptions & ToStringOptions = {
  version: '1.1',
  customTags: ['intOct'],
  aliasDuplicateObjects: false,
  lineWidth: 0,
};

/**
 * A YAML sequence, one element at a time as the items arrive, like the JSON array: the list is never
 * held whole, and the first page prints before the next is fetched. Each element is written as a
 * sequence of one; together they are the text of the whole sequence.
 */
export async function writeYamlList(
  items: AsyncIterable<unknown> | Iterable<unknown>,
  { io, fields }: RenderOptions,
): Promise<number> {
  let count = 0;
  for await (const item of items) {
    await out(io, toYaml([project(item, fields)]));
    count++;
  }
  if (count === 0) await out(io, '[]\n');
  return count;
}

/** One record as a mapping (an array as a sequence). */
export async function writeYamlItem(item: unknown, { io, fields }: RenderOptions): Promise<void> {
  await out(io, toYaml(projectItem(item, fields)));
}

// stringify gives undefined for undefined; print what a list would hold, as JSON output does.
function toYaml(value: unknown): string {
  return stringify(value, OPTIONS) ?? 'null\n';
}
