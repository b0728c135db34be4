// What `lms outcomes export` writes: a context's tree in the file formats `lms outcomes import`
// reads — CSV rows (tree-file.ts's columns), or the nested tree as JSON or YAML — keyed by
// vendor_guid as the import matches, so a tree can be exported, edited and imported back, and an
// unedited one changes nothing.
import type { ApiClient } from '../../client/client.js';
import type { Outcome, OutcomeContext } from '../../spec/types/outcomes.js';
import { formatRatings, TREE_COLUMNS } from './tree-file.js';
import { textOf } from '../../output/text.js';

interface OutcomeEntry {
  /** Absent where the outcome is only linked again: the file defines it once. */
  title?: string;
  vendor_guid: string;
  description?: string;
  display_name?: string;
  mastery_points?: number;
  ratings?: { points: number; description: string }[];
  calculation_method?: string;
  calculation_int?: number;
}

interface GroupEntry {
  title: string;
  vendor_guid: string;
  description?: string;
  outcomes?: OutcomeEntry[];
  groups?: GroupEntry[];
}

/** The file as the import reads YAML and JSON: the root group's subgroups and its outcomes. */
export interface TreeExport {
  groups: GroupEntry[];
  outcomes: OutcomeEntry[];
}

interface Skipped {
  what: string;
  why: string;
}

const present = <T>(v: T | null | undefined): v is T => v !== null && v !== undefined && v !== '';

function outcomeEntry(o: Outcome): OutcomeEntry {
  return {
    title: o.title,
    vendor_guid: o.vendor_guid!,
    ...(present(o.description) ? { description: o.description } : {}),
    ...(present(o.display_name) ? { display_name: o.display_name } : {}),
    ...(present(o.mastery_points) ? { mastery_points: o.mastery_points } : {}),
    ...(o.ratings?.length ? { ratings: o.ratings.map((r) => ({ points: r.points, description: r.description })) } : {}),
    calculation_method: o.calculation_method,
    ...(present(o.calculation_int) ? { calculation_int: o.calculation_int } : {}),
  };
}

/**
 * Reads the tree in document order (a group's outcomes, then its subgroups; the root's groups, then
 * its outcomes), so the first place an outcome appears is where the file defines it. What the
 * import could not match — no vendor_guid, or one another group or outcome already has — is left
 * out with what hangs below it: imported, it would be made again beside the original.
 */
export async function readTreeForExport(
  client: ApiClient,
  where: OutcomeContext,
): Promise<{ tree: TreeExport; skipped: Skipped[] }> {
  const o = client.ops.outcomes;
  const skipped: Skipped[] = [];
  const groupGuids = new Set<string>();
  const outcomeIds = new Map<string, number>();

  async function outcomesOf(groupId: number): Promise<OutcomeEntry[]> {
    const out: OutcomeEntry[] = [];
    for await (const link of o.listLinks({ ...where, id: groupId, outcome_style: 'full' })) {
      // The documented OutcomeLink may come without its outcome: nothing to write, nothing to import.
      const linked: unknown = link.outcome;
      if (linked === null || typeof linked !== 'object') {
        skipped.push({
          what: `the outcome link ${textOf(link.url) || `in group ${groupId}`}`,
          why: 'it names no outcome',
        });
        continue;
      }
      const x = linked as Outcome;
      const guid = x.vendor_guid;
      if (!guid) {
        skipped.push({ what: `outcome ${textOf(x.id)} "${textOf(x.title)}"`, why: 'no vendor_guid' });
        continue;
      }
      const known = outcomeIds.get(guid);
      if (known === undefined) {
        outcomeIds.set(guid, x.id);
        out.push(outcomeEntry(x));
      } else if (known === x.id) out.push({ vendor_guid: guid });
      else skipped.push({ what: `outcome ${x.id} "${x.title}"`, why: `outcome ${known} has its vendor_guid` });
    }
    return out;
  }

  async function subgroupsOf(groupId: number): Promise<GroupEntry[]> {
    const out: GroupEntry[] = [];
    for await (const sub of o.listSubgroups({ ...where, id: groupId })) {
      const why = !sub.vendor_guid
        ? 'no vendor_guid'
        : groupGuids.has(sub.vendor_guid)
          ? 'another group has its vendor_guid'
          : undefined;
      if (why) {
        skipped.push({ what: `group ${sub.id} "${sub.title}" and what it holds`, why });
        continue;
      }
      groupGuids.add(sub.vendor_guid!);
      // The brief group of a list has no description.
      const full = await o.getGroup({ ...where, id: sub.id });
      const outcomes = await outcomesOf(sub.id);
      const groups = await subgroupsOf(sub.id);
      out.push({
        title: full.title,
        vendor_guid: sub.vendor_guid!,
        ...(present(full.description) ? { description: full.description } : {}),
        ...(outcomes.length ? { outcomes } : {}),
        ...(groups.length ? { groups } : {}),
      });
    }
    return out;
  }

  const root = await o.rootGroup(where);
  const groups = await subgroupsOf(root.id);
  const outcomes = await outcomesOf(root.id);
  return { tree: { groups, outcomes }, skipped };
}

/**
 * The tree as CSV rows: a group, then its outcomes, then its subgroups. An outcome linked in several
 * groups is one row with each group in parent_guids (the root group, which has no GUID to list,
 * only when it is the one).
 */
export function treeRows(tree: TreeExport): Record<(typeof TREE_COLUMNS)[number], string>[] {
  const rows: Record<(typeof TREE_COLUMNS)[number], string>[] = [];
  const outcomeRows = new Map<string, Record<(typeof TREE_COLUMNS)[number], string>>();
  const blank = Object.fromEntries(TREE_COLUMNS.map((c) => [c, ''])) as Record<(typeof TREE_COLUMNS)[number], string>;
  const outcome = (x: OutcomeEntry, parent: string) => {
    const earlier = outcomeRows.get(x.vendor_guid);
    if (earlier) {
      if (parent) earlier.parent_guids = [...earlier.parent_guids.split(' ').filter(Boolean), parent].join(' ');
      return;
    }
    const row = {
      ...blank,
      vendor_guid: x.vendor_guid,
      object_type: 'outcome',
      title: x.title ?? '',
      description: x.description ?? '',
      display_name: x.display_name ?? '',
      calculation_method: x.calculation_method ?? '',
      calculation_int: x.calculation_int === undefined ? '' : String(x.calculation_int),
      parent_guids: parent,
      mastery_points: x.mastery_points === undefined ? '' : String(x.mastery_points),
      ratings: x.ratings ? formatRatings(x.ratings) : '',
    };
    outcomeRows.set(x.vendor_guid, row);
    rows.push(row);
  };
  const group = (g: GroupEntry, parent: string) => {
    rows.push({
      ...blank,
      vendor_guid: g.vendor_guid,
      object_type: 'group',
      title: g.title,
      description: g.description ?? '',
      parent_guids: parent,
    });
    for (const x of g.outcomes ?? []) outcome(x, g.vendor_guid);
    for (const sub of g.groups ?? []) group(sub, g.vendor_guid);
  };
  for (const g of tree.groups) group(g, '');
  for (const x of tree.outcomes) outcome(x, '');
  return rows;
}
