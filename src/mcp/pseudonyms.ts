// `lms mcp --pseudonymize`: who a result names, replaced before it leaves the process. A student's
// (or observer's) name in every form, login, SIS id, integration id, email and avatar become a
// pseudonym made from their id (`Student 7f3a9c01`, `student-7f3a9c01`,
// `student-7f3a9c01@pseudonym.invalid`); ids stay, so the assistant can still act on them, and the
// pseudonyms it gives back in a tool's arguments or file text are turned into the real person here,
// before the verb reads them. The map lives in this process only.
import { createHmac } from 'node:crypto';
import { UsageError } from '../errors.js';
import { delimiterOf } from '../bulk/delimiter.js';
import type { Tool } from './tools.js';

export type Scope = 'students' | 'all';

/** What a person's record says of them, as the instance sent it. */
export interface Forms {
  name?: string;
  sortable_name?: string;
  short_name?: string;
  login_id?: string;
  sis_user_id?: string;
  integration_id?: string;
  email?: string;
}

export interface Roles {
  /** Known to teach, assist, design or administer, and never a student or observer anywhere. */
  staff: boolean;
  /** Forms learned on the way (an enrollment's user), for the free-text net. */
  forms?: Forms[];
}

/** What the instance is asked, lazily, about people a result names. */
export interface Directory {
  /**
   * The roles of each id, as the courses a result concerns tell them (none: the courses the caller
   * can see); an id it could not find out about is left out (and counts as a student).
   */
  rolesOf(ids: string[], courses: string[]): Promise<Map<string, Roles>>;
  /** The person a `sis_user_id:X` / `sis_login_id:X` reference names, or undefined. */
  resolve(ref: string): Promise<(Forms & { id: string }) | undefined>;
}

const NAME = 'name';
const LOGIN = 'login';
const EMAIL = 'email';
const AVATAR = 'avatar';
type Kind = typeof NAME | typeof LOGIN | typeof EMAIL | typeof AVATAR;

/** The fields of a person's record, by what they are. */
const PERSON_FIELDS: Record<string, Kind> = {
  name: NAME,
  sortable_name: NAME,
  short_name: NAME,
  display_name: NAME,
  full_name: NAME,
  login_id: LOGIN,
  sis_login_id: LOGIN,
  sis_user_id: LOGIN,
  integration_id: LOGIN,
  email: EMAIL,
  primary_email: EMAIL,
  avatar_url: AVATAR,
  avatar_image_url: AVATAR,
  // A row of Canvas's gradebook export (`grade export --format canvas`).
  Student: NAME,
  LastName: NAME,
  FirstName: NAME,
  'SIS User ID': LOGIN,
  'SIS Login ID': LOGIN,
  'Integration ID': LOGIN,
};

/** The keys of a row of Canvas's gradebook export, whose `ID` is the student's user id. */
const CANVAS_ROW_KEYS = ['ID', 'SIS Login ID', 'Section'];

/** Fields only a person's record has: an object holding one is a person (or names one by user_id). */
const MARKERS = [
  'sortable_name',
  'short_name',
  'login_id',
  'sis_user_id',
  'display_name',
  'full_name',
  'email',
  'primary_email',
];

/** Keys under which an object (or a list of them) is a person, whatever it holds. */
const PERSON_KEYS = new Set([
  'user',
  'users',
  'author',
  'authors',
  'grader',
  'graders',
  'participant',
  'participants',
  'recipient',
  'student',
  'students',
  'observer',
  'observee',
  'teacher',
  'sender',
  'editor',
  'assessor',
  'submitter',
]);

/** Roles a field's prefix names: `author_name` beside `author_id`, `grader` (a name) beside `grader_id`. */
const ROLE_WORDS = [
  'user',
  'author',
  'grader',
  'current_grader',
  'participant',
  'recipient',
  'student',
  'observer',
  'teacher',
  'sender',
  'editor',
  'assessor',
  'submitter',
];
const ROLE_FIELD = new RegExp(
  `^(${ROLE_WORDS.join('|')})(?:_(name|display_name|sortable_name|short_name|login_id|sis_user_id|email))?$`,
);

