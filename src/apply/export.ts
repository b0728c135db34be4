// A course as the file `lms apply` reads, from what the API lists of it: the kinds of kinds.ts, each
// object's fields as fields.ts reads them off the verbs that write that kind, so the export says
// exactly what an apply file may say and nothing it could not apply. Applying the export to the
// course it came from changes nothing; applying it under another SIS id makes a course whose export
// is the same file, SIS ids aside.
//
// Each object is written with what matches it on the next apply: its natural key (a SIS id), else a
// `key` — the one the state directory remembers for it, else a slug of its title, remembered now,
// so that a title edited in the file is an update of the object it names.
import type { ApiClient } from '../client/client.js';
import { ApiError, FailureError } from '../errors.js';
import type { ApiObject } from '../spec/types/common.js';
import { ENROLLMENT_TYPES, enrollmentTypeOf } from '../spec/vocabulary.js';
import { checkValue, type KindVerbs, type Value, valueAt } from './fields.js';
import { COURSE, KIND_ORDER, KINDS, keyed, listExisting, manages, many, type KindName } from './kinds.js';
import type { ApplyTree } from './model.js';
import type { KeyStore } from './state.js';
import { textOf } from '../output/text.js';
import { exportItems, type ItemKind } from './modules.js';

/** An outcome tree in the format `lms outcomes import` reads (and `lms outcomes export --yaml` writes). */
interface OutcomeTree {
  groups: unknown[];
  outcomes: unknown[];
}

/** What the export reads through the commands that own a format: a roster row, an outcome tree. */
export interface ExportParts {
  /** An enrollment as a roster row: the columns `enrollments import` reads, people named as every export names them. */
  rosterRow(e: ApiObject): Record<string, string>;
  readOutcomes(
    client: ApiClient,
    course: string,
  ): Promise<{ tree: OutcomeTree; skipped: { what: string; why: string }[] }>;
}

export interface CourseExport {
  sis: string;
  id: number;
  /** The course as a file lists it; `outcomes` is the command's to add, where it writes the tree. */
  course: Record<string, unknown>;
  /** Included, and not empty. */
  outcomes?: OutcomeTree;
  /** How many of each kind were written. */
  counts: Partial<Record<KindName, number>>;
  /** What the file cannot say, in words, one line each. */
  notes: string[];
  /** Records the keys first given here, so a re-apply matches by them; done once the file is written. */
  remember(): void;
}

export interface ExportInput {
  client: ApiClient;
  tree: Pick<ApplyTree, 'course' | 'kinds' | 'roster'>;
  keys: KeyStore;
  /** The course: an id or a SIS form. */
  course: string;
  include: readonly KindName[];
  parts: ExportParts;
}

const none = (v: unknown) => v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);
/**
 * An id of another object of the instance (a group set, an assignment group): another course or instance has other ids.
 */
const instanceId = (name: string, type: string) => type === 'integer' && name.endsWith('_id');
const article = (word: string) => (/^[aeiou]/.test(word) ? 'an' : 'a');

/**
 * One spelling per instant (`…T08:00:00Z`, whether the API said `.000Z` or `+00:00`), so equal times write equal files.
 */
function instant(time: string): string {
  return new Date(time).toISOString().replace('.000Z', 'Z');
}

/** `Lab 1: Cells & Tissues` → `lab-1-cells-tissues`. */
export function slug(title: string): string {
  const words = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return words.slice(0, 48).replace(/-+$/, '');
}

/** Objects of a kind, in messages. */
interface Of {
  one: string;
  many: string;
}
const of = (kind: KindName): Of => ({ one: KINDS[kind].one, many: many(kind) });

/** Left-out fields, counted by what and why, said once each. */
class Notes {
  private readonly counts = new Map<string, { n: number; of: Of; why: string }>();
  private readonly lines: string[] = [];

  leftOut(what: string, of: Of, why: string): void {
    const key = `${what}\0${of.many}\0${why}`;
    const known = this.counts.get(key);
    if (known) known.n++;
    else this.counts.set(key, { n: 1, of, why });
  }

  say(line: string): void {
    this.lines.push(line);
  }

  all(): string[] {
    const counted = [...this.counts].map(
      ([key, { n, of, why }]) => `left out: ${key.split('\0')[0]} of ${n} ${n === 1 ? of.one : of.many} (${why})`,
    );
    return [...counted, ...this.lines];
  }
}

