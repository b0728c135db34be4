// Modules as a kind of the apply file: a module's own fields are fields of its verbs like any kind's;
// its `prerequisites` name earlier modules of the file by key, and its `items` are a list, each item
// naming what it shows by the key of another object of the file (`page: notes`, `assignment: lab1`,
// `topic:`, `quiz:`) or being a header or a link of its own (`type: SubHeader` or `ExternalUrl`).
//
// The items are compared as a whole list, so the plan says a module is unchanged only when every item
// is there, in order, as the file gives it; but a difference is made item by item, not by making the
// list again: each item keeps its id (and the progress students have made through it), a changed
// indent or requirement is one update of that item, a new one is one add at its place, and the
// order is mended by moving only the items outside a longest run already in order (heaviestRun).
//
// An item the file could not name — a file or a tool, or content of a kind the file does not list,
// or an object it does not list (a quiz's own assignment) — is left where it is: the list the file
// gives is the list of the items it can name.
import type { ApiClient } from '../client/client.js';
import type { ApiObject } from '../spec/types/common.js';
import { APPLICABLE, REQUIREMENT_TYPES, type ModuleItemFields, type ModuleItemType } from '../spec/types/modules.js';
import type { DesiredItem, Source } from './model.js';

type Requirement = NonNullable<DesiredItem['requirement']>;

/** The kinds an item may show, by the field that names one: `page: KEY`. */
const ITEM_REFS: Record<RefName, { kind: ItemKind; type: ModuleItemType }> = {
  page: { kind: 'pages', type: 'Page' },
  assignment: { kind: 'assignments', type: 'Assignment' },
  topic: { kind: 'topics', type: 'Discussion' },
  quiz: { kind: 'quizzes', type: 'Quiz' },
};
type RefName = NonNullable<DesiredItem['ref']>['name'];
export type ItemKind = NonNullable<DesiredItem['ref']>['kind'];
/** Items of their own, shown by their title (and link). */
const OWN_TYPES = ['SubHeader', 'ExternalUrl'] as const;

const ITEM_FIELDS = [
  ...Object.keys(ITEM_REFS),
  'type',
  'title',
  'external_url',
  'indent',
  'completion_requirement',
  'published',
];

const isMap = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

const REQUIREMENTS = `one of ${REQUIREMENT_TYPES.join(', ')}, or { type: min_score, min_score: N }`;

function requirementOf(raw: unknown): Requirement | string {
  const r = typeof raw === 'string' ? { type: raw } : raw;
  if (!isMap(r) || typeof r.type !== 'string' || !(REQUIREMENT_TYPES as readonly string[]).includes(r.type))
    return `completion_requirement must be ${REQUIREMENTS}`;
  const extra = Object.keys(r).filter((k) => k !== 'type' && k !== 'min_score');
  if (extra.length) return `completion_requirement has no ${extra.join(', ')}`;
  if (r.type === 'min_score') {
    if (typeof r.min_score !== 'number' || !Number.isFinite(r.min_score) || r.min_score < 0)
      return 'completion_requirement min_score needs min_score: the score, a number of at least 0';
    return { type: r.type, min_score: r.min_score };
  }
  if (r.min_score !== undefined) return 'min_score goes with completion_requirement type min_score';
  return { type: r.type };
}

