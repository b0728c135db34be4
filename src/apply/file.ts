// Reads apply files — YAML or JSON, one or more, a folder of them, or stdin — into courses, checking
// everything a file alone can tell before a request is made: its syntax, every key (a field no verb
// sets is unknown), every value's type, repeated keys and titles, and references to keys the file
// does not have. Each problem carries its file and line; all of them are reported at once.
import { readdir, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node, type Pair } from 'yaml';
import {
  isOneLine,
  MAX_FIELD_BYTES,
  MAX_FILE_VALUES,
  placeOf,
  placeWords,
  InputProblemError,
  readInput,
  scanInput,
  shapeOfName,
} from '../bulk/csv-input.js';
import { UsageError } from '../errors.js';
import { sourceName, type InputSource } from '../io/bounded.js';
import { ProblemList } from '../bulk/problems.js';
import { enrollmentTypeOf } from '../spec/vocabulary.js';
import { checkValue, describeType, type Field, type Value } from './fields.js';
import { COURSE, KIND_ORDER, KINDS, keyed, type KindName } from './kinds.js';
import type {
  ApplyTree,
  Desired,
  DesiredCourse,
  DesiredEnrollment,
  DesiredItem,
  FileProblem,
  Source,
} from './model.js';
import { closest } from '../closest.js';
import { readCriteria, rubricProblems, type Criterion } from './rubrics.js';
import { readItem } from './modules.js';

/** The largest apply file read: the YAML library holds some 60 times the text while it reads. */
const MAX_FILE_BYTES = 16 * 1024 * 1024;

const FILE_NAME = /\.(ya?ml|json)$/i;

interface Input {
  /** As the user named it (stdin for -), which is how messages name it. */
  name: string;
  bytes: Buffer;
}

export interface ReadFiles {
  courses: DesiredCourse[];
  /** The first of them, and how many there are: a file of a million mistakes is not held a million times. */
  problems: ProblemList<FileProblem>;
  /** Every file read, rosters and outcome trees included: what a run's journal is bound to. */
  inputs: Input[];
}

/** `-f` as given: files, folders (their .yaml, .yml and .json files, in name order) and - for stdin. */
async function expand(sources: InputSource[]): Promise<{ source: InputSource; inFolder: boolean }[]> {
  const out: { source: InputSource; inFolder: boolean }[] = [];
  for (const source of sources) {
    if (source === '-') {
      if (out.some((o) => o.source === '-')) throw new UsageError('-f - (stdin) can be given once');
      out.push({ source, inFolder: false });
      continue;
    }
    // A file's text, handed over (by lms mcp), is one file.
    const info = typeof source === 'string' ? await stat(source).catch(() => undefined) : undefined;
    if (typeof source !== 'string' || !info?.isDirectory()) {
      out.push({ source, inFolder: false });
      continue;
    }
    const names = (await readdir(source)).filter((n) => FILE_NAME.test(n)).sort();
    if (names.length === 0) throw new UsageError(`${source} holds no .yaml, .yml or .json file`);
    out.push(...names.map((n) => ({ source: join(source, n), inFolder: true })));
  }
  return out;
}

/**
 * `references: false`: a file may not name another (a roster, an outcome tree); what it is handed
 * (by an assistant, as text) is all it reads.
 */
export async function readApplyFiles(
  sources: InputSource[],
  stdin: NodeJS.ReadableStream,
  tree: ApplyTree,
  references = true,
): Promise<ReadFiles> {
  const read: {
    path: string;
    inFolder: boolean;
    courses: DesiredCourse[];
    problems: ProblemList<FileProblem>;
    inputs: Input[];
    names: string[];
  }[] = [];
  for (const { source, inFolder } of await expand(sources)) {
    const given = typeof source !== 'string';
    const path = sourceName(source);
    const { bytes, name } = await readInput(source, stdin, { shape: shapeOfName(path) });
    // Files a file names (a roster, an outcome tree) are found next to it; stdin's (and a text's) next to here.
    const base = given || path === '-' ? process.cwd() : dirname(resolve(path));
    const problems = new ProblemList<FileProblem>();
    const reader = new FileReader(name, base, tree, problems, stdin, references);
    const courses = reader.courses(bytes);
    const inputs: Input[] = [{ name, bytes }];
    for (const pending of reader.pending) {
      const more = await pending();
      if (more) inputs.push(more);
    }
    read.push({
      path: given || path === '-' ? path : resolve(path),
      inFolder,
      courses,
      problems,
      inputs,
      names: reader.names,
    });
  }
  // A folder may hold the outcome trees its files name: those are theirs, not files of courses.
  const named = new Set(read.flatMap((r) => r.names));
  const files = read.filter((r) => !(r.inFolder && named.has(r.path)));
  const courses = files.flatMap((r) => r.courses);
  const problems = new ProblemList<FileProblem>();
  for (const r of files) problems.merge(r.problems);
  checkAcross(courses, problems);
  return { courses, problems, inputs: files.flatMap((r) => r.inputs) };
}

