// Manual pages generated from the command declarations, as the completion scripts are: lms(1) with the
// nouns, the global flags, the environment, the files and the exit codes, and one page per noun
// (lms-users(1), …) with each verb's synopsis, arguments, flags and examples. Nothing here lists a
// command or a flag of its own: a verb added to the tree is on its noun's page at the next
// `npm run generate`, and test/cli/man.test.ts fails until it is.
import { Argument, Help, Option } from 'commander';
import { ExitCode } from '../errors.js';
import {
  argumentsOf,
  defaultVerb,
  flagsOf,
  isNoun,
  wordOf,
  type CommandSpec,
  type DeclaredProgram,
  type NounSpec,
} from '../model/command.js';
import { commanderOption, globalOption } from './commander-tree.js';
import { GLOBAL_FLAGS, HELP_FLAG, PROGRAM_DESCRIPTION, VERSION_FLAG } from '../model/global-flags.js';
import { syntaxOf } from '../model/options.js';

export interface ManPage {
  /** File name under man/, e.g. `lms-users.1`. */
  file: string;
  /** The page's name as man finds it, e.g. `lms-users`. */
  name: string;
  text: string;
}

/**
 * The variables lms reads, as its own code reads them (test/cli/man.test.ts finds every name the
 * source reads and fails on one missing here). The order is the order of the page.
 */
