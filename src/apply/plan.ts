// The plan: what the instance has, read once, against what the files ask for, as the changes an
// apply would make and the order it would make them in. Reading it resolves everything the files
// name on the instance — users, sections, accounts, cross-listing targets — and what does not exist
// is a problem with its file and line, found before anything is written.
//
// Each change carries how it is made (a task for the bulk engine: find, compare, create, update), so
// the apply runs exactly what the plan showed.
import { pool } from '../pool.js';
import type { Journal } from '../bulk/journal.js';
import { placeFields } from '../bulk/csv-input.js';
import { runRows, type BulkRow } from '../bulk/job.js';
import { ProblemList } from '../bulk/problems.js';
import type { ApiClient } from '../client/client.js';
import type { ApiObject } from '../spec/types/common.js';
import { parseUserRef, userRefKey } from '../client/user-ref.js';
import { ApiError, FailureError } from '../errors.js';
import { canSet, sameValue, updateCalls, whyNot, type KindVerbs, type Value, type Verb, valueAt } from './fields.js';
import { KIND_ORDER, KINDS, keyed, LIVE_ENROLLMENTS, listExisting, manages, type KindName } from './kinds.js';
import type { ApplyTree, Desired, DesiredCourse, DesiredEnrollment, FileProblem, Source } from './model.js';
import { findListed } from './people.js';
import { ASSOCIATION_FIELDS, readRubric } from './rubrics.js';
import { isFrontPage, pageArg, readPage } from './pages.js';
import { itemWrites, wantedLabel, writeItems, type ItemTargets } from './modules.js';
import type { KeyStore } from './state.js';

/** An object a change needs to exist first; `id` is set once it does. */
export interface Slot {
  id?: number;
  /** `section BIO-201-A`, for "not done: … was not created". */
  label: string;
}

export interface Change {
  field: string;
  /** The API's value now, and the file's, as people read them (a reference by the key the file gives). */
  from: unknown;
  to: unknown;
  /** Some verb can make it; otherwise it is reported, never applied. */
  applicable: boolean;
  why?: string;
  /** What is sent, when it is not `to` (the id a reference resolves to). */
  value?: Value;
}

type Op = 'create' | 'update' | 'delete' | 'conclude';

/** The order changes are made in: each step after the ones it may need. */
export const STEPS = [
  'courses',
  'sections',
  'cross-listing',
  'enrollments',
  'assignment groups',
  'assignments',
  'topics, announcements, quizzes and rubrics',
  'pages',
  // One at a time, in the file's order: a module's place moves the others, and its prerequisites come before it.
  'modules',
  'outcomes',
  'removals',
] as const;

interface Found {
  id: number;
  current: ApiObject;
}

/** How a change is made: what the bulk engine runs for it. */
interface ActionTask {
  /** The target as the plan read it; when asked again (a write whose outcome is unknown), as it is now. */
  find(fresh: boolean): Promise<Found | undefined>;
  compare(current: ApiObject): Change[];
  create(): Promise<number>;
  update(found: Found, changes: Change[]): Promise<void>;
}

export interface Action {
  /** Unique in the plan: what the journal records it under. */
  id: string;
  course: string;
  /** What it changes: course, section, enrollment, assignment, topic, announcement, quiz, outcome, outcome group. */
  kind: string;
  op: Op;
  /** What names the object: a SIS id, the file's key, a title, a user and role. */
  key: string;
  source?: Source;
  /** The object's id, when it exists. */
  target?: number;
  /** A create's fields. */
  fields?: Record<string, Value>;
  /** An update's differences. */
  changes?: Change[];
  /** Index into STEPS. */
  step: number;
  needs: Slot[];
  /**
   * What it needs that is made earlier in its own step (a module's prerequisites): looked at just
   * before it is sent, since the step makes them one at a time.
   */
  before?: Slot[];
  /** The object a create makes. */
  slot?: Slot;
  task?: ActionTask;
  /** Outcome rows run together, a course's tree at a time (execute.ts). */
  outcomes?: OutcomeGroup;
  /** Which row of `outcomes` it is: the row's key, unique in a tree (rows of a tree on one line share their line). */
  row?: string;
  /** What the create or update sets that destroys (`--state inactive`): it is asked about like a deletion. */
  destroys?: string[];
  /** Set by the apply. */
  status?: 'done' | 'failed' | 'not_done';
  error?: string;
}

interface OutcomeGroup {
  course: string;
  rows: BulkRow[];
}

export interface CoursePlan {
  sis: string;
  /** Its id, when it exists. */
  id?: number;
  source: Source;
  actions: Action[];
  /** Objects of each kind that already match the file. */
  unchanged: Partial<Record<'course' | KindName, number>>;
  /** Objects --prune leaves because no command can remove them. */
  kept: { kind: KindName; count: number; why: string }[];
  /**
   * Modules the file places that already stand there: not changes of the plan, but moved back by
   * the run if the modules it makes or removes move them (execute.ts's placeModules).
   */
  placed: Action[];
  /** Titles the instance gives two or more objects of a kind, one of which the file's object was matched to. */
  ambiguous: Ambiguous[];
}

export interface Ambiguous {
  kind: KindName;
  title: string;
  source: Source;
  /** Every object of the course with that title, none claimed by another of the file's objects. */
  ids: number[];
  /** The one matched: the first the instance lists. */
  chosen: number;
}

export interface Plan {
  courses: CoursePlan[];
  problems: ProblemList<FileProblem>;
  /** Done when the plan is applied, before any change: keys first matched by title, remembered. */
  remember: (() => void)[];
  /**
   * Said once the apply ends: objects a create found made meanwhile (by another run, or a person)
   * when it looked again just before creating, and took over instead of making them twice.
   */
  adopted: string[];
}

/**
 * Runs a verb of the tree: `values` are fields, each sent through the flag that sets it; `options`
 * are given as they are (the context: --course; an enrollment's --user). Answers the verb's object.
 */
export type Invoke = (
  verb: Verb,
  args: string[],
  values: Record<string, Value>,
  options: Record<string, string | undefined>,
) => Promise<ApiObject | undefined>;

export interface PlanContext {
  client: ApiClient;
  tree: ApplyTree;
  keys: KeyStore;
  invoke: Invoke;
  prune: boolean;
  concurrency: number;
  /** A journal that records nothing, for planning outcome trees with the bulk engine. */
  planJournal: Journal;
}

const notFound = (e: unknown) => e instanceof ApiError && e.status === 404;
/** Kinds matched by the file's key or their title, whose objects may grade or be graded by another. */
type KeyedKind = Exclude<KindName, 'sections' | 'enrollments' | 'outcomes'>;