const show = (v: unknown) =>
  typeof v === 'string'
    ? JSON.stringify(v)
    : Array.isArray(v)
      ? 'a list'
      : v !== null && typeof v === 'object'
        ? 'a map'
        : String(v);

/** Reads one file; `pending` then reads the files it names. */
class FileReader {
  readonly pending: (() => Promise<Input | undefined>)[] = [];
  /** The files it names, as opened. */
  readonly names: string[] = [];
  private lines = new LineCounter();
  /** Each node's place in the document, which tells apart what a one-line document has on one line. */
  private places = new Map<Node, string>();
  private oneLine = false;

  constructor(
    private readonly name: string,
    private readonly base: string,
    private readonly tree: ApplyTree,
    private readonly problems: ProblemList<FileProblem>,
    private readonly stdin: NodeJS.ReadableStream,
    private readonly references: boolean,
  ) {}

  private at(node: Node | null | undefined): Source {
    const place = node ? this.places.get(node) : undefined;
    return {
      file: this.name,
      line: node?.range ? this.lines.linePos(node.range[0]).line : 1,
      ...(place ? { at: place } : {}),
      ...(place && this.oneLine ? { oneLine: true } : {}),
    };
  }

  private problem(node: Node | null | undefined, message: string): void {
    this.problems.push({ ...this.at(node), message });
  }

