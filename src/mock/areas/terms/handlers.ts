// A root account's enrollment terms (canvas-lms terms_api_controller.rb and terms_controller.rb): the
// list, wrapped as {"enrollment_terms": […]}, active ones unless a workflow_state[] says otherwise; one
// term by id or sis_term_id:X, in any state, with its overrides; and, for the root account's admins,
// a term made, changed (its dates also per enrollment type) and deleted. Only a root account has terms.
import type { EnrollmentTerm } from '../../../spec/types/school.js';
import {
  Reply,
  badRequest,
  invalid,
  keysetSource,
  list,
  notFound,
  obj,
  once,
  paginate,
  rejected,
  str,
  timestamp,
  type Handler,
  type MockCtx,
} from '../../kit.js';
import { TERM_OVERRIDE_TYPES } from '../../../spec/vocabulary.js';
import { isPlainObject } from '../../decode.js';
import { checkText, text } from '../../fields.js';
import { allows, permit } from '../access.js';
import { findAccount, type AccountRow } from '../lookup.js';
import {
  createTerm,
  findTerm,
  liveTerm,
  setTermOverrides,
  termBySis,
  termOverrides,
  termsOfRootQuery,
  termUndeletable,
  updateTerm,
  type TermChange,
  type TermOverrides,
  type TermRow,
} from '../../school/courses/repo.js';
import { mayReadTerms, termsPolicy } from './policy.js';

/** The root account of the path, when the caller may read its terms, or with `manage` change them. */
function rootOf(ctx: MockCtx, manage = false): AccountRow {
  const account = findAccount(ctx, ctx.path.account_id!);
  if (account.parent_account_id !== null) throw rejected('Terms only belong to root_accounts.');
  permit(manage ? allows(ctx, termsPolicy.manage, { account }) : mayReadTerms(ctx.db, ctx.caller.id, account.id));
  return account;
}

function termJson(ctx: MockCtx, root: AccountRow, t: TermRow, overrides: boolean): EnrollmentTerm {
  const sis = once(ctx, 'terms:sis', () => allows(ctx, termsPolicy.readSis, { account: root }));
  return {
    id: t.id,
    name: t.name,
    start_at: t.start_at,
    end_at: t.end_at,
    created_at: t.created_at,
    workflow_state: t.workflow_state === 'deleted' ? 'deleted' : 'active',
    grading_period_group_id: null,
    ...(sis ? { sis_term_id: t.sis_term_id } : {}),
    ...(overrides ? { overrides: termOverrides(ctx.db, t.id) } : {}),
  };
}

const STATES = ['active', 'deleted', 'all'] as const;

const listTerms: Handler = (ctx) => {
  const root = rootOf(ctx);
  // As Canvas reads it: a state it does not know is left out, none named is active, and all is every state.
  const asked = list(ctx.params, 'workflow_state')
    .map(String)
    .filter((s) => (STATES as readonly string[]).includes(s));
  const states = asked.length === 0 ? ['active'] : asked.includes('all') ? [] : asked;
  const overrides = list(ctx.params, 'include').map(String).includes('overrides');
  const page = paginate(ctx, keysetSource<TermRow>(ctx.db, termsOfRootQuery(root.id, states)), (t) =>
    termJson(ctx, root, t, overrides),
  );
  return new Reply(page.status, { enrollment_terms: page.body }, page.headers);
};

const getTerm: Handler = (ctx) => {
  const root = rootOf(ctx);
  const term = findTerm(ctx.db, root.id, ctx.path.id!);
  if (!term) throw notFound();
  return termJson(ctx, root, term, true);
};

const NAME = text();

/** `student_enrollment` or `StudentEnrollment`, as Rails's classify reads either. */
const classified = (type: string) =>
  type.replace(/(?:^|_)([a-z])/g, (_, c: string) => c.toUpperCase()).replace(/s$/, '');

