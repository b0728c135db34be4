// Outcome groups in three contexts (global, an account, a course): the root group (made on first
// need, answered with a redirect), groups and subgroups, outcome links, and the deep import of a
// group. The rules: an outcome is owned by the context it was created in and may be linked only in
// related contexts (that context, the accounts above it, global), once per group; a group cannot
// move to another context or below itself; and deleting or unlinking that would delete an outcome
// aligned to an assignment or rubric is refused, with nothing changed.
import type { CalculationMethod, OutcomeLink, Rating } from '../../../spec/types/outcomes.js';
import { CALCULATION_METHODS } from '../../../spec/types/outcomes.js';
import {
  int,
  invalid,
  list,
  notFound,
  numericId,
  paginate,
  rejected,
  Reply,
  keysetSource,
  str,
  type Handler,
  type MockCtx,
} from '../../kit.js';
import type { ParamsObject } from '../../decode.js';
import {
  activeLinkCount,
  createGroup,
  createLink,
  createOutcome as insertOutcome,
  deleteGroupsWithLinks,
  deleteLink,
  deleteOutcome,
  groupById,
  isAligned,
  linkOf,
  linksOfGroup,
  linksQuery,
  outcomeById,
  outcomesOnlyIn,
  subgroupsOf,
  subgroupsQuery,
  subtreeOf,
  updateGroup as writeGroup,
  type GroupRow,
  type LinkRow,
  type OutcomeContextRef,
} from './repo.js';
import { sameContext, contextOf, describe, isRelated, contextFor, groupIn, title, ensureRoot } from './contexts.js';
import { groupUrl, groupBrief, groupJson, linkJson, optionalText } from './present.js';

// ---- handlers ---------------------------------------------------------------------------------

const rootGroup: Handler = (ctx) => {
  const c = contextFor(ctx, { edit: false });
  const root = ensureRoot(ctx, c);
  return new Reply(302, undefined, { location: `${ctx.origin}${groupUrl(root)}` });
};

const getGroup: Handler = (ctx) => groupJson(ctx, groupIn(ctx, contextFor(ctx, { edit: false })));

const updateGroup: Handler = (ctx) => {
  const c = contextFor(ctx, { edit: true });
  const group = groupIn(ctx, c);
  if (group.parent_id === null) throw rejected('the root outcome group of a context cannot be changed');
  const p = ctx.params;
  const next = {
    title: title(p) ?? group.title,
    description: optionalText(p, 'description') === undefined ? group.description : optionalText(p, 'description')!,
    vendor_guid: optionalText(p, 'vendor_guid') === undefined ? group.vendor_guid : optionalText(p, 'vendor_guid')!,
    parent_id: group.parent_id,
  };
  const parentId = int(p, 'parent_outcome_group_id');
  if (parentId !== undefined && parentId !== group.parent_id) {
    const parent = groupById(ctx.db, parentId);
    if (!parent) throw notFound(`outcome group ${parentId} (parent_outcome_group_id) does not exist`);
    if (!sameContext(c, parent))
      throw rejected(
        `parent_outcome_group_id: group ${parentId} is in ${describe(contextOf(parent))}; a group can only move ` +
          `within ${describe(c)}`,
      );
    if (subtreeOf(ctx.db, group.id).includes(parent.id))
      throw rejected(
        `parent_outcome_group_id: group ${parentId} is this group or one of its descendants; a group cannot move ` +
          'below itself',
      );
    next.parent_id = parent.id;
  }
  writeGroup(ctx.db, group.id, next, ctx.now());
  return groupJson(ctx, groupById(ctx.db, group.id)!);
};

const deleteGroup: Handler = (ctx) => {
  const c = contextFor(ctx, { edit: true });
  const group = groupIn(ctx, c);
  if (group.parent_id === null) throw rejected('the root outcome group of a context cannot be deleted');
  const answer = groupJson(ctx, group);
  const subtree = subtreeOf(ctx.db, group.id);
  const goners = outcomesOnlyIn(ctx.db, subtree);
  const aligned = goners.filter((o) => isAligned(ctx.db, o.id));
  if (aligned.length) {
    throw rejected(
      `deleting this group would delete ${aligned.map((o) => `outcome ${o.id} "${o.title}"`).join(', ')}, aligned ` +
        'to an assignment or rubric; ' +
        'link it in another group first, or remove the alignment',
    );
  }
  const now = ctx.now();
  deleteGroupsWithLinks(ctx.db, subtree, now);
  for (const o of goners) deleteOutcome(ctx.db, o.id, now);
  return answer;
};

const listLinks: Handler = (ctx) => {
  const group = groupIn(ctx, contextFor(ctx, { edit: false }));
  const full = str(ctx.params, 'outcome_style') === 'full';
  return paginate(ctx, keysetSource<LinkRow>(ctx.db, linksQuery(group.id)), (l) => linkJson(ctx, l, { full, group }));
};