  courses(bytes: Buffer): DesiredCourse[] {
    if (bytes.length > MAX_FILE_BYTES) {
      this.problems.push({
        file: this.name,
        line: 1,
        message:
          `the file is larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB, the most read as YAML or JSON; split ` +
          'it into several files',
      });
      return [];
    }
    // Before the YAML library sees it: a runaway value or nesting costs it far more than the text.
    const head = bytes.subarray(0, 64).toString('utf8');
    const scanned = scanInput(
      bytes,
      shapeOfName(this.name) === 'nested' || /^\s*[[{]/.test(head) ? 'nested' : 'lines',
      { maxValues: MAX_FILE_VALUES },
    );
    if (scanned) {
      this.problems.push({ file: this.name, ...scanned });
      return [];
    }
    const text = new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, '');
    const doc = parseDocument(text, { lineCounter: this.lines, uniqueKeys: true, prettyErrors: false });
    if (doc.errors.length) {
      for (const e of doc.errors)
        this.problems.push({
          file: this.name,
          line: this.lines.linePos(Math.min(e.pos[0], Math.max(text.length - 1, 0))).line,
          message: e.message.split('\n')[0],
        });
      return [];
    }
    const root = doc.contents;
    if (root) placesOf(root, '', this.places);
    this.oneLine = isOneLine(text);
    if (!isMap(root)) {
      this.problem(root, 'the file must be a map with a courses: list');
      return [];
    }
    let list: Node | undefined;
    for (const pair of root.items) {
      const key = this.keyOf(pair);
      if (key === 'courses') list = pair.value as Node;
      else if (key !== undefined)
        this.problem(pair.key as Node, `unknown key "${key}" at the top of the file; it holds courses:`);
    }
    if (!list || !isSeq(list)) {
      this.problem(list ?? root, 'courses must be a list of courses');
      return [];
    }
    return (list.items as Node[]).map((node) => this.course(node)).filter((c): c is DesiredCourse => c !== undefined);
  }

  private keyOf(pair: Pair): string | undefined {
    if (isScalar(pair.key) && (typeof pair.key.value === 'string' || typeof pair.key.value === 'number'))
      return String(pair.key.value);
    this.problem(pair.key as Node, 'a key must be a name');
    return undefined;
  }

  /** A value as plain data: scalars as they are, lists of scalars as lists; maps and deeper lists as 'nested'. */
  private plain(node: Node | null | undefined): unknown {
    if (node === null || node === undefined) return null;
    if (isScalar(node)) {
      if (typeof node.value === 'string' && Buffer.byteLength(node.value) > MAX_FIELD_BYTES) {
        this.problem(node, `a value is larger than ${MAX_FIELD_BYTES / 1024 / 1024} MiB`);
        return undefined;
      }
      return node.value;
    }
    if (isSeq(node)) {
      const items = (node.items as Node[]).map((i) => (isScalar(i) ? i.value : { nested: true }));
      return items;
    }
    return { nested: true };
  }

  private text(node: Node | null | undefined, what: string): string | undefined {
    const v = this.plain(node);
    if ((typeof v === 'string' && v.trim() !== '') || (typeof v === 'number' && Number.isFinite(v)))
      return String(v).trim();
    if (v !== undefined) this.problem(node, `${what} must be text, not ${v === null || v === '' ? 'empty' : show(v)}`);
    return undefined;
  }

  private unknown(pair: Pair, key: string, what: string, allowed: string[]): void {
    const near = closest(key, allowed);
    this.problem(
      pair.key as Node,
      `unknown field "${key}" for ${what}${near ? ` (did you mean ${near}?)` : ''}; ${what} takes ` +
        `${allowed.join(', ')}`,
    );
  }

  /** A field's value, checked against its type. */
  private value(field: Field, node: Node | null | undefined): Value | undefined {
    // A rubric's criteria are the one field whose value nests (maps in a list); the scan bounded it.
    const raw = field.type === 'criteria' && isSeq(node) ? (node.toJSON() as unknown) : this.plain(node);
    if (raw === undefined) return undefined;
    if (field.type === 'criteria' && raw !== null) {
      const read = readCriteria(raw);
      if (typeof read === 'string') this.problem(node, read);
      return typeof read === 'string' ? undefined : read;
    }
    const value = checkValue(field, raw);
    if (value === undefined)
      this.problem(node, `${field.name} must be ${describeType(field)}, not ${raw === null ? 'null' : show(raw)}`);
    return value;
  }

  private course(node: Node): DesiredCourse | undefined {
    if (!isMap(node)) {
      this.problem(node, 'a course must be a map (sis_course_id, name, sections, …)');
      return undefined;
    }
    const fields = this.tree.course.fields;
    const allowed = [...new Set([COURSE.natural, COURSE.context, ...fields.keys(), ...KIND_ORDER])];
    const course: DesiredCourse = { sis: '', fields: {}, source: this.at(node), lines: {}, objects: {} };
    const kinds: [KindName, Pair][] = [];
    for (const pair of node.items) {
      const key = this.keyOf(pair);
      if (key === undefined) continue;
      const value = pair.value as Node | null;
      if (key === COURSE.context) {
        course.account = this.text(value, key);
        course.lines[key] = this.at(pair.key as Node).line;
      } else if ((KIND_ORDER as string[]).includes(key)) {
        kinds.push([key as KindName, pair]);
      } else if (fields.has(key)) {
        const v = this.value(fields.get(key)!, value);
        if (v !== undefined) course.fields[key] = v;
        course.lines[key] = this.at(pair.key as Node).line;
      } else this.unknown(pair, key, 'a course', allowed);
    }
    const sis = course.fields[COURSE.natural];
    if (typeof sis !== 'string' || sis === '') {
      if (!(COURSE.natural in course.lines))
        this.problem(node, `a course needs its ${COURSE.natural} (it is found by it, or created with it)`);
      return undefined;
    }
    course.sis = sis;
    for (const [kind, pair] of kinds) this.kind(course, kind, pair);
    this.checkCourse(course);
    return course;
  }

  private kind(course: DesiredCourse, kind: KindName, pair: Pair): void {
    const node = pair.value as Node | null;
    if (kind === 'outcomes') {
      this.outcomes(course, node ?? (pair.key as Node));
      return;
    }
    if (!isSeq(node)) {
      // `topics:` with nothing after it is a list of none: the course has no topics.
      if (node === null || (isScalar(node) && node.value === null)) {
        if (kind === 'enrollments') course.enrollments = [];
        else course.objects[kind] = [];
        return;
      }
      this.problem(node, `${kind} must be a list`);
      return;
    }
    if (kind === 'enrollments') {
      course.enrollments = [];
      for (const item of node.items as Node[]) this.enrollment(course, item);
      return;
    }
    course.objects[kind] = (node.items as Node[])
      .map((item) => this.object(kind, item))
      .filter((d): d is Desired => d !== undefined);
  }

  private object(kindName: Exclude<KindName, 'enrollments' | 'outcomes'>, node: Node): Desired | undefined {
    const kind = KINDS[kindName];
    const fields = this.tree.kinds[kindName].fields;
    const what = `${/^[aeiou]/.test(kind.one) ? 'an' : 'a'} ${kind.one}`;
    if (!isMap(node)) {
      this.problem(node, `${what} must be a map of its fields`);
      return undefined;
    }
    const refs = kind.refs ?? {};
    const lists = kindName === 'modules' ? ['items', 'prerequisites'] : [];
    const allowed = [...(keyed(kind) ? ['key'] : []), ...fields.keys(), ...Object.keys(refs), ...lists];
    const desired: Desired = { kind: kindName, fields: {}, refs: {}, source: this.at(node), lines: {} };
    for (const pair of node.items) {
      const key = this.keyOf(pair);
      if (key === undefined) continue;
      const value = pair.value as Node | null;
      desired.lines[key] = this.at(pair.key as Node).line;
      if (key === 'key' && keyed(kind)) desired.key = this.text(value, 'key');
      else if (key === 'items' && lists.includes(key)) desired.items = this.items(value ?? (pair.key as Node));
      else if (key === 'prerequisites' && lists.includes(key)) desired.prerequisites = this.keys(value, key);
      else if (key in refs) {
        const ref = this.text(value, key);
        if (ref !== undefined) desired.refs[key] = ref;
      } else if (fields.has(key)) {
        const v = this.value(fields.get(key)!, value);
        if (v !== undefined) desired.fields[key] = v;
      } else this.unknown(pair, key, what, allowed);
    }
    for (const [ref, { field }] of Object.entries(refs)) {
      if (ref in desired.lines && field in desired.lines)
        this.problems.push({
          file: this.name,
          line: desired.lines[ref],
          message: `give ${ref} (the key of one in the file) or ${field} (an id), not both`,
        });
    }
    if (kindName === 'rubrics')
      for (const message of rubricProblems(desired.fields, desired.refs)) this.problem(node, message);
    // A group is made before the assignments it holds, so it can name only assignments that exist.
    const never = desired.fields['rules.never_drop'];
    if (kindName === 'assignment_groups' && Array.isArray(never) && never.some((v) => !/^\d+$/.test(String(v))))
      this.problems.push({
        ...desired.source,
        line: desired.lines['rules.never_drop'] ?? desired.source.line,
        message:
          'rules.never_drop takes the ids of assignments the instance has, not keys of the file: a group is made ' +
          'before its assignments (set it once they exist: lms assignment-groups update --never-drop)',
      });
    if (kind.natural) {
      const natural = desired.fields[kind.natural];
      if (typeof natural !== 'string' || natural === '') {
        if (!(kind.natural in desired.lines))
          this.problem(node, `${what} needs its ${kind.natural} (it is found by it, or created with it)`);
        return undefined;
      }
      desired.key = natural;
    }
    if (kind.title) {
      const title = desired.fields[kind.title];
      if (typeof title === 'string' && title.trim() !== '') desired.title = title;
      else if (keyed(kind)) {
        if (!(kind.title in desired.lines)) this.problem(node, `${what} needs a ${kind.title}`);
        return undefined;
      }
    }
    return desired;
  }

  /** A module's items: each read as modules.ts reads one, with its own place. */
  private items(node: Node): DesiredItem[] {
    if (isScalar(node) && node.value === null) return [];
    if (!isSeq(node)) {
      this.problem(node, 'items must be a list');
      return [];
    }
    const out: DesiredItem[] = [];
    for (const item of node.items as Node[]) {
      const read = readItem(item && typeof item === 'object' ? item.toJSON() : item, this.at(item));
      if (Array.isArray(read)) for (const message of read) this.problem(item, message);
      else out.push(read);
    }
    return out;
  }

  /** A list of keys of the file's objects (a module's prerequisites). */
  private keys(node: Node | null, field: string): string[] {
    if (node === null || (isScalar(node) && node.value === null)) return [];
    if (!isSeq(node)) {
      this.problem(node, `${field} must be a list of keys`);
      return [];
    }
    return (node.items as Node[]).map((n) => this.text(n, field)).filter((k): k is string => k !== undefined);
  }

  private enrollment(course: DesiredCourse, node: Node): void {
    if (!isMap(node)) {
      this.problem(node, 'an enrollment must be a map (user, type or role, section, state) or { csv: FILE }');
      return;
    }
    const { columns } = this.tree.roster;
    const values: Record<string, string> = {};
    let csv: string | undefined;
    for (const pair of node.items) {
      const key = this.keyOf(pair);
      if (key === undefined) continue;
      if (key === 'csv') csv = this.text(pair.value as Node, 'csv');
      else if (columns.includes(key)) {
        const v = this.text(pair.value as Node, key);
        if (v !== undefined) values[key] = v;
      } else this.unknown(pair, key, 'an enrollment', [...columns, 'csv']);
    }
    if (csv !== undefined) {
      if (Object.keys(values).length) this.problem(node, 'an entry with csv: names a roster file and nothing else');
      else this.roster(course, csv, this.at(node));
      return;
    }
    const problems = this.checkRoster(values);
    for (const message of problems) this.problem(node, message);
    if (!problems.length) course.enrollments!.push(this.toEnrollment(values, this.at(node)));
  }

  /** What `enrollments import` checks of a row, and a user, which a roster's header requires. */
  private checkRoster(v: Record<string, string>): string[] {
    return [...(v.user ? [] : ['an enrollment needs a user']), ...this.tree.roster.check(v)];
  }

  private toEnrollment(v: Record<string, string>, source: Source): DesiredEnrollment {
    return {
      key: this.tree.roster.key(v),
      user: v.user,
      role: v.role || enrollmentTypeOf(v.type)!,
      ...(v.type ? { type: v.type } : {}),
      ...(v.section ? { section: v.section } : {}),
      ...(v.state ? { state: v.state } : {}),
      source,
    };
  }

  private roster(course: DesiredCourse, path: string, from: Source): void {
    if (!this.references)
      return void this.problems.push({
        ...from,
        message: `csv: ${path}: a course file given as text names no other file; list the enrollments in it`,
      });
    const rows = course.enrollments!;
    const full = resolve(this.base, path);
    this.names.push(full);
    this.pending.push(async () => {
      let read: { bytes: Buffer; name: string };
      const shown = this.name === 'stdin' ? path : join(dirname(this.name), path);
      try {
        read = await readInput(full, this.stdin, { shape: 'csv', label: path });
      } catch (e) {
        // A problem of the roster file is one of its lines, listed as the file's own are.
        if (e instanceof InputProblemError) this.problems.push({ file: shown, ...e.problem });
        else this.problems.push({ ...from, message: `csv: ${(e as Error).message}` });
        return undefined;
      }
      const parsed = await this.tree.roster.parse(read.bytes, course.sis);
      for (const p of parsed.problems) this.problems.push({ file: shown, line: p.line, message: p.message });
      if (parsed.problems.length === 0)
        for (const row of parsed.rows) rows.push(this.toEnrollment(row.values, { file: shown, line: row.line }));
      return { name: shown, bytes: read.bytes };
    });
  }

  private outcomes(course: DesiredCourse, node: Node): void {
    let file: string | undefined;
    if (isMap(node)) {
      for (const pair of node.items) {
        const key = this.keyOf(pair);
        if (key === 'file') file = this.text(pair.value as Node, 'file');
        else if (key !== undefined) this.unknown(pair, key, 'outcomes', ['file']);
      }
    }
    if (file === undefined) {
      this.problem(node, 'outcomes must be { file: FILE }, a tree as lms outcomes import reads it');
      return;
    }
    const source = this.at(node);
    if (!this.references)
      return void this.problems.push({
        ...source,
        message: `outcomes file: ${file}: a course file given as text names no other file`,
      });
    const named = file;
    const full = resolve(this.base, named);
    this.names.push(full);
    this.pending.push(async () => {
      let read: { bytes: Buffer; name: string };
      try {
        read = await readInput(full, this.stdin, { label: named });
      } catch (e) {
        this.problems.push({ ...source, message: `outcomes file: ${(e as Error).message}` });
        return undefined;
      }
      const shown = this.name === 'stdin' ? named : join(dirname(this.name), named);
      const parsed = this.tree.outcomes.parse(read.bytes, full);
      for (const p of parsed.problems) this.problems.push({ file: shown, ...p });
      if (parsed.problems.length === 0)
        course.outcomes = { file: shown, rows: parsed.rows.map((r) => this.tree.outcomes.toRow(r)), source };
      return { name: shown, bytes: read.bytes };
    });
  }

  /** Within a course: keys and titles that repeat, and references to keys the course does not have. */
  private checkCourse(course: DesiredCourse): void {
    for (const [kindName, objects] of Object.entries(course.objects) as [
      Exclude<KindName, 'enrollments' | 'outcomes'>,
      Desired[],
    ][]) {
      const kind = KINDS[kindName];
      const byKey = new Map<string, Desired>();
      for (const d of objects) {
        if (d.key === undefined) continue;
        const first = byKey.get(d.key.toLowerCase());
        const name = kind.natural ?? 'key';
        if (first)
          this.problems.push({ ...d.source, message: `${name} "${d.key}" repeats ${placeWords(first.source)}` });
        else byKey.set(d.key.toLowerCase(), d);
      }
      if (!keyed(kind)) continue;
      const byTitle = new Map<string, Desired>();
      for (const d of objects) {
        if (d.title === undefined) continue;
        const first = byTitle.get(d.title);
        if (first && (first.key === undefined || d.key === undefined)) {
          this.problems.push({
            ...d.source,
            message:
              `${kind.title} "${d.title}" repeats ${placeWords(first.source)}: give each a key, so a run can ` +
              'tell them apart',
          });
        } else if (!first) byTitle.set(d.title, d);
      }
      for (const d of objects) {
        for (const [field, ref] of Object.entries(d.refs)) {
          const target = kind.refs![field];
          const known = (course.objects[target.kind as Exclude<KindName, 'enrollments' | 'outcomes'>] ?? []).some(
            (o) => o.key === ref,
          );
          if (!known)
            this.problems.push({
              ...d.source,
              line: d.lines[field] ?? d.source.line,
              message: `${field} "${ref}" is not the key of one of this course's ${target.kind} in the file`,
            });
        }
      }
    }
    this.checkModules(course);
    this.checkGradingRubrics(course);
    if (course.enrollments) {
      const sections = new Set((course.objects.sections ?? []).map((s) => s.key!));
      for (const e of course.enrollments) {
        // A section is a key of the file's sections, or one the instance has (an id or SIS form).
        if (e.section && !sections.has(e.section) && !/^\d+$|^sis_section_id:./.test(e.section)) {
          this.problems.push({
            ...e.source,
            message:
              `section "${e.section}" is not a section of this course in the file (give its sis_section_id, ` +
              'or an id or sis_section_id:X of one the instance has)',
          });
        }
      }
    }
  }

  /**
   * A rubric used for grading makes its assignment worth the rubric's points (Canvas sets
   * points_possible to the rubric's total), so a file giving the two other totals would never settle:
   * each run would set the assignment's points, and the rubric's association set them back.
   */
  private checkGradingRubrics(course: DesiredCourse): void {
    for (const r of course.objects.rubrics ?? []) {
      const key = r.refs.assignment;
      if (r.fields.use_for_grading !== true || key === undefined || !Array.isArray(r.fields.criteria)) continue;
      const assignment = (course.objects.assignments ?? []).find((a) => a.key === key);
      const points = assignment?.fields.points_possible;
      if (typeof points !== 'number') continue;
      // To the hundredth, as Canvas shows points: 0.1 + 0.2 is 0.3.
      const total = Math.round((r.fields.criteria as Criterion[]).reduce((n, c) => n + c.points, 0) * 100) / 100;
      if (Math.abs(total - points) > 0.005)
        this.problems.push({
          ...r.source,
          line: r.lines.use_for_grading ?? r.source.line,
          message:
            `a rubric used for grading makes its assignment worth the rubric's points: its criteria come to ` +
            `${total}, and assignment "${key}" has points_possible ${points} (make them agree, or leave out ` +
            'use_for_grading)',
        });
    }
  }

  /**
   * A module's items name objects of the course in the file by key; its prerequisites name modules
   * before it, the only ones the API keeps as prerequisites.
   */
  private checkModules(course: DesiredCourse): void {
    const modules = course.objects.modules ?? [];
    for (const [i, m] of modules.entries()) {
      for (const item of m.items ?? []) {
        if (!item.ref) continue;
        const known = (course.objects[item.ref.kind] ?? []).some((o) => o.key === item.ref!.key);
        if (!known)
          this.problems.push({
            ...item.source,
            message:
              `${item.ref.name} "${item.ref.key}" is not the key of one of this course's ${item.ref.kind} in the ` +
              'file',
          });
      }
      const position = m.fields.position;
      const atPosition =
        typeof position === 'number' ? modules.slice(0, i).find((o) => o.fields.position === position) : undefined;
      if (atPosition)
        this.problems.push({
          ...m.source,
          line: m.lines.position ?? m.source.line,
          message:
            `position ${position} is also module "${atPosition.key ?? atPosition.title}"'s: two modules ` +
            'cannot hold one place',
        });
      const earlier = new Map(modules.slice(0, i).map((o) => [o.key, o]));
      for (const key of m.prerequisites ?? []) {
        const before = earlier.get(key);
        const message = before
          ? placedAfter(before, position)
          : modules.some((o) => o.key === key)
            ? `prerequisites "${key}" is a module after this one: a prerequisite comes before the module that needs it`
            : `prerequisites "${key}" is not the key of a module of this course in the file`;
        if (message) this.problems.push({ ...m.source, line: m.lines.prerequisites ?? m.source.line, message });
      }
    }
  }
}

/**
 * Why a prerequisite the file lists before a module would not come before it once both are placed:
 * the API keeps only prerequisites placed before the module, and a module first has none.
 */
function placedAfter(prerequisite: Desired, position: Value | undefined): string | undefined {
  if (typeof position !== 'number') return undefined;
  const key = prerequisite.key ?? String(prerequisite.title);
  if (position <= 1) return `prerequisites "${key}" cannot come before a module at position 1`;
  const at = prerequisite.fields.position;
  return typeof at === 'number' && at >= position
    ? `prerequisites "${key}" is placed at position ${at}, not before this module's ${position}: a prerequisite ` +
        'comes before the module that needs it'
    : undefined;
}

/**
 * The place of every node of a document, as a path from its top (`courses[0].sections[2].name`):
 * a key and its value share the pair's. Nesting is bounded (scanInput), so recursion is safe.
 */
function placesOf(node: Node, path: string, places: Map<Node, string>): void {
  if (path) places.set(node, path);
  if (isMap(node)) {
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : '?';
      const here = /^[A-Za-z_][\w-]*$/.test(key) ? (path ? `${path}.${key}` : key) : `${path}[${JSON.stringify(key)}]`;
      if (pair.key && typeof pair.key === 'object') places.set(pair.key as Node, here);
      if (pair.value && typeof pair.value === 'object') placesOf(pair.value as Node, here, places);
    }
  } else if (isSeq(node)) {
    (node.items as Node[]).forEach((item, i) => {
      if (item) placesOf(item, `${path}[${i}]`, places);
    });
  }
}