export const ENVIRONMENT: readonly { name: string; description: string }[] = [
  {
    name: 'LMS_PROFILE',
    description: 'The saved profile to use, as -p does; a flag, LMS_BASE_URL or LMS_MOCK beats it.',
  },
  {
    name: 'LMS_BASE_URL',
    description:
      'The instance to talk to without a profile, e.g. https://lms.example.edu; with LMS_TOKEN (or the token of ' +
      'LMS_PROFILE or the default profile).',
  },
  {
    name: 'LMS_TOKEN',
    description: "The access token to send; beats the profile's token. Never printed: -v shows it redacted.",
  },
  {
    name: 'LMS_MOCK',
    description: 'Set to 1 to use the built-in mock, as --mock does; 0, false or empty is off; --no-mock ignores it.',
  },
  {
    name: 'LMS_MOCK_DB',
    description: 'The mock\'s database file, as --mock-db; ":memory:" for one that lasts a single command.',
  },
  {
    name: 'LMS_OUTPUT',
    description:
      'The output format when -o is not given: table, json, ndjson, csv or yaml. With json, errors are JSON on ' +
      'stderr too.',
  },
  {
    name: 'LMS_CONFIG_DIR',
    description:
      "The directory of the profile file (config.json) and its locks, instead of the platform's configuration " +
      'directory.',
  },
  {
    name: 'LMS_STATE_DIR',
    description:
      'Where bulk jobs keep their journals, lms apply its keys and every command its audit log (audit.log), instead ' +
      "of the user's state directory. Set, nothing is moved from the cache directory an older lms kept them in.",
  },
  {
    name: 'LMS_AUDIT_KEEP_DAYS',
    description:
      'How many days the audit log keeps its entries (lms log reads them): older ones are dropped when it rotates ' +
      '(at 10 MiB) or first writes; 90 by default.',
  },
  {
    name: 'LMS_MCP_TOOLSETS',
    description: 'The toolsets lms mcp offers when --toolsets is not given (comma-separated; all).',
  },
  {
    name: 'LMS_CACHE_DIR',
    description:
      "Where Node's compile cache (Node 22 and later) and completion answers are kept, instead of the user's cache " +
      'directory.',
  },
  {
    name: 'NODE_COMPILE_CACHE',
    description:
      "Node's own: a compile cache directory of the user's choosing, which lms then uses instead of its own.",
  },
  {
    name: 'NODE_DISABLE_COMPILE_CACHE',
    description: "Node's own: set (even empty), no compile cache is read or written.",
  },
  {
    name: 'LMS_WAIT_TIMEOUT',
    description:
      'How many seconds any wait for background work lasts (progress --wait, async sends, bulk grading); 1800 by ' +
      'default.',
  },
  {
    name: 'LMS_JQ_TIMEOUT',
    description:
      'How many seconds one run of a --jq filter may take before it is ended (exit 2, naming the limit), not ' +
      'counting time spent waiting for a slow reader; 30 by default.',
  },
  {
    name: 'LMS_JQ_MEMORY',
    description:
      'How many megabytes the process may grow by while a --jq filter runs before it is ended (exit 2, naming the ' +
      'limit); 1024 by default.',
  },
  { name: 'LMS_DEBUG', description: 'Set, an internal error prints its stack trace as well as its message.' },
  {
    name: 'LMS_MOCK_NOW',
    description:
      "The mock's clock, an ISO time such as 2026-11-02T12:00:00Z, for output that does not change from run to run.",
  },
  {
    name: 'LMS_MOCK_FAULTS',
    description:
      'Faults for the in-process mock, as JSON (e.g. {"failRate":0.1,"seed":7}); lms mock serve takes the same as ' +
      'flags.',
  },
  {
    name: 'LMS_MOCK_JOB_TICK_MS',
    description: "The mock's pause in milliseconds between slices of a background job; 0 runs them back to back.",
  },
  {
    name: 'LMS_MOCK_VIEW_DELAY_MS',
    description:
      "How many milliseconds the mock's full topic view answers 503 after a write, as a real instance does while it " +
      'rebuilds it; 0 by default.',
  },
  { name: 'NO_COLOR', description: 'Set (to anything), no colours and no spinners, as --no-color; so does TERM=dumb.' },
  { name: 'TERM', description: 'dumb: no colours and no spinners.' },
  {
    name: 'BROWSER',
    description:
      'The browser lms auth login opens (the first of a colon-separated list; %s stands for the URL). Without it, ' +
      'open on macOS, xdg-open where DISPLAY or WAYLAND_DISPLAY names a graphical session.',
  },
  {
    name: 'NODE_EXTRA_CA_CERTS',
    description:
      "A PEM file of extra certificate authorities (a school's own CA), read by Node.js for every HTTPS request, " +
      'and added to whatever else is trusted.',
  },
  {
    name: 'LMS_CA_FILE',
    description:
      "A PEM file of a certificate authority to trust besides Node's own (a school's CA); beats the profile's " +
      '--ca-file, CURL_CA_BUNDLE and SSL_CERT_FILE. Unreadable or not PEM: exit 2.',
  },
  {
    name: 'CURL_CA_BUNDLE',
    description:
      "curl's: a PEM bundle of certificate authorities, read when neither LMS_CA_FILE nor the profile's --ca-file " +
      "is set, before SSL_CERT_FILE, for https instances only. Added to Node's own roots, where curl would trust " +
      'it alone. Unreadable or not PEM: exit 2, naming it.',
  },
  {
    name: 'NODE_OPTIONS',
    description:
      "Node's own: with --use-openssl-ca or --use-system-ca in it, Node trusts that store in place of its bundled " +
      'roots, and a CA file or bundle is added to it whole.',
  },
  {
    name: 'SSL_CERT_FILE',
    description:
      "OpenSSL's (and curl's): a PEM bundle of certificate authorities, read as CURL_CA_BUNDLE is when that is unset.",
  },
  {
    name: 'LMS_MAX_BODY',
    description:
      'The most bytes lms reads of one answer from an instance: bytes, or a number with K, M or G (64M by default). ' +
      'A larger answer is exit 1, not retried.',
  },
  {
    name: 'HTTPS_PROXY',
    description:
      'The proxy for https instances, http://[USER:PASSWORD@]HOST[:PORT], reached through a CONNECT tunnel; ' +
      'https_proxy (lower case) wins where both are set. Credentials are sent as Proxy-Authorization and never ' +
      'printed.',
  },
  {
    name: 'HTTP_PROXY',
    description:
      'The proxy for plain http instances (http_proxy wins where both are set); HTTP_PROXY is ignored where ' +
      'REQUEST_METHOD is set, as in a CGI script.',
  },
  {
    name: 'ALL_PROXY',
    description:
      "The proxy for either scheme when the scheme's own variable is unset (all_proxy wins where both are set).",
  },
  {
    name: 'NO_PROXY',
    description:
      'Hosts reached without the proxy (no_proxy wins where both are set), matched as curl matches them: * alone ' +
      'for every host, or a comma-separated list of names (.example.edu and example.edu match it and every name ' +
      'under it, never an address), addresses and CIDR blocks, each with an optional :PORT.',
  },
  {
    name: 'REQUEST_METHOD',
    description: 'Set (a CGI environment), HTTP_PROXY is not read: a client may set it with a Proxy: header.',
  },
];

