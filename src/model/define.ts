// A command whose options type themselves: flags are declared once, as an object keyed by the name
// the code reads (`{ loginId: { long: 'login-id', value: 'login', … } }`), and `opts` is typed from it.
// The key must be the name commander gives the flag, checked by checkDeclaration for every verb of
// the tree, so a renamed flag cannot leave code silently reading undefined.
import { argumentsOf, type CommandSpec } from './command.js';
import { UsageError } from '../errors.js';
import { compileOption, syntaxOf, type OptionSpec } from './options.js';

export type Flag = Omit<OptionSpec, 'default'> & { default?: string | boolean };

type ValueOf<F extends Flag> = F extends { type: 'integer' | 'number' | 'size' }
  ? F extends { field: { clears: true } }
    ? number | null
    : number
  : F extends { repeatable: true }
    ? F extends { choices: readonly (infer C extends string)[] }
      ? C[]
      : string[]
    : F extends { value: string }
      ? F extends { choices: readonly (infer C extends string)[] }
        ? C
        : string
      : boolean;
/** The options a command receives: present when required, defaulted or negatable (`--no-x` defaults to true). */
export type OptionsOf<T extends Record<string, Flag>> = {
  [K in keyof T]: T[K] extends { required: true } | { default: string | boolean } | { negated: true }
    ? ValueOf<T[K]>
    : ValueOf<T[K]> | undefined;
};

export function command<const T extends Record<string, Flag> = Record<never, Flag>>(
  spec: Omit<CommandSpec<OptionsOf<T>>, 'options' | 'optionKeys'> & { options?: T },
): CommandSpec<OptionsOf<T>> {
  // Not compiled here: every run would pay for every verb of its noun. checkDeclaration holds each
  // verb to its declaration, and a test walks the whole tree with it.
  return spec.options
    ? { ...spec, options: Object.values(spec.options), optionKeys: Object.keys(spec.options) }
    : { ...spec, options: [] };
}

/**
 * Throws when a verb's declaration contradicts itself: an option that does not compile, an option
 * key that is not the attribute commander reads its flag as (the code would read undefined), or
 * argChoices or argIds naming an argument the verb does not have (its choices would be lost).
 */
export function checkDeclaration(spec: CommandSpec<never>): void {
  (spec.options ?? []).forEach((flag, i) => {
    let name: string;
    try {
      name = compileOption(flag).attribute;
    } catch (error) {
      throw new Error(`command "${spec.name}": ${(error as Error).message}`);
    }
    const key = spec.optionKeys?.[i];
    if (key !== undefined && name !== key)
      throw new Error(
        `command "${spec.name}": option "${key}" is declared as "${syntaxOf(flag)}", which is read as "${name}"`,
      );
  });
  const args = argumentsOf(spec).map((a) => a.name);
  for (const [what, record] of [
    ['argChoices', spec.argChoices],
    ['argIds', spec.argIds],
  ] as const) {
    for (const arg of Object.keys(record ?? {})) {
      if (!args.includes(arg))
        throw new Error(
          `command "${spec.name}": ${what} names "${arg}", which is not one of its arguments ` +
            `(${args.join(', ') || 'none'})`,
        );
    }
  }
}

// ---- shared flags -----------------------------------------------------------------------------

/** The contexts a command can act in, as flags. Each takes an id, an SIS form or self. */
/** A `true`/`false` flag's value (`choices: ['true', 'false']`) as the boolean it names; undefined when not given. */
export const trueOrFalse = (v: string | undefined): boolean | undefined => (v === undefined ? undefined : v === 'true');

export const contextFlags = {
  course: { long: 'course', value: 'id', ids: 'course', description: 'course id or sis_course_id:X' },
  section: { long: 'section', value: 'id', ids: 'section', description: 'section id or sis_section_id:X' },
  group: { long: 'group', value: 'id', description: 'group id' },
  account: { long: 'account', value: 'id', ids: 'account', description: 'account id, sis_account_id:X or self' },
  /** What only a root account has (terms, SIS imports): the domain's unless given. */
  rootAccount: {
    long: 'account',
    value: 'id',
    ids: 'account',
    description: 'root account id, sis_account_id:X or self',
    default: 'self',
  },
  user: {
    long: 'user',
    value: 'id',
    ids: 'user',
    description: 'user id, sis_user_id:X, sis_login_id:X, email:X or self',
  },
  global: { long: 'global', description: 'the site-wide (global) context' },
} as const satisfies Record<string, Flag>;

export type ContextName = keyof typeof contextFlags;

/** The start and end dates of what has them and may lose them (a section, a term). */
export const clearableDates = {
  startAt: {
    long: 'start-at',
    value: 'date',
    description: 'start date (ISO 8601; "" clears it)',
    field: { name: 'start_at', type: 'time', clears: true },
  },
  endAt: {
    long: 'end-at',
    value: 'date',
    description: 'end date (ISO 8601; "" clears it)',
    field: { name: 'end_at', type: 'time', clears: true },
  },
} as const satisfies Record<string, Flag>;
export type ChosenContext<N extends ContextName> = {
  [K in N]: { type: K; id: K extends 'global' ? undefined : string };
}[N];

/** The one context among `names` that the options give; none or several is a usage error. */
export function oneContext<N extends ContextName>(
  opts: Partial<Record<ContextName, string | boolean | undefined>>,
  names: readonly N[],
): ChosenContext<N> {
  const given = names.filter((n) => opts[n] !== undefined && opts[n] !== false && opts[n] !== '');
  if (given.length !== 1) {
    const list = names.map((n) => `--${n}`);
    const choices = list.length > 1 ? `${list.slice(0, -1).join(', ')} or ${list.at(-1)}` : list[0];
    throw new UsageError(
      given.length === 0
        ? `give one of ${choices}`
        : `give only one of ${choices}, not ${given.map((n) => `--${n}`).join(' and ')}`,
    );
  }
  const type = given[0];
  return { type, id: type === 'global' ? undefined : String(opts[type]) } as ChosenContext<N>;
}
