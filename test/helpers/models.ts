// Canvas's published models (the `@model` blocks of its API controllers), recorded as data in
// test/fixtures/models/, and a check of an answer against one: every field it sends is one the model
// names, of the model's type and, where the model lists them, one of its values; every field the
// model does not mark optional is there. Null is the absence of an optional field.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

interface Field {
  type: string;
  items?: string;
  values?: string[];
  optional?: boolean;
}
type Models = Record<string, Record<string, Field>>;

export function loadModels(file: string): Models {
  return (JSON.parse(readFileSync(join(import.meta.dirname, '../fixtures/models', file), 'utf8')) as { models: Models })
    .models;
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** What is wrong with a value as an answer of the model, each problem with its path; empty when nothing is. */
export function modelProblems(models: Models, name: string, value: unknown, at = name): string[] {
  const model = models[name];
  if (!model) throw new Error(`no model ${name}`);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [`${at}: not an object`];
  const problems: string[] = [];
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record))
    if (!Object.hasOwn(model, key)) problems.push(`${at}.${key}: not a field of ${name}`);
  for (const [key, field] of Object.entries(model)) {
    const v = record[key];
    if (v === undefined || v === null) {
      if (!field.optional) problems.push(`${at}.${key}: missing (${field.type})`);
      continue;
    }
    problems.push(...typeProblems(models, field.type, field, v, `${at}.${key}`));
  }
  return problems;
}

function typeProblems(models: Models, type: string, field: Field, v: unknown, at: string): string[] {
  switch (type) {
    case 'integer':
      return Number.isSafeInteger(v) ? [] : [`${at}: ${JSON.stringify(v)} is not an integer`];
    case 'number':
      return typeof v === 'number' && Number.isFinite(v) ? [] : [`${at}: ${JSON.stringify(v)} is not a number`];
    case 'boolean':
      return typeof v === 'boolean' ? [] : [`${at}: ${JSON.stringify(v)} is not a boolean`];
    case 'datetime':
      return typeof v === 'string' && ISO.test(v) ? [] : [`${at}: ${JSON.stringify(v)} is not an ISO 8601 time`];
    case 'string':
      if (typeof v !== 'string') return [`${at}: ${JSON.stringify(v)} is not a string`];
      return field.values && !field.values.includes(v)
        ? [`${at}: "${v}" is not one of ${field.values.join(', ')}`]
        : [];
    case 'object':
      return typeof v === 'object' && !Array.isArray(v) ? [] : [`${at}: not an object`];
    case 'array':
      if (!Array.isArray(v)) return [`${at}: not an array`];
      return v.flatMap((x, i) => typeProblems(models, field.items ?? 'object', {} as Field, x, `${at}[${i}]`));
    default:
      return modelProblems(models, type, v, at);
  }
}