/** What each exit code means; a code added to ExitCode needs its line here (the type says so). */
const EXIT_STATUS: Record<keyof typeof ExitCode, string> = {
  ok: 'Success.',
  failure:
    'A failure not covered below; a bulk job that left rows undone (rows that failed, or invalid rows ' +
    '--skip-invalid skipped), and its --dry-run when it finds such rows.',
  usage:
    'A usage error: a bad flag or value, a missing argument, an invalid input file; a destructive command without ' +
    '--yes where it cannot ask.',
  auth: 'Authentication or permission: the instance answered 401 or 403.',
  notFound: 'Not found: the instance answered 404.',
  rejected: 'Rejected by the API: 400, 409 or 422.',
  unavailable: 'Rate-limited or unavailable after retries: 429, a throttling 403, 502, 503 or 504.',
  network: 'A network error or a timeout.',
  interrupted: 'Interrupted (Ctrl-C), or "no" at a confirmation: nothing more was done.',
};

const FILES: readonly { path: string; description: string }[] = [
  {
    path: '~/.config/lms/config.json',
    description:
      'The profiles: base URL of each instance, and its token where no keychain keeps it (mode 0600). ' +
      '$XDG_CONFIG_HOME/lms if set, or LMS_CONFIG_DIR.',
  },
  {
    path: '~/.config/lms/locks/',
    description: 'Locks beside the profile file, so that commands running at once renew a token once between them.',
  },
  {
    path: '~/.local/share/lms/mock.db',
    description:
      "The mock's database, created and seeded on first use ($XDG_DATA_HOME/lms if set, LMS_MOCK_DB or --mock-db to " +
      'choose another).',
  },
  {
    path: '~/.local/state/lms/',
    description:
      'What one run leaves for the next, which no cache cleaner should take: the audit log of every write, ' +
      "audit.log (and its rotated files and lock), the journals of bulk jobs, journals/, and lms apply's keys, " +
      'apply/ ($XDG_STATE_HOME/lms if set, or LMS_STATE_DIR). What an older lms kept in ~/.cache/lms is moved ' +
      'here on first use.',
  },
  {
    path: '~/.cache/lms/',
    description:
      "Caches, which may be deleted at any time: Node's compile cache, compile/ (Node 22 and later), and completion " +
      'answers, completions/ ($XDG_CACHE_HOME/lms if set, or LMS_CACHE_DIR).',
  },
];

/** A command as its page describes it, its flags and arguments as commander shows them in help. */
interface ManCommand {
  /** From the program's name: ['lms', 'users', 'get']. */
  path: string[];
  description: string;
  aliases: readonly string[];
  /** What follows the path in a synopsis: `[options] <id>`. */
  usage: string;
  arguments: readonly Argument[];
  /** The flags --help shows, the help flag included. */
  options: readonly Option[];
  examples: readonly string[];
  /** The verbs and nouns under a noun; none for a verb. */
  children: ManCommand[];
  /** The verb a noun runs without one. */
  fallback?: string;
}

interface ManProgram {
  description: string;
  version: string;
  options: readonly Option[];
  nouns: ManCommand[];
}

/** The pages of the declared commands: what `npm run generate` writes (through scripts/man.mjs). */
export function manPages(program: DeclaredProgram): ManPage[] {
  const described = describeProgram(program);
  const help = new Help();
  return [
    { file: 'lms.1', name: 'lms', text: mainPage(described, help) },
    ...described.nouns.map((noun) => ({
      file: `${noun.path.join('-')}.1`,
      name: noun.path.join('-'),
      text: nounPage(described, noun, help),
    })),
  ];
}

