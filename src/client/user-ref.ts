// What a user reference means — on a command line (`--user sam`) or in a file's `user` column — is
// decided here and nowhere else, so a student named one way works in every command that takes one.
//
// Digits are an id; `sis_user_id:X`, `sis_login_id:X` and `self` are what the API reads in a path;
// anything else is a login (`sis_login_id:X`). A bare word is never also tried as a SIS id: one
// word would then name two people (one's login, another's SIS id) and a path could only tell which by
// asking twice; exports write SIS ids as `sis_user_id:X`, so nothing this tool writes needs it.

type UserRefKind = 'id' | 'sis_user_id' | 'sis_login_id' | 'self';

export interface UserRef {
  kind: UserRefKind;
  /** The id, SIS id or login, without its prefix. */
  value: string;
  /** The form a path (or `student_ids[]`) takes: `42`, `sis_user_id:S-1`, `sis_login_id:sam`, `self`. */
  path: string;
}

const PREFIXED = /^(sis_user_id|sis_login_id):(.*)$/i;

/** The reference `raw` makes, or a problem in words when it names no one (empty, a bare prefix). */
export function parseUserRef(raw: string): UserRef | { problem: string } {
  const v = raw.trim();
  if (v === '') return { problem: 'names no user' };
  if (/^\d+$/.test(v)) return { kind: 'id', value: v, path: v };
  if (v.toLowerCase() === 'self') return { kind: 'self', value: 'self', path: 'self' };
  const m = PREFIXED.exec(v);
  if (m) {
    const kind = m[1].toLowerCase() as 'sis_user_id' | 'sis_login_id';
    const value = m[2].trim();
    if (value === '') return { problem: `"${v}" names no user: put the ${kind === 'sis_user_id' ? 'SIS id' : 'login'} after the colon` };
    return { kind, value, path: `${kind}:${value}` };
  }
  return { kind: 'sis_login_id', value: v, path: `sis_login_id:${v}` };
}

/** The path form of `raw`; a reference that names no one is left as given, for the API to refuse. */
export function userPath(raw: string): string {
  const ref = parseUserRef(raw);
  return 'problem' in ref ? raw : ref.path;
}

/**
 * A key two references to the same user by the same kind share: logins match whatever their case,
 * as the API matches them; ids and SIS ids as written.
 */
export function userRefKey(ref: UserRef): string {
  return ref.kind === 'sis_login_id' ? `sis_login_id:${ref.value.toLowerCase()}` : ref.path;
}

/**
 * A person as every import resolves them: `sis_user_id:X` when their SIS id is visible, else
 * `sis_login_id:X`, else the id. Prefixed, because a bare value is read as an id when it is all
 * digits and as a login otherwise — an SIS id of digits would name someone else.
 */
export function personRef(user: { id: number; sis_user_id?: string | null; login_id?: string | null }): string {
  if (user.sis_user_id) return `sis_user_id:${user.sis_user_id}`;
  if (user.login_id) return `sis_login_id:${user.login_id}`;
  return String(user.id);
}
