// A student's course grade as Canvas's GradeCalculator computes it: each assignment group's kept
// scores after its drop rules, then either every kept point over every possible point, or, in a
// course that weighs its groups, each group's percentage times its weight (scaled up when the
// weights of the groups that count come to less than 100). "Current" counts graded work only;
// "final" counts work not yet graded as zero. Excused work counts in neither. Pure and shared: the
// mock grades with it, and `lms grade export --format canvas` fills the export's totals with it.
import type { GradingRules } from './types/pages.js';

export interface GradedWork {
  assignment_id: number;
  group_id: number;
  points: number;
  score: number | null;
  excused: number | boolean;
}

export interface GroupForGrades {
  id: number;
  group_weight: number;
  rules: GradingRules;
}

interface Scored {
  id: number;
  score: number;
  possible: number;
}

/**
 * Which of `subs` to keep when `drop` of them go: the set whose score over possible is the highest
 * (`lowest`) or the lowest (`highest`) a set of that size can have. Canvas finds it as Kane and Kane
 * do, searching for the ratio q at which the best set's sum of (score - q × possible) is zero.
 */
function keep(subs: Scored[], drop: number, which: 'lowest' | 'highest'): Scored[] {
  const k = subs.length - drop;
  if (drop <= 0) return subs;
  if (k <= 0) return [];
  const pick = (q: number) =>
    [...subs]
      .map((s) => ({ s, v: s.score - q * s.possible }))
      .sort((a, b) => (which === 'lowest' ? b.v - a.v : a.v - b.v) || a.s.id - b.s.id)
      .slice(0, k);
  const ratios = subs.map((s) => (s.possible > 0 ? s.score / s.possible : s.score > 0 ? 1e6 : 0));
  let lo = Math.min(0, ...ratios);
  let hi = Math.max(1, ...ratios);
  for (let i = 0; i < 100; i++) {
    const q = (lo + hi) / 2;
    const total = pick(q).reduce((n, x) => n + x.v, 0);
    // Either way the sum falls as q rises, and is zero at the ratio sought.
    if (total > 0) lo = q;
    else hi = q;
    if (hi - lo < 1e-12) break;
  }
  return pick((lo + hi) / 2).map((x) => x.s);
}

/** The kept scores of one group under its rules; never-drop work is kept and not counted as droppable. */
function keptIn(subs: Scored[], rules: GradingRules): Scored[] {
  const never = new Set(rules.never_drop ?? []);
  const fixed = subs.filter((s) => never.has(s.id));
  let droppable = subs.filter((s) => !never.has(s.id));
  // At least one score stays: drop rules never empty a group (Canvas's cap).
  const keepAtLeast = fixed.length > 0 ? 0 : 1;
  const lowest = Math.max(0, Math.min(rules.drop_lowest ?? 0, droppable.length - keepAtLeast));
  droppable = keep(droppable, lowest, 'lowest');
  const highest = Math.max(0, Math.min(rules.drop_highest ?? 0, droppable.length - keepAtLeast));
  droppable = keep(droppable, highest, 'highest');
  return [...fixed, ...droppable];
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** One group's kept points over its kept possible points, for graded work (current) or all of it (final). */
export interface GroupTotal {
  score: number;
  possible: number;
}

/** A group's total, or undefined when none of its work counts. */
function groupTotal(work: GradedWork[], group: GroupForGrades, final: boolean): GroupTotal | undefined {
  const subs: Scored[] = work
    .filter((w) => w.group_id === group.id && !w.excused && (final || w.score !== null))
    .map((w) => ({ id: w.assignment_id, score: w.score ?? 0, possible: w.points }));
  if (subs.length === 0) return undefined;
  const kept = keptIn(subs, group.rules);
  return { score: kept.reduce((n, s) => n + s.score, 0), possible: kept.reduce((n, s) => n + s.possible, 0) };
}

/** A total as a percentage to two decimals, or null when nothing is possible. */
export const percentOf = (t: GroupTotal | undefined): number | null =>
  t && t.possible > 0 ? round2((t.score / t.possible) * 100) : null;

/** One total (current or final) as a percentage, or null when nothing counts. */
function total(work: GradedWork[], groups: GroupForGrades[], weighted: boolean, final: boolean): number | null {
  const sums = groups.flatMap((g) => {
    const t = groupTotal(work, g, final);
    return t ? [{ weight: g.group_weight, ...t }] : [];
  });
  if (!weighted) {
    return percentOf({
      score: sums.reduce((n, s) => n + s.score, 0),
      possible: sums.reduce((n, s) => n + s.possible, 0),
    });
  }
  const counted = sums.filter((s) => s.possible > 0);
  const fullWeight = counted.reduce((n, s) => n + s.weight, 0);
  if (fullWeight <= 0) return null;
  let grade = counted.reduce((n, s) => n + (s.score / s.possible) * s.weight, 0);
  if (fullWeight < 100) grade = (grade * 100) / fullWeight;
  return round2(grade);
}

export function courseScores(
  work: GradedWork[],
  groups: GroupForGrades[],
  weighted: boolean,
): { current_score: number | null; final_score: number | null } {
  return { current_score: total(work, groups, weighted, false), final_score: total(work, groups, weighted, true) };
}

/** Each group's totals, current and final, as the course grade counts them. */
export function groupTotals(
  work: GradedWork[],
  groups: GroupForGrades[],
): Map<number, { current: GroupTotal | undefined; final: GroupTotal | undefined }> {
  return new Map(groups.map((g) => [g.id, { current: groupTotal(work, g, false), final: groupTotal(work, g, true) }]));
}