async function orUndefined<T>(p: Promise<T>): Promise<T | undefined> {
  try {
    return await p;
  } catch (e) {
    if (notFound(e)) return undefined;
    throw e;
  }
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

const same = (a: unknown, b: unknown) => String(a ?? '').toLowerCase() === String(b ?? '').toLowerCase();
const omit = (fields: Record<string, Value>, ...names: string[]) =>
  Object.fromEntries(Object.entries(fields).filter(([f]) => !names.includes(f)));

/**
 * The differences between the fields a file gives and an object, each marked with whether an update verb can make it.
 */
function differences(verbs: KindVerbs, one: string, wanted: Record<string, Value>, current: ApiObject): Change[] {
  const changes: Change[] = [];
  for (const [field, value] of Object.entries(wanted)) {
    const spec = verbs.fields.get(field);
    if (!spec || sameValue(spec, valueAt(current, field), value)) continue;
    const applicable = verbs.updates.some((v) => canSet(v, field, value));
    changes.push({
      field,
      from: valueAt(current, field) ?? null,
      to: value,
      applicable,
      ...(applicable ? {} : { why: whyNot(verbs, one, field, value, false) }),
    });
  }
  return changes;
}

/**
 * Where the modules a file places end up among `count`: each at its position, but those asked to go
 * past the end take the last places, in the order of their positions (then the file's), as the API
 * puts each at the end in turn. Distinct positions (the file is checked for that) stay distinct.
 */
export function finalPlaces(positions: (number | undefined)[], count: number): (number | undefined)[] {
  const placed = positions.flatMap((p, i) => (p === undefined ? [] : [{ p, i }]));
  placed.sort((a, b) => a.p - b.p || a.i - b.i);
  const out: (number | undefined)[] = positions.map(() => undefined);
  let last = Math.max(count, placed.length) + 1;
  for (let k = placed.length - 1; k >= 0; k--) {
    last = Math.min(placed[k].p, last - 1);
    out[placed[k].i] = Math.max(last, 1);
  }
  return out;
}

/** What a change sends: its value when it has one (a reference's id), else what the file says. */
const sent = (ch: Change): Value => ('value' in ch ? ch.value! : (ch.to as Value));

/** Makes the applicable changes through the update verbs that can. */
async function applyChanges(
  spec: Pick<ObjectSpec, 'verbs' | 'options' | 'arg'>,
  id: number,
  changes: Change[],
  invoke: Invoke,
): Promise<ApiObject | undefined> {
  const values = Object.fromEntries(changes.filter((ch) => ch.applicable).map((ch) => [ch.field, sent(ch)]));
  const { calls, impossible } = updateCalls(spec.verbs, values);
  if (impossible.length) throw new FailureError(`no command can set ${impossible.join(', ')}`);
  let answer: ApiObject | undefined;
  for (const call of calls) answer = await invoke(call.verb, [argOf(spec, id)], call.values, spec.options);
  return answer;
}

/** How the verbs of a kind are told which object: its id, but for a page (pages.ts). */
const argOf = (spec: Pick<ObjectSpec, 'arg'>, id: number) => (spec.arg ? spec.arg(id) : String(id));

/** An object of a kind with fields, as a plan and its task see it. */
interface ObjectSpec {
  verbs: KindVerbs;
  one: string;
  /** The fields the file gives. */
  fields: Record<string, Value>;
  /** Reference fields, to the object named and as the file names it: `assignment_id` → (slot, 'lab1'). */
  refs?: [field: string, slot: Slot, shown: string][];
  /** The context options its verbs take (`--course`). */
  options: Record<string, string | undefined>;
  /** Looks it up afresh. */
  lookup(): Promise<ApiObject | undefined>;
  /** Looks for it just before it is created, when that differs from `lookup`. */
  lookAgain?(): Promise<ApiObject | undefined>;
  /** What its create verb answers, as the listing reads it (a rubric answers with its association). */
  read?(made: ApiObject): ApiObject;
  /** Fields its update verb sets as one (a rubric's association): a change of one sends them all. */
  together?: readonly string[];
  /** How its verbs name it, when not by its id. */
  arg?(id: number): string;
  /** The object with its fields as the file names them, where the API shows them otherwise (a course's term). */
  asNamed?(current: ApiObject): ApiObject;
}

/**
 * The changes an update sends: with one of the fields set as one, the others as the file gives them.
 * What the verb cannot say of those is what it sets when not told (a switch not given).
 */
function sentTogether(spec: ObjectSpec, changes: Change[]): Change[] {
  const together = spec.together ?? [];
  if (!changes.some((ch) => ch.applicable && together.includes(ch.field))) return changes;
  const more: Change[] = [];
  for (const field of together) {
    if (changes.some((ch) => ch.field === field)) continue;
    const ref = spec.refs?.find(([f]) => f === field);
    if (ref) more.push({ field, from: null, to: ref[2], value: ref[1].id ?? null, applicable: true });
    else if (field in spec.fields && spec.verbs.updates.some((v) => canSet(v, field, spec.fields[field])))
      more.push({ field, from: null, to: spec.fields[field], applicable: true });
  }
  return [...changes, ...more];
}

/** The differences of an object from its spec; a reference to an object still to be made always differs. */
function compareObject(spec: ObjectSpec, current: ApiObject): Change[] {
  const changes = differences(spec.verbs, spec.one, spec.fields, spec.asNamed ? spec.asNamed(current) : current);
  for (const [field, slot, shown] of spec.refs ?? []) {
    if (slot.id !== undefined && Number(current[field]) === slot.id) continue;
    changes.push({ field, from: current[field] ?? null, to: shown, value: slot.id ?? null, applicable: true });
  }
  return changes;
}

/** The task of an object that exists (`planned`), or is made by this change (`slot`). */
function objectTask(
  spec: ObjectSpec,
  invoke: Invoke,
  at: { planned?: ApiObject; slot?: Slot; onCreated?: (id: number) => void; onAdopted?: (o: ApiObject) => void },
): ActionTask {
  let looked = false;
  const refValues = () =>
    Object.fromEntries((spec.refs ?? []).map(([field, slot]) => [field, slot.id ?? null])) as Record<string, Value>;
  return {
    async find(fresh) {
      if (!fresh && !looked) {
        looked = true;
        if (at.planned) return { id: at.planned.id as number, current: at.planned };
        // A create looks again just before it is made: another run of the file, or a person, may
        // have made it since the plan was read. Then it is that object, compared and updated.
        const now = await (spec.lookAgain ?? spec.lookup)();
        if (!now) return undefined;
        at.onAdopted?.(now);
        return { id: now.id as number, current: now };
      }
      const now = await spec.lookup();
      return now ? { id: now.id as number, current: now } : undefined;
    },
    compare: (current) => compareObject(spec, current),
    async create() {
      const create = spec.verbs.create!;
      const all = { ...spec.fields, ...refValues() };
      const answer = await invoke(
        create,
        [],
        Object.fromEntries(Object.entries(all).filter(([f, v]) => canSet(create, f, v))),
        spec.options,
      );
      const made = answer && spec.read ? spec.read(answer) : answer;
      const id = made?.id;
      if (typeof id !== 'number') throw new FailureError(`${spec.verbs.create!.spec.name} answered no id`);
      if (at.slot) at.slot.id = id;
      at.onCreated?.(id);
      // What the create verb could not say (a topic's lock, a quiz left unpublished), set now.
      const left = sentTogether(spec, compareObject(spec, made!));
      const { calls, impossible } = updateCalls(spec.verbs, Object.fromEntries(left.map((ch) => [ch.field, sent(ch)])));
      for (const call of calls) await invoke(call.verb, [argOf(spec, id)], call.values, spec.options);
      if (impossible.length)
        throw new FailureError(
          `created ${spec.one} ${id}, but ` +
            `${impossible.map((f) => whyNot(spec.verbs, spec.one, f, all[f], true)).join('; ')}`,
        );
      return id;
    },
    async update(found, changes) {
      await applyChanges(spec, found.id, sentTogether(spec, changes), invoke);
    },
  };
}

/**
 * Pages' url slugs by page_id, as module items name pages: as planned, then once as they are when
 * applied. A slug a page had is kept: a module as the plan read it names a page renamed since by
 * the slug it had then.
 */
class PageUrls {
  private readonly known = new Map<number, string>();
  private readonly pages = new Map<string, number>();
  private fresh?: Promise<void>;

  constructor(
    private readonly client: ApiClient,
    private readonly course: string,
    listed: ApiObject[],
  ) {
    for (const p of listed) this.set(p.id as number, String(p.url));
  }

  private set(id: number, url: string): void {
    this.known.set(id, url);
    this.pages.set(url, id);
  }

  get(id: number): string | undefined {
    return this.known.get(id);
  }

  page(url: string): number | undefined {
    return this.pages.get(url);
  }

  refresh(): Promise<void> {
    this.fresh ??= (async () => {
      for await (const p of this.client.ops.pages.list({ course_id: this.course })) this.set(p.page_id, p.url);
    })();
    return this.fresh;
  }
}

export async function makePlan(files: DesiredCourse[], pc: PlanContext): Promise<Plan> {
  return new Planner(files, pc).plan();
}

class Planner {
  private readonly problems = new ProblemList<FileProblem>();
  private readonly remember: (() => void)[] = [];
  private readonly adopted: string[] = [];
  private readonly courseSlots = new Map<string, Slot>();
  /** Courses outside the files named as cross-listing targets, looked up once each. */
  private readonly targets = new Map<string, Promise<Slot | undefined>>();
  private serial = 0;

  constructor(
    private readonly files: DesiredCourse[],
    private readonly pc: PlanContext,
  ) {}

  private problem(source: Source, message: string, line?: number): void {
    this.problems.push({ ...source, line: line ?? source.line, message });
  }

  async plan(): Promise<Plan> {
    const { client, concurrency } = this.pc;
    // Every course first: another course's cross-listing may name one.
    const found = await pool(this.files, concurrency, (c) =>
      orUndefined(client.ops.courses.get({ id: `sis_course_id:${c.sis}` })),
    );
    this.files.forEach((c, i) => {
      this.courseSlots.set(c.sis.toLowerCase(), { id: found[i]?.id, label: `course ${c.sis}` });
    });
    const courses = await pool(
      this.files.map((c, i) => [c, found[i]] as const),
      concurrency,
      ([c, course]) => this.course(c, course),
    );
    return { courses, problems: this.problems, remember: this.remember, adopted: this.adopted };
  }

  private action(plan: CoursePlan, a: Omit<Action, 'id' | 'course'>): void {
    plan.actions.push({ id: `${plan.sis}|${a.kind}|${a.key}|${a.op}|${this.serial++}`, course: plan.sis, ...a });
  }

  private unchanged(plan: CoursePlan, kind: 'course' | KindName): void {
    plan.unchanged[kind] = (plan.unchanged[kind] ?? 0) + 1;
  }

  /** A create that found its object made meanwhile: said at the end of the apply. */
  private adopt(what: string, o: ApiObject): void {
    this.adopted.push(
      `${what} was made meanwhile, by another run or a person (id ${String(o.id)}): this run took it over instead ` +
        'of making it again',
    );
  }

  /** Fields a create verb requires that the file does not give. */
  private requireForCreate(create: Verb, fields: Record<string, Value>, source: Source, what: string): void {
    for (const option of create.spec.options ?? []) {
      if (option.required && option.field && fields[option.field.name] === undefined)
        this.problem(source, `${what} does not exist, and creating it needs ${option.field.name}`);
    }
  }

  /**
   * The term the file names for a course, among its root account's terms (the domain's, for a new
   * course the file places in no account). One the instance does not have is a problem of the file.
   */
  private async term(c: DesiredCourse, home: ApiObject | undefined): Promise<ApiObject | undefined> {
    const named = c.fields.term;
    if (typeof named !== 'string') return undefined;
    const root = home ? String(home.root_account_id ?? home.account_id ?? home.id) : 'self';
    const term = await orUndefined(this.pc.client.ops.terms.get({ account_id: root, id: named }));
    if (!term || term.workflow_state === 'deleted') {
      this.problem(c.source, `term "${named}" not found`, c.lines.term);
      return undefined;
    }
    return term;
  }

  private async course(c: DesiredCourse, course: ApiObject | undefined): Promise<CoursePlan> {
    const { client, tree, invoke } = this.pc;
    const plan: CoursePlan = {
      sis: c.sis,
      id: course?.id as number | undefined,
      source: c.source,
      actions: [],
      unchanged: {},
      kept: [],
      placed: [],
      ambiguous: [],
    };
    const slot = this.courseSlots.get(c.sis.toLowerCase())!;
    const ref = `sis_course_id:${c.sis}`;
    let account: ApiObject | undefined;
    if (!course && c.account !== undefined) {
      account = await orUndefined(client.ops.accounts.get({ id: c.account }));
      if (!account) this.problem(c.source, `account "${c.account}" not found`, c.lines.account);
    }
    const term = await this.term(c, course ?? account);
    const spec: ObjectSpec = {
      verbs: tree.course,
      one: 'course',
      fields: c.fields,
      options: { account: c.account },
      lookup: () => orUndefined(client.ops.courses.get({ id: ref })),
      // The course shows its term as a number: the file's term is that term, however the file names it.
      ...(term
        ? {
            asNamed: (o: ApiObject) => ({
              ...o,
              term: o.enrollment_term_id === term.id ? c.fields.term : (o.enrollment_term_id ?? null),
            }),
          }
        : {}),
    };
    const needs = course ? [] : [slot];
    if (!course) {
      this.requireForCreate(tree.course.create!, c.fields, c.source, `course ${c.sis}`);
      this.action(plan, {
        kind: 'course',
        op: 'create',
        key: c.sis,
        source: c.source,
        fields: c.fields,
        step: 0,
        needs: [],
        slot,
        task: objectTask(spec, invoke, { slot, onAdopted: (o) => this.adopt(`course ${c.sis}`, o) }),
      });
    } else {
      const changes = compareObject(spec, course);
      if (changes.length)
        this.action(plan, {
          kind: 'course',
          op: 'update',
          key: c.sis,
          source: c.source,
          target: course.id as number,
          changes,
          step: 0,
          needs: [],
          task: objectTask(spec, invoke, { planned: course }),
        });
      else this.unchanged(plan, 'course');
    }

    // What the instance has of each kind the file lists (nothing yet, for a course to be created).
    const listed = new Map<KindName, ApiObject[]>();
    const wanted = new Set<KindName>(Object.keys(c.objects) as KindName[]);
    if (c.enrollments) wanted.add('enrollments');
    // Enrollments name sections: the course's are read for them even when the file lists none.
    if (c.enrollments?.some((e) => e.section)) wanted.add('sections');
    if (course) {
      const kinds = [...wanted];
      const lists = await Promise.all(kinds.map((k) => collect(listExisting(client, k, ref))));
      kinds.forEach((k, i) => {
        listed.set(k, lists[i]);
      });
    }
    const sections = await this.sections(plan, c, listed.get('sections') ?? [], needs, course);
    // Where the people a roster names are listed: the root account (the domain's, when the file names none).
    const home = course ?? account;
    const root = home ? String(home.root_account_id ?? (course ? course.account_id : home.id)) : 'self';
    if (c.enrollments)
      await this.enrollments(
        plan,
        c,
        listed.get('enrollments') ?? [],
        listed.get('sections') ?? [],
        sections,
        needs,
        course,
        root,
      );
    const slots = new Map<KindName, Map<string, Slot>>();
    const claimed = new Map<KindName, Set<number>>();
    const pageUrls = new PageUrls(client, ref, listed.get('pages') ?? []);
    // In the kinds' order: a kind's keys are known before a later one names them.
    const keyedKinds = KIND_ORDER.filter((kind): kind is KeyedKind => keyed(KINDS[kind])).filter((k) => c.objects[k]);
    for (const kind of keyedKinds)
      slots.set(kind, this.keyedKind(plan, c, kind, listed.get(kind) ?? [], needs, slots, claimed, pageUrls));
    // Once every kind is matched: whether an assignment may go depends on the topics the file keeps.
    if (this.pc.prune) for (const kind of keyedKinds) this.pruneKeyed(plan, c, kind, listed, slots, claimed);
    if (c.outcomes) await this.outcomes(plan, c, course);
    return plan;
  }

  private async sections(
    plan: CoursePlan,
    c: DesiredCourse,
    listed: ApiObject[],
    needs: Slot[],
    course: ApiObject | undefined,
  ): Promise<Map<string, Slot>> {
    const slots = new Map<string, Slot>();
    const desired = c.objects.sections;
    if (!desired) return slots;
    const { client, tree, invoke } = this.pc;
    const verbs = tree.kinds.sections;
    const bySis = new Map(
      listed
        .filter((s) => typeof s.sis_section_id === 'string')
        .map((s) => [(s.sis_section_id as string).toLowerCase(), s]),
    );
    // A section not listed here may be this course's, cross-listed into another, or another course's.
    const elsewhere = await pool(
      desired.filter((d) => !bySis.has(d.key!.toLowerCase())),
      this.pc.concurrency,
      async (d) => [d, await orUndefined(client.ops.sections.get({ id: `sis_section_id:${d.key}` }))] as const,
    );
    for (const [d, s] of elsewhere) {
      if (!s) continue;
      if (course !== undefined && s.nonxlist_course_id === course.id) bySis.set(d.key!.toLowerCase(), s);
      else
        this.problem(
          d.source,
          `sis_section_id "${d.key}" is a section of another course (course ${s.course_id})`,
          d.lines.sis_section_id,
        );
    }
    const claimed = new Set<number>();
    for (const d of desired) {
      const s = bySis.get(d.key!.toLowerCase());
      const slot: Slot = { id: s?.id as number | undefined, label: `section ${d.key}` };
      slots.set(d.key!, slot);
      const lookup = () => orUndefined(client.ops.sections.get({ id: `sis_section_id:${d.key}` }));
      const spec: ObjectSpec = {
        verbs,
        one: 'section',
        fields: omit(d.fields, 'crosslist_to'),
        options: { course: `sis_course_id:${c.sis}` },
        lookup,
      };
      if (!s) {
        this.requireForCreate(verbs.create!, d.fields, d.source, `section ${d.key}`);
        this.action(plan, {
          kind: 'section',
          op: 'create',
          key: d.key!,
          source: d.source,
          fields: spec.fields,
          step: 1,
          needs,
          slot,
          task: objectTask(spec, invoke, { slot, onAdopted: (o) => this.adopt(`section ${d.key!}`, o) }),
        });
      } else {
        claimed.add(s.id as number);
        const changes = compareObject(spec, s);
        if (changes.length)
          this.action(plan, {
            kind: 'section',
            op: 'update',
            key: d.key!,
            source: d.source,
            target: s.id as number,
            changes,
            step: 1,
            needs,
            task: objectTask(spec, invoke, { planned: s }),
          });
        else if (!('crosslist_to' in d.fields)) this.unchanged(plan, 'sections');
      }
      if ('crosslist_to' in d.fields) await this.crosslist(plan, c, d, s, slot, needs, lookup);
    }
    if (this.pc.prune) {
      for (const s of listed)
        if (!claimed.has(s.id as number) && manages('sections', s))
          this.removal(plan, 'sections', s, String(s.sis_section_id), {});
    }
    return slots;
  }

  /** Cross-listing is a step of its own: after every course and section exists, the target included. */
  private async crosslist(
    plan: CoursePlan,
    c: DesiredCourse,
    d: Desired,
    s: ApiObject | undefined,
    slot: Slot,
    needs: Slot[],
    lookup: () => Promise<ApiObject | undefined>,
  ): Promise<void> {
    const to = d.fields.crosslist_to as string | null;
    const verbs = this.pc.tree.kinds.sections;
    const line = d.lines.crosslist_to;
    let target: Slot | undefined;
    if (to !== null) {
      const sis = /^sis_course_id:(.+)$/i.exec(to)?.[1];
      if (sis && same(sis, c.sis))
        return this.problem(d.source, 'crosslist_to names the course the section is listed under', line);
      target = sis ? this.courseSlots.get(sis.toLowerCase()) : undefined;
      if (!target) {
        let pending = this.targets.get(to);
        if (!pending) {
          pending = orUndefined(this.pc.client.ops.courses.get({ id: to })).then((x) =>
            x ? { id: x.id, label: `course ${to}` } : undefined,
          );
          this.targets.set(to, pending);
        }
        target = await pending;
        if (!target) return this.problem(d.source, `crosslist_to: course "${to}" not found`, line);
      }
    }
    const into = (x: ApiObject) =>
      x.nonxlist_course_id !== null && x.nonxlist_course_id !== undefined ? (x.course_id as number) : null;
    const compare = (x: ApiObject): Change[] => {
      const now = into(x);
      if (target === undefined ? now === null : target.id !== undefined && target.id === now) return [];
      return [
        {
          field: 'crosslist_to',
          from: now === null ? null : x.sis_course_id ? `sis_course_id:${String(x.sis_course_id)}` : now,
          to,
          applicable: true,
        },
      ];
    };
    // A section to be made is cross-listed after it is; it is not listed anywhere yet.
    const changes = s ? compare(s) : [{ field: 'crosslist_to', from: null, to, applicable: true }];
    if (!changes.length) {
      this.unchanged(plan, 'sections');
      return;
    }
    const invoke = this.pc.invoke;
    let looked = false;
    this.action(plan, {
      kind: 'section',
      op: 'update',
      key: d.key!,
      source: { ...d.source, line: line ?? d.source.line },
      target: s?.id as number | undefined,
      changes,
      step: 2,
      needs: [...needs, slot, ...(target ? [target] : [])],
      task: {
        async find(fresh) {
          const x = !fresh && !looked && s ? s : await lookup();
          looked = true;
          return x ? { id: x.id as number, current: x } : undefined;
        },
        compare,
        create: async () => {
          throw new FailureError(`section ${d.key} does not exist`);
        },
        async update(found) {
          for (const call of updateCalls(verbs, { crosslist_to: to }).calls)
            await invoke(call.verb, [String(found.id)], call.values, {});
        },
      },
    });
  }

  private async enrollments(
    plan: CoursePlan,
    c: DesiredCourse,
    listed: ApiObject[],
    sections: ApiObject[],
    fileSections: Map<string, Slot>,
    needs: Slot[],
    course: ApiObject | undefined,
    root: string,
  ): Promise<void> {
    const { client, tree, invoke } = this.pc;
    const rows = c.enrollments!;
    const add = tree.kinds.enrollments.create!;
    const ref = `sis_course_id:${c.sis}`;

    // Each row's section: one of the file's, or one the instance has in this course.
    const sectionOf = new Map<DesiredEnrollment, Slot>();
    const instanceSections = new Map<string, Promise<ApiObject | undefined>>();
    for (const row of rows) {
      if (!row.section) continue;
      // A SIS enrollments.csv names the file's own sections by their SIS id, as sis_section_id:X.
      const bare = row.section.toLowerCase().startsWith('sis_section_id:') ? row.section.slice(15) : undefined;
      const fileSlot = fileSections.get(row.section) ?? (bare === undefined ? undefined : fileSections.get(bare));
      if (fileSlot) {
        sectionOf.set(row, fileSlot);
        continue;
      }
      const key = row.section.toLowerCase();
      if (!instanceSections.has(key)) {
        const local = sections.find(
          (s) => String(s.id) === row.section || same(`sis_section_id:${String(s.sis_section_id ?? '')}`, row.section),
        );
        instanceSections.set(
          key,
          local ? Promise.resolve(local) : orUndefined(client.ops.sections.get({ id: row.section })),
        );
      }
      const s = await instanceSections.get(key)!;
      if (!s) this.problem(row.source, `section "${row.section}" not found`);
      else if (course === undefined || (s.course_id !== course.id && s.nonxlist_course_id !== course.id))
        this.problem(row.source, `section "${row.section}" is not a section of course ${c.sis}`);
      else sectionOf.set(row, { id: s.id as number, label: `section ${row.section}` });
    }
    // Enrollments of this course's sections cross-listed elsewhere moved with them: they are read there.
    const here = new Set(sections.map((s) => s.id as number));
    const away = [
      ...new Set(
        [...sectionOf.values()]
          .map((s) => s.id)
          .filter((id): id is number => id !== undefined && course !== undefined && !here.has(id)),
      ),
    ];
    const moved = (
      await Promise.all(
        away.map((id) => collect(client.ops.enrollments.listSection({ section_id: id, state: [...LIVE_ENROLLMENTS] }))),
      )
    ).flat();
    const existing: ApiObject[] = [...listed, ...moved];
    // A roster may be thousands of rows: enrollments by user, and users by each way a row may name one.
    const byUser = new Map<number, ApiObject[]>();
    const known = new Map<string, number>();
    for (const e of existing) {
      const id = e.user_id as number;
      byUser.set(id, [...(byUser.get(id) ?? []), e]);
      const u = (e.user ?? {}) as ApiObject;
      known.set(String(id), id);
      if (typeof u.sis_user_id === 'string') known.set(`sis_user_id:${u.sis_user_id}`, id);
      if (typeof u.login_id === 'string') known.set(`sis_login_id:${u.login_id.toLowerCase()}`, id);
    }

    // Users as the rows name them: found among the enrollments read, else looked up, all before any write.
    const refs = new Map(rows.map((row) => [row, parseUserRef(row.user)]));
    const userIds = new Map<string, number | undefined>();
    const toFind = new Map<string, string>();
    for (const r of refs.values()) {
      if ('problem' in r) continue;
      const k = userRefKey(r);
      if (userIds.has(k) || toFind.has(k)) continue;
      const id = known.get(k);
      if (id !== undefined) userIds.set(k, id);
      else toFind.set(k, r.path);
    }
    await findListed(client, root, toFind, userIds);
    const looked = await pool(
      [...toFind],
      this.pc.concurrency,
      async ([, path]) => (await orUndefined(client.ops.users.get({ id: path })))?.id,
    );
    [...toFind.keys()].forEach((k, i) => {
      userIds.set(k, looked[i]);
    });

    const claimed = new Set<number>();
    for (const row of rows) {
      const r = refs.get(row)!;
      const user = 'problem' in r ? undefined : userIds.get(userRefKey(r));
      if (user === undefined) {
        this.problem(row.source, `user "${row.user}" not found`);
        continue;
      }
      const section = sectionOf.get(row);
      if (row.section && !section) continue;
      const matches = (e: ApiObject) =>
        e.user_id === user &&
        same(e.role, row.role) &&
        (section === undefined || (section.id !== undefined && e.course_section_id === section.id));
      const match = (byUser.get(user) ?? []).find((e) => !claimed.has(e.id as number) && matches(e));
      const key = `${row.user} ${row.type ?? row.role}${row.section ? ` in ${row.section}` : ''}`;
      // `enrollments add` takes a roster row's columns as its flags.
      const options = {
        user: String(user),
        ...(row.type ? { type: row.type } : { role: row.role }),
        ...(row.state ? { state: row.state } : {}),
      };
      const find = async (): Promise<Found | undefined> => {
        const places =
          section?.id !== undefined && !here.has(section.id)
            ? client.ops.enrollments.listSection({
                section_id: section.id,
                user_id: user,
                state: [...LIVE_ENROLLMENTS],
              })
            : client.ops.enrollments.listCourse({ course_id: ref, user_id: user, state: [...LIVE_ENROLLMENTS] });
        for (const e of await collect(places)) if (matches(e)) return { id: e.id, current: e };
        return undefined;
      };
      const compare = (e: ApiObject): Change[] =>
        row.state && row.state !== e.enrollment_state
          ? [{ field: 'state', from: e.enrollment_state, to: row.state, applicable: true }]
          : [];
      // Enrolling the same user, role and section again sets the existing enrollment's state.
      const update = async (found: Found, changes: Change[]) => {
        await invoke(
          add,
          [],
          {},
          {
            ...options,
            role: String(found.current.role),
            type: undefined,
            state: String(changes[0].to),
            section: String(found.current.course_section_id),
          },
        );
      };
      let first = true;
      const planned = (fresh: boolean, now: Found | undefined) => {
        if (first && !fresh) {
          first = false;
          return Promise.resolve(now);
        }
        return find();
      };
      if (!match) {
        const slot: Slot = { label: `enrollment of ${row.user}` };
        this.action(plan, {
          kind: 'enrollment',
          op: 'create',
          key,
          source: row.source,
          fields: options,
          step: 3,
          needs: [...needs, ...(section ? [section] : [])],
          slot,
          task: {
            find: (fresh) => planned(fresh, undefined),
            compare,
            async create() {
              const made = await invoke(
                add,
                [],
                {},
                {
                  ...options,
                  ...(section
                    ? { section: section.id !== undefined ? String(section.id) : `sis_section_id:${row.section}` }
                    : { course: ref }),
                },
              );
              slot.id = made?.id as number;
              return slot.id;
            },
            update,
          },
        });
        continue;
      }
      claimed.add(match.id as number);
      const changes = compare(match);
      if (!changes.length) {
        this.unchanged(plan, 'enrollments');
        continue;
      }
      this.action(plan, {
        kind: 'enrollment',
        op: 'update',
        key,
        source: row.source,
        target: match.id as number,
        changes,
        step: 3,
        needs,
        task: {
          find: (fresh) => planned(fresh, { id: match.id as number, current: match }),
          compare,
          create: async () => {
            throw new FailureError('the enrollment no longer exists');
          },
          update,
        },
      });
    }
    if (this.pc.prune && course) {
      // Enrollments of sections cross-listed here from another course are that course's to list.
      const foreign = new Set(
        sections.filter((s) => s.nonxlist_course_id !== null && s.nonxlist_course_id !== undefined).map((s) => s.id),
      );
      for (const e of listed) {
        if (claimed.has(e.id as number) || foreign.has(e.course_section_id)) continue;
        const u = (e.user ?? {}) as ApiObject;
        const who = u.login_id ?? (u.sis_user_id ? `sis_user_id:${String(u.sis_user_id)}` : String(e.user_id));
        this.removal(plan, 'enrollments', e, `${String(who)} ${String(e.role)}`, { course: ref });
      }
    }
  }

  /** Assignments, topics, announcements, quizzes: matched by the file's key (state.ts), else by title. */
  private keyedKind(
    plan: CoursePlan,
    c: DesiredCourse,
    kindName: KeyedKind,
    listed: ApiObject[],
    needs: Slot[],
    slots: Map<KindName, Map<string, Slot>>,
    claimed: Map<KindName, Set<number>>,
    pageUrls: PageUrls,
  ): Map<string, Slot> {
    const kind = KINDS[kindName];
    const { client, tree, keys, invoke } = this.pc;
    const verbs = tree.kinds[kindName];
    const ref = `sis_course_id:${c.sis}`;
    const title = kind.title!;
    const desired = c.objects[kindName]!;
    const step = STEPS.indexOf(
      kindName === 'assignment_groups'
        ? 'assignment groups'
        : kindName === 'assignments' || kindName === 'pages' || kindName === 'modules'
          ? kindName
          : 'topics, announcements, quizzes and rubrics',
    );
    const byId = new Map(listed.map((o) => [o.id as number, o]));
    const matched = new Map<Desired, ApiObject>();
    const taken = new Set<number>();
    const claim = (d: Desired, o: ApiObject | undefined) => {
      if (!o || taken.has(o.id as number)) return;
      matched.set(d, o);
      taken.add(o.id as number);
    };
    // Keys first, so a renamed object is found by its key before its old title can be claimed.
    for (const d of desired) if (d.key !== undefined) claim(d, byId.get(keys.get(c.sis, kindName, d.key) ?? -1));
    for (const d of desired) {
      if (matched.has(d)) continue;
      const candidates = listed.filter(
        (x) => !taken.has(x.id as number) && manages(kindName, x) && x[title] === d.title,
      );
      claim(d, candidates[0]);
      // Two of one title on the instance: which one is matched is said, never silently picked.
      if (candidates.length > 1)
        plan.ambiguous.push({
          kind: kindName,
          title: String(d.title),
          source: d.source,
          ids: candidates.map((x) => x.id as number),
          chosen: candidates[0].id as number,
        });
    }
    // A title the file gives two objects of this kind is theirs to tell apart by key, also when looking again.
    const titles = new Map<unknown, number>();
    for (const d of desired) titles.set(d.title, (titles.get(d.title) ?? 0) + 1);

    claimed.set(kindName, taken);
    // The API puts a module asked to go past the end at the end: a position is compared as it will be.
    const modulesAfter = this.pc.prune ? desired.length : listed.length + desired.filter((d) => !matched.has(d)).length;
    const places = finalPlaces(
      desired.map((d) =>
        kindName === 'modules' && typeof d.fields.position === 'number' ? d.fields.position : undefined,
      ),
      modulesAfter,
    );
    const mine = new Map<string, Slot>();
    for (const [index, d] of desired.entries()) {
      const o = matched.get(d);
      const slot: Slot = { id: o?.id as number | undefined, label: `${kind.one} ${d.key ?? d.title}` };
      if (d.key !== undefined) mine.set(d.key, slot);
      const key = d.key;
      if (o && key !== undefined && keys.get(c.sis, kindName, key) !== o.id)
        this.remember.push(() => keys.record(c.sis, kindName, key, o.id as number));
      const refs: [string, Slot, string][] = Object.entries(d.refs).flatMap(([field, name]) => {
        const target = kind.refs![field];
        const s = slots.get(target.kind)?.get(name);
        return s ? [[target.field, s, name] as [string, Slot, string]] : [];
      });
      const lookup = async () => {
        const now = await collect(listExisting(client, kindName, ref));
        const id = key !== undefined ? keys.get(c.sis, kindName, key) : undefined;
        return now.find((x) => x.id === id) ?? now.find((x) => manages(kindName, x) && x[title] === d.title);
      };
      // Just before a create: its key as the state file has it now (another run keeping the same
      // state directory may have made it), else its title, among objects no other of the file's has.
      const lookAgain = async () => {
        const id = key !== undefined ? keys.latest(c.sis, kindName, key) : undefined;
        const name = typeof d.title === 'string' ? d.title.trim() : '';
        const now = await collect(listExisting(client, kindName, ref, name.length >= 3 ? name : undefined));
        const free = (x: ApiObject) => !taken.has(x.id as number) && manages(kindName, x);
        return (
          now.find((x) => id !== undefined && x.id === id && free(x)) ??
          (titles.get(d.title) === 1 ? now.find((x) => free(x) && x[title] === d.title) : undefined)
        );
      };
      const spec: ObjectSpec = {
        verbs,
        one: kind.one,
        fields: places[index] === undefined ? d.fields : { ...d.fields, position: places[index]! },
        refs,
        options: { course: ref },
        lookup,
        lookAgain,
        ...(kindName === 'rubrics' ? { read: readRubric, together: ASSOCIATION_FIELDS } : {}),
        ...(kindName === 'pages' ? { read: readPage, arg: pageArg } : {}),
      };
      const modules = kindName === 'modules' ? this.moduleParts(c, d, slots, mine, pageUrls) : undefined;
      const task = (at: Parameters<typeof objectTask>[2]) =>
        modules ? modules.task(spec, objectTask(spec, invoke, at)) : objectTask(spec, invoke, at);
      const label = key ?? d.title!;
      const refNeeds = refs.map(([, s]) => s);
      if (!o) {
        this.requireForCreate(verbs.create!, d.fields, d.source, `${kind.one} ${label}`);
        const onCreated = (id: number) => {
          taken.add(id);
          if (key !== undefined) keys.record(c.sis, kindName, key, id);
        };
        const onAdopted = (o: ApiObject) => {
          onCreated(o.id as number);
          this.adopt(`${kind.one} ${label}`, o);
        };
        this.action(plan, {
          kind: kind.one,
          op: 'create',
          key: label,
          source: d.source,
          fields: { ...d.fields, ...d.refs, ...modules?.shown },
          step,
          needs: [...needs, ...refNeeds, ...(modules?.needs ?? [])],
          ...(modules?.before.length ? { before: modules.before } : {}),
          slot,
          task: task({ slot, onCreated, onAdopted }),
        });
        continue;
      }
      const planned = task({ planned: o });
      const changes = planned.compare(o);
      if (changes.length)
        this.action(plan, {
          kind: kind.one,
          op: 'update',
          key: label,
          source: d.source,
          target: o.id as number,
          changes,
          step,
          needs: [...needs, ...refNeeds, ...(modules?.needs ?? [])],
          ...(modules?.before.length ? { before: modules.before } : {}),
          task: planned,
        });
      else {
        this.unchanged(plan, kindName);
        if (places[index] !== undefined)
          plan.placed.push({
            id: `${plan.sis}|${kind.one}|${label}|place|${this.serial++}`,
            course: plan.sis,
            kind: kind.one,
            op: 'update',
            key: label,
            source: d.source,
            target: o.id as number,
            changes: [{ field: 'position', from: o.position ?? null, to: places[index]!, applicable: true }],
            step,
            needs: [],
            task: planned,
          });
      }
    }
    return mine;
  }

  /**
   * A module's prerequisites and items (modules.ts), compared and made besides its own fields. Its
   * prerequisites are modules before it in the file, made before it in this one step: read when it is
   * made, not needed before the step, as the content its items show is.
   */
  private moduleParts(
    c: DesiredCourse,
    d: Desired,
    slots: Map<KindName, Map<string, Slot>>,
    modules: Map<string, Slot>,
    urls: PageUrls,
  ) {
    const { client, invoke } = this.pc;
    const ref = `sis_course_id:${c.sis}`;
    const targets: ItemTargets = {
      id: (kind, key) => slots.get(kind)?.get(key)?.id,
      ids: (kind) => new Set([...(slots.get(kind)?.values() ?? [])].flatMap((s) => (s.id === undefined ? [] : [s.id]))),
      url: (id) => urls.get(id),
      page: (url) => urls.page(url),
    };
    const wanted = d.prerequisites && [...new Set(d.prerequisites)];
    const prerequisites = (current: ApiObject): Change[] => {
      if (!wanted) return [];
      const ids = wanted.map((k) => modules.get(k)?.id);
      const now = (Array.isArray(current.prerequisite_module_ids) ? current.prerequisite_module_ids : []).map(Number);
      if (ids.length === now.length && ids.every((id) => id !== undefined && now.includes(id))) return [];
      const keyOf = (id: number) => [...modules].find(([, s]) => s.id === id)?.[0] ?? String(id);
      const value = ids.flatMap((id) => (id === undefined ? [] : [String(id)]));
      return [{ field: 'prerequisites', from: now.map(keyOf), to: wanted, value, applicable: true }];
    };
    // Publishing a module publishes its items, and unpublishing unpublishes them: its items are compared as they
    // will be once the module's own fields are written.
    const published = d.fields.published;
    const afterOwn = (current: ApiObject): ApiObject =>
      typeof published === 'boolean' && current.published !== published && Array.isArray(current.items)
        ? { ...current, items: (current.items as ApiObject[]).map((i) => ({ ...i, published })) }
        : current;
    const items = (current: ApiObject): Change[] =>
      d.items ? itemWrites(d.items, afterOwn(current), targets).changes.map((ch) => ({ ...ch, applicable: true })) : [];
    const mine = (ch: Change) => ch.field === 'prerequisites' || ch.field === 'items' || ch.field.startsWith('items[');
    const rest = async (spec: ObjectSpec, found: Found, changes: Change[]) => {
      const set = changes.find((ch) => ch.field === 'prerequisites');
      if (set) {
        const field = { field: 'prerequisite_module_ids', from: null, to: set.value ?? [], applicable: true };
        const answer = await applyChanges(spec, found.id, [field], invoke);
        // The API keeps only modules placed before this one, and drops the rest without an error.
        const kept = Array.isArray(answer?.prerequisite_module_ids) ? answer.prerequisite_module_ids.map(Number) : [];
        // Each was made before this one (Action.before): one that was not leaves this one not done.
        const dropped = (wanted ?? []).filter((k) => !kept.includes(modules.get(k)!.id!));
        if (answer && dropped.length)
          throw new FailureError(
            `the API did not keep prerequisite${dropped.length > 1 ? 's' : ''} ` +
              `${dropped.map((k) => `"${k}"`).join(', ')}` +
              ': a prerequisite must be placed before the module that needs it',
          );
      }
      if (d.items && changes.some((ch) => ch.field === 'items' || ch.field.startsWith('items[')))
        await writeItems(client, ref, found.id, itemWrites(d.items, afterOwn(found.current), targets).ops, targets);
    };
    const content = (d.items ?? []).flatMap((i) => {
      const s = i.ref && slots.get(i.ref.kind)?.get(i.ref.key);
      return s ? [s] : [];
    });
    return {
      shown: {
        ...(d.items ? { items: d.items.map(wantedLabel) } : {}),
        ...(wanted ? { prerequisites: wanted } : {}),
      },
      needs: [...new Set(content)],
      before: (wanted ?? []).flatMap((k) => {
        const s = modules.get(k);
        return s ? [s] : [];
      }),
      task: (spec: ObjectSpec, base: ActionTask): ActionTask => ({
        async find(fresh) {
          // What the file's pages are called now, as their items name them: a page made or renamed since.
          await urls.refresh();
          return base.find(fresh);
        },
        compare: (current) => [...base.compare(current), ...prerequisites(current), ...items(current)],
        async create() {
          const id = await base.create();
          await urls.refresh();
          const made = { id, items: [], prerequisite_module_ids: [] };
          await rest(spec, { id, current: made }, [...prerequisites(made), ...items(made)]);
          return id;
        },
        async update(found, changes) {
          const own = changes.filter((ch) => !mine(ch));
          if (own.length) await base.update(found, own);
          await rest(spec, found, changes.filter(mine));
        },
      }),
    };
  }

  /**
   * What `--prune` removes of a keyed kind: what the file no longer lists, but for what would take
   * along an object it still lists. Deleting a graded topic deletes its assignment, and deleting an
   * assignment deletes the topic it grades.
   */
  private pruneKeyed(
    plan: CoursePlan,
    c: DesiredCourse,
    kindName: KeyedKind,
    listed: Map<KindName, ApiObject[]>,
    slots: Map<KindName, Map<string, Slot>>,
    claimed: Map<KindName, Set<number>>,
  ): void {
    const { title } = KINDS[kindName];
    const name = (o: ApiObject) => String(o[title!]);
    const left = (listed.get(kindName) ?? []).filter(
      (o) => !claimed.get(kindName)!.has(o.id as number) && manages(kindName, o),
    );
    const keeps = new Map<ApiObject, string>();
    if (kindName === 'assignments') {
      const graded = new Map<number, ApiObject>();
      for (const kind of ['topics', 'announcements'] as const) {
        for (const t of listed.get(kind) ?? [])
          if (claimed.get(kind)?.has(t.id as number) && typeof t.assignment_id === 'number')
            graded.set(t.assignment_id, t);
      }
      for (const o of left) {
        const t = graded.get(o.id as number);
        if (t)
          keeps.set(
            o,
            `"${name(o)}" grades topic "${String(t.title)}", which the file lists and deleting it would delete`,
          );
      }
    } else if (kindName === 'pages') {
      for (const o of left)
        if (isFrontPage(o))
          keeps.set(
            o,
            `"${name(o)}" is the course's front page, which cannot be deleted (make another the front page)`,
          );
    } else if (kindName !== 'rubrics') {
      // Deleting a rubric leaves the assignment it grades.
      const grading = new Map(
        [...(slots.get('assignments') ?? [])].filter(([, s]) => s.id !== undefined).map(([key, s]) => [s.id!, key]),
      );
      for (const o of left) {
        const key = grading.get(o.assignment_id as number);
        if (key !== undefined)
          keeps.set(
            o,
            `"${name(o)}" is graded by assignment ${key}, which the file lists and deleting it would delete`,
          );
      }
    }
    for (const why of keeps.values()) plan.kept.push({ kind: kindName, count: 1, why });
    const go = left.filter((o) => !keeps.has(o));
    if (go.length && !this.pc.tree.kinds[kindName].remove)
      plan.kept.push({ kind: kindName, count: go.length, why: `no command deletes ${kindName}` });
    else for (const o of go) this.removal(plan, kindName, o, name(o), { course: `sis_course_id:${c.sis}` });
  }

  /** What `--prune` does to an object the file no longer lists: delete it, or conclude an enrollment. */
  private removal(
    plan: CoursePlan,
    kindName: Exclude<KindName, 'outcomes'>,
    o: ApiObject,
    key: string,
    options: Record<string, string | undefined>,
  ): void {
    const kind = KINDS[kindName];
    const remove = this.pc.tree.kinds[kindName].remove!;
    const invoke = this.pc.invoke;
    const conclude = kind.prune === 'conclude';
    let gone = false;
    this.action(plan, {
      kind: kind.one,
      op: conclude ? 'conclude' : 'delete',
      key,
      target: o.id as number,
      step: STEPS.indexOf('removals'),
      needs: [],
      // To the bulk engine a removal is an update whose one change is that the object goes.
      task: {
        find: async () => (gone ? undefined : { id: o.id as number, current: o }),
        compare: () => [
          conclude
            ? { field: 'enrollment_state', from: o.enrollment_state, to: 'completed', applicable: true }
            : { field: 'exists', from: true, to: false, applicable: true },
        ],
        create: async () => o.id as number,
        async update() {
          try {
            await invoke(remove, [kindName === 'pages' ? pageArg(o.id as number) : String(o.id)], {}, options);
          } catch (e) {
            // Gone already (another run, someone else): what the removal wanted.
            if (!notFound(e)) throw e;
          }
          gone = true;
        },
      },
    });
  }

  /** An outcome tree, planned by the import's own task; its rows are applied together, a course at a time. */
  private async outcomes(plan: CoursePlan, c: DesiredCourse, course: ApiObject | undefined): Promise<void> {
    const { rows, file } = c.outcomes!;
    const ref = `sis_course_id:${c.sis}`;
    const group: OutcomeGroup = { course: ref, rows };
    const needs = course ? [] : [this.courseSlots.get(c.sis.toLowerCase())!];
    const name = (key: string) => key.replace(/^(group|outcome):/, '');
    const kindOf = (key: string) => (key.startsWith('group:') ? 'outcome group' : 'outcome');
    const at = (row: BulkRow): Source => ({ file, ...placeFields(row) });
    if (!course) {
      for (const row of rows)
        this.action(plan, {
          kind: kindOf(row.key),
          op: 'create',
          key: name(row.key),
          source: at(row),
          step: STEPS.indexOf('outcomes'),
          needs,
          outcomes: group,
          row: row.key,
        });
      return;
    }
    const task = this.pc.tree.outcomes.task(this.pc.client, { course_id: ref }, { plan: true });
    const results = await runRows(rows, task, {
      journal: this.pc.planJournal,
      concurrency: this.pc.concurrency,
      mode: 'plan',
      update: true,
    });
    for (const [i, r] of results.entries()) {
      const row = rows[i];
      if (r.status === 'existed') {
        this.unchanged(plan, 'outcomes');
        continue;
      }
      if (r.status === 'created') {
        this.action(plan, {
          kind: kindOf(r.key),
          op: 'create',
          key: name(r.key),
          source: at(row),
          step: STEPS.indexOf('outcomes'),
          needs,
          outcomes: group,
          row: row.key,
        });
        continue;
      }
      const changes: Change[] = (r.changes ?? []).map((ch) => ({
        field: ch.field,
        from: ch.from,
        to: ch.to,
        applicable: ch.applicable,
        ...(ch.applicable ? {} : { why: 'no command changes an outcome once created' }),
      }));
      if (!changes.length) {
        this.problem(at(row), r.error ?? 'cannot be planned');
        continue;
      }
      this.action(plan, {
        kind: kindOf(r.key),
        op: 'update',
        key: name(r.key),
        source: at(row),
        target: r.id,
        changes,
        step: STEPS.indexOf('outcomes'),
        needs,
        outcomes: group,
        row: row.key,
      });
    }
  }
}