/**
 * The fields of an object a file would give, in the order the verbs declare them: every field some
 * verb of the kind sets, with the value the API lists, when it has one and the field can take it.
 */
function fieldsOf(
  verbs: KindVerbs,
  o: ApiObject,
  skip: readonly string[],
  notes: Notes,
  who: Of,
): Record<string, Value> {
  const out: Record<string, Value> = {};
  for (const field of verbs.fields.values()) {
    if (skip.includes(field.name)) continue;
    const raw = valueAt(o, field.name);
    if (none(raw)) continue;
    if (instanceId(field.name, field.type)) {
      notes.leftOut(field.name, who, 'an id of this instance, which a course elsewhere does not have');
      continue;
    }
    const value = checkValue(field, raw);
    if (value === undefined) notes.leftOut(field.name, who, `a value the file cannot give: ${JSON.stringify(raw)}`);
    else out[field.name] = field.type === 'time' ? instant(value as string) : value;
  }
  return out;
}

/** Natural key and title first, as people look for them; then the rest as the verbs declare them. */
function ordered(fields: Record<string, Value>, first: (string | undefined)[]): Record<string, Value> {
  const head = first.filter((f): f is string => f !== undefined && f in fields);
  return Object.fromEntries([
    ...head.map((f) => [f, fields[f]] as const),
    ...Object.entries(fields).filter(([f]) => !head.includes(f)),
  ]);
}