function describeProgram(program: DeclaredProgram): ManProgram {
  const helpOption = new Option(syntaxOf(HELP_FLAG), HELP_FLAG.description);
  const describe = (spec: CommandSpec<never> | NounSpec, path: string[]): ManCommand => {
    const common = { path, description: spec.summary, aliases: spec.aliases ?? [] };
    if (isNoun(spec)) {
      const fallback = defaultVerb(spec);
      return {
        ...common,
        usage: '',
        arguments: [],
        options: [],
        examples: [],
        children: spec.commands.map((c) => describe(c, [...path, wordOf(c)])),
        fallback: fallback && wordOf(fallback),
      };
    }
    const terms = argumentsOf(spec).map(
      ({ name, required, variadic }) => `${required ? '<' : '['}${name}${variadic ? '...' : ''}${required ? '>' : ']'}`,
    );
    const args = argumentsOf(spec).map(({ name }, i) => {
      const argument = new Argument(terms[i]);
      const choices = spec.argChoices?.[name];
      return choices ? argument.choices(choices) : argument;
    });
    // As commander writes a verb's usage: every verb has options, its help flag at least.
    const usage = ['[options]', ...terms].join(' ');
    return {
      ...common,
      usage,
      arguments: args,
      options: [...flagsOf(spec).map(commanderOption), helpOption],
      examples: spec.examples ?? [],
      children: [],
    };
  };
  return {
    description: PROGRAM_DESCRIPTION,
    version: __LMS_VERSION__,
    // As commander holds them: the version flag first, the help flag last.
    options: [
      new Option(syntaxOf(VERSION_FLAG), VERSION_FLAG.description),
      ...GLOBAL_FLAGS.map(globalOption),
      helpOption,
    ],
    nouns: program.commands.map((c) => describe(c, ['lms', wordOf(c)])),
  };
}

function header(title: string, version: string): string[] {
  // No date: the page is the same for the same tree, whenever and wherever it is generated.
  // Left-aligned and never hyphenated: a flag or a path split at a line's end cannot be copied.
  return [
    `.\\" Generated from the command tree by src/cli/man.ts (npm run man); do not edit.`,
    `.TH ${macroArg(title.toUpperCase())} 1 "" ${macroArg(`lms-cli ${version}`)} ${macroArg('lms manual')}`,
    '.nh',
    '.ad l',
  ];
}

function mainPage(program: ManProgram, help: Help): string {
  const { nouns, version } = program;
  const lines = [...header('lms', version)];
  lines.push('.SH NAME', `lms \\- ${text(firstSentence(program.description))}`);
  lines.push(
    '.SH SYNOPSIS',
    '.B lms',
    '[\\fIglobal options\\fR] \\fInoun\\fR \\fIverb\\fR [\\fIarguments\\fR] [\\fIoptions\\fR]',
    '.br',
    '.B lms',
    '[\\fB\\-\\-version\\fR | \\fB\\-\\-help\\fR]',
  );
  lines.push('.SH DESCRIPTION', text(`${program.description}.`));
  lines.push(
    '.PP',
    text(
      'A command is a noun and a verb: lms users list, lms enrollments add. Each noun has a page of its own, ' +
        'lms-NOUN(1), with its verbs, their arguments, flags and examples; lms NOUN --help and lms NOUN VERB --help ' +
        'say the same.',
    ),
    '.PP',
    text(
      'Data goes to stdout: a table on a terminal, JSON when piped, unless -o says otherwise. Progress, warnings ' +
        'and errors go to stderr. Precedence: a flag beats the environment, which beats the profile file.',
    ),
  );
  lines.push('.SH COMMANDS');
  for (const noun of nouns) {
    lines.push('.TP', `.BR ${macroArg(noun.path.join('-'))} (1)`, text(noun.description));
  }
  lines.push('.SH GLOBAL OPTIONS', text('Given before or after the noun and verb.'));
  for (const option of program.options) lines.push(...optionItem(option, help));
  lines.push('.SH ENVIRONMENT');
  for (const { name, description } of ENVIRONMENT) lines.push('.TP', `.B ${macroArg(name)}`, text(description));
  lines.push(
    '.SH FILES',
    text(
      "As on Linux; macOS and Windows keep them in the platform's own directories (~/Library/…, %APPDATA% and " +
        '%LOCALAPPDATA%; the state directory is ~/Library/Application Support/lms and %LOCALAPPDATA%\\lms). lms ' +
        'doctor checks that each can be written.',
    ),
  );
  for (const { path, description } of FILES) lines.push('.TP', `.I ${macroArg(path)}`, text(description));
  lines.push('.SH EXIT STATUS');
  for (const [key, code] of Object.entries(ExitCode))
    lines.push('.TP', `.B ${code}`, text(EXIT_STATUS[key as keyof typeof ExitCode]));
  lines.push(
    '.PP',
    text('With -o json (or LMS_OUTPUT=json) an error is written as one JSON object on stderr, with its exit_code.'),
  );
  lines.push(
    '.SH EXAMPLES',
    ...examples([
      'lms --mock users list',
      'lms -p prod users list --account 1 --all -o csv > users.csv',
      "lms users list --account 1 -o json | jq -r '.[].login_id'",
    ]),
  );
  lines.push('.SH SEE ALSO', seeAlso(nouns.map((noun) => noun.path.join('-'))));
  return `${lines.join('\n')}\n`;
}