/** Across files and courses: a course or a section (SIS ids are the instance's, not a course's) listed twice. */
function checkAcross(courses: DesiredCourse[], problems: ProblemList<FileProblem>): void {
  const courseAt = new Map<string, Source>();
  const sectionAt = new Map<string, { source: Source; course: DesiredCourse }>();
  const where = (s: Source, here: Source) => (s.file === here.file ? placeWords(s) : placeOf(s.file, s));
  for (const c of courses) {
    const first = courseAt.get(c.sis);
    if (first) problems.push({ ...c.source, message: `sis_course_id "${c.sis}" repeats ${where(first, c.source)}` });
    else courseAt.set(c.sis, c.source);
    for (const s of c.objects.sections ?? []) {
      // Repeated within one course, checkCourse said so already.
      const seen = sectionAt.get(s.key!.toLowerCase());
      if (seen && seen.course !== c)
        problems.push({
          ...s.source,
          message: `sis_section_id "${s.key}" repeats ${where(seen.source, s.source)} (in course ${seen.course.sis})`,
        });
      else if (!seen) sectionAt.set(s.key!.toLowerCase(), { source: s.source, course: c });
    }
  }
  // Enrollment rows repeated within a course (the roster's key: user, role, section).
  for (const c of courses) {
    const seen = new Map<string, Source>();
    for (const e of c.enrollments ?? []) {
      const first = seen.get(e.key);
      if (first)
        problems.push({
          ...e.source,
          message:
            `enrollment of ${e.user} as ${e.role}${e.section ? ` in ${e.section}` : ''} repeats ` +
            `${where(first, e.source)}`,
        });
      else seen.set(e.key, e.source);
    }
  }
}
