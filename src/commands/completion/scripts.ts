// Shell completion scripts generated from the command declarations and the global flags, so
// completions never drift from the commands that exist. The scripts walk the words already typed;
// what they ask `lms` for is the names of the saved profiles, for a value or an argument named
// <profile>, and the ids the instance holds, for a flag or argument that declares the kind of id it
// takes (`lms __complete`, complete.ts). A value is offered what it can be: its choices, profile
// names, ids, files for a flag or argument that names a file, and otherwise nothing (never a verb,
// never a file name for an id).
import {
  argumentsOf,
  defaultVerb,
  flagNames,
  flagsOf,
  isNoun,
  wordOf,
  type CommandSpec as VerbSpec,
  type DeclaredProgram,
  type NounSpec,
  type Verbs,
} from '../../model/command.js';
import { GLOBAL_FLAGS, HELP_FLAG, PROGRAM_DESCRIPTION, VERSION_FLAG } from '../../model/global-flags.js';
import { compileOption, type OptionSpec } from '../../model/options.js';

export type Shell = 'bash' | 'zsh' | 'fish';
export const SHELLS: readonly Shell[] = ['bash', 'zsh', 'fish'];

const PROGRAM_NAME = 'lms';

/** The script for the declared commands: what `lms completion` prints. */
export function completionScript(program: DeclaredProgram, shell: Shell): string {
  const root = describeProgram(program);
  const functionName = `_${PROGRAM_NAME}`;
  switch (shell) {
    case 'bash':
      return bashScript(root, PROGRAM_NAME, functionName);
    case 'zsh':
      return zshScript(root, PROGRAM_NAME, functionName);
    case 'fish':
      return fishScript(root, PROGRAM_NAME);
  }
}

/** A value or argument named like this completes to the saved profiles' names. */
const PROFILE_VALUE_NAME = 'profile';
/** What the lookups hand back for "the profile names", resolved by the script at completion time. */
const PROFILES_MARKER = '@profiles';
/** For "the ids the instance holds", asked of `lms __complete` at completion time. */
const IDS_MARKER = '@ids';
/** For "a local file". */
const FILES_MARKER = '@files';

/** What a value completes to, besides its choices. */
interface ValueSpec {
  choices: string[];
  /** Profile names (`--profile <profile>`, `profile use <profile>`). */
  profiles: boolean;
  /** Ids from the instance: the flag or argument declares the kind it takes. */
  ids: boolean;
  /** Local files: the flag or argument names one. */
  files: boolean;
}

interface FlagSpec extends ValueSpec {
  /** `--output` and/or `-o`, whichever exist. */
  names: string[];
  description: string;
  takesValue: boolean;
}

/** A positional argument that completes to something: choices, profiles, ids or files. */
interface ArgumentSpec extends ValueSpec {
  /** 0-based position among the command's arguments. */
  index: number;
  variadic: boolean;
}

interface CommandSpec {
  /** Canonical names from the root, e.g. ['users', 'list']; empty for the program itself. */
  path: string[];
  aliases: string[];
  description: string;
  /** Flags defined on this command (the help flag included). */
  ownFlags: FlagSpec[];
  /** Flags accepted here: this command's and every ancestor's, because commander parses
   * ancestors' options anywhere on the line. */
  flags: FlagSpec[];
  /** Arguments that complete to something; any other argument completes to nothing. */
  arguments: ArgumentSpec[];
  subcommands: CommandSpec[];
}

/** The `help [command]` commander gives every command that has subcommands. */
const HELP_COMMAND = { name: 'help', description: 'display help for command' };

function describeProgram(program: DeclaredProgram): CommandSpec {
  // As commander holds them: the version flag is the program's first, the help flag every command's own.
  const options = [VERSION_FLAG, ...GLOBAL_FLAGS];
  const passedDown = mergeFlags([], options.map(describeFlag));
  const ownFlags = mergeFlags([], [...options, HELP_FLAG].map(describeFlag));
  return {
    path: [],
    aliases: [],
    description: firstLine(PROGRAM_DESCRIPTION),
    ownFlags,
    flags: ownFlags,
    arguments: [],
    subcommands: describeSubcommands(program.commands, [], passedDown),
  };
}