function nounPage(program: ManProgram, noun: ManCommand, help: Help): string {
  const name = noun.path.join('-');
  const lines = [...header(name, program.version)];
  const verbs = leaves(noun);
  lines.push('.SH NAME', `${text(name)} \\- ${text(firstSentence(noun.description))}`);
  lines.push('.SH SYNOPSIS');
  verbs.forEach((verb, i) => {
    if (i > 0) lines.push('.br');
    lines.push(...synopsis(verb));
  });
  lines.push('.SH DESCRIPTION', text(noun.description));
  if (noun.aliases.length) lines.push('.PP', text(`Also: ${noun.aliases.map((alias) => `lms ${alias}`).join(', ')}.`));
  const word = noun.path.at(-1)!;
  if (noun.fallback) lines.push('.PP', text(`Without a command, lms ${word} runs lms ${word} ${noun.fallback}.`));
  if (verbs.length > 1 || verbs[0] !== noun) {
    lines.push('.SH COMMANDS');
    for (const verb of verbs) lines.push(...verbSection(verb, help));
  } else {
    // A top-level command (apply, mcp): the page is the command itself.
    lines.push(...verbBody(noun, help, false));
  }
  lines.push(
    '.SH GLOBAL OPTIONS',
    text(
      `Every command takes the global options of lms(1): ${program.options
        .map((o) => o.long ?? o.short)
        .filter((f) => f !== '--help' && f !== '--version')
        .join(', ')}.`,
    ),
  );
  lines.push('.SH SEE ALSO', seeAlso(['lms']));
  return `${lines.join('\n')}\n`;
}

/** Every verb under a noun, nested nouns walked (users settings get); a noun with none is its own verb. */
function leaves(command: ManCommand): ManCommand[] {
  if (command.children.length === 0) return [command];
  return command.children.flatMap(leaves);
}

/** `lms users get [options] <id>`, the words of the path in bold and the rest as commander writes it. */
function synopsis(verb: ManCommand): string[] {
  // Not Help.commandUsage, which writes `list|ls`: aliases are said in words below.
  const rest = verb.usage;
  return [`.B ${macroArg(verb.path.join(' '))}`, ...(rest ? [styleTerm(rest, '\\fR')] : [])];
}

function verbSection(verb: ManCommand, help: Help): string[] {
  return [`.SS ${macroArg(verb.path.join(' '))}`, ...synopsis(verb), '.PP', ...verbBody(verb, help)];
}

