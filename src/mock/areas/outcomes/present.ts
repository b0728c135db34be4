// Outcome groups, outcomes and their links as the API shows them.
import type {
  CalculationMethod,
  Outcome,
  OutcomeBrief,
  OutcomeGroup,
  OutcomeGroupBrief,
  OutcomeLink,
  Rating,
} from '../../../spec/types/outcomes.js';
import { str, type MockCtx } from '../../kit.js';
import type { ParamsObject } from '../../decode.js';
import { mayEditOutcomes } from './policy.js';
import {
  activeLinkCount,
  groupById,
  isAligned,
  outcomeById,
  type GroupRow,
  type LinkRow,
  type OutcomeRow,
} from './repo.js';
import { contextOf, segment } from './contexts.js';

// ---- presenters -------------------------------------------------------------------------------

export const groupUrl = (g: GroupRow) => `/api/v1/${segment(contextOf(g))}/outcome_groups/${g.id}`;

export function groupBrief(ctx: MockCtx, g: GroupRow): OutcomeGroupBrief {
  const url = groupUrl(g);
  return {
    id: g.id,
    title: g.title,
    vendor_guid: g.vendor_guid,
    url,
    subgroups_url: `${url}/subgroups`,
    outcomes_url: `${url}/outcomes`,
    can_edit: mayEditOutcomes(ctx, contextOf(g)),
  };
}

export function groupJson(ctx: MockCtx, g: GroupRow): OutcomeGroup {
  const parent = g.parent_id === null ? undefined : groupById(ctx.db, g.parent_id);
  return {
    ...groupBrief(ctx, g),
    import_url: `${groupUrl(g)}/import`,
    ...(parent ? { parent_outcome_group: groupBrief(ctx, parent) } : {}),
    context_id: g.context_id,
    context_type: g.context_type,
    description: g.description,
  };
}

function outcomeBrief(ctx: MockCtx, o: OutcomeRow): OutcomeBrief {
  return {
    id: o.id,
    context_type: o.context_type,
    context_id: o.context_id,
    vendor_guid: o.vendor_guid,
    display_name: o.display_name,
    title: o.title,
    url: `/api/v1/outcomes/${o.id}`,
    can_edit: mayEditOutcomes(ctx, contextOf(o)),
  };
}

function outcomeFull(ctx: MockCtx, o: OutcomeRow): Outcome {
  return {
    ...outcomeBrief(ctx, o),
    description: o.description,
    calculation_method: o.calculation_method as CalculationMethod,
    calculation_int: o.calculation_int,
    points_possible: o.points_possible,
    mastery_points: o.mastery_points,
    ...(o.ratings ? { ratings: JSON.parse(o.ratings) as Rating[] } : {}),
    assessed: false,
  };
}

/** Unlinking is possible unless it is the aligned outcome's last link (a state of the link, not a permission). */
function unlinkable(ctx: MockCtx, link: LinkRow): boolean {
  return !(activeLinkCount(ctx.db, link.outcome_id) <= 1 && isAligned(ctx.db, link.outcome_id));
}

export function linkJson(
  ctx: MockCtx,
  link: LinkRow,
  options: { full?: boolean; group?: GroupRow; outcome?: OutcomeRow } = {},
): OutcomeLink {
  const group = options.group ?? groupById(ctx.db, link.group_id)!;
  const outcome = options.outcome ?? outcomeById(ctx.db, link.outcome_id)!;
  return {
    url: `${groupUrl(group)}/outcomes/${outcome.id}`,
    context_id: group.context_id,
    context_type: group.context_type,
    outcome_group: groupBrief(ctx, group),
    outcome: options.full ? outcomeFull(ctx, outcome) : outcomeBrief(ctx, outcome),
    assessed: false,
    can_unlink: mayEditOutcomes(ctx, contextOf(group)) && unlinkable(ctx, link),
  };
}

export const optionalText = (p: ParamsObject, name: string): string | null | undefined => {
  const v = str(p, name);
  return v === undefined ? undefined : v === '' ? null : v;
};