function describeSubcommands(commands: Verbs, path: string[], inherited: FlagSpec[]): CommandSpec[] {
  const help: CommandSpec = {
    path: [...path, HELP_COMMAND.name],
    aliases: [],
    description: HELP_COMMAND.description,
    ownFlags: [],
    flags: mergeFlags(inherited, []),
    arguments: [],
    subcommands: [],
  };
  return [...commands.map((command) => describeCommand(command, [...path, wordOf(command)], inherited)), help].sort(
    (a, b) => compare(lastName(a), lastName(b)),
  );
}

function describeCommand(spec: VerbSpec<never> | NounSpec, path: string[], inherited: FlagSpec[]): CommandSpec {
  const common = { path, aliases: [...(spec.aliases ?? [])].sort(compare), description: firstLine(spec.summary) };
  if (isNoun(spec)) {
    // A noun with a default verb (`lms grade` runs `grade set`) takes that verb's flags, as commander
    // hands them on: `lms grade --course <TAB>` completes a course, not the noun's verbs.
    const fallback = defaultVerb(spec);
    const ownFlags = mergeFlags(fallback ? flagsOf(fallback).map(describeFlag) : [], [describeFlag(HELP_FLAG)]);
    return {
      ...common,
      ownFlags,
      flags: mergeFlags(inherited, ownFlags),
      arguments: [],
      subcommands: describeSubcommands(spec.commands, path, inherited),
    };
  }
  const ownFlags = mergeFlags([], [...flagsOf(spec), HELP_FLAG].map(describeFlag));
  const args = argumentsOf(spec).map(
    ({ name, variadic }, index): ArgumentSpec => ({
      index,
      variadic,
      choices: [...(spec.argChoices?.[name] ?? [])],
      profiles: name === PROFILE_VALUE_NAME,
      ids: spec.argIds?.[name] !== undefined,
      files: spec.fileArgs?.[name] !== undefined || name === 'file',
    }),
  );
  return {
    ...common,
    ownFlags,
    flags: mergeFlags(inherited, ownFlags),
    arguments: args.filter(completesToSomething),
    subcommands: [],
  };
}

/** A value named <file> or <path> is a local file, whether or not its verb says so (`--mock-db <path>`). */
const FILE_VALUE_NAMES = new Set(['file', 'path']);

function describeFlag(spec: OptionSpec): FlagSpec {
  const value = spec.value;
  const { kind } = compileOption(spec);
  return {
    names: flagNames(spec),
    description: firstLine(spec.description),
    takesValue: kind === 'value' || kind === 'list',
    choices: [...(spec.choices ?? [])],
    profiles: value === PROFILE_VALUE_NAME,
    ids: spec.ids !== undefined,
    files: spec.file !== undefined || (value !== undefined && FILE_VALUE_NAMES.has(value) && spec.field === undefined),
  };
}

function completesToSomething(spec: ValueSpec): boolean {
  return spec.choices.length > 0 || spec.profiles || spec.ids || spec.files;
}

function lastName(command: CommandSpec): string {
  return command.path.at(-1) ?? '';
}

/** `profile` for `-p, --profile <profile>`. */
/** The words a flag's value or an argument completes to, as the bash and zsh lookups return them. */
function completionWords(spec: ValueSpec): string[] {
  if (spec.profiles) return [PROFILES_MARKER];
  if (spec.choices.length > 0) return spec.choices;
  if (spec.ids) return [IDS_MARKER];
  if (spec.files) return [FILES_MARKER];
  return [];
}

function mergeFlags(inherited: FlagSpec[], own: FlagSpec[]): FlagSpec[] {
  const ownNames = new Set(own.flatMap((flag) => flag.names));
  const visibleInherited = inherited.filter((flag) => !flag.names.some((name) => ownNames.has(name)));
  return [...visibleInherited, ...own].sort(byFirstName);
}

function allCommands(root: CommandSpec): CommandSpec[] {
  return [root, ...root.subcommands.flatMap(allCommands)];
}

// Plain code-unit comparison: localeCompare would make the output depend on the machine's locale.
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function byFirstName(a: FlagSpec, b: FlagSpec): number {
  return compare(a.names[0] ?? '', b.names[0] ?? '');
}

function firstLine(text: string): string {
  return text.split('\n')[0].trim();
}

/** POSIX single quoting; also valid in zsh. */
function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function fishQuote(text: string): string {
  return `'${text.replace(/[\\']/g, (character) => `\\${character}`)}'`;
}

function pathKey(path: string[]): string {
  return path.join(' ');
}