/** A reference to a user by SIS id or login, as paths and exports write them. */
const REF = /\bsis_(user|login)_id:([^\s,;"'<>)\]]+)/g;

const HEX = 8;

/**
 * Scripts written without spaces between words (Chinese, Japanese, Korean as its particles join
 * it, Thai and its neighbours): a name there stands inside a run of letters (王芳同学), so each of
 * their letters is a place a form may start or end, and a form in them is looked for as it stands.
 */
const UNSPACED_SCRIPTS = ['Han', 'Hiragana', 'Katakana', 'Hangul', 'Thai', 'Lao', 'Khmer', 'Myanmar'];
const UNSPACED = UNSPACED_SCRIPTS.map((script) => `\\p{Script=${script}}`).join('');
const UNSPACED_CHAR = new RegExp(`[${UNSPACED}]`, 'u');
/**
 * A token of the free-text net, where a form may start: a letter of an unspaced script alone, or a
 * run of other letters and digits. Made once; `lastIndex` is reset before each scan.
 */
const TOKEN = new RegExp(`(?=[\\p{L}\\p{N}])[${UNSPACED}]|(?:(?![${UNSPACED}])[\\p{L}\\p{N}])+`, 'gu');
/** A token of a text with no letter of an unspaced script: a run of letters and digits (the same, found faster). */
const WORD = /[\p{L}\p{N}]+/gu;
const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;
/**
 * Where a form of fewer than 3 letters (2 in an unspaced script) may stand: alone in a field, as a
 * CSV cell, a YAML or JSON value, a `sis_user_id:` reference. In prose it would be a word (`al` of
 * `et al`, a `Li` in every `Lie`), so it is not looked for there.
 */
const FIELD_BEFORE = /[,;\t\n\r"'|:=([{<>]/;
const FIELD_AFTER = /[,;\t\n\r"'|)\]}<>]/;
/** An ISO 8601 date or timestamp, as the instance writes them. */
const TIMESTAMP = /^\d{4}-\d\d-\d\d(?:[T ][\d:.]+(?:Z|[+-]\d\d:?\d\d)?)?$/;
/** The most texts the net remembers what it made of. */
const NETTED = 20_000;
const LABELS = { student: 'Student', staff: 'Staff' } as const;
const PSEUDONYM = new RegExp(
  String.raw`(?:\bsis_(?:user|login)_id:)?\b(student|staff)-([0-9a-f]{${HEX}})(@pseudonym\.invalid)?\b|\b(Student|Staff) ([0-9a-f]{${HEX}})\b`,
  'g',
);

export interface Pseudonym {
  display: string;
  login: string;
  email: string;
  avatar: string;
}

/**
 * The free-text net: each form of a hidden person, by its first token in lower case. A short form
 * (`field`) is replaced only where it stands as a field of its own; a short one of digits only (a
 * SIS id of `12`, beside every score of 12) only as a reference's `_id:` value.
 */
type Net = Map<string, Mesh[]>;

interface Mesh {
  form: string;
  lower: string;
  by: string;
  field: boolean;
  digits: boolean;
  /** Its last letter is of an unspaced script: whatever follows, the form may end there. */
  unspacedEnd: boolean;
}

/** Whether a field starts at `at`: past spaces, the text's start or a separator. */
function fieldStarts(text: string, at: number): boolean {
  let i = at - 1;
  while (i >= 0 && text[i] === ' ') i--;
  return i < 0 || FIELD_BEFORE.test(text[i]);
}

/** Whether a field ends at `end`: past spaces, the text's end or a separator. */
function fieldEnds(text: string, end: number): boolean {
  let i = end;
  while (i < text.length && text[i] === ' ') i++;
  return i >= text.length || FIELD_AFTER.test(text[i]);
}

interface Person {
  id: string;
  /** The latest value of each form, for mapping a pseudonym back. */
  forms: Forms;
  /**
   * Every value any form ever had, for the free-text net: a record's "Sam Smith" stays in it after a
   * comment's author calls the same person "Sam", so a later "Sam Smith" in prose is still caught.
   */
  said: Map<string, keyof Forms>;
}

/** Whether a string is made only of a pseudonym, in one of its forms. */
const WHOLE = new RegExp(`^(?:${PSEUDONYM.source})$`);

export class Pseudonyms {
  readonly scope: Scope;
  private readonly key: Buffer;
  private readonly instanceOf: () => Promise<string>;
  private instance: string | undefined;
  private readonly directory: Directory;
  /** Everyone seen, by id: what the instance says of them. */
  private readonly people = new Map<string, Person>();
  /** Roles found out, by id. */
  private readonly roles = new Map<string, Roles>();
  /** The courses roles were found out by (`*`: those the caller can see): one not asked yet may name more staff. */
  private readonly placedBy = new Set<string>();
  /** The pseudonym's hex part, by id, and the id, by hex part (more than one id: a collision). */
  private readonly hexOf = new Map<string, string>();
  private readonly idsOf = new Map<string, Set<string>>();
  /** The free-text net: each form of a hidden person, by its first word in lower case. */
  private net: Net | undefined;
  /** Texts already passed through the net, and what they became: a list repeats its dates, zones, states. */
  private readonly netted = new Map<string, string>();
  /** Each id's pseudonym, once made (until their role is found out). */
  private readonly made = new Map<string, Pseudonym>();

  /** `instance` names the instance (its base URL), asked for at the first call: a pseudonym is of an id there. */
  constructor(options: { scope: Scope; key: Buffer; instance: () => Promise<string>; directory: Directory }) {
    this.scope = options.scope;
    this.key = options.key;
    this.instanceOf = options.instance;
    this.directory = options.directory;
  }

  /** Ready to make pseudonyms: the instance known. */
  async ready(): Promise<this> {
    this.instance ??= await this.instanceOf();
    return this;
  }

  /** The pseudonym of a user id, and whether it stands for a member of staff. */
  pseudonymOf(id: string): Pseudonym {
    const made = this.made.get(id);
    if (made) return made;
    const hex = this.hex(id);
    const staff = this.roles.get(id)?.staff === true;
    const word = staff ? 'staff' : 'student';
    const login = `${word}-${hex}`;
    const pseudonym = {
      display: `${LABELS[word]} ${hex}`,
      login,
      email: `${login}@pseudonym.invalid`,
      avatar: `https://pseudonym.invalid/avatar/${login}.png`,
    };
    this.made.set(id, pseudonym);
    return pseudonym;
  }

  private hex(id: string): string {
    let hex = this.hexOf.get(id);
    if (hex === undefined) {
      if (this.instance === undefined) throw new Error('pseudonyms made before the instance is known');
      hex = createHmac('sha256', this.key).update(`${this.instance}\n${id}`).digest('hex').slice(0, HEX);
      this.hexOf.set(id, hex);
      const ids = this.idsOf.get(hex) ?? new Set<string>();
      ids.add(id);
      this.idsOf.set(hex, ids);
    }
    return hex;
  }

  /** Whether the person with this id is hidden: anyone under `all`; else anyone not known to be staff. */
  hides(id: string): boolean {
    return this.scope === 'all' || this.roles.get(id)?.staff !== true;
  }

  /** Makes the person's forms known (merged with what was known), for the free-text net and mapping back. */
  learn(id: string, forms: Forms): void {
    let person = this.people.get(id);
    // Most of what a result says of a person is known already: nothing changes then.
    let news = !person;
    for (const k in forms) {
      const v = forms[k as keyof Forms];
      if (typeof v === 'string' && v !== '' && (person?.forms[k as keyof Forms] !== v || !person.said.has(v)))
        news = true;
    }
    if (!news) return;
    if (!person) {
      person = { id, forms: {}, said: new Map() };
      this.people.set(id, person);
    }
    for (const k in forms) {
      const v = forms[k as keyof Forms];
      if (typeof v !== 'string' || v === '') continue;
      person.forms[k as keyof Forms] = v;
      if (!person.said.has(v)) person.said.set(v, k as keyof Forms);
    }
    this.hex(id);
    this.forget();
  }

  /** What was known changed: the net is made again, and what it made of texts is no longer so. */
  private forget(): void {
    this.net = undefined;
    this.netted.clear();
  }

  /**
   * The value with every hidden person's forms replaced, in place. First what it names is learned
   * and the roles not known yet asked for, then each person's fields are replaced and every other
   * text passes through the free-text net.
   */
  async transform<T>(value: T, concerns: { courses?: string[] } = {}): Promise<T> {
    await this.ready();
    const seen = new Set<string>();
    const refs = new Set<string>();
    const courses = new Set(concerns.courses);
    walk(value, {
      course: (id) => courses.add(id),
      person: (id, obj) => {
        seen.add(id);
        this.learn(id, formsOf(obj));
      },
      named: (id, form, text) => {
        seen.add(id);
        this.learn(id, { [form]: text });
      },
      text: (text) => {
        if (!text.includes('_id:')) return;
        for (const m of text.matchAll(REF)) refs.add(`sis_${m[1]}_id:${m[2]}`);
      },
      ref: (ref) => refs.add(ref),
    });
    await this.resolveRefs(refs, seen);
    await this.findRoles(seen, [...courses]);
    return this.rewrite(value);
  }

  /** The value rewritten, with what is already known: no question asked of the instance. */
  rewrite<T>(value: T): T {
    return rewriteIn(value, this) as T;
  }

  private async resolveRefs(refs: Set<string>, seen: Set<string>): Promise<void> {
    const unknown = [...refs].filter((ref) => {
      const value = ref.slice(ref.indexOf(':') + 1).toLowerCase();
      if (WHOLE.test(value)) return false;
      for (const p of this.people.values())
        if (p.forms.sis_user_id?.toLowerCase() === value || p.forms.login_id?.toLowerCase() === value) return false;
      return true;
    });
    for (const ref of unknown) {
      const found = await this.directory.resolve(ref).catch(() => undefined);
      if (found) {
        const { id, ...forms } = found;
        this.learn(id, forms);
        seen.add(id);
      }
    }
  }

  private async findRoles(ids: Set<string>, courses: string[]): Promise<void> {
    const places = courses.length ? courses : ['*'];
    // A course not asked about yet may name as staff someone taken for a student so far.
    const wider = places.some((c) => !this.placedBy.has(c));
    const asked = [...ids].filter((id) => !this.roles.has(id) || (wider && !this.roles.get(id)!.staff));
    if (!asked.length) return;
    const found = await this.directory.rolesOf(asked, courses).catch(() => new Map<string, Roles>());
    for (const c of places) this.placedBy.add(c);
    for (const id of asked) {
      const roles = found.get(id) ?? { staff: false };
      this.roles.set(id, { staff: roles.staff });
      this.made.delete(id);
      for (const forms of roles.forms ?? []) this.learn(id, forms);
    }
    this.forget();
  }

  /** The id of the person a record without one is, by its SIS id or login, if they are known. */
  placed(obj: Record<string, unknown>): string | undefined {
    const sis = typeof obj.sis_user_id === 'string' && obj.sis_user_id !== '' ? obj.sis_user_id : undefined;
    const login = typeof obj.login_id === 'string' && obj.login_id !== '' ? obj.login_id.toLowerCase() : undefined;
    if (sis === undefined && login === undefined) return undefined;
    for (const p of this.people.values()) {
      if (sis !== undefined && p.forms.sis_user_id === sis) return p.id;
      if (login !== undefined && p.forms.login_id?.toLowerCase() === login) return p.id;
    }
    return undefined;
  }

  /** The id of the person a row's `user` reference names (rowUser), if they are known. */
  placedRow(ref: string): string | undefined {
    if (/^\d+$/.test(ref)) return ref;
    const m = /^sis_(user|login)_id:(.+)$/i.exec(ref);
    if (m && m[1].toLowerCase() === 'user') return this.placed({ sis_user_id: m[2] });
    return this.placed({ login_id: m ? m[2] : ref });
  }

  /** The field's replacement, for a person field of a hidden person; undefined to leave it. */
  field(id: string, kind: Kind): string | undefined {
    if (!this.hides(id)) return undefined;
    const p = this.pseudonymOf(id);
    return kind === NAME ? p.display : kind === LOGIN ? p.login : kind === EMAIL ? p.email : p.avatar;
  }

  /** The text with every known form of a hidden person replaced by the same form of their pseudonym. */
  text(text: string): string {
    // A timestamp holds no name (only digits could match in it, wrongly).
    if (text === '' || TIMESTAMP.test(text)) return text;
    this.net ??= this.buildNet();
    const net = this.net;
    if (net.size === 0) return text;
    let out = this.netted.get(text);
    if (out === undefined) {
      out = this.netText(text, net);
      // Bounded: a long session's texts are mostly seen once.
      if (this.netted.size >= NETTED) this.netted.clear();
      this.netted.set(text, out);
    }
    return out;
  }

  private netText(text: string, net: Net): string {
    let out = '';
    let from = 0;
    const token = UNSPACED_CHAR.test(text) ? TOKEN : WORD;
    token.lastIndex = 0;
    // Lowered once, where that keeps every character in its place (it does but for a few letters).
    const whole = text.toLowerCase();
    const lower = whole.length === text.length ? whole : undefined;
    for (let m = token.exec(text); m; m = token.exec(text)) {
      // A form starts where a token does: after a non-word character, or at any letter of an unspaced script.
      const at = m.index;
      const candidates = net.get(
        lower !== undefined ? lower.slice(at, at + Math.min(m[0].length, 12)) : m[0].toLowerCase().slice(0, 12),
      );
      if (!candidates) continue;
      const hit = candidates.find((c) => {
        const end = at + c.form.length;
        if (lower !== undefined ? !lower.startsWith(c.lower, at) : text.slice(at, end).toLowerCase() !== c.lower) {
          return false;
        }
        if (c.digits) return text.slice(Math.max(0, at - 4), at) === '_id:' && fieldEnds(text, end);
        if (c.field) return fieldStarts(text, at) && fieldEnds(text, end);
        const after = text.charAt(end);
        return !WORD_CHAR.test(after) || UNSPACED_CHAR.test(after) || c.unspacedEnd;
      });
      if (!hit) continue;
      out += text.slice(from, at) + hit.by;
      from = at + hit.form.length;
      token.lastIndex = from;
    }
    return from === 0 ? text : out + text.slice(from);
  }

  private buildNet(): Net {
    const net: Net = new Map();
    const owner = new Map<string, string>();
    for (const { id, said } of this.people.values()) {
      if (!this.hides(id)) continue;
      const p = this.pseudonymOf(id);
      for (const [form, k] of said) {
        const lower = form.toLowerCase();
        TOKEN.lastIndex = 0;
        const first = TOKEN.exec(lower);
        // A form must start as a token does (a letter or digit) to be found where one starts.
        if (first?.index !== 0) continue;
        const kind = PERSON_FIELDS[k];
        // A form two people share names neither: it is replaced by the word alone.
        const by =
          owner.has(lower) && owner.get(lower) !== id
            ? 'a student'
            : kind === NAME
              ? p.display
              : kind === EMAIL
                ? p.email
                : p.login;
        owner.set(lower, id);
        const letters = [...form];
        const unspaced = UNSPACED_CHAR.test(form);
        // Short: 1 letter of an unspaced script, 2 of any other; such a form is looked for only as a field of its own.
        const field = letters.length < (unspaced ? 2 : 3);
        const key = first[0].slice(0, 12);
        const list = net.get(key) ?? [];
        const same = list.find((c) => c.lower === lower);
        if (same) same.by = by;
        else {
          const digits = field && /^\d+$/.test(form);
          list.push({ form, lower, by, field, digits, unspacedEnd: UNSPACED_CHAR.test(letters.at(-1)!) });
        }
        net.set(key, list);
      }
    }
    // Longest first: "Sam Student" before "Sam".
    for (const list of net.values()) list.sort((a, b) => b.form.length - a.form.length);
    return net;
  }

  // ---- mapping back --------------------------------------------------------------------------

  /** The user id a pseudonym (any of its forms) stands for, or a usage error. */
  idOf(hex: string, said: string): string {
    const ids = this.idsOf.get(hex.toLowerCase());
    if (!ids || ids.size === 0)
      throw new UsageError(`"${said}" is not a pseudonym this server handed out`, {
        hint:
          'use a pseudonym from a result of this server (list the people first: users_list, enrollments_list), ' +
          'or the user id',
      });
    if (ids.size > 1)
      throw new UsageError(`"${said}" stands for more than one person`, { hint: 'use the user id instead' });
    return [...ids][0];
  }

  /** A whole value that is a pseudonym becomes the user id; undefined when it is none. */
  wholeId(value: string): string | undefined {
    const m = WHOLE.exec(value.trim());
    if (!m) return undefined;
    return this.idOf(m[2] ?? m[5], value);
  }

  /**
   * A data file (CSV, JSON, YAML) with the pseudonyms that stand for a user turned into the user id,
   * which every column and field that names a user takes: a cell of a user column (`user`), a value
   * of a user key (`"user": …`, `user: …`). Anywhere else (a comment's "well done Student
   * 7f3a9c01", a cell of a `comment` column that is one) it is text, and is left as it was written.
   */
  mapFields(text: string): string {
    if (!/(?:student|staff)[- ][0-9a-f]/i.test(text)) return text;
    const id = (value: string) => {
      const m = WHOLE.exec(value.trim());
      if (!m) return undefined;
      const user = this.idOf(m[2] ?? m[5], value);
      // An email stays an email: a column of them takes no id.
      if (m[3] === undefined) return user;
      const email = this.people.get(user)?.forms.email;
      if (email === undefined) {
        throw new UsageError(`"${value}" stands for user ${user}, whose email this server has not seen`, {
          hint: `name them by id (${user}) instead`,
        });
      }
      return email;
    };
    // Beside a user column, a name column says what that user is called (`grade export` writes one,
    // and the import checks it): a pseudonym there is the real name, as the user's is the real user.
    const name = (value: string) => {
      const m = WHOLE.exec(value.trim());
      if (!m || m[5] === undefined) return undefined;
      const user = this.idOf(m[5], value);
      const real = this.people.get(user)?.forms.name;
      if (real === undefined)
        throw new UsageError(`"${value}" stands for user ${user}, whose name this server has not seen`, {
          hint: 'leave the name cell empty',
        });
      return real;
    };
    // A SIS id or login column (Canvas's gradebook export) takes the real one: the import checks it against the user's.
    const form = (field: 'sis_user_id' | 'login_id') => (value: string) => {
      const m = WHOLE.exec(value.trim().replace(/^sis_(?:user|login)_id:/, ''));
      if (!m || m[2] === undefined || m[3] !== undefined) return undefined;
      const user = this.idOf(m[2], value);
      const real = this.people.get(user)?.forms[field];
      if (real === undefined)
        throw new UsageError(
          `"${value}" stands for user ${user}, whose ${field === 'login_id' ? 'login' : 'SIS id'} this server has ` +
            'not seen',
          {
            hint: 'leave the cell empty',
          },
        );
      return real;
    };
    // Separated as the file is: a comma, or the ";" or tab spreadsheets write.
    const cells = csvCells(text, delimiterOf(Buffer.from(text.slice(0, 64 * 1024), 'utf8')));
    const header = cells.filter((c) => c.row === 0);
    const columnsOf = (keys: string[]) =>
      new Set(header.filter((c) => keys.includes(cellValue(text, c).trim().toLowerCase())).map((c) => c.column));
    const canvas = columnsOf(['id']).size > 0 && columnsOf(['student']).size > 0;
    // Canvas's export: `Student` is the name, `ID` the (real) id; its SIS columns take the real SIS id and login.
    const users = canvas ? new Set<number>() : columnsOf(USER_KEYS);
    const sis = canvas ? columnsOf(['sis user id']) : new Set<number>();
    const logins = canvas ? columnsOf(['sis login id']) : new Set<number>();
    // A CSV whose header names a user column; else JSON or YAML, by their keys.
    if (users.size || canvas) {
      // Canvas's Student column is the sortable name, which its import does not read: mapped back where it is known.
      const canvasName = (value: string) => {
        const m = WHOLE.exec(value.trim());
        if (!m || m[5] === undefined) return undefined;
        const forms = this.people.get(this.idOf(m[5], value))?.forms;
        return forms?.sortable_name ?? forms?.name;
      };
      const names = canvas ? columnsOf(['student']) : columnsOf(NAME_KEYS);
      const bySis = form('sis_user_id');
      const byLogin = form('login_id');
      return csvUserCells(text, cells, (column) =>
        users.has(column)
          ? id
          : names.has(column)
            ? canvas
              ? canvasName
              : name
            : sis.has(column)
              ? bySis
              : logins.has(column)
                ? byLogin
                : undefined,
      );
    }
    return text.replace(USER_VALUE, (all: string, before: string, quote: string, value: string) => {
      const real = id(value);
      return real === undefined ? all : `${before}${quote}${real}${quote}`;
    });
  }

  /** A search for people with each pseudonym turned into the real person's name, login or email: what it looks for. */
  mapSearch(text: string): string {
    if (!/(?:student|staff)[- ][0-9a-f]/i.test(text)) return text;
    return text.replace(
      PSEUDONYM,
      (
        said: string,
        _w: string,
        loginHex: string | undefined,
        email: string | undefined,
        _l: string,
        displayHex: string | undefined,
      ) => {
        const id = this.idOf((loginHex ?? displayHex)!, said);
        const forms = this.people.get(id)?.forms ?? {};
        const real = email ? forms.email : displayHex ? forms.name : (forms.login_id ?? forms.sis_user_id);
        if (real === undefined)
          throw new UsageError(
            `"${said}" stands for user ${id}, whose ${email ? 'email' : displayHex ? 'name' : 'login'} this server ` +
              'has not seen',
            { hint: `name them by id (${id}) instead` },
          );
        return real;
      },
    );
  }
}

/** The keys and columns of a data file that name a user. */
const USER_KEYS = [
  'user',
  'user_id',
  'users',
  'observee',
  'observee_id',
  'student',
  'student_id',
  'recipient',
  'grader',
];

/** A user key's value, in JSON (`"user": "…"`) or YAML (`user: …`, `- user: '…'`), to the end of the value. */
const USER_VALUE = new RegExp(
  String.raw`((?:^|[{,\s])"?(?:${USER_KEYS.join('|')})"?[ \t]*:[ \t]*)(["']?)` +
    String.raw`((?:sis_(?:user|login)_id:)?(?:student|staff)[- ][0-9a-f]{${HEX}}(?:@pseudonym\.invalid)?)\2(?=[ \t]*(?:[,}\]\r\n]|#|$))`,
  'gim',
);

/** The columns of a data file that say what the user of its user column is called. */
const NAME_KEYS = ['name'];

/** A CSV text with each cell that is a pseudonym turned into what its column's mapping (`back`) makes of it. */
function csvUserCells(
  text: string,
  cells: Cell[],
  back: (column: number) => ((value: string) => string | undefined) | undefined,
) {
  let out = '';
  let from = 0;
  for (const c of cells) {
    const map = c.row === 0 ? undefined : back(c.column);
    if (!map) continue;
    const real = map(cellValue(text, c));
    if (real === undefined) continue;
    // A real name may hold what a CSV cell must quote (a separator, a quote): quoted then, as RFC 4180 writes it.
    const quoted = text[c.start] === '"' || /[",;\t\r\n]|^\s|\s$/.test(real);
    out += text.slice(from, c.start) + (quoted ? `"${real.replace(/"/g, '""')}"` : real);
    from = c.end;
  }
  return from === 0 ? text : out + text.slice(from);
}

interface Cell {
  row: number;
  column: number;
  start: number;
  end: number;
}

/**
 * Where each cell of a CSV text stands (a quoted one with its quotes), as RFC 4180 reads it, fields separated by
 * `delimiter`.
 */
function csvCells(text: string, delimiter = ','): Cell[] {
  const cells: Cell[] = [];
  let row = 0;
  let column = 0;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (i <= text.length) {
    const start = i;
    if (text[i] === '"') {
      i++;
      while (i < text.length && !(text[i] === '"' && text[i + 1] !== '"')) i += text[i] === '"' ? 2 : 1;
      i++;
    }
    while (i < text.length && text[i] !== delimiter && text[i] !== '\n' && text[i] !== '\r') i++;
    cells.push({ row, column, start, end: i });
    if (text[i] === delimiter) column++;
    else {
      if (text[i] === '\r' && text[i + 1] === '\n') i++;
      row++;
      column = 0;
    }
    i++;
  }
  return cells;
}

/** A cell's value: unquoted, its doubled quotes made one. */
function cellValue(text: string, c: Cell): string {
  const raw = text.slice(c.start, c.end);
  return raw.startsWith('"') ? raw.replace(/^"|"\s*$/g, '').replace(/""/g, '"') : raw;
}

/** A person object's fields, and the form each gives: the first of a form's fields that holds one. */
const FORM_FIELDS: [string, keyof Forms][] = [
  ['name', 'name'],
  ['full_name', 'name'],
  ['display_name', 'name'],
  ['sortable_name', 'sortable_name'],
  ['short_name', 'short_name'],
  ['login_id', 'login_id'],
  ['sis_login_id', 'login_id'],
  ['sis_user_id', 'sis_user_id'],
  ['integration_id', 'integration_id'],
  ['email', 'email'],
  ['primary_email', 'email'],
  ['Student', 'sortable_name'],
  ['SIS Login ID', 'login_id'],
  ['SIS User ID', 'sis_user_id'],
  ['Integration ID', 'integration_id'],
];

/** What a person object says of them. */
export function formsOf(obj: Record<string, unknown>): Forms {
  const forms: Forms = {};
  for (const [from, to] of FORM_FIELDS) {
    const v = obj[from];
    if (typeof v === 'string' && v !== '' && forms[to] === undefined) forms[to] = v;
  }
  return forms;
}

/** A course named as a context: `course_12`. */
const COURSE_CODE = /^course_(\d+)$/;

const idText = (v: unknown): string | undefined =>
  typeof v === 'number' && Number.isSafeInteger(v)
    ? String(v)
    : typeof v === 'string' && /^\d+$/.test(v)
      ? v
      : undefined;

/** The user id an object stands for (a person, or an enrollment that names one by user_id), if it does. */
function personIdOf(obj: Record<string, unknown>, key: string | undefined): string | undefined {
  if (key !== undefined && PERSON_KEYS.has(key)) return idText(obj.id);
  // A student's row of Canvas's gradebook export (its points possible row has no ID).
  if (CANVAS_ROW_KEYS.every((k) => k in obj)) return idText(obj.ID);
  if (!MARKERS.some((m) => typeof obj[m] === 'string')) return undefined;
  return idText(obj.user_id) ?? idText(obj.id);
}

const roleFields = new Map<string, RegExpExecArray | null>();

const FORM_OF = new Map(FORM_FIELDS);

/** The user id a role-named text field belongs to (`author_name` → author_id), what it is, and the form it gives. */
function roleField(
  obj: Record<string, unknown>,
  key: string,
): { id: string; kind: Kind; form: keyof Forms } | undefined {
  let m = roleFields.get(key);
  if (m === undefined) {
    m = ROLE_FIELD.exec(key);
    // A result's keys are few and repeat in every item: each is matched once.
    if (roleFields.size < 10_000) roleFields.set(key, m);
  }
  if (!m) return undefined;
  const id = idText(obj[`${m[1]}_id`]) ?? (m[1] === 'current_grader' ? idText(obj.grader_id) : undefined);
  if (id === undefined) return undefined;
  const kind = m[2] === undefined ? NAME : (PERSON_FIELDS[m[2]] ?? NAME);
  return { id, kind, form: m[2] === undefined ? 'name' : (FORM_OF.get(m[2]) ?? 'name') };
}

/** What stands for a person's form when who they are could not be found out. */
const UNPLACED = 'a student';

/**
 * What the server itself signed (a list's cursor, a confirmation token): never the instance's, and never to be touched.
 */
const SKIP = new Set(['next_cursor', 'confirm']);

interface Visitor {
  course(id: string): void;
  person(id: string, obj: Record<string, unknown>): void;
  named(id: string, form: keyof Forms, text: string): void;
  text(text: string): void;
  /** A person's record with no id (an export's row) names them by this reference. */
  ref(ref: string): void;
}

/**
 * A person's record that carries no id (a row of `users export`): the references its SIS id and
 * login make, by which the instance is asked who it is.
 */
function recordRefs(obj: Record<string, unknown>): string[] {
  if (!MARKERS.some((m) => typeof obj[m] === 'string')) return [];
  const refs: string[] = [];
  if (typeof obj.sis_user_id === 'string' && obj.sis_user_id !== '') refs.push(`sis_user_id:${obj.sis_user_id}`);
  if (typeof obj.login_id === 'string' && obj.login_id !== '') refs.push(`sis_login_id:${obj.login_id}`);
  return refs;
}

/**
 * A row of an export (`grade export`) names its person in `user`, as a reference (`42`,
 * `sis_user_id:X`, `sis_login_id:X`, a login), and says what they are called beside it (`name`):
 * the reference, when the row has such a field; those fields are that person's.
 */
function rowUser(obj: Record<string, unknown>): string | undefined {
  const user = obj.user;
  if (typeof user !== 'string' || user.trim() === '') return undefined;
  return Object.keys(obj).some((k) => k !== 'user' && PERSON_FIELDS[k] !== undefined && typeof obj[k] === 'string')
    ? user.trim()
    : undefined;
}

function walk(value: unknown, visit: Visitor, key?: string): void {
  if (typeof value === 'string') {
    visit.text(value);
    return;
  }
  if (Array.isArray(value)) {
    for (const item of value) walk(item, visit, key);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const obj = value as Record<string, unknown>;
  const id = personIdOf(obj, key);
  const row = id === undefined ? rowUser(obj) : undefined;
  if (id !== undefined) visit.person(id, obj);
  else if (row !== undefined && /^\d+$/.test(row)) visit.person(row, obj);
  else if (row !== undefined) visit.ref(row.includes(':') ? row : `sis_login_id:${row}`);
  else for (const ref of recordRefs(obj)) visit.ref(ref);
  const course =
    idText(obj.course_id) ??
    (typeof obj.context_code === 'string' ? COURSE_CODE.exec(obj.context_code)?.[1] : undefined);
  if (course !== undefined) visit.course(course);
  for (const k of Object.keys(obj)) {
    const v = obj[k];
    if (SKIP.has(k)) continue;
    if (typeof v === 'string') {
      if ((id !== undefined || row !== undefined) && k in PERSON_FIELDS) continue;
      const role = roleField(obj, k);
      if (role && !v.includes('_id:')) visit.named(role.id, role.form, v);
      else visit.text(v);
    } else if (v !== null && typeof v === 'object') walk(v, visit, k);
  }
}

function rewriteIn(value: unknown, p: Pseudonyms, key?: string): unknown {
  if (typeof value === 'string') return p.text(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = rewriteIn(value[i], p, key);
    return value;
  }
  if (value === null || typeof value !== 'object') return value;
  const obj = value as Record<string, unknown>;
  // A record without an id is its SIS id's or login's person; one the instance would not say is
  // no one known, and their fields are a student's, whatever the net knows of them.
  const row = personIdOf(obj, key) === undefined ? rowUser(obj) : undefined;
  const unplaced =
    personIdOf(obj, key) === undefined && (row !== undefined || MARKERS.some((m) => typeof obj[m] === 'string'));
  const id = row !== undefined ? p.placedRow(row) : unplaced ? p.placed(obj) : personIdOf(obj, key);
  for (const k of Object.keys(obj)) {
    const v = obj[k];
    if (SKIP.has(k)) continue;
    // An unplaced row's `user` is the SIS id or login of someone unknown: a form of theirs, as its name is.
    if (
      typeof v === 'string' &&
      unplaced &&
      id === undefined &&
      (k in PERSON_FIELDS || (row !== undefined && k === 'user')) &&
      v !== ''
    )
      obj[k] = UNPLACED;
    else if (typeof v === 'string') {
      const kind = id !== undefined ? PERSON_FIELDS[k] : undefined;
      const role = kind === undefined && !v.includes('_id:') ? roleField(obj, k) : undefined;
      const replaced = kind !== undefined ? p.field(id!, kind) : role ? p.field(role.id, role.kind) : undefined;
      obj[k] = replaced ?? p.text(v);
    } else if (v !== null && typeof v === 'object') rewriteIn(v, p, k);
  }
  return obj;
}

/** Arguments that name a user, in any tool: the user id, a SIS or login reference, a pseudonym. */
const USER_ARGS = new Set(['user', 'user_id', 'users', 'observee', 'grader', 'exclude', 'student']);

/** Whether a tool's argument names a person (and nothing else: a message, a title, a course). */
function namesPerson(tool: Tool, k: string): boolean {
  if (USER_ARGS.has(k)) return true;
  // A user's own verbs take the user as `id`; a conversation's recipients are `to`.
  if (k === 'id') return tool.command.startsWith('lms users ');
  if (k === 'to') return tool.command.startsWith('lms conv ');
  return false;
}

/** Searches for people: by what they are called, not by their id. */
const PEOPLE_SEARCH = new Set(['users_list:search', 'recipients_search:term', 'conv_find_recipients:term']);

/** A file whose content is a message's text (`--body-file`), not data that names users. */
const PROSE_FILE = /^(?:body|message|text)_file$/;

/**
 * A tool's arguments with the pseudonyms in them turned back into the real people, only where a
 * person is meant: an argument that names a user, when its whole value is a pseudonym, becomes the
 * user id; a search for people looks for the real name or login; a data file (`…_text`) has each
 * pseudonym of a user column or key turned into the user id. Free text that goes to the
 * instance (a message, a comment, a title, a message file) is sent as it was written: what the
 * assistant wrote is what its reader sees, and no word of it becomes a user id. The server's own
 * values (cursor, confirm) are left.
 */
export function givenBack(p: Pseudonyms, tool: Tool, given: Record<string, unknown>): Record<string, unknown> {
  const files = new Map(tool.params.flatMap((x) => (x.to === 'text' ? [[x.property, x.of] as const] : [])));
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [k, v] of Object.entries(given)) {
    const file = files.get(k);
    const back =
      file !== undefined
        ? PROSE_FILE.test(file)
          ? undefined
          : (s: string) => p.mapFields(s)
        : PEOPLE_SEARCH.has(`${tool.name}:${k}`)
          ? (s: string) => p.mapSearch(s)
          : namesPerson(tool, k)
            ? (s: string) => p.wholeId(s) ?? s
            : undefined;
    if (!back || SKIP.has(k) || k === 'cursor') out[k] = v;
    else if (typeof v === 'string') out[k] = back(v);
    else out[k] = Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? back(x) : x)) : v;
  }
  return out;
}

/**
 * A dry run's preview as the net can read it: the form body as its decoded pairs and the URL's
 * query decoded. Percent- and form-encoded (`Dear+Ravi+Patel`, `search_term=Ravi%20Patel`), a name
 * is no form the net knows, and would be shown as it is.
 */
export function readablePreview(structured: Record<string, unknown>): Record<string, unknown> {
  if (structured.dry_run !== true || !Array.isArray(structured.requests)) return structured;
  const requests = structured.requests.map((r: unknown) => {
    if (r === null || typeof r !== 'object') return r;
    const request = { ...(r as Record<string, unknown>) };
    if (typeof request.url === 'string') request.url = decodedUrl(request.url);
    const type = typeof request.content_type === 'string' ? request.content_type.split(';')[0] : '';
    const form = type.trim().toLowerCase() === 'application/x-www-form-urlencoded';
    if (form && typeof request.body === 'string') request.body = formPairs(request.body);
    return request;
  });
  return { ...structured, requests };
}

/** The pairs of a form (or a query) as the server reads them: `+` a space, escapes decoded. */
function formPairs(text: string): [string, string][] {
  const decode = (part: string) => {
    try {
      return decodeURIComponent(part.replace(/\+/g, ' '));
    } catch {
      return part;
    }
  };
  return text
    .split('&')
    .filter((raw) => raw !== '')
    .map((raw) => {
      const eq = raw.indexOf('=');
      return eq === -1 ? [decode(raw), ''] : [decode(raw.slice(0, eq)), decode(raw.slice(eq + 1))];
    });
}

/**
 * A text (a verb's notes: `-v` traces the requests) with each URL's query decoded, so that a name
 * in a search term (`search_term=Ravi+Patel`) is one the net can read.
 */
export function readableUrls(text: string): string {
  return text.includes('?') ? text.replace(/\bhttps?:\/\/[^\s?]+\?[^\s)]*/g, decodedUrl) : text;
}

function decodedUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  return `${url.slice(0, q)}?${formPairs(url.slice(q + 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&')}`;
}