/** What `enrollment_term[…]` asks, checked as terms_controller.rb checks it; undefined fields stay. */
function termChange(
  ctx: MockCtx,
  root: AccountRow,
  current?: TermRow,
): { change: TermChange; overrides: TermOverrides } {
  if (!isPlainObject(ctx.params.enrollment_term))
    throw badRequest('param is missing or the value is empty: enrollment_term');
  const p = obj(ctx.params, 'enrollment_term');
  const given = isPlainObject(p.overrides) ? p.overrides : {};
  const overrides: TermOverrides = {};
  for (const [type, dates] of Object.entries(given)) {
    const name = classified(type);
    if (!(TERM_OVERRIDE_TYPES as readonly string[]).includes(name))
      throw rejected('Invalid enrollment type in overrides');
    const d = isPlainObject(dates) ? dates : {};
    overrides[name] = { start_at: timestamp(d, 'start_at') ?? null, end_at: timestamp(d, 'end_at') ?? null };
  }
  const change: TermChange = {};
  const name = checkText(NAME, str(p, 'name'), undefined, 'name');
  if (name !== undefined) change.name = name;
  for (const field of ['start_at', 'end_at'] as const)
    if (str(p, field) !== undefined) change[field] = timestamp(p, field) ?? null;
  // As terms_controller.rb's validate_dates: the start and the end one request gives, as times.
  const backwards = (d: { start_at?: string | null; end_at?: string | null }) =>
    !!d.start_at && !!d.end_at && Date.parse(d.end_at) < Date.parse(d.start_at);
  if ([change, ...Object.values(overrides)].some(backwards))
    throw invalid(undefined, 'base', 'invalid', 'End dates cannot be before start dates');
  const sis = str(p, 'sis_source_id') ?? str(p, 'sis_term_id');
  if (p.sis_term_id !== undefined && sis === undefined) throw rejected('Invalid SIS ID');
  // As on real instances, a SIS id is set only by those who may manage SIS data.
  if (sis !== undefined && allows(ctx, termsPolicy.setSis, { account: root })) {
    const wanted = sis.trim() || null;
    const holder = wanted === null ? undefined : termBySis(ctx.db, root.id, wanted);
    if (holder && holder.id !== current?.id)
      throw invalid(undefined, 'sis_source_id', 'taken', `SIS ID "${wanted}" is already in use`);
    change.sis_term_id = wanted;
  }
  return { change, overrides };
}

const createOne: Handler = (ctx) => {
  const root = rootOf(ctx, true);
  const { change, overrides } = termChange(ctx, root);
  const id = createTerm(ctx.db, root.id, change, ctx.now());
  setTermOverrides(ctx.db, id, overrides);
  return termJson(ctx, root, findTerm(ctx.db, root.id, String(id))!, true);
};

const updateOne: Handler = (ctx) => {
  const root = rootOf(ctx, true);
  // Canvas finds the term to change among the live ones.
  const term = liveTerm(ctx.db, root.id, ctx.path.id!);
  if (!term) throw notFound();
  const { change, overrides } = termChange(ctx, root, term);
  updateTerm(ctx.db, term.id, change);
  setTermOverrides(ctx.db, term.id, overrides);
  return termJson(ctx, root, findTerm(ctx.db, root.id, String(term.id))!, true);
};

const deleteOne: Handler = (ctx) => {
  const root = rootOf(ctx, true);
  const term = findTerm(ctx.db, root.id, ctx.path.id!);
  if (!term) throw notFound();
  if (term.workflow_state !== 'deleted') {
    const why = termUndeletable(ctx.db, term);
    if (why) throw invalid(undefined, 'workflow_state', 'invalid', why);
    updateTerm(ctx.db, term.id, { workflow_state: 'deleted' });
  }
  return termJson(ctx, root, { ...term, workflow_state: 'deleted' }, false);
};

export const termsHandlers = {
  'terms.list': listTerms,
  'terms.get': getTerm,
  'terms.create': createOne,
  'terms.update': updateOne,
  'terms.delete': deleteOne,
};
