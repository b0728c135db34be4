// `lms outcomes import FILE`: builds or updates a whole tree of groups and outcomes in one context
// from a YAML, JSON or CSV file, matching existing groups and outcomes by vendor_guid, so that a
// re-run changes nothing. The bulk engine runs it (validation first, --dry-run, progress, journal,
// failed rows); each row is a group or an outcome, parents before children.
//
// Rows run side by side, so a row waits for its parent group's row: every row is looked up before
// it is written (`lookupFirst`), and the engine takes rows in file order and starts each row's
// lookup as it takes it, so a parent's lookup has begun before any child asks for its id. A parent
// done by an earlier run (skipped by the journal) is found in the context's tree as it was read
// when the run began.
import { placeFields, type CsvRow } from '../../bulk/csv-input.js';
import type { BulkRow, BulkTask, Difference } from '../../bulk/job.js';
import type { ApiClient } from '../../client/client.js';
import type { Outcome, OutcomeContext, Rating } from '../../spec/types/outcomes.js';
import { FailureError } from '../../errors.js';
import { parseRatings } from './tree-file.js';

export interface TreeRow extends BulkRow {
  type: 'group' | 'outcome';
  guid: string;
  title: string;
  description?: string;
  displayName?: string;
  /** Group GUIDs of the file; none means the context's root group. */
  parents: string[];
  masteryPoints?: number;
  ratings?: Rating[];
  calculationMethod?: string;
  calculationInt?: number;
}

export function toTreeRow(row: CsvRow): TreeRow {
  const v = row.values;
  const type = v.object_type as TreeRow['type'];
  return {
    ...placeFields(row),
    key: `${type}:${v.vendor_guid}`,
    type,
    guid: v.vendor_guid,
    title: v.title,
    description: v.description || undefined,
    displayName: v.display_name || undefined,
    parents: (v.parent_guids ?? '').split(/\s+/).filter(Boolean),
    masteryPoints: v.mastery_points ? Number(v.mastery_points) : undefined,
    ratings: v.ratings ? parseRatings(v.ratings) : undefined,
    calculationMethod: v.calculation_method || undefined,
    calculationInt: v.calculation_int ? Number(v.calculation_int) : undefined,
  };
}

interface GroupNow {
  id: number;
  parentId: number | null;
  title: string;
  description: string | null;
}

interface OutcomeNow {
  id: number;
  outcome: Outcome;
  /** Groups of this context it is linked in. */
  groups: Set<number>;
}

interface Tree {
  root: number;
  groups: Map<string, GroupNow>;
  outcomes: Map<string, OutcomeNow>;
}

/** What a row's target is now, with where the row wants it. */
type Current =
  | { kind: 'group'; group: GroupNow; parent: number | null }
  | { kind: 'outcome'; outcome: OutcomeNow; groups: (number | null)[] };

/** The context's whole tree, read once: groups and linked outcomes by vendor_guid. */
async function readTree(client: ApiClient, where: OutcomeContext): Promise<Tree> {
  const o = client.ops.outcomes;
  const root = await o.rootGroup(where);
  const tree: Tree = { root: root.id, groups: new Map(), outcomes: new Map() };
  const queue = [root.id];
  while (queue.length) {
    const id = queue.shift()!;
    for await (const link of o.listLinks({ ...where, id, outcome_style: 'full' })) {
      const outcome = link.outcome as Outcome;
      if (!outcome.vendor_guid) continue;
      const known = tree.outcomes.get(outcome.vendor_guid) ?? { id: outcome.id, outcome, groups: new Set<number>() };
      if (known.id === outcome.id) known.groups.add(id);
      tree.outcomes.set(outcome.vendor_guid, known);
    }
    for await (const sub of o.listSubgroups({ ...where, id })) {
      queue.push(sub.id);
      if (!sub.vendor_guid || tree.groups.has(sub.vendor_guid)) continue;
      const full = await o.getGroup({ ...where, id: sub.id });
      tree.groups.set(sub.vendor_guid, {
        id: sub.id,
        parentId: full.parent_outcome_group?.id ?? null,
        title: full.title,
        description: full.description,
      });
    }
  }
  return tree;
}

/** A promise and its settling functions. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const sameRatings = (a: Rating[] | undefined, b: Rating[] | undefined) =>
  JSON.stringify(a ?? []) === JSON.stringify(b ?? []);
const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));

/** The ratings as the API stores them: a missing description is "No description". */
const normalRatings = (ratings: Rating[] | undefined) =>
  ratings?.map((r) => ({ description: r.description || 'No description', points: r.points }));