/**
 * Case patterns matching "path:flag" wherever a flag applies: on the command that defines it and on
 * every command below it. Deeper commands come first, so a redefined flag wins over an ancestor's.
 */
function valueFlagPatterns(command: CommandSpec, flag: FlagSpec): string {
  const key = pathKey(command.path);
  const patternsFor = (name: string) =>
    key === ''
      ? [`*${shellQuote(`:${name}`)}`]
      : [shellQuote(`${key}:${name}`), `${shellQuote(`${key} `)}*${shellQuote(`:${name}`)}`];
  return flag.names.flatMap(patternsFor).join('|');
}

function valueFlagCases(root: CommandSpec, prefix: string, choices: (flag: FlagSpec) => string): string[] {
  const deepestFirst = allCommands(root).sort(
    (a, b) => b.path.length - a.path.length || compare(pathKey(a.path), pathKey(b.path)),
  );
  return deepestFirst.flatMap((command) =>
    command.ownFlags
      .filter((flag) => flag.takesValue)
      .map((flag) => `    ${valueFlagPatterns(command, flag)}) ${prefix}_words=${choices(flag)}; return 0 ;;`),
  );
}

function subcommandCases(root: CommandSpec, prefix: string): string[] {
  const lines: string[] = [];
  for (const command of allCommands(root)) {
    for (const subcommand of command.subcommands) {
      const words = [lastName(subcommand), ...subcommand.aliases];
      const patterns = words.map((word) => shellQuote(`${pathKey(command.path)}:${word}`));
      lines.push(`    ${patterns.join('|')}) ${prefix}_next=${shellQuote(pathKey(subcommand.path))}; return 0 ;;`);
    }
  }
  return lines;
}

function wordListCases(root: CommandSpec, prefix: string, words: (command: CommandSpec) => string[]): string[] {
  return allCommands(root).map(
    (command) => `    ${shellQuote(pathKey(command.path))}) ${prefix}_words=${shellQuote(words(command).join(' '))} ;;`,
  );
}

/**
 * Case patterns "path:index" for the arguments that complete to words; a variadic last argument
 * matches every later index too, so it comes after the exact ones.
 */
function argumentCases(root: CommandSpec, prefix: string, words: (spec: ArgumentSpec) => string): string[] {
  return allCommands(root).flatMap((command) =>
    command.arguments.map((argument) => {
      const key = shellQuote(`${pathKey(command.path)}:`);
      const pattern = argument.variadic ? `${key}*` : `${key}${argument.index}`;
      return `    ${pattern}) ${prefix}_words=${words(argument)}; return 0 ;;`;
    }),
  );
}

/** The lookups bash and zsh share; they differ only in how a list of words is written. */
function lookupFunctions(
  root: CommandSpec,
  prefix: string,
  choices: (spec: FlagSpec | ArgumentSpec) => string,
): string {
  return (
    `# Sets ${prefix}_next to the command path that word "$2" leads to from path "$1"; fails if it is no ` +
    `subcommand.
${prefix}_subcommand() {
  case "$1:$2" in
${subcommandCases(root, prefix).join('\n')}
  esac
  return 1
}

# Succeeds when flag "$2" takes a value at path "$1", setting ${prefix}_words to its choices
# (${PROFILES_MARKER} for the profile names, ${IDS_MARKER} for the instance's ids, ${FILES_MARKER} for files; none ` +
    `for nothing).
${prefix}_value_flag() {
  case "$1:$2" in
${valueFlagCases(root, prefix, choices).join('\n')}
  esac
  return 1
}

# Succeeds when argument number "$2" (from 0) of the command at path "$1" completes to words,
# setting ${prefix}_words to them, or to a marker as above; otherwise it completes to nothing.
${prefix}_argument() {
  case "$1:$2" in
${argumentCases(root, prefix, choices).join('\n')}
  esac
  return 1
}`
  );
}

/** The saved profiles' names, one a line: what \`lms profile list\` knows, asked quietly. */
function profilesFunction(programName: string, prefix: string): string {
  return `# The names of the saved profiles, one a line.
${prefix}_profiles() {
  ${programName} profile list --output csv --fields name --no-input 2>/dev/null | tail -n +2
}`;
}