/** A module item as a file gives it, or what is wrong with it. */
export function readItem(raw: unknown, source: Source): DesiredItem | string[] {
  if (!isMap(raw))
    return ['an item must be a map: page, assignment, topic or quiz: KEY, or type: SubHeader or ExternalUrl'];
  const problems: string[] = [];
  const unknown = Object.keys(raw).filter((k) => !ITEM_FIELDS.includes(k));
  if (unknown.length) problems.push(`an item has no ${unknown.join(', ')} (it has ${ITEM_FIELDS.join(', ')})`);
  const named = (Object.keys(ITEM_REFS) as RefName[]).filter((k) => k in raw);
  if (named.length + ('type' in raw ? 1 : 0) !== 1)
    return [...problems, 'an item names one thing it shows: page, assignment, topic or quiz (a key), or its type'];
  const text = (k: string) => {
    const v = raw[k];
    if (v === undefined) return undefined;
    if (typeof v === 'number' && Number.isFinite(v)) return String(v);
    if (typeof v === 'string' && v.trim() !== '') return v.trim();
    problems.push(`an item's ${k} must be text`);
    return undefined;
  };
  let item: DesiredItem;
  if (named.length) {
    const { kind, type } = ITEM_REFS[named[0]];
    const key = text(named[0]);
    if (key === undefined) return problems;
    item = { ref: { name: named[0], kind, key }, type, indent: 0, source };
    if ('external_url' in raw) problems.push(`a ${type} item has no external_url`);
  } else {
    const type = raw.type;
    if (!(OWN_TYPES as readonly unknown[]).includes(type))
      return [
        ...problems,
        `an item's type is SubHeader or ExternalUrl (one that shows a page, assignment, topic or quiz names it by ` +
          `its key: page: KEY)`,
      ];
    item = { type: type as ModuleItemType, indent: 0, source };
    if (type === 'ExternalUrl') {
      const url = text('external_url');
      if (url === undefined || !/^https?:\/\/./i.test(url))
        problems.push('an ExternalUrl item needs its external_url, an http or https URL');
      else item.external_url = url;
    } else if ('external_url' in raw) problems.push('a SubHeader item has no external_url');
    if (raw.title === undefined) problems.push(`a ${String(type)} item needs a title`);
  }
  const title = text('title');
  if (title !== undefined) item.title = title;
  if (raw.indent !== undefined) {
    if (typeof raw.indent !== 'number' || !Number.isSafeInteger(raw.indent) || raw.indent < 0)
      problems.push("an item's indent is a whole number from 0");
    else item.indent = raw.indent;
  }
  if (raw.published !== undefined) {
    if (typeof raw.published !== 'boolean') problems.push("an item's published is true or false");
    else item.published = raw.published;
  }
  if (raw.completion_requirement !== undefined && raw.completion_requirement !== null) {
    const r = requirementOf(raw.completion_requirement);
    if (typeof r === 'string') problems.push(r);
    else if (!APPLICABLE[item.type].includes(r.type as never))
      problems.push(
        APPLICABLE[item.type].length
          ? `a ${item.type} item can have ${APPLICABLE[item.type].join(', ')}, not ${r.type}`
          : `a ${item.type} item has no completion requirement`,
      );
    else item.requirement = r;
  }
  return problems.length ? problems : item;
}

/** What the file's items name on the instance: the objects of its other kinds, by key, and pages' slugs. */
export interface ItemTargets {
  /** The id of the file's object of a kind, by its key, once it exists. */
  id(kind: ItemKind, key: string): number | undefined;
  /** Every object of the kind the file lists that exists: what an item may show and still be the file's. */
  ids(kind: ItemKind): Set<number>;
  /** A page's url slug, by its page_id, where known: the newest. */
  url(page: number): string | undefined;
  /** The page a slug is or was of: an item may name a page by the slug it had when it was added. */
  page(url: string): number | undefined;
}

const itemsOf = (m: ApiObject) =>
  [...(Array.isArray(m.items) ? (m.items as ApiObject[]) : [])].sort(
    (a, b) => Number(a.position) - Number(b.position) || Number(a.id) - Number(b.id),
  );

const requirementText = (r: Requirement | undefined) =>
  r === undefined ? null : r.type === 'min_score' ? `min_score ${r.min_score}` : r.type;

function currentRequirement(o: ApiObject): Requirement | undefined {
  const r = o.completion_requirement;
  if (!isMap(r) || typeof r.type !== 'string') return undefined;
  return r.type === 'min_score' ? { type: r.type, min_score: Number(r.min_score ?? 0) } : { type: r.type };
}

/** What an item of the instance is, for matching: its type and what it shows; none for one the file cannot name. */
function identity(o: ApiObject, targets: ItemTargets): string | undefined {
  switch (o.type) {
    case 'Page': {
      const id = typeof o.page_url === 'string' ? targets.page(o.page_url) : undefined;
      return id !== undefined && targets.ids('pages').has(id) ? `Page ${id}` : undefined;
    }
    case 'Assignment':
    case 'Discussion':
    case 'Quiz': {
      const kind = Object.values(ITEM_REFS).find((r) => r.type === o.type)!.kind;
      return targets.ids(kind).has(Number(o.content_id)) ? `${o.type} ${String(o.content_id)}` : undefined;
    }
    case 'SubHeader':
      return `SubHeader ${String(o.title)}`;
    case 'ExternalUrl':
      return `ExternalUrl ${String(o.external_url)}`;
    default:
      return undefined;
  }
}

/** The same of an item of the file; undefined while what it shows is still to be made. */
function wantedIdentity(d: DesiredItem, targets: ItemTargets): string | undefined {
  if (d.type === 'SubHeader') return `SubHeader ${d.title}`;
  if (d.type === 'ExternalUrl') return `ExternalUrl ${d.external_url}`;
  const id = targets.id(d.ref!.kind, d.ref!.key);
  return id === undefined ? undefined : `${d.type} ${id}`;
}

