// Learning outcomes organised in groups, in the global, account and course contexts.
import type { ApiObject, Id } from './common.js';

export const CALCULATION_METHODS = [
  'decaying_average',
  'weighted_average',
  'n_mastery',
  'latest',
  'highest',
  'average',
] as const;
export type CalculationMethod = (typeof CALCULATION_METHODS)[number];

/** The abbreviated group: in subgroup lists, inside links, and as a group's parent. */
export interface OutcomeGroupBrief extends ApiObject {
  id: number;
  title: string;
  vendor_guid: string | null;
  url: string;
  subgroups_url: string;
  outcomes_url: string;
  can_edit: boolean;
}

/** The full group: show, update, delete, create subgroup, import. */
export interface OutcomeGroup extends OutcomeGroupBrief {
  import_url: string;
  /** Absent for a root group. */
  parent_outcome_group?: OutcomeGroupBrief;
  context_id: number | null;
  context_type: 'Account' | 'Course' | null;
  description: string | null;
}

export interface Rating {
  description: string;
  points: number;
}

export interface OutcomeBrief extends ApiObject {
  id: number;
  context_type: 'Account' | 'Course' | null;
  context_id: number | null;
  vendor_guid: string | null;
  display_name: string | null;
  title: string;
  url: string;
  can_edit: boolean;
}

export interface Outcome extends OutcomeBrief {
  description: string | null;
  calculation_method: CalculationMethod;
  calculation_int: number | null;
  points_possible: number | null;
  mastery_points: number | null;
  ratings?: Rating[];
  assessed: boolean;
}

export interface OutcomeLink extends ApiObject {
  url: string;
  context_id: number | null;
  context_type: 'Account' | 'Course' | null;
  outcome_group: OutcomeGroupBrief;
  /** Abbreviated, or full with `outcome_style=full` (and in the answer to creating one). */
  outcome: OutcomeBrief | Outcome;
  assessed: boolean;
  can_unlink: boolean;
}

/** Exactly one context: `{ global: true }`, `{ account_id }` or `{ course_id }`. */
export type OutcomeContext = { global: true } | { account_id: Id } | { course_id: Id };

export interface GroupFields {
  title?: string;
  description?: string;
  vendor_guid?: string;
}

export interface NewOutcome {
  title?: string;
  display_name?: string;
  description?: string;
  vendor_guid?: string;
  mastery_points?: number;
  ratings?: { description?: string; points?: number }[];
  calculation_method?: CalculationMethod;
  calculation_int?: number;
  /** Link this existing outcome instead of creating one. */
  outcome_id?: number;
}
