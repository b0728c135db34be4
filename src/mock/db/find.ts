// One finder for every table: numeric ids, the SIS forms real instances accept in paths
// (`sis_course_id:BIO-101`, `sis_section_id:`, `sis_user_id:`, `sis_login_id:`, `sis_account_id:`),
// and deleted rows. An area describes its table once; handlers call `find(ctx, courses, raw)`.
import type { Db } from './open.js';
import { one } from './statements.js';

type SisKind = 'sis_account_id' | 'sis_course_id' | 'sis_section_id' | 'sis_user_id' | 'sis_login_id';

export interface Findable<T> {
  /** "course", for messages and the error of an unsupported form. */
  label: string;
  table: string;
  /** For each SIS form the table answers to: SQL selecting the row's id from the value (`?`). */
  sis?: Partial<Record<SisKind, string>>;
  /** Is the row gone as far as the API is concerned? Deleted rows are found only when asked for. */
  deleted?(row: T): boolean;
}

export type Found<T> = { row: T } | { reason: 'missing' | 'deleted' | 'unsupported'; kind?: string };

/** `sis_course_id:X` (and the spec's `siscourseid:X`) → ['sis_course_id', 'X']. */
function sisForm(raw: string): [kind: string, value: string] | undefined {
  const m = /^(sis_[a-z]+_id|sis[a-z]+id):(.+)$/s.exec(raw);
  if (!m) return undefined;
  const kind = m[1].includes('_') ? m[1] : m[1].replace(/^sis([a-z]+?)id$/, 'sis_$1_id');
  return [kind, m[2]];
}

/** A bare id: all digits, at most 18 of them (as real instances read one). */
export function numericId(raw: string): number | undefined {
  return /^\d{1,18}$/.test(raw) ? Number(raw) : undefined;
}

export function lookup<T>(db: Db, spec: Findable<T>, raw: string, options: { withDeleted?: boolean } = {}): Found<T> {
  let id = numericId(raw);
  if (id === undefined) {
    const sis = sisForm(raw);
    if (!sis) return { reason: 'missing' };
    const sql = spec.sis?.[sis[0] as SisKind];
    if (!sql) return { reason: 'unsupported', kind: sis[0] };
    id = one<{ id: number }>(db, sql, sis[1])?.id;
    if (id === undefined) return { reason: 'missing' };
  }
  const row = one<T>(db, `SELECT * FROM ${spec.table} WHERE id = ?`, id);
  if (!row) return { reason: 'missing' };
  if (!options.withDeleted && spec.deleted?.(row)) return { reason: 'deleted' };
  return { row };
}
