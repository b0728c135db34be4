// What an apply file asks for, once read and checked: courses, each with the objects of each kind it
// manages, every one with the file and line it came from.
import type { ApiClient } from '../client/client.js';
import type { CsvRow, Parsed } from '../bulk/csv-input.js';
import type { BulkRow, BulkTask } from '../bulk/job.js';
import type { KindVerbs, Value } from './fields.js';
import type { KindName } from './kinds.js';
import type { ModuleItemType } from '../spec/types/modules.js';

export interface Source {
  file: string;
  line: number;
  /** Its place in the YAML or JSON document (`courses[0].sections[2]`); none for a CSV roster's row. */
  at?: string;
  /** The document is on one line: the place, not the line, tells where. */
  oneLine?: boolean;
}

export interface FileProblem extends Source {
  message: string;
}

/** An object of a kind with fields (a section, an assignment, a topic…). */
export interface Desired {
  kind: KindName;
  /** What names it across runs: its natural key's value, else the file's `key`; undefined for neither. */
  key?: string;
  /** Its title (or name), which matches it when no key does. */
  title?: string;
  fields: Record<string, Value>;
  /** Fields naming another object of the course by its key: `{ assignment: 'lab1' }`. */
  refs: Record<string, string>;
  source: Source;
  /** The line of each field, for messages about one. */
  lines: Record<string, number>;
  /** A module's items, in order, and the keys of the modules to complete before it (modules.ts). */
  items?: DesiredItem[];
  prerequisites?: string[];
}

/** A module's item (modules.ts): what it shows, by the file's key, or a header or link of its own. */
export interface DesiredItem {
  ref?: {
    name: 'page' | 'assignment' | 'topic' | 'quiz';
    kind: 'pages' | 'assignments' | 'topics' | 'quizzes';
    key: string;
  };
  type: ModuleItemType;
  title?: string;
  external_url?: string;
  indent: number;
  requirement?: { type: string; min_score?: number };
  /** Whether students see it; left as it is when the file does not say. */
  published?: boolean;
  source: Source;
}

/** A roster row, inline or from a roster CSV: the columns `enrollments import` takes. */
export interface DesiredEnrollment {
  /** The roster's key: user, role and section, as `enrollments import` matches them. */
  key: string;
  user: string;
  /** The role name (a built-in role is named after its type: StudentEnrollment). */
  role: string;
  type?: string;
  section?: string;
  state?: string;
  source: Source;
}

interface DesiredOutcomes {
  /** The tree file, as the apply file names it and as opened. */
  file: string;
  rows: BulkRow[];
  source: Source;
}

export interface DesiredCourse {
  sis: string;
  /** The account to create it in, as given; undefined: the create verb's default. */
  account?: string;
  fields: Record<string, Value>;
  source: Source;
  lines: Record<string, number>;
  /** Kinds the course lists (an empty list too: it manages that kind, and holds none). */
  objects: Partial<Record<Exclude<KindName, 'enrollments' | 'outcomes'>, Desired[]>>;
  enrollments?: DesiredEnrollment[];
  outcomes?: DesiredOutcomes;
}

/**
 * What apply reads of the command tree: the verbs of each noun, read off the built tree, and the
 * file formats of the imports it shares (a roster's columns, an outcome tree), which the apply
 * command hands over from their own commands.
 */
export interface ApplyTree {
  course: KindVerbs;
  kinds: Record<Exclude<KindName, 'outcomes'>, KindVerbs>;
  roster: {
    /** The columns a roster has, and an inline enrollment's fields. */
    columns: readonly string[];
    /** The key two rows asking for one enrollment share. */
    key(values: Record<string, string>): string;
    /** A row's problems, by itself. */
    check(values: Record<string, string>): string[];
    /** A roster file (lms's columns, or a SIS enrollments.csv) of the course of this SIS id, as rows in the columns. */
    parse(bytes: Buffer, course: string): Promise<Parsed>;
  };
  outcomes: {
    parse(bytes: Buffer, name: string): Parsed;
    toRow(row: CsvRow): BulkRow;
    task(client: ApiClient, where: { course_id: string }, options: { plan: boolean }): BulkTask<BulkRow, unknown>;
  };
}