/** Links an existing outcome into a group: only an outcome of a related context; linking again returns the link. */
function link(ctx: MockCtx, group: GroupRow, outcomeId: number): OutcomeLink {
  const outcome = outcomeById(ctx.db, outcomeId);
  if (!outcome) throw notFound(`outcome ${outcomeId} does not exist`);
  const c = contextOf(group);
  if (!isRelated(ctx, c, contextOf(outcome))) {
    throw rejected(
      `outcome ${outcome.id} belongs to ${describe(contextOf(outcome))}; it can be linked only in that context, the ` +
        'courses and sub-accounts below it, or, if global, anywhere',
    );
  }
  const existing = linkOf(ctx.db, group.id, outcome.id);
  return linkJson(ctx, existing ?? createLink(ctx.db, group.id, outcome, ctx.now()), { group, outcome });
}

function number(p: ParamsObject, name: string): number | undefined {
  const v = p[name];
  if (v === undefined || v === null || v === '') return undefined;
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v.trim()) ? Number(v) : NaN;
  if (!Number.isFinite(n)) throw invalid(undefined, name, 'invalid', `${name} must be a number`);
  return n;
}

/** `ratings[][description]`, `ratings[][points]`: a missing description is "No description", missing points 0. */
function ratingsOf(p: ParamsObject): Rating[] | null {
  const raw = list(p, 'ratings');
  if (raw.length === 0) return null;
  return raw.map((r, i) => {
    if (r === null || typeof r !== 'object' || Array.isArray(r) || 'kind' in r)
      throw invalid(undefined, 'ratings', 'invalid', `ratings[${i}] must have a description and points`);
    const rating = r as ParamsObject;
    const points = number(rating, 'points') ?? 0;
    if (points < 0) throw invalid(undefined, 'ratings', 'invalid', `ratings[${i}][points] must not be negative`);
    return { description: str(rating, 'description')?.trim() || 'No description', points };
  });
}

const CALCULATION_INT: Partial<Record<CalculationMethod, { default: number; min: number; max: number }>> = {
  decaying_average: { default: 65, min: 1, max: 99 },
  weighted_average: { default: 65, min: 1, max: 99 },
  n_mastery: { default: 5, min: 1, max: 10 },
};

const createOutcome: Handler = (ctx) => {
  const c = contextFor(ctx, { edit: true });
  const group = groupIn(ctx, c);
  const p = ctx.params;
  const existing = int(p, 'outcome_id');
  if (existing !== undefined) return link(ctx, group, existing);
  const name = title(p);
  if (name === undefined)
    throw invalid(undefined, 'title', 'blank', "title can't be blank (or give outcome_id to link an existing outcome)");
  const method = (str(p, 'calculation_method') ?? 'decaying_average') as CalculationMethod;
  if (!CALCULATION_METHODS.includes(method))
    throw invalid(
      undefined,
      'calculation_method',
      'inclusion',
      `calculation_method must be one of ${CALCULATION_METHODS.join(', ')}`,
    );
  const range = CALCULATION_INT[method];
  const calcInt = int(p, 'calculation_int') ?? range?.default ?? null;
  if (calcInt !== null && (!range || calcInt < range.min || calcInt > range.max)) {
    throw invalid(
      undefined,
      'calculation_int',
      'invalid',
      range
        ? `calculation_int must be ${range.min}-${range.max} for ${method}`
        : `calculation_int does not apply to ${method}`,
    );
  }
  const ratings = ratingsOf(p);
  const top = ratings ? Math.max(...ratings.map((r) => r.points)) : null;
  // With ratings, a rubric criterion: mastery defaults to the top rating's points. Without, mastery_points is ignored.
  const mastery = ratings ? (number(p, 'mastery_points') ?? top) : null;
  if (mastery !== null && mastery < 0)
    throw invalid(undefined, 'mastery_points', 'invalid', 'mastery_points must not be negative');
  const now = ctx.now();
  const id = insertOutcome(ctx.db, {
    context: c,
    title: name,
    displayName: optionalText(p, 'display_name') ?? null,
    description: optionalText(p, 'description') ?? null,
    vendorGuid: optionalText(p, 'vendor_guid') ?? null,
    masteryPoints: mastery,
    pointsPossible: top,
    ratings,
    calculationMethod: method,
    calculationInt: calcInt,
    now,
  });
  const outcome = outcomeById(ctx.db, id)!;
  return linkJson(ctx, createLink(ctx.db, group.id, outcome, now), { group, outcome, full: true });
};

const linkOutcome: Handler = (ctx) => {
  const group = groupIn(ctx, contextFor(ctx, { edit: true }));
  const id = numericId(ctx.path.outcome_id);
  if (id === undefined) throw notFound();
  return link(ctx, group, id);
};

