// The flags every command takes, declared as a verb's are: the command line registers them from
// this list, and completions and man pages describe them from it, without building a program.
import { FORMATS } from '../output/formats.js';
import type { OptionSpec } from './options.js';

/** The program's own line, on `lms --help` and lms(1). */
export const PROGRAM_DESCRIPTION =
  'Administer a Canvas-style learning platform from the shell; --mock runs every command against a built-in mock';

/** The API serves at most this many items a page (Canvas caps per_page at 100). */
const MAX_PER_PAGE = 100;
/** Longer than any request should take; setTimeout itself cannot wait past 2^31 ms (~24.8 days). */
const MAX_TIMEOUT_SECONDS = 3600;

/**
 * A global flag; `nonEmpty`: a value that may not be empty (`--as-user ""` would send as_user_id= and act as nobody).
 */
export type GlobalFlag = OptionSpec & { nonEmpty?: true };

export const VERSION_FLAG: OptionSpec = { short: 'V', long: 'version', description: 'print the version' };
export const HELP_FLAG: OptionSpec = { short: 'h', long: 'help', description: 'show help' };

export const GLOBAL_FLAGS: readonly GlobalFlag[] = [
  { short: 'p', long: 'profile', value: 'profile', description: 'use this profile (env LMS_PROFILE)', nonEmpty: true },
  { long: 'mock', description: 'use the built-in mock instead of a real instance (env LMS_MOCK=1)' },
  { long: 'mock', negated: true, description: 'use a real instance even when LMS_MOCK is set' },
  { long: 'mock-db', value: 'path', description: 'mock database file, or :memory: (env LMS_MOCK_DB)', nonEmpty: true },
  {
    short: 'o',
    long: 'output',
    value: 'format',
    description: 'output format (env LMS_OUTPUT); table on a terminal, json when piped',
    choices: FORMATS,
  },
  {
    long: 'jq',
    value: 'expression',
    description: 'filter the JSON output with a jq expression; strings print raw',
    nonEmpty: true,
  },
  { long: 'fields', value: 'list', description: 'comma-separated fields to output, e.g. id,name,user.login_id' },
  {
    long: 'raw',
    description:
      "CSV cells as they are: no ' before text starting with = + - @ TAB or CR, which a spreadsheet would run as a " +
      'formula',
  },
  { long: 'all', description: 'fetch every page of a list' },
  { long: 'limit', value: 'n', description: 'stop a list after N items', type: 'integer', min: 1 },
  {
    long: 'per-page',
    value: 'n',
    description: `page size to ask the server for (at most ${MAX_PER_PAGE})`,
    type: 'integer',
    min: 1,
    max: MAX_PER_PAGE,
    default: String(MAX_PER_PAGE),
  },
  { long: 'as-user', value: 'id', description: 'act as another user (admins; sends as_user_id)', nonEmpty: true },
  { short: 'v', long: 'verbose', description: 'trace requests on stderr (tokens redacted)' },
  { long: 'color', negated: true, description: 'no colours (also NO_COLOR)' },
  { long: 'input', negated: true, description: 'never prompt; a missing value is an error' },
  { short: 'y', long: 'yes', description: 'assume yes to confirmations' },
  {
    long: 'timeout',
    value: 'seconds',
    description:
      `seconds one request may take, its retries included (a bulk job's: each try); connecting, 10 at ` +
      `most (at most ${MAX_TIMEOUT_SECONDS})`,
    type: 'integer',
    min: 1,
    max: MAX_TIMEOUT_SECONDS,
    unit: 'seconds',
    default: '30',
  },
  { long: 'insecure', description: 'allow sending the token over plain http to a host other than this machine' },
];