/** A comparison by the strings `key` gives, code unit by code unit (the same in every locale). */
function by<T>(key: (item: T) => string[]): (a: T, b: T) => number {
  return (a, b) => {
    const [x, y] = [key(a), key(b)];
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
    return 0;
  };
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

export async function exportCourse(input: ExportInput): Promise<CourseExport> {
  const { client, tree, include, parts } = input;
  const notes = new Notes();
  const found = await client.ops.courses.get({ id: input.course });
  const sis = typeof found.sis_course_id === 'string' ? found.sis_course_id : '';
  if (!sis) {
    throw new FailureError(
      `course ${input.course} has no sis_course_id you may see, and an apply file finds its course by one`,
      {
        hint: `give it one, or write the file by hand with a sis_course_id of your choosing`,
      },
    );
  }
  const id = found.id as number;
  const ref = String(id);

  const course: Record<string, unknown> = ordered(
    fieldsOf(tree.course, found, [], notes, { one: COURSE.one, many: 'courses' }),
    [COURSE.natural, COURSE.title],
  );
  course.account = await accountRef(client, found.account_id as number);
  const term = await termRef(client, found);
  if (term) course.term = term;

  // Every listing at once: the transport paces them. Sections are read for enrollments too (their SIS ids).
  const wanted = new Set<KindName>(include.filter((k) => k !== 'outcomes'));
  if (wanted.has('enrollments')) wanted.add('sections');
  const kinds = [...wanted];
  const [lists, outcomes] = await Promise.all([
    Promise.all(kinds.map((k) => collect(listExisting(client, k, ref)))),
    include.includes('outcomes') ? parts.readOutcomes(client, ref) : undefined,
  ]);
  const listed = new Map(kinds.map((k, i) => [k, lists[i]]));
  const counts: Partial<Record<KindName, number>> = {};
  const remember: (() => void)[] = [];
  /** Keys written for each kind, by object id: what a reference to one is written as. */
  const keyOf = new Map<KindName, Map<number, string>>();

  for (const kind of KIND_ORDER) {
    if (!include.includes(kind) || kind === 'outcomes') continue;
    const objects = listed.get(kind)!;
    let written: unknown[];
    if (kind === 'sections') {
      written = objects
        .filter((s) => manages('sections', s))
        .map((s) =>
          ordered(fieldsOf(tree.kinds.sections, s, [], notes, of('sections')), [
            KINDS.sections.natural,
            KINDS.sections.title,
          ]),
        )
        .sort(by((s) => [String(s[KINDS.sections.natural!])]));
    } else if (kind === 'enrollments') {
      written = enrollments(objects, listed.get('sections')!, include.includes('sections'), input, notes);
    } else {
      const {
        items,
        keyed: ids,
        record,
      } = keyedKind(
        kind,
        objects.filter((o) => manages(kind, o)),
        sis,
        input,
        keyOf,
        notes,
        kind === 'modules' ? moduleParts(listed, keyOf, notes) : undefined,
      );
      keyOf.set(kind, ids);
      remember.push(record);
      written = items;
    }
    course[kind] = written;
    counts[kind] = written.length;
  }

  for (const s of outcomes?.skipped ?? [])
    notes.say(`left out: ${s.what} (${s.why}): applied, it would be made again beside the original`);
  const holds = outcomes && (outcomes.tree.groups.length > 0 || outcomes.tree.outcomes.length > 0);
  return {
    sis,
    id,
    course,
    outcomes: holds ? outcomes.tree : undefined,
    counts,
    notes: notes.all(),
    remember: () => {
      for (const r of remember) r();
    },
  };
}

/** The course's account as the file's `account` names it: by SIS id where one is visible. */
async function accountRef(client: ApiClient, id: number): Promise<string> {
  try {
    const account = await client.ops.accounts.get({ id: String(id) });
    return typeof account.sis_account_id === 'string' && account.sis_account_id
      ? `sis_account_id:${account.sis_account_id}`
      : String(id);
  } catch (e) {
    // A teacher may read a course without reading its account: the id still names it.
    if (e instanceof ApiError && (e.status === 401 || e.status === 403 || e.status === 404)) return String(id);
    throw e;
  }
}

/**
 * The course's term by its SIS id, which names it on another instance too; a term with none (the
 * default term a course is made in) or one the caller may not read is left out.
 */
async function termRef(client: ApiClient, found: ApiObject): Promise<string | undefined> {
  if (typeof found.enrollment_term_id !== 'number') return undefined;
  try {
    const term = await client.ops.terms.get({
      account_id: String(found.root_account_id ?? found.account_id),
      id: String(found.enrollment_term_id),
    });
    return typeof term.sis_term_id === 'string' && term.sis_term_id ? `sis_term_id:${term.sis_term_id}` : undefined;
  } catch (e) {
    if (e instanceof ApiError && (e.status === 400 || e.status === 401 || e.status === 403 || e.status === 404))
      return undefined;
    throw e;
  }
}

/**
 * The roster, inline: each live enrollment as a row, its section by the SIS id the file's sections
 * list it under. Enrollments of a section cross-listed here from another course are that course's;
 * a section with no SIS id no file can name, so its enrollments are written without one (an apply
 * matches them in any section of the course, and enrolls a new course's in its default section).
 */
function enrollments(
  listed: ApiObject[],
  sections: ApiObject[],
  sectionsListed: boolean,
  input: ExportInput,
  notes: Notes,
): Record<string, string>[] {
  const { roster } = input.tree;
  const byId = new Map(sections.map((s) => [s.id as number, s]));
  const rows: Record<string, string>[] = [];
  const seen = new Set<string>();
  let repeated = 0;
  for (const e of listed) {
    const section = byId.get(e.course_section_id as number);
    if (section && !none(section.nonxlist_course_id)) continue;
    const row = input.parts.rosterRow(e);
    const sisSection =
      section && typeof section.sis_section_id === 'string' && section.sis_section_id
        ? section.sis_section_id
        : undefined;
    const values: Record<string, string> = {};
    for (const column of roster.columns) {
      const v =
        column === 'section'
          ? sisSection === undefined
            ? ''
            : sectionsListed
              ? sisSection
              : `sis_section_id:${sisSection}`
          : (row[column] ?? '');
      if (v !== '') values[column] = v;
    }
    const problems = roster.check(values);
    if (problems.length) {
      notes.say(
        `left out: the enrollment of ${values.user} as ${textOf(e.role) || 'no role'} (${problems.join('; ')})`,
      );
      continue;
    }
    const key = roster.key(values);
    if (seen.has(key)) {
      repeated++;
      continue;
    }
    seen.add(key);
    rows.push(values);
  }
  // An observer of two students holds two enrollments the file's columns tell apart no more than an import does.
  if (repeated)
    notes.say(
      `${repeated} enrollment${repeated > 1 ? 's' : ''} with the user, role and section of an earlier one ` +
        `${repeated > 1 ? 'are' : 'is'} written once`,
    );
  // By section, then type, then person: the same file whatever order the instance lists them in.
  const rank = (row: Record<string, string>) => {
    const type = row.type ? enrollmentTypeOf(row.type) : undefined;
    return String(type ? ENROLLMENT_TYPES.indexOf(type) : ENROLLMENT_TYPES.length).padStart(2, '0') + (row.role ?? '');
  };
  return rows.sort(by((r) => [r.section ?? '', rank(r), r.user]));
}

/** What a kind writes besides its fields, and in what order. */
interface KindParts {
  /** The fields of its verbs it writes otherwise, or not at all. */
  skip: string[];
  /** Ordered as the course has them, not by key. */
  order?(a: ApiObject, b: ApiObject): number;
  /** Adds to an object's entry what its fields do not say. */
  add(o: ApiObject, item: Record<string, unknown>, keys: Map<number, string>): void;
}

/**
 * A module's prerequisites by key and its items naming what they show by the keys written for it; in
 * the course's order, which an apply makes them in.
 */
function moduleParts(
  listed: Map<KindName, ApiObject[]>,
  keyOf: Map<KindName, Map<number, string>>,
  notes: Notes,
): KindParts {
  return {
    // The list's order is the course's: a number of the position would go stale once a module before it is deleted.
    skip: ['prerequisite_module_ids', 'position'],
    order: (a, b) => Number(a.position) - Number(b.position) || Number(a.id) - Number(b.id),
    add(o, item, keys) {
      const before = (Array.isArray(o.prerequisite_module_ids) ? o.prerequisite_module_ids : []).flatMap((id) => {
        const key = keys.get(Number(id));
        return key === undefined ? [] : [key];
      });
      if (before.length) item.prerequisites = before;
      const { items, leftOut } = exportItems(
        o,
        (kind: ItemKind, id: number) => keyOf.get(kind)?.get(id),
        (kind: ItemKind) => listed.get(kind) ?? [],
      );
      item.items = items;
      if (leftOut)
        notes.leftOut(
          'items',
          of('modules'),
          'a file, a tool, or what the file does not list: an apply leaves such an item as it is',
        );
    },
  };
}

/**
 * Assignments, topics, announcements, quizzes: each with its key — the state's, else a slug of its
 * title unique in the course — and its references by the keys written for what they name.
 */
function keyedKind(
  kindName: KindName,
  objects: ApiObject[],
  sis: string,
  input: ExportInput,
  keyOf: Map<KindName, Map<number, string>>,
  notes: Notes,
  parts?: KindParts,
): { items: Record<string, unknown>[]; keyed: Map<number, string>; record: () => void } {
  const kind = KINDS[kindName];
  const verbs = input.tree.kinds[kindName as Exclude<KindName, 'outcomes'>];
  const refs = Object.entries(kind.refs ?? {});
  const recorded = input.keys.keysOf(sis, kindName);
  const ids = new Map<number, string>();
  const taken = new Set<string>();
  // Remembered keys first, so a slug never takes one of them from the object it names.
  for (const o of objects) {
    const key = recorded.get(o.id as number);
    if (key !== undefined && !taken.has(key.toLowerCase())) {
      ids.set(o.id as number, key);
      taken.add(key.toLowerCase());
    }
  }
  const fresh: [number, string][] = [];
  for (const o of objects) {
    if (ids.has(o.id as number)) continue;
    const base = slug(String(o[kind.title!] ?? '')) || kind.one;
    let key = base;
    for (let n = 2; taken.has(key); n++) key = `${base}-${n}`;
    ids.set(o.id as number, key);
    taken.add(key);
    fresh.push([o.id as number, key]);
  }
  // By key: the same file whatever order the instance lists them in (an apply makes them side by side).
  const sorted = parts?.order
    ? [...objects].sort(parts.order)
    : [...objects].sort(by((o) => [ids.get(o.id as number)!]));
  const items = sorted.map((o) => {
    const fields = ordered(
      fieldsOf(verbs, o, [...refs.map(([, r]) => r.field), ...(parts?.skip ?? [])], notes, of(kindName)),
      [kind.title],
    );
    const item: Record<string, unknown> = { ...(keyed(kind) ? { key: ids.get(o.id as number) } : {}), ...fields };
    for (const [name, { kind: target, field }] of refs) {
      const value = o[field];
      if (none(value)) continue;
      const key = keyOf.get(target)?.get(Number(value));
      if (key !== undefined) item[name] = key;
      else
        notes.leftOut(
          name,
          of(kindName),
          input.include.includes(target)
            ? `${article(KINDS[target].one)} ${KINDS[target].one} the file does not list, as one graded through a ` +
                'quiz or topic'
            : `${target} are not included`,
        );
    }
    parts?.add(o, item, ids);
    return item;
  });
  return {
    items,
    keyed: ids,
    record: () => {
      for (const [id, key] of fresh) input.keys.record(sis, kindName, key, id);
    },
  };
}
