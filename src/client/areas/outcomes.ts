// Outcome groups, their subgroups and their outcome links, in one context each call
// (`{ global: true }`, `{ account_id }` or `{ course_id }`).
import { op } from '../operation.js';
import type { Id } from '../../spec/types/common.js';
import type { GroupFields, NewOutcome, OutcomeContext, OutcomeGroup, OutcomeGroupBrief, OutcomeLink } from '../../spec/types/outcomes.js';

type In<P = unknown> = OutcomeContext & P;

export const outcomes = {
  /** Answered by a redirect to the context's root group (made on first need), which the client follows. */
  rootGroup: op('outcomes.rootGroup').as<In, OutcomeGroup>(),
  getGroup: op('outcomes.getGroup').as<In<{ id: Id }>, OutcomeGroup>(),
  updateGroup: op('outcomes.updateGroup', 'json').as<In<{ id: Id } & GroupFields & { parent_outcome_group_id?: number }>, OutcomeGroup>(),
  deleteGroup: op('outcomes.deleteGroup').as<In<{ id: Id }>, OutcomeGroup>(),
  listLinks: op('outcomes.listLinks').as<In<{ id: Id; outcome_style?: 'full' }>, OutcomeLink>(),
  createOutcome: op('outcomes.createOutcome', 'json').as<In<{ id: Id } & NewOutcome>, OutcomeLink>(),
  linkOutcome: op('outcomes.linkOutcome').as<In<{ id: Id; outcome_id: Id }>, OutcomeLink>(),
  unlinkOutcome: op('outcomes.unlinkOutcome').as<In<{ id: Id; outcome_id: Id }>, OutcomeLink>(),
  listSubgroups: op('outcomes.listSubgroups').as<In<{ id: Id }>, OutcomeGroupBrief>(),
  createSubgroup: op('outcomes.createSubgroup', 'json').as<In<{ id: Id } & GroupFields>, OutcomeGroup>(),
  importGroup: op('outcomes.importGroup').as<In<{ id: Id; source_outcome_group_id: number }>, OutcomeGroup>(),
};