/** A verb's description (unless its page's DESCRIPTION already says it), aliases, arguments, flags and examples. */
function verbBody(verb: ManCommand, help: Help, describe = true): string[] {
  const lines = describe ? [text(verb.description)] : [];
  if (verb.aliases.length)
    lines.push(
      '.PP',
      text(`Also: ${verb.aliases.map((alias) => [...verb.path.slice(0, -1), alias].join(' ')).join(', ')}.`),
    );
  const args = verb.arguments;
  if (args.length) {
    lines.push('.PP', 'Arguments:');
    for (const argument of args) lines.push(...argumentItem(argument, help));
  }
  const options = verb.options.filter((option) => option.long !== '--help');
  if (options.length) {
    lines.push('.PP', 'Options:');
    for (const option of options) lines.push(...optionItem(option, help));
  }
  const list = verb.examples;
  if (list.length) {
    lines.push('.PP', 'Examples:', ...examples(list));
  }
  return lines;
}

function argumentItem(argument: Argument, help: Help): string[] {
  const described = help.argumentDescription(argument);
  const fallback = `${argument.required ? 'required' : 'optional'}${argument.variadic ? ', one or more' : ''}`;
  return ['.TP', `.I ${macroArg(help.argumentTerm(argument))}`, text(described || fallback)];
}

function optionItem(option: Option, help: Help): string[] {
  return ['.TP', styleTerm(help.optionTerm(option), '\\fB'), text(help.optionDescription(option))];
}

/** A flag term, `-o, --output <format>`: the flags in bold (or as `outside`), the value names in italics. */
function styleTerm(term: string, outside: string): string {
  const parts = term.split(/(<[^>]+>|\[[^\]]+\])/);
  const styled = parts
    .map((part, i) => (i % 2 === 1 ? `\\fI${escapeRoff(part)}${outside}` : escapeRoff(part)))
    .join('');
  return `${lineStart(`${outside}${styled}\\fR`)}`;
}

/** Command lines as typed, one a line, unfilled and in the page's fixed-width font. */
function examples(commands: readonly string[]): string[] {
  return ['.PP', '.RS 4', '.EX', ...commands.map((command) => lineStart(escapeRoff(`$ ${command}`))), '.EE', '.RE'];
}

function seeAlso(names: string[]): string {
  return names.map((name) => `\\fB${escapeRoff(name)}\\fR(1)`).join(',\n');
}

/** What a page's NAME line says: the description's first clause. */
function firstSentence(description: string): string {
  return description
    .split('\n')[0]
    .split('; ')[0]
    .replace(/[.;:]?\s*$/, '');
}

/**
 * Prose as roff text lines: each input line trimmed (a leading space would break the fill), a blank
 * line a new paragraph, and nothing a line could start with that roff reads as a request.
 */
function text(prose: string): string {
  return prose
    .split('\n')
    .map((line) => line.trim())
    .map((line) => (line === '' ? '.PP' : lineStart(escapeRoff(line))))
    .join('\n');
}

/** A line starting with `.` or `'` is a request to roff: `\&` (a zero-width nothing) makes it text. */
function lineStart(line: string): string {
  return /^[.']/.test(line) ? `\\&${line}` : line;
}

/**
 * Text that roff prints as written: a backslash as \e; a hyphen as \- (so it is not a hyphen a
 * formatter may turn into a dash, and a flag copied from the page works); quotes, accents, the
 * tilde and the caret as the ASCII characters they are (groff turns ' ` ~ ^ into typographic ones);
 * anything beyond ASCII by its code point, whatever encoding man expects of a page.
 */
export function escapeRoff(value: string): string {
  let out = '';
  for (const character of value) {
    switch (character) {
      case '\\':
        out += '\\e';
        break;
      case '-':
        out += '\\-';
        break;
      case "'":
        out += '\\(aq';
        break;
      case '`':
        out += '\\(ga';
        break;
      case '~':
        out += '\\(ti';
        break;
      case '^':
        out += '\\(ha';
        break;
      case '"':
        out += '\\(dq';
        break;
      default: {
        const code = character.codePointAt(0)!;
        out += code > 0x7e || code < 0x20 ? `\\[u${code.toString(16).toUpperCase().padStart(4, '0')}]` : character;
      }
    }
  }
  return out;
}

/** One argument of a macro: quoted, so spaces stay inside it (a `"` inside is \(dq, from escape). */
function macroArg(value: string): string {
  return `"${escapeRoff(value)}"`;
}
