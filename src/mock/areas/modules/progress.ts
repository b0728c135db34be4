// A student's progress through a course's modules, as Canvas evaluates a progression
// (context_module_progression.rb): a module is locked until its unlock date and until every
// prerequisite module is completed (once unlocked it stays so until relocked); unlocked with no
// requirement met, started with some, completed with all (or with none to meet). With sequential
// progress the items after the first unmet requirement are locked. Each requirement is judged from
// what the course's records say: a submission (must_submit, min_score, excused), a quiz attempt, a
// topic entry (must_contribute), the item viewed or marked done (must_view, must_mark_done).
import type { Db } from '../../db/open.js';
import { APPLICABLE, type ModuleItemType, type RequirementType } from '../../../spec/types/modules.js';
import { assignmentById } from '../assignments/repo.js';
import { topicById } from '../discussions/repo.js';
import { attachmentById } from '../files/repo.js';
import { quizById } from '../quizzes/repo.js';
import { submissionOf, type SubmissionRow } from '../submissions/repo.js';
import {
  actionAt,
  finishedQuizOf,
  firstEntryAt,
  itemsOfModule,
  keepUnlocked,
  modulesOfCourse,
  prerequisitesOf,
  unlockedFor,
  type ItemRow,
  type ModuleRow,
} from './repo.js';

interface ItemProgress {
  /** Its requirement is met (undefined: it has none). */
  completed?: boolean;
  /** The student cannot reach it yet: its module is locked, or an earlier requirement is unmet. */
  locked: boolean;
}

export interface ModuleProgress {
  state: 'locked' | 'unlocked' | 'started' | 'completed';
  completed_at: string | null;
  items: Map<number, ItemProgress>;
}

/**
 * Whether a student sees an item at all: it is published and so is what it shows (a deleted or
 * unpublished assignment, quiz or topic hides its item).
 */
export function contentVisible(db: Db, item: ItemRow): boolean {
  if (!item.published) return false;
  const id = item.content_id;
  switch (item.type) {
    case 'Assignment': {
      const a = id === null ? undefined : assignmentById(db, id);
      return a !== undefined && a.published === 1;
    }
    case 'Quiz': {
      const q = id === null ? undefined : quizById(db, id);
      return q !== undefined && q.published === 1;
    }
    case 'Discussion': {
      const t = id === null ? undefined : topicById(db, id);
      return t !== undefined && t.workflow_state === 'active';
    }
    case 'File': {
      const f = id === null ? undefined : attachmentById(db, id);
      return f !== undefined && f.workflow_state !== 'deleted';
    }
    default:
      return true;
  }
}

/** The submission that scores an item for the student: its assignment's, a quiz's or a graded topic's. */
function submissionFor(db: Db, item: ItemRow, userId: number): SubmissionRow | undefined {
  if (item.content_id === null) return undefined;
  if (item.type === 'Assignment') return submissionOf(db, item.content_id, userId);
  const carrier =
    item.type === 'Quiz'
      ? quizById(db, item.content_id)?.assignment_id
      : item.type === 'Discussion'
        ? topicById(db, item.content_id)?.assignment_id
        : null;
  return carrier ? submissionOf(db, carrier, userId) : undefined;
}

const SUBMITTED = new Set(['submitted', 'graded', 'pending_review']);

