// The seeded outcomes: an account tree (a subgroup, ratings), BIO-101's tree linking account
// outcomes beside one of its own, a global group, and one outcome aligned to a rubric with a
// single link, so that the delete and unlink refusals can be seen.
import type { Db } from '../../db/open.js';
import type { SeedOptions } from '../../area.js';
import { addAlignment, createGroup, createLink, createOutcome, outcomeById, type OutcomeContextRef } from './repo.js';

const MSU: OutcomeContextRef = { type: 'Account', id: 1 };
const BIO: OutcomeContextRef = { type: 'Course', id: 1 };
const GLOBAL: OutcomeContextRef = { type: null, id: null };

export const SEED_GROUPS = [
  { id: 1, context: MSU, parent: null, title: 'Mock State University' },
  {
    id: 2,
    context: MSU,
    parent: 1,
    title: 'Scientific Literacy',
    vendorGuid: 'msu-sci-lit',
    description: 'Reasoning with evidence across the sciences',
  },
  { id: 3, context: MSU, parent: 2, title: 'Laboratory Practice', vendorGuid: 'msu-lab' },
  { id: 4, context: MSU, parent: 1, title: 'Written Communication', vendorGuid: 'msu-writing' },
  { id: 5, context: BIO, parent: null, title: 'Introduction to Biology' },
  { id: 6, context: BIO, parent: 5, title: 'BIO-101 Outcomes', vendorGuid: 'bio101-outcomes' },
  { id: 7, context: GLOBAL, parent: null, title: 'ROOT' },
  { id: 8, context: GLOBAL, parent: 7, title: 'Critical Thinking', vendorGuid: 'global-critical-thinking' },
];

const FOUR_POINT = [
  { description: 'Exceeds Mastery', points: 4 },
  { description: 'Meets Mastery', points: 3 },
  { description: 'Near Mastery', points: 2 },
  { description: 'Well Below Mastery', points: 1 },
];

export const SEED_OUTCOMES = [
  {
    id: 1,
    context: MSU,
    title: 'Formulates hypotheses',
    vendorGuid: 'msu-hypothesis',
    ratings: FOUR_POINT,
    mastery: 3,
    groups: [2, 6],
  },
  {
    id: 2,
    context: MSU,
    title: 'Interprets data',
    vendorGuid: 'msu-data',
    ratings: FOUR_POINT,
    mastery: 3,
    groups: [2, 6],
    method: 'highest',
  },
  {
    id: 3,
    context: MSU,
    title: 'Follows lab safety procedures',
    vendorGuid: 'msu-safety',
    ratings: [
      { description: 'Safe', points: 1 },
      { description: 'Unsafe', points: 0 },
    ],
    mastery: 1,
    groups: [3],
  },
  {
    id: 4,
    context: MSU,
    title: 'Writes clearly and concisely',
    vendorGuid: 'msu-writing-clarity',
    ratings: FOUR_POINT,
    mastery: 3,
    groups: [4],
    method: 'n_mastery',
  },
  {
    id: 5,
    context: BIO,
    title: 'Describes cell structure',
    vendorGuid: 'bio101-cells',
    ratings: FOUR_POINT,
    mastery: 3,
    groups: [6],
  },
  {
    id: 6,
    context: GLOBAL,
    title: 'Evaluates arguments',
    vendorGuid: 'global-evaluates-arguments',
    ratings: FOUR_POINT,
    mastery: 3,
    groups: [8],
  },
];

const CALCULATION_INT: Record<string, number | null> = { decaying_average: 65, n_mastery: 5, highest: null };

export function seedOutcomes(db: Db, { minimal, now }: SeedOptions): void {
  if (minimal) return;
  for (const g of SEED_GROUPS) createGroup(db, { ...g, now });
  for (const o of SEED_OUTCOMES) {
    const method = o.method ?? 'decaying_average';
    createOutcome(db, {
      id: o.id,
      context: o.context,
      title: o.title,
      vendorGuid: o.vendorGuid,
      description: `<p>${o.title}.</p>`,
      masteryPoints: o.mastery,
      pointsPossible: Math.max(...o.ratings.map((r) => r.points)),
      ratings: o.ratings,
      calculationMethod: method,
      calculationInt: CALCULATION_INT[method],
      now,
    });
    for (const g of o.groups) createLink(db, g, outcomeById(db, o.id)!, now);
  }
  // Lab safety is assessed with BIO-101's lab report rubric: its one link cannot go.
  addAlignment(db, { outcome: 3, contentType: 'Rubric', contentId: 1, title: 'Lab Report Rubric' });
}
