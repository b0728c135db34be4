// Static shell completion scripts generated from the commander tree, so completions never drift from
// the commands that exist. The scripts only walk the words already typed; they never run `lms`.
import type { Command, Help, Option } from 'commander';

export type Shell = 'bash' | 'zsh' | 'fish';
export const SHELLS: readonly Shell[] = ['bash', 'zsh', 'fish'];

export function completionScript(program: Command, shell: Shell): string {
  const help = program.createHelp();
  const root = describeCommand(program, help, [], []);
  const functionName = `_${program.name().replace(/[^A-Za-z0-9_]/g, '_')}`;
  switch (shell) {
    case 'bash':
      return bashScript(root, program.name(), functionName);
    case 'zsh':
      return zshScript(root, program.name(), functionName);
    case 'fish':
      return fishScript(root, program.name());
  }
}

interface FlagSpec {
  /** `--output` and/or `-o`, whichever exist. */
  names: string[];
  description: string;
  takesValue: boolean;
  choices: string[];
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
  subcommands: CommandSpec[];
}

function describeCommand(command: Command, help: Help, path: string[], inherited: FlagSpec[]): CommandSpec {
  // Help.visibleOptions adds the help flag; Help.visibleCommands drops hidden commands and adds
  // commander's implicit `help` command, so completions offer what --help shows.
  const ownFlags = help.visibleOptions(command).map(describeFlag).sort(byFirstName);
  // Every command has its own help flag, so only real options are passed down.
  const passedDown = mergeFlags(inherited, command.options.filter((option) => !option.hidden).map(describeFlag));
  const subcommands = help
    .visibleCommands(command)
    .map((subcommand) => describeCommand(subcommand, help, [...path, subcommand.name()], passedDown))
    .sort((a, b) => compare(lastName(a), lastName(b)));
  return {
    path,
    aliases: [...command.aliases()].sort(compare),
    description: firstLine(help.subcommandDescription(command)),
    ownFlags,
    flags: mergeFlags(inherited, ownFlags),
    subcommands,
  };
}

function lastName(command: CommandSpec): string {
  return command.path.at(-1) ?? '';
}

function describeFlag(option: Option): FlagSpec {
  return {
    names: flagNames(option),
    description: firstLine(option.description),
    takesValue: option.required || option.optional,
    choices: [...(option.argChoices ?? [])],
  };
}

function flagNames(option: Option): string[] {
  return [option.long, option.short].filter((name): name is string => Boolean(name));
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

/** The two lookups bash and zsh share; they differ only in how a flag's choices are written. */
function lookupFunctions(root: CommandSpec, prefix: string, choices: Parameters<typeof valueFlagCases>[2]): string {
  return `# Sets ${prefix}_next to the command path that word "$2" leads to from path "$1"; fails if it is no subcommand.
${prefix}_subcommand() {
  case "$1:$2" in
${subcommandCases(root, prefix).join('\n')}
  esac
  return 1
}

# Succeeds when flag "$2" takes a value at path "$1", setting ${prefix}_words to its choices.
${prefix}_value_flag() {
  case "$1:$2" in
${valueFlagCases(root, prefix, choices).join('\n')}
  esac
  return 1
}`;
}

function bashScript(root: CommandSpec, programName: string, prefix: string): string {
  return `# bash completion for ${programName}. Generated by \`${programName} completion bash\`; do not edit.
# Load it with: source <(${programName} completion bash)

${lookupFunctions(root, prefix, (flag) => shellQuote(flag.choices.join(' ')))}

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
  local cmd_path='' word i ${prefix}_next ${prefix}_words
  COMPREPLY=()

  # Walk the words before the cursor, skipping flags and their values, to find the command.
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
    if ${prefix}_subcommand "$cmd_path" "$word"; then cmd_path=$${prefix}_next; fi
  done

  local flag=$prev
  if [[ $cur == = ]]; then
    cur=''
  elif [[ $prev == = ]]; then
    flag=\${COMP_WORDS[COMP_CWORD-2]}
  fi
  if [[ $flag == -* ]] && ${prefix}_value_flag "$cmd_path" "$flag"; then
    if [[ -n $${prefix}_words ]]; then
      COMPREPLY=( $(compgen -W "$${prefix}_words" -- "$cur") )
    else
      compopt -o default 2>/dev/null
    fi
    return 0
  fi

  if [[ $cur == -* ]]; then
    ${prefix}_flags "$cmd_path"
  else
    ${prefix}_subcommands "$cmd_path"
    # A command with no subcommands takes arguments, which may be files.
    if [[ -z $${prefix}_words ]]; then compopt -o default 2>/dev/null; return 0; fi
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

function zshArrayCases(root: CommandSpec, prefix: string, entries: (command: CommandSpec) => DescribedWord[]): string[] {
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

${lookupFunctions(root, prefix, (flag) => zshArray(flag.choices.map(shellQuote)))}

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
  local cmd_path='' word i ${prefix}_next
  local -a ${prefix}_words
  local cur=\${words[CURRENT]} prev=\${words[CURRENT-1]}

  # Walk the words before the cursor, skipping flags and their values, to find the command.
  for (( i = 2; i < CURRENT; i++ )); do
    word=\${words[i]}
    if [[ $word == -* ]]; then
      if [[ $word != *=* ]] && ${prefix}_value_flag "$cmd_path" "$word"; then (( i++ )); fi
      continue
    fi
    if ${prefix}_subcommand "$cmd_path" "$word"; then cmd_path=$${prefix}_next; fi
  done

  local flag=$prev
  if [[ $cur == -*=* ]]; then
    flag=\${cur%%=*}
    compset -P '*='
  elif [[ $prev != -* ]]; then
    flag=''
  fi
  if [[ -n $flag ]] && ${prefix}_value_flag "$cmd_path" "$flag"; then
    if (( \${#${prefix}_words} )); then compadd -- "\${${prefix}_words[@]}"; else _files; fi
    return
  fi

  if [[ $cur == -* ]]; then
    ${prefix}_flags "$cmd_path"
    _describe -t options 'option' ${prefix}_words
  else
    ${prefix}_subcommands "$cmd_path"
    # A command with no subcommands takes arguments, which may be files.
    if (( \${#${prefix}_words} )); then _describe -t commands 'command' ${prefix}_words; else _files; fi
  fi
}

if [[ \${zsh_eval_context[-1]} == loadautofunc ]]; then
  ${prefix} "$@"
else
  compdef ${prefix} ${programName}
fi
`;
}

function fishFlagLine(programName: string, flag: FlagSpec, condition: string | undefined): string {
  const parts = ['complete', '-c', programName];
  if (condition) parts.push('-n', fishQuote(condition));
  for (const name of flag.names) {
    if (name.startsWith('--')) parts.push('-l', fishQuote(name.slice(2)));
    else parts.push('-s', fishQuote(name.slice(1)));
  }
  if (flag.takesValue && flag.choices.length > 0) parts.push('-x', '-a', fishQuote(flag.choices.join(' ')));
  else if (flag.takesValue) parts.push('-r', '-F');
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
