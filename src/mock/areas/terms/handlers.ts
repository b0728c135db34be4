// A root account's enrollment terms (canvas-lms terms_api_controller.rb): the list, wrapped as
// {"enrollment_terms": […]}, active ones unless a workflow_state[] says otherwise, and one term by id
// or sis_term_id:X, in any state, with its overrides. Only a root account has terms.
import type { EnrollmentTerm } from '../../../spec/types/school.js';
import {
  Reply,
  badRequest,
  keysetSource,
  list,
  notFound,
  once,
  paginate,
  rejected,
  type Handler,
  type MockCtx,
} from '../../kit.js';
import { allows, permit } from '../access.js';
import { findAccount, type AccountRow } from '../lookup.js';
import { findTerm, termsOfRootQuery, type TermRow } from '../../school/courses/repo.js';
import { mayReadTerms, termsPolicy } from './policy.js';

/** The root account of the path, when the caller may read its terms. */
function readableRoot(ctx: MockCtx): AccountRow {
  const account = findAccount(ctx, ctx.path.account_id!);
  if (account.parent_account_id !== null) throw rejected('Terms only belong to root_accounts.');
  permit(mayReadTerms(ctx.db, ctx.caller.id, account.id));
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
    // The mock keeps no dates per enrollment type: a term's overrides are always none.
    ...(overrides ? { overrides: {} } : {}),
  };
}

const STATES = ['active', 'deleted', 'all'] as const;

const listTerms: Handler = (ctx) => {
  const root = readableRoot(ctx);
  const asked = list(ctx.params, 'workflow_state').map(String);
  const unknown = asked.find((s) => !(STATES as readonly string[]).includes(s));
  if (unknown !== undefined) throw badRequest(`workflow_state: must be one of ${STATES.join(', ')}, not "${unknown}"`);
  // As Canvas reads it: none named is active, and all is every state.
  const states = asked.length === 0 ? ['active'] : asked.includes('all') ? [] : asked;
  const overrides = list(ctx.params, 'include').map(String).includes('overrides');
  const page = paginate(ctx, keysetSource<TermRow>(ctx.db, termsOfRootQuery(root.id, states)), (t) =>
    termJson(ctx, root, t, overrides),
  );
  return new Reply(page.status, { enrollment_terms: page.body }, page.headers);
};

const getTerm: Handler = (ctx) => {
  const root = readableRoot(ctx);
  const term = findTerm(ctx.db, root.id, ctx.path.id!);
  if (!term) throw notFound();
  return termJson(ctx, root, term, true);
};

export const termsHandlers = { 'terms.list': listTerms, 'terms.get': getTerm };