/** The ids the instance holds for the word under the cursor, one a line, asked of \`lms __complete\`. */
function idsFunction(programName: string, prefix: string, shell: 'bash' | 'zsh'): string {
  const words = shell === 'bash' ? '"${COMP_WORDS[@]:1:COMP_CWORD}"' : '"${(@)words[2,CURRENT]}"';
  return `# The ids the instance holds for the word under the cursor, one a line${shell === 'zsh' ? ' (id:name)' : ''}.
${prefix}_ids() {
  ${programName} __complete ${shell} -- ${words} 2>/dev/null
}`;
}

function bashScript(root: CommandSpec, programName: string, prefix: string): string {
  return `# bash completion for ${programName}. Generated by \`${programName} completion bash\`; do not edit.
# Load it with: source <(${programName} completion bash)

${lookupFunctions(root, prefix, (spec) => shellQuote(completionWords(spec).join(' ')))}

${profilesFunction(programName, prefix)}

${idsFunction(programName, prefix, 'bash')}

# Completes "$1" from ${prefix}_words: the profile names for ${PROFILES_MARKER}, the instance's ids
# for ${IDS_MARKER}, files for ${FILES_MARKER}, nothing when there are no words.
${prefix}_reply() {
  case $${prefix}_words in
    ${PROFILES_MARKER}) ${prefix}_words=$(${prefix}_profiles) ;;
    ${IDS_MARKER}) ${prefix}_words=$(${prefix}_ids) ;;
    ${FILES_MARKER})
      compopt -o default 2>/dev/null
      return 0 ;;
  esac
  [[ -n $${prefix}_words ]] && COMPREPLY=( $(compgen -W "$${prefix}_words" -- "$1") )
  return 0
}

${prefix}_subcommands() {
  case "$1" in
${wordListCases(root, prefix, (command) => command.subcommands.map((subcommand) => lastName(subcommand))).join('\n')}
    *) ${prefix}_words='' ;;
  esac
}

${prefix}_flags() {
  case "$1" in
${wordListCases(root, prefix, (command) => command.flags.flatMap((flag) => flag.names)).join('\n')}
    *) ${prefix}_words='' ;;
  esac
}

${prefix}() {
  local cur=\${COMP_WORDS[COMP_CWORD]} prev=\${COMP_WORDS[COMP_CWORD-1]}
  local cmd_path='' word i nargs=0 ${prefix}_next ${prefix}_words
  COMPREPLY=()

  # Walk the words before the cursor, skipping flags and their values, to find the command and
  # count its arguments.
  for (( i = 1; i < COMP_CWORD; i++ )); do
    word=\${COMP_WORDS[i]}
    if [[ $word == -* ]]; then
      if ${prefix}_value_flag "$cmd_path" "$word"; then
        (( i++ ))
        # bash splits --flag=value into three words: --flag, =, value.
        if [[ \${COMP_WORDS[i]} == = ]]; then (( i++ )); fi
      fi
      continue
    fi
    if ${prefix}_subcommand "$cmd_path" "$word"; then
      cmd_path=$${prefix}_next
      nargs=0
    else
      nargs=$(( nargs + 1 ))
    fi
  done

  local flag=$prev
  if [[ $cur == = ]]; then
    cur=''
  elif [[ $prev == = ]]; then
    flag=\${COMP_WORDS[COMP_CWORD-2]}
  fi
  if [[ $flag == -* ]] && ${prefix}_value_flag "$cmd_path" "$flag"; then
    ${prefix}_reply "$cur"
    return 0
  fi

  if [[ $cur == -* ]]; then
    ${prefix}_flags "$cmd_path"
  else
    ${prefix}_subcommands "$cmd_path"
    # A command with no subcommands takes arguments: choices, profile names, ids or files.
    if [[ -z $${prefix}_words ]]; then
      ${prefix}_argument "$cmd_path" "$nargs" || ${prefix}_words=''
      ${prefix}_reply "$cur"
      return 0
    fi
  fi
  COMPREPLY=( $(compgen -W "$${prefix}_words" -- "$cur") )
  return 0
}

complete -F ${prefix} ${programName}
`;
}

/** zsh _describe entries: "name:description", with colons in the name escaped. */
function describeEntries(entries: DescribedWord[]): string[] {
  return entries.map(([name, description]) => shellQuote(`${name.replace(/:/g, '\\:')}:${description}`));
}

function zshArray(quotedWords: string[]): string {
  return quotedWords.length > 0 ? `( ${quotedWords.join(' ')} )` : '()';
}