/** An item, for people: `assignment lab1`, `SubHeader "Start here"`. */
export const wantedLabel = (d: DesiredItem) =>
  d.ref ? `${d.ref.name} ${d.ref.key}` : `${d.type} ${JSON.stringify(d.title)}`;
const currentLabel = (o: ApiObject) => `${String(o.type)} ${JSON.stringify(o.title)}`;

type ItemOp =
  | { op: 'remove'; id: number }
  | { op: 'add'; item: DesiredItem; position: number }
  | { op: 'update'; id: number; fields: ModuleItemFields };

export interface ItemChange {
  field: string;
  from: unknown;
  to: unknown;
}

/**
 * The items left where they are: a run of them already in order (increasing `xs`, their places now)
 * of the greatest weight. An item updated anyway moves in the same write, so it weighs less than one
 * a move alone would write to; a module holds few items, so the square of their number is no cost.
 */
function heaviestRun(xs: number[], weights: number[]): Set<number> {
  const best = weights.slice();
  const before: number[] = new Array(xs.length).fill(-1);
  for (let i = 0; i < xs.length; i++)
    for (let j = 0; j < i; j++)
      if (xs[j] < xs[i] && best[j] + weights[i] > best[i]) {
        best[i] = best[j] + weights[i];
        before[i] = j;
      }
  const run = new Set<number>();
  let last = -1;
  for (let i = 0; i < xs.length; i++) if (last < 0 || best[i] > best[last]) last = i;
  for (let i = last; i >= 0; i = before[i]) run.add(i);
  return run;
}

/** The fields of an item of the instance the file's item changes, and those changes as a plan shows them. */
function itemDifferences(
  d: DesiredItem,
  o: ApiObject,
  place: string,
): { fields: ModuleItemFields; changes: ItemChange[] } {
  const fields: ModuleItemFields = {};
  const changes: ItemChange[] = [];
  if (d.title !== undefined && d.title !== o.title) {
    fields.title = d.title;
    changes.push({ field: `${place}.title`, from: o.title, to: d.title });
  }
  if (d.indent !== Number(o.indent ?? 0)) {
    fields.indent = d.indent;
    changes.push({ field: `${place}.indent`, from: o.indent ?? 0, to: d.indent });
  }
  if (d.published !== undefined && d.published !== (o.published === true)) {
    fields.published = d.published;
    changes.push({ field: `${place}.published`, from: o.published === true, to: d.published });
  }
  const [now, want] = [requirementText(currentRequirement(o)), requirementText(d.requirement)];
  if (now !== want) {
    fields.completion_requirement = d.requirement
      ? (d.requirement as ModuleItemFields['completion_requirement'])
      : { type: '' };
    changes.push({ field: `${place}.completion_requirement`, from: now, to: want });
  }
  return { fields, changes };
}

/**
 * The writes that make a module's items the file's, and the changes they make as a plan shows them:
 * none when the items the file can name are the file's, in its order.
 */
export function itemWrites(
  wanted: DesiredItem[],
  module: ApiObject,
  targets: ItemTargets,
): { changes: ItemChange[]; ops: ItemOp[] } {
  const current = itemsOf(module);
  const ids = current.map((o) => identity(o, targets));
  const claimed = new Set<number>();
  const match = wanted.map((d) => {
    const id = wantedIdentity(d, targets);
    const at = id === undefined ? -1 : ids.findIndex((x, i) => x === id && !claimed.has(i));
    if (at >= 0) claimed.add(at);
    return at;
  });
  const changes: ItemChange[] = [];
  const ops: ItemOp[] = [];
  const gone = current.filter((_o, i) => ids[i] !== undefined && !claimed.has(i));
  for (const o of gone) {
    ops.push({ op: 'remove', id: o.id as number });
    changes.push({ field: 'items', from: currentLabel(o), to: null });
  }
  const differences = wanted.map((d, i) =>
    match[i] < 0 ? undefined : itemDifferences(d, current[match[i]], `items[${i}]`),
  );
  // What stays, in order, as the API will number it once the removals are made.
  const local = current.filter((o) => !gone.includes(o)).map((o) => o.id as number);
  const matched = wanted.map((_, i) => i).filter((i) => match[i] >= 0);
  const weights = matched.map((i) => (differences[i]!.changes.length ? 1 : 2));
  const run = new Set(
    [
      ...heaviestRun(
        matched.map((i) => match[i]),
        weights,
      ),
    ].map((j) => matched[j]),
  );
  let prev = -1;
  wanted.forEach((d, i) => {
    const place = `items[${i}]`;
    if (match[i] < 0) {
      local.splice(prev + 1, 0, -1 - i);
      prev++;
      ops.push({ op: 'add', item: d, position: prev + 1 });
      changes.push({ field: place, from: null, to: wantedLabel(d) });
      return;
    }
    const o = current[match[i]];
    const { fields, changes: changed } = differences[i]!;
    changes.push(...changed);
    let at = local.indexOf(o.id as number);
    if (!run.has(i)) {
      local.splice(at, 1);
      if (at < prev) prev--;
      local.splice(prev + 1, 0, o.id as number);
      at = prev + 1;
      fields.position = at + 1;
      changes.push({ field: `${place}.position`, from: o.position, to: at + 1 });
    }
    prev = at;
    if (Object.keys(fields).length) ops.push({ op: 'update', id: o.id as number, fields });
  });
  return { changes, ops };
}