export function treeTask(
  client: ApiClient,
  where: OutcomeContext,
  options: { plan: boolean },
): BulkTask<TreeRow, Current> {
  const o = client.ops.outcomes;
  let tree: Promise<Tree> | undefined;
  const read = () => (tree ??= readTree(client, where));
  /** Group GUID → its id once its row has been looked up or made; null when it does not (or will not) exist. */
  const groupIds = new Map<string, ReturnType<typeof deferred<number | null>>>();

  const settle = (guid: string, id: number | null) => groupIds.get(guid)?.resolve(id);
  /** The id of a group of the file (this run's row, else the tree as read), or the root for none. */
  async function groupId(guid: string | undefined): Promise<number | null> {
    const t = await read();
    if (guid === undefined) return t.root;
    const pending = groupIds.get(guid);
    if (pending) return pending.promise;
    return t.groups.get(guid)?.id ?? null;
  }
  async function parentIds(row: TreeRow): Promise<(number | null)[]> {
    return Promise.all((row.parents.length ? row.parents : [undefined]).map(groupId));
  }
  const needParents = (row: TreeRow, ids: (number | null)[]): number[] => {
    const missing = row.parents.filter((_, i) => ids[i] === null);
    if (missing.length)
      throw new FailureError(
        `parent group ${missing.map((g) => `"${g}"`).join(', ')} does not exist (its row failed or was skipped)`,
      );
    return ids as number[];
  };
  const fields = (row: TreeRow) => ({
    title: row.title,
    vendor_guid: row.guid,
    ...(row.description !== undefined ? { description: row.description } : {}),
  });

  return {
    lookupFirst: true,
    async find(row) {
      // Registered before anything is awaited: a child row taken after this one waits for it.
      if (row.type === 'group' && !groupIds.has(row.guid)) groupIds.set(row.guid, deferred());
      try {
        const t = await read();
        if (row.type === 'group') {
          const parent = await groupId(row.parents[0]);
          const group = t.groups.get(row.guid);
          if (group) settle(row.guid, group.id);
          else if (options.plan) settle(row.guid, null);
          return group ? { id: group.id, current: { kind: 'group', group, parent } } : undefined;
        }
        const groups = await parentIds(row);
        const outcome = t.outcomes.get(row.guid);
        return outcome ? { id: outcome.id, current: { kind: 'outcome', outcome, groups } } : undefined;
      } catch (e) {
        if (row.type === 'group') settle(row.guid, null);
        throw e;
      }
    },
    compare(row, current): Difference[] {
      const changes: Difference[] = [];
      if (current.kind === 'group') {
        const g = current.group;
        if (row.title !== g.title) changes.push({ field: 'title', from: g.title, to: row.title, applicable: true });
        if (row.description !== undefined && row.description !== text(g.description))
          changes.push({ field: 'description', from: text(g.description), to: row.description, applicable: true });
        if (current.parent !== g.parentId)
          changes.push({
            field: 'parent',
            from: text(g.parentId),
            to: row.parents[0] ?? 'the root group',
            applicable: true,
          });
        return changes;
      }
      const now = current.outcome.outcome;
      const fixed = (field: string, from: unknown, to: unknown) =>
        changes.push({ field, from: text(from), to: text(to), applicable: false });
      if (row.title !== now.title) fixed('title', now.title, row.title);
      if (row.description !== undefined && row.description !== text(now.description))
        fixed('description', now.description, row.description);
      if (row.displayName !== undefined && row.displayName !== text(now.display_name))
        fixed('display_name', now.display_name, row.displayName);
      const ratings = normalRatings(row.ratings);
      if (!sameRatings(ratings, now.ratings))
        fixed(
          'ratings',
          (now.ratings ?? []).map((r) => `${r.points}:${r.description}`).join(';'),
          (ratings ?? []).map((r) => `${r.points}:${r.description}`).join(';'),
        );
      const mastery = ratings?.length ? (row.masteryPoints ?? Math.max(...ratings.map((r) => r.points))) : null;
      if (mastery !== (now.mastery_points ?? null)) fixed('mastery_points', now.mastery_points, mastery);
      if (row.calculationMethod !== undefined && row.calculationMethod !== now.calculation_method)
        fixed('calculation_method', now.calculation_method, row.calculationMethod);
      if (row.calculationInt !== undefined && row.calculationInt !== now.calculation_int)
        fixed('calculation_int', now.calculation_int, row.calculationInt);
      current.groups.forEach((id, i) => {
        if (id === null || !current.outcome.groups.has(id))
          changes.push({ field: 'link', from: '', to: row.parents[i] ?? 'the root group', applicable: true });
      });
      return changes;
    },
    async create(row) {
      try {
        if (row.type === 'group') {
          const [parent] = needParents(row, [await groupId(row.parents[0])]);
          const made = await o.createSubgroup({ ...where, id: parent, ...fields(row) });
          settle(row.guid, made.id);
          return made.id;
        }
        const [first, ...others] = needParents(row, await parentIds(row));
        const link = await o.createOutcome({
          ...where,
          id: first,
          ...fields(row),
          ...(row.displayName !== undefined ? { display_name: row.displayName } : {}),
          ...(row.masteryPoints !== undefined ? { mastery_points: row.masteryPoints } : {}),
          ...(row.ratings?.length ? { ratings: row.ratings } : {}),
          ...(row.calculationMethod !== undefined
            ? { calculation_method: row.calculationMethod as Outcome['calculation_method'] }
            : {}),
          ...(row.calculationInt !== undefined ? { calculation_int: row.calculationInt } : {}),
        });
        for (const id of others) await o.linkOutcome({ ...where, id, outcome_id: link.outcome.id });
        return link.outcome.id;
      } catch (e) {
        if (row.type === 'group') settle(row.guid, null);
        throw e;
      }
    },
    async update(row, found, changes) {
      if (found.current.kind === 'group') {
        const parent = changes.some((c) => c.field === 'parent')
          ? needParents(row, [found.current.parent])[0]
          : undefined;
        await o.updateGroup({
          ...where,
          id: found.id,
          ...fields(row),
          ...(parent !== undefined ? { parent_outcome_group_id: parent } : {}),
        });
        return;
      }
      const current = found.current;
      const ids = needParents(row, current.groups);
      for (const id of ids)
        if (!current.outcome.groups.has(id)) await o.linkOutcome({ ...where, id, outcome_id: found.id });
    },
  };
}