/** When the student met the item's requirement, or undefined while they have not. */
function metAt(db: Db, item: ItemRow, userId: number): string | undefined {
  const sub = submissionFor(db, item, userId);
  if (sub?.excused) return sub.updated_at;
  switch (item.requirement as RequirementType) {
    case 'must_view':
      return actionAt(db, item.id, userId, 'read');
    case 'must_mark_done':
      return actionAt(db, item.id, userId, 'done');
    case 'must_contribute':
      if (item.type === 'Discussion' && item.content_id !== null) return firstEntryAt(db, item.content_id, userId);
      if (item.type === 'Assignment' && sub && sub.submitted_at && SUBMITTED.has(sub.workflow_state))
        return sub.submitted_at;
      return undefined;
    case 'must_submit': {
      if (item.type === 'Quiz' && item.content_id !== null) {
        const finished = finishedQuizOf(db, item.content_id, userId);
        if (finished) return finished.at;
      }
      // A grade given without a submission (no attempt) is not a submission.
      if (!sub || !SUBMITTED.has(sub.workflow_state) || sub.attempt === null) return undefined;
      return sub.submitted_at ?? sub.graded_at ?? sub.updated_at;
    }
    case 'min_score': {
      const min = item.min_score ?? 0;
      if (item.type === 'Quiz' && item.content_id !== null) {
        const finished = finishedQuizOf(db, item.content_id, userId);
        if (finished?.score !== null && finished !== undefined && finished.score >= min) return finished.at;
      }
      if (sub && sub.score !== null && sub.score >= min) return sub.graded_at ?? sub.updated_at;
      return undefined;
    }
    default:
      return undefined;
  }
}

/** Every published module of the course for one student, in position order. */
function evaluateCourse(db: Db, courseId: number, userId: number, now: string): Map<number, ModuleProgress> {
  const found = new Map<number, ModuleProgress>();
  const modules = modulesOfCourse(db, courseId, false);
  const positions = new Map(modules.map((m) => [m.id, m.position]));
  for (const m of modules) found.set(m.id, evaluateModule(db, m, userId, now, found, positions));
  return found;
}

function evaluateModule(
  db: Db,
  m: ModuleRow,
  userId: number,
  now: string,
  earlier: Map<number, ModuleProgress>,
  positions: Map<number, number>,
): ModuleProgress {
  // Prerequisites count only when they are published modules before this one, as Canvas ignores the others.
  const prerequisites = prerequisitesOf(m).filter((id) => (positions.get(id) ?? Infinity) < m.position);
  const waiting = m.unlock_at !== null && m.unlock_at > now;
  const locked =
    waiting || (!unlockedFor(db, m.id, userId) && !prerequisites.every((id) => earlier.get(id)?.state === 'completed'));
  const items = new Map<number, ItemProgress>();
  let met = 0;
  let required = 0;
  let last: string | null = null;
  let blocked = locked;
  for (const item of itemsOfModule(db, m.id)) {
    if (!contentVisible(db, item)) continue;
    const progress: ItemProgress = { locked: blocked };
    if (
      item.requirement &&
      (APPLICABLE[item.type as ModuleItemType] ?? []).includes(item.requirement as RequirementType)
    ) {
      const at = metAt(db, item, userId);
      progress.completed = at !== undefined;
      required++;
      if (at !== undefined) {
        met++;
        if (last === null || at > last) last = at;
      } else if (m.require_sequential_progress) {
        // This item is where the student is: the ones after it wait until it is done.
        items.set(item.id, progress);
        blocked = true;
        continue;
      }
    }
    items.set(item.id, progress);
  }
  if (locked) return { state: 'locked', completed_at: null, items };
  if (met === required) return { state: 'completed', completed_at: last ?? m.updated_at, items };
  return { state: met > 0 ? 'started' : 'unlocked', completed_at: null, items };
}

/**
 * A student's progress, with every module it finds unlocked kept so (Canvas keeps a progression once
 * evaluated): evaluated when the student's modules are shown, and before a mark of theirs (a mark
 * taken back locks nothing they had reached). A student never shown a module has no progression
 * yet, so a prerequisite added before they look locks them out, as on Canvas.
 */
export function holdUnlocksOf(db: Db, courseId: number, student: number, now: string): Map<number, ModuleProgress> {
  const progress = evaluateCourse(db, courseId, student, now);
  for (const [moduleId, p] of progress) if (p.state !== 'locked') keepUnlocked(db, moduleId, student);
  return progress;
}