/** Makes the writes, one at a time: each move or add is at a place the ones before it made. */
export async function writeItems(
  client: ApiClient,
  course: string,
  module: number,
  ops: ItemOp[],
  targets: ItemTargets,
): Promise<void> {
  const at = { course_id: course, module_id: String(module) };
  for (const op of ops) {
    if (op.op === 'remove') await client.ops.modules.deleteItem({ ...at, id: String(op.id) });
    else if (op.op === 'update')
      await client.ops.modules.updateItem({ ...at, id: String(op.id), module_item: op.fields });
    else {
      const d = op.item;
      const module_item: ModuleItemFields = { type: d.type, position: op.position, indent: d.indent };
      if (d.ref) {
        const id = targets.id(d.ref.kind, d.ref.key)!;
        if (d.type === 'Page') module_item.page_url = targets.url(id)!;
        else module_item.content_id = id;
      }
      if (d.title !== undefined) module_item.title = d.title;
      if (d.external_url !== undefined) module_item.external_url = d.external_url;
      if (d.requirement)
        module_item.completion_requirement = d.requirement as ModuleItemFields['completion_requirement'];
      const made = await client.ops.modules.createItem({ ...at, module_item });
      // An item is made published as what it shows is (a header or link unpublished); the API sets it by an update
      // only.
      if (d.published !== undefined && d.published !== (made.published === true))
        await client.ops.modules.updateItem({ ...at, id: String(made.id), module_item: { published: d.published } });
    }
  }
}

/** The title each kind an item shows is listed under. */
const TITLE: Record<ItemKind, string> = { pages: 'title', assignments: 'name', topics: 'title', quizzes: 'title' };

/**
 * A module's items as a file gives them, each naming what it shows by the key export wrote for it;
 * an item it cannot name is counted out (said by the caller), and is left as it is by an apply.
 */
export function exportItems(
  m: ApiObject,
  keyOf: (kind: ItemKind, id: number) => string | undefined,
  listed: (kind: ItemKind) => ApiObject[],
): { items: Record<string, unknown>[]; leftOut: number } {
  const items: Record<string, unknown>[] = [];
  let leftOut = 0;
  for (const o of itemsOf(m)) {
    const item: Record<string, unknown> = {};
    const ref = Object.entries(ITEM_REFS).find(([, r]) => r.type === o.type);
    let content: ApiObject | undefined;
    if (ref) {
      const [name, { kind }] = ref;
      content =
        kind === 'pages'
          ? listed(kind).find((p) => p.url === o.page_url)
          : listed(kind).find((x) => x.id === Number(o.content_id));
      const key = content && keyOf(kind, content.id as number);
      if (!content || key === undefined) {
        leftOut++;
        continue;
      }
      item[name] = key;
      if (o.title !== content[TITLE[kind]]) item.title = o.title;
    } else if (o.type === 'SubHeader' || o.type === 'ExternalUrl') {
      item.type = o.type;
      item.title = o.title;
      if (o.type === 'ExternalUrl') item.external_url = o.external_url;
    } else {
      leftOut++;
      continue;
    }
    if (Number(o.indent ?? 0) !== 0) item.indent = Number(o.indent);
    // Made, an item is published as what it shows is, and a header or a link is not: said only when otherwise.
    const made = content ? content.published === true : false;
    if (typeof o.published === 'boolean' && o.published !== made) item.published = o.published;
    const r = currentRequirement(o);
    if (r) item.completion_requirement = r.type === 'min_score' ? r : r.type;
    items.push(item);
  }
  return { items, leftOut };
}
