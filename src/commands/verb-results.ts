// What each verb answers with as data when its answer is no route's record (a plan, a bulk job's
// report, rows of its own making), by command line. scripts/mcp-shapes.mjs reads this interface
// with the TypeScript compiler and writes each type's shape into src/mcp/result-shapes.ts, where
// `lms mcp` makes the tool's outputSchema of it; nothing imports it at run time. A list is an
// array; a verb that answers a list or a record (conv send) is the union of the two.
import type { PlanDocument } from '../apply/render.js';
import type { BulkSummary } from '../bulk/command.js';
import type { ActivityItem, ActivitySummaryEntry } from '../spec/types/activity.js';
import type { Conversation } from '../spec/types/conversations.js';
import type { SisImport } from '../spec/types/sis.js';
import type { SentBatch } from './conv/send.js';
import type { enrollmentRow } from './enrollments/export.js';
import type { GradeRunSummary } from './grade/bulk.js';
import type { GradeExportRow } from './grade/export.js';
import type { TreeNode } from './outcomes/index.js';
import type { TreeExport } from './outcomes/tree-export.js';
import type { SisImportCheck } from './sis/index.js';
import type { IMPORT_COLUMNS } from './users/import.js';

/** conv unread and conv mark-all-read: the count as a number (the API sends it as text). */
interface UnreadCount {
  unread_count: number | string;
}

/** A course file, as `export course` writes it: the text of the YAML (or JSON) document. */
interface CourseFileText {
  text: string;
}

export interface VerbResults {
  apply: PlanDocument;
  diff: PlanDocument;
  'users import': BulkSummary;
  'enrollments import': BulkSummary;
  'courses import': BulkSummary;
  'sections import': BulkSummary;
  'outcomes import': BulkSummary;
  'grade set': GradeRunSummary;
  'users export': Partial<Record<(typeof IMPORT_COLUMNS)[number], string>>[];
  'enrollments export': ReturnType<typeof enrollmentRow>[];
  'grade export': GradeExportRow[];
  'export course': CourseFileText;
  'outcomes tree': TreeNode;
  'outcomes export': TreeExport;
  'activity list': (ActivityItem | ActivitySummaryEntry)[];
  'sis import': SisImport | SisImportCheck;
  'conv send': Conversation[] | SentBatch;
  'conv reply': Conversation;
  'conv unread': UnreadCount;
  'conv mark-all-read': UnreadCount;
}