type DescribedWord = [word: string, description: string];

function zshArrayCases(
  root: CommandSpec,
  prefix: string,
  entries: (command: CommandSpec) => DescribedWord[],
): string[] {
  return allCommands(root).map((command) => {
    const words = zshArray(describeEntries(entries(command)));
    return `    ${shellQuote(pathKey(command.path))}) ${prefix}_words=${words} ;;`;
  });
}

function zshScript(root: CommandSpec, programName: string, prefix: string): string {
  const subcommandListCases = zshArrayCases(root, prefix, (command) =>
    command.subcommands.map((subcommand): DescribedWord => [lastName(subcommand), subcommand.description]),
  );
  const flagListCases = zshArrayCases(root, prefix, (command) =>
    command.flags.flatMap((flag) => flag.names.map((name): DescribedWord => [name, flag.description])),
  );
  return `#compdef ${programName}
# zsh completion for ${programName}. Generated by \`${programName} completion zsh\`; do not edit.
# Put it on $fpath as _${programName}, or load it with: source <(${programName} completion zsh)

${lookupFunctions(root, prefix, (spec) => zshArray(completionWords(spec).map(shellQuote)))}

${profilesFunction(programName, prefix)}

${idsFunction(programName, prefix, 'zsh')}

# Offers ${prefix}_words: the profile names for ${PROFILES_MARKER}, the instance's ids (with their
# names) for ${IDS_MARKER}, files for ${FILES_MARKER}, nothing when there are no words.
${prefix}_reply() {
  case \${${prefix}_words[1]} in
    ${PROFILES_MARKER})
      ${prefix}_words=( \${(f)"$(${prefix}_profiles)"} )
      (( \${#${prefix}_words} )) && compadd -- "\${${prefix}_words[@]}" ;;
    ${IDS_MARKER})
      ${prefix}_words=( \${(f)"$(${prefix}_ids)"} )
      (( \${#${prefix}_words} )) && _describe -t ids 'id' ${prefix}_words ;;
    ${FILES_MARKER}) _files ;;
    *) (( \${#${prefix}_words} )) && compadd -- "\${${prefix}_words[@]}" ;;
  esac
}

${prefix}_subcommands() {
  case "$1" in
${subcommandListCases.join('\n')}
    *) ${prefix}_words=() ;;
  esac
}

${prefix}_flags() {
  case "$1" in
${flagListCases.join('\n')}
    *) ${prefix}_words=() ;;
  esac
}

${prefix}() {
  local cmd_path='' word i nargs=0 ${prefix}_next
  local -a ${prefix}_words
  local cur=\${words[CURRENT]} prev=\${words[CURRENT-1]}

  # Walk the words before the cursor, skipping flags and their values, to find the command and
  # count its arguments.
  for (( i = 2; i < CURRENT; i++ )); do
    word=\${words[i]}
    if [[ $word == -* ]]; then
      if [[ $word != *=* ]] && ${prefix}_value_flag "$cmd_path" "$word"; then (( i++ )); fi
      continue
    fi
    if ${prefix}_subcommand "$cmd_path" "$word"; then
      cmd_path=$${prefix}_next
      nargs=0
    else
      nargs=$(( nargs + 1 ))
    fi
  done

  local flag=$prev
  if [[ $cur == -*=* ]]; then
    flag=\${cur%%=*}
    compset -P '*='
  elif [[ $prev != -* ]]; then
    flag=''
  fi
  if [[ -n $flag ]] && ${prefix}_value_flag "$cmd_path" "$flag"; then
    ${prefix}_reply
    return
  fi

  if [[ $cur == -* ]]; then
    ${prefix}_flags "$cmd_path"
    _describe -t options 'option' ${prefix}_words
  else
    ${prefix}_subcommands "$cmd_path"
    if (( \${#${prefix}_words} )); then
      _describe -t commands 'command' ${prefix}_words
    else
      # A command with no subcommands takes arguments: choices, profile names, ids or files.
      ${prefix}_argument "$cmd_path" "$nargs" || ${prefix}_words=()
      ${prefix}_reply
    fi
  fi
}

if [[ \${zsh_eval_context[-1]} == loadautofunc ]]; then
  ${prefix} "$@"
else
  compdef ${prefix} ${programName}
fi
`;
}

