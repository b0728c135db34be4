// Which columns a table may shorten to fit a terminal, decided here once, by name, for every table
// (lists and KEY/VALUE alike, and whether the command declared its columns or they came from the
// data). A value a user copies into their next command — an id, a SIS id, a login, an email, a
// URL, a token — is useless cut short, so it is always printed whole; only free text (names,
// titles, messages, states) gives way to the terminal's width.

/**
 * True for a column whose values are printed whole, at any width. A dotted path is judged by its
 * last step (`user.login_id`, `parent_outcome_group.id`), case and dashes aside.
 */
export function isIdentifierColumn(column: string): boolean {
  const name = (column.split('.').at(-1) ?? column).toLowerCase().replace(/-/g, '_');
  return (
    WHOLE_NAMES.has(name) ||
    WHOLE_SUFFIXES.some((suffix) => name.endsWith(suffix)) ||
    name.startsWith('sis_') ||
    name.startsWith('login') ||
    name.includes('email')
  );
}

const WHOLE_NAMES = new Set([
  'id',
  'ids',
  'uuid',
  'guid',
  // `course_42`, the form calendar and planner requests take (`context_codes[]`). Not `course_code`:
  // that is a label the course's teachers edit (up to 255 characters, spaces and all) and no
  // endpoint accepts it as a reference; the reference a user types is sis_course_id, kept whole.
  'context_code',
  'context_codes',
  // A URL cut short opens nothing, and terminals make a link of it only when it is whole.
  'url',
  // `lms api list`: the path `lms api GET …` takes.
  'path',
  // `lms mock tokens`, `users avatars`: what the next command or environment variable is given.
  'token',
  'secret',
]);

// `user_id`, `sis_user_ids`, `integration_id`, `vendor_guid`, `html_url`, `avatar_token`,
// `client_secret`…
const WHOLE_SUFFIXES = ['_id', '_ids', '_uuid', '_guid', '_url', '_token', '_secret'];
