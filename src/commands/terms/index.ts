// `lms terms`: a root account's enrollment terms, the term a course, a courses.csv or an SIS
// import names by its SIS id; made, changed and deleted by the root account's admins.
import { item, list, type Verbs } from '../../model/command.js';
import { clearableDates, command, contextFlags } from '../../model/define.js';
import type { TermFields } from '../../spec/types/school.js';
import { ENROLLMENT_TYPE_WORDS, TERM_OVERRIDE_TYPES, type TermOverrideType } from '../../spec/vocabulary.js';
import { UsageError } from '../../errors.js';

const account = contextFlags.rootAccount;

const COLUMNS = ['id', 'name', 'sis_term_id', 'start_at', 'end_at', 'workflow_state'];

const listTerms = command({
  name: 'list',
  summary: "A root account's terms, the latest start first",
  aliases: ['ls'],
  routes: ['terms.list'],
  columns: COLUMNS,
  options: {
    account,
    state: {
      long: 'state',
      value: 'state',
      description: 'only terms in this state (default active)',
      choices: ['active', 'deleted', 'all'],
    },
  },
  examples: ['lms terms list', 'lms terms list --state all -o json'],
  async run({ opts, ctx }) {
    const client = await ctx.client();
    return list(
      client.ops.terms.list(
        {
          account_id: opts.account,
          ...(opts.state ? { workflow_state: [opts.state as 'active' | 'deleted' | 'all'] } : {}),
        },
        { limit: ctx.pageLimit() },
      ),
      COLUMNS,
    );
  },
});

const getTerm = command({
  name: 'get',
  args: [{ name: 'term' }],
  summary: 'Show one term, by id or sis_term_id:X, with its date overrides',
  routes: ['terms.get'],
  options: { account },
  examples: ['lms terms get sis_term_id:2026-FA'],
  async run({ args, opts, ctx }) {
    return item(await (await ctx.client()).ops.terms.get({ account_id: opts.account, id: args[0] }));
  },
});

const fieldFlags = {
  name: { long: 'name', value: 'name', description: 'term name', field: { name: 'name' } },
  ...clearableDates,
  sisId: {
    long: 'sis-id',
    value: 'id',
    description: 'SIS id, as courses and SIS files name the term (set only by those who manage SIS data; "" clears it)',
    field: { name: 'sis_term_id', clears: true },
  },
  dates: {
    long: 'dates',
    value: 'type=start..end',
    description:
      'dates of the term for one enrollment type (student, teacher, ta, designer) in place of its own; ' +
      'either end may be left empty (repeatable)',
    repeatable: true,
  },
} as const;

/** `student` → StudentEnrollment, for the types a term may give dates of their own. */
const OVERRIDE_TYPES = new Map(
  [...ENROLLMENT_TYPE_WORDS].filter((entry): entry is [string, TermOverrideType] =>
    (TERM_OVERRIDE_TYPES as readonly string[]).includes(entry[1]),
  ),
);

/** `student=2027-01-10..2027-05-20`, read into the API's overrides; every bad one named. */
function overridesOf(given: readonly string[]): TermFields['overrides'] {
  const overrides: NonNullable<TermFields['overrides']> = {};
  for (const text of given) {
    const eq = text.indexOf('=');
    const dots = text.indexOf('..', eq);
    const type = eq > 0 && dots > 0 ? OVERRIDE_TYPES.get(text.slice(0, eq).trim().toLowerCase()) : undefined;
    const [start, end] = [text.slice(eq + 1, dots).trim(), text.slice(dots + 2).trim()];
    if (!type)
      throw new UsageError(`--dates "${text}" is not TYPE=START..END`, {
        hint: `TYPE is one of ${[...OVERRIDE_TYPES.keys()].join(', ')}; e.g. --dates student=2027-01-10..2027-05-20`,
      });
    for (const date of [start, end])
      if (date && !(/^\d{4}-\d{2}-\d{2}/.test(date) && !Number.isNaN(Date.parse(date))))
        throw new UsageError(`--dates "${text}": "${date}" is not an ISO 8601 date`);
    if (!start && !end) throw new UsageError(`--dates "${text}" gives neither a start nor an end`);
    overrides[type] = { ...(start ? { start_at: start } : {}), ...(end ? { end_at: end } : {}) };
  }
  return given.length ? overrides : undefined;
}

function termFields(opts: {
  name?: string;
  startAt?: string;
  endAt?: string;
  sisId?: string;
  dates?: string[];
}): TermFields {
  const fields: TermFields = {};
  if (opts.name !== undefined) fields.name = opts.name;
  if (opts.startAt !== undefined) fields.start_at = opts.startAt;
  if (opts.endAt !== undefined) fields.end_at = opts.endAt;
  if (opts.sisId !== undefined) fields.sis_term_id = opts.sisId;
  const overrides = overridesOf(opts.dates ?? []);
  if (overrides) fields.overrides = overrides;
  return fields;
}

const createTerm = command({
  name: 'create',
  summary: 'Make a term in a root account',
  routes: ['terms.create'],
  writes: 'create',
  columns: COLUMNS,
  options: { account, ...fieldFlags, name: { ...fieldFlags.name, required: true } },
  examples: [
    'lms terms create --name "Spring 2027" --sis-id 2027-SP --start-at 2027-01-11 --end-at 2027-05-21',
    'lms terms create --name "Spring 2027" --dates teacher=2027-01-04..2027-06-04',
  ],
  async run({ opts, ctx }) {
    const enrollment_term = termFields(opts);
    const client = await ctx.client();
    return item(await client.ops.terms.create({ account_id: opts.account, enrollment_term }));
  },
});

const updateTerm = command({
  name: 'update',
  args: [{ name: 'term' }],
  summary: "Change a term's name, dates, SIS id or the dates of one enrollment type",
  routes: ['terms.update'],
  writes: 'update',
  columns: COLUMNS,
  options: { account, ...fieldFlags },
  examples: ['lms terms update sis_term_id:2026-FA --end-at 2026-12-18'],
  async run({ args, opts, ctx }) {
    const enrollment_term = termFields(opts);
    if (Object.keys(enrollment_term).length === 0)
      throw new UsageError('nothing to change: give --name, --start-at, --end-at, --sis-id or --dates');
    const client = await ctx.client();
    return item(await client.ops.terms.update({ account_id: opts.account, id: args[0], enrollment_term }));
  },
});

const deleteTerm = command({
  name: 'delete',
  args: [{ name: 'term' }],
  summary: 'Delete a term (refused for the default term and while a course is in it)',
  routes: ['terms.delete'],
  writes: 'delete',
  columns: COLUMNS,
  options: { account },
  examples: ['lms terms delete sis_term_id:2026-FA --yes'],
  async run({ args, opts, ctx }) {
    await ctx.confirm(`Delete term ${args[0]}`);
    const client = await ctx.client();
    return item(await client.ops.terms.delete({ account_id: opts.account, id: args[0] }));
  },
});

export const termsVerbs: Verbs = [listTerms, getTerm, createTerm, updateTerm, deleteTerm];