function fishProfilesFunction(programName: string): string {
  return [
    '# The names of the saved profiles, one a line.',
    `function __${programName}_profiles`,
    `    ${programName} profile list --output csv --fields name --no-input 2>/dev/null | tail -n +2`,
    'end',
    '',
    '# The ids the instance holds for the word under the cursor, with their names.',
    `function __${programName}_ids`,
    `    set -l words (commandline -opc)`,
    `    ${programName} __complete fish -- $words[2..-1] (commandline -ct) 2>/dev/null`,
    'end',
  ].join('\n');
}

/** What fish offers for a value: its words (-a), files (-F), or nothing (-f). */
function fishValue(programName: string, spec: ValueSpec): string[] {
  if (spec.profiles) return ['-x', '-a', fishQuote(`(__${programName}_profiles)`)];
  if (spec.choices.length > 0) return ['-x', '-a', fishQuote(spec.choices.join(' '))];
  if (spec.ids) return ['-x', '-a', fishQuote(`(__${programName}_ids)`)];
  if (spec.files) return ['-r', '-F'];
  return ['-x'];
}

function fishFlagLine(programName: string, flag: FlagSpec, condition: string | undefined): string {
  const parts = ['complete', '-c', programName];
  if (condition) parts.push('-n', fishQuote(condition));
  for (const name of flag.names) {
    if (name.startsWith('--')) parts.push('-l', fishQuote(name.slice(2)));
    else parts.push('-s', fishQuote(name.slice(1)));
  }
  if (flag.takesValue) parts.push(...fishValue(programName, flag));
  if (flag.description) parts.push('-d', fishQuote(flag.description));
  return parts.join(' ');
}

function fishScript(root: CommandSpec, programName: string): string {
  const lines = [
    `# fish completion for ${programName}. Generated by \`${programName} completion fish\`; do not edit.`,
    `# Load it with: ${programName} completion fish | source`,
    '',
    `complete -c ${programName} -f`,
    '',
    fishProfilesFunction(programName),
    '',
    '# Global flags',
    ...root.ownFlags.map((flag) => fishFlagLine(programName, flag, undefined)),
  ];
  const globalNames = new Set(root.ownFlags.flatMap((flag) => flag.names));
  for (const command of allCommands(root)) {
    // Each ancestor counts as seen under its canonical name or any alias.
    const seenPath = ancestry(root, command)
      .slice(1)
      .map((step) => `__fish_seen_subcommand_from ${[lastName(step), ...step.aliases].join(' ')}`);
    if (command.subcommands.length > 0) {
      const childWords = command.subcommands.flatMap((subcommand) => [lastName(subcommand), ...subcommand.aliases]);
      const condition =
        seenPath.length === 0
          ? '__fish_use_subcommand'
          : [...seenPath, `not __fish_seen_subcommand_from ${childWords.join(' ')}`].join('; and ');
      lines.push('', `# ${[programName, ...command.path].join(' ')}`);
      for (const subcommand of command.subcommands) {
        const parts = ['complete', '-c', programName, '-n', fishQuote(condition)];
        parts.push('-a', fishQuote(lastName(subcommand)));
        if (subcommand.description) parts.push('-d', fishQuote(subcommand.description));
        lines.push(parts.join(' '));
      }
    }
    if (seenPath.length > 0 && command.subcommands.length === 0 && command.arguments.length > 0) {
      // fish does not count arguments: every argument that completes to words offers them.
      lines.push('', `# ${[programName, ...command.path].join(' ')} arguments`);
      for (const argument of command.arguments) {
        const value = argument.files ? ['-F'] : fishValue(programName, argument);
        lines.push(['complete', '-c', programName, '-n', fishQuote(seenPath.join('; and ')), ...value].join(' '));
      }
    }
    const flags = command.ownFlags.filter((flag) => !flag.names.every((name) => globalNames.has(name)));
    if (seenPath.length > 0 && flags.length > 0) {
      lines.push('', `# ${[programName, ...command.path].join(' ')} flags`);
      for (const flag of flags) lines.push(fishFlagLine(programName, flag, seenPath.join('; and ')));
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The commands from the root down to `target`, both included. */
function ancestry(root: CommandSpec, target: CommandSpec): CommandSpec[] {
  const steps: CommandSpec[] = [root];
  let current = root;
  for (const name of target.path) {
    const next = current.subcommands.find((subcommand) => lastName(subcommand) === name);
    if (!next) break;
    steps.push(next);
    current = next;
  }
  return steps;
}