const unlinkOutcome: Handler = (ctx) => {
  const group = groupIn(ctx, contextFor(ctx, { edit: true }));
  const id = numericId(ctx.path.outcome_id);
  const existing = id === undefined ? undefined : linkOf(ctx.db, group.id, id);
  if (!existing) throw notFound(`outcome ${ctx.path.outcome_id} is not linked in outcome group ${group.id}`);
  const outcome = outcomeById(ctx.db, existing.outcome_id)!;
  const last = activeLinkCount(ctx.db, outcome.id) <= 1;
  if (last && isAligned(ctx.db, outcome.id)) {
    throw rejected(
      `outcome ${outcome.id} "${outcome.title}" is aligned to an assignment or rubric and this is its last link; ` +
        'unlinking would delete it',
    );
  }
  const answer = linkJson(ctx, existing, { group, outcome });
  const now = ctx.now();
  deleteLink(ctx.db, existing.id);
  if (last) deleteOutcome(ctx.db, outcome.id, now);
  return answer;
};

const listSubgroups: Handler = (ctx) => {
  const group = groupIn(ctx, contextFor(ctx, { edit: false }));
  return paginate(ctx, keysetSource<GroupRow>(ctx.db, subgroupsQuery(group.id)), (g) => groupBrief(ctx, g));
};

const createSubgroup: Handler = (ctx) => {
  const c = contextFor(ctx, { edit: true });
  const parent = groupIn(ctx, c);
  const p = ctx.params;
  const name = title(p);
  if (name === undefined) throw invalid(undefined, 'title', 'blank', "title can't be blank");
  const id = createGroup(ctx.db, {
    context: c,
    parent: parent.id,
    title: name,
    description: optionalText(p, 'description') ?? null,
    vendorGuid: optionalText(p, 'vendor_guid') ?? null,
    now: ctx.now(),
  });
  return groupJson(ctx, groupById(ctx.db, id)!);
};

/**
 * A copy of `source` under `parent`: same title, description and GUID, the same outcomes linked, subgroups copied in
 * turn.
 */
function copyGroup(
  ctx: MockCtx,
  c: OutcomeContextRef,
  source: { group: GroupRow; links: LinkRow[]; children: unknown[] },
  parent: number,
  now: string,
): number {
  const id = createGroup(ctx.db, {
    context: c,
    parent,
    title: source.group.title,
    description: source.group.description,
    vendorGuid: source.group.vendor_guid,
    now,
  });
  for (const l of source.links) createLink(ctx.db, id, outcomeById(ctx.db, l.outcome_id)!, now);
  for (const child of source.children as (typeof source)[]) copyGroup(ctx, c, child, id, now);
  return id;
}

/** The source tree read whole before anything is written: importing a group into itself copies it once. */
function snapshot(ctx: MockCtx, group: GroupRow): { group: GroupRow; links: LinkRow[]; children: unknown[] } {
  return {
    group,
    links: linksOfGroup(ctx.db, group.id),
    children: subgroupsOf(ctx.db, group.id).map((g) => snapshot(ctx, g)),
  };
}

const importGroup: Handler = (ctx) => {
  const c = contextFor(ctx, { edit: true });
  const target = groupIn(ctx, c);
  const sourceId = int(ctx.params, 'source_outcome_group_id');
  if (sourceId === undefined) throw rejected('source_outcome_group_id is required');
  const source = groupById(ctx.db, sourceId);
  if (!source) throw rejected(`source_outcome_group_id: outcome group ${sourceId} does not exist`);
  if (source.parent_id === null)
    throw rejected(
      `source_outcome_group_id: group ${sourceId} is the root group of ${describe(contextOf(source))}; import one ` +
        'of its subgroups',
    );
  if (!isRelated(ctx, c, contextOf(source))) {
    throw rejected(
      `source_outcome_group_id: group ${sourceId} is in ${describe(contextOf(source))}, which is not global, this ` +
        'context or an account above it',
    );
  }
  const id = copyGroup(ctx, c, snapshot(ctx, source), target.id, ctx.now());
  return groupJson(ctx, groupById(ctx.db, id)!);
};

export const outcomesHandlers = {
  'outcomes.rootGroup': rootGroup,
  'outcomes.getGroup': getGroup,
  'outcomes.updateGroup': updateGroup,
  'outcomes.deleteGroup': deleteGroup,
  'outcomes.listLinks': listLinks,
  'outcomes.createOutcome': createOutcome,
  'outcomes.linkOutcome': linkOutcome,
  'outcomes.unlinkOutcome': unlinkOutcome,
  'outcomes.listSubgroups': listSubgroups,
  'outcomes.createSubgroup': createSubgroup,
  'outcomes.importGroup': importGroup,
};
