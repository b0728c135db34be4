// Which route of the table a request is for, by method and path: the mock's router and the dry
// run's reading of the write it stopped at. Where two routes fit (`users/activity_stream` and
// `users/:id`), the one with a literal segment earliest wins, as in a Rails router.
import { route, templatesShaped, type Route, type RouteId } from './routes.js';

interface Compiled {
  id: RouteId;
  /** The template's segments; undefined where a path id goes. */
  literals: (string | undefined)[];
  /** Its precedence: see `precedence`. */
  rank: number;
}

/**
 * The table compiled as asked, by method and segment count: each list in the order a match is
 * chosen. Which route wins depends only on where the templates have literals (every literal of a
 * match equals the request's), so that order is fixed here and the first fit is the answer. A
 * command sends one request, of one shape: compiling the whole table was most of this module's cost.
 */
const candidates = new Map<string, Compiled[]>();

/** Literal segments read as a binary number, the first segment the highest bit: bigger wins. */
const precedence = (literals: (string | undefined)[]) =>
  literals.reduce((n, s) => n * 2 + (s === undefined ? 0 : 1), 0);

function candidatesOf(method: string, segments: number): Compiled[] {
  const key = `${method} ${segments}`;
  const known = candidates.get(key);
  if (known) return known;
  const list = templatesShaped(method, segments).map(({ id, path }) => {
    const literals = path
      .split('/')
      .slice(1)
      .map((s) => (s.startsWith(':') ? undefined : s));
    return { id, literals, rank: precedence(literals) };
  });
  // A stable sort: of two templates with literals in the same places, the table's first wins.
  list.sort((a, b) => b.rank - a.rank);
  // Only shapes the table has are kept: a server's callers choose the method and the path.
  if (list.length > 0) candidates.set(key, list);
  return list;
}

export interface Match {
  route: Route;
  /** Path ids, percent-decoded (`sis_course_id:CS/101`). */
  path: Record<string, string>;
}

/**
 * The route a request is for, with its path ids; undefined when none fits (or a segment's
 * percent-escape is malformed). `among` limits the answer to those routes (what a verb declares).
 */
export function matchRoute(method: string, pathname: string, among?: readonly RouteId[]): Match | undefined {
  let end = pathname.length;
  while (end > 0 && pathname.charCodeAt(end - 1) === 47 /* / */) end--;
  const raw = pathname.slice(0, end).split('/');
  const list = candidatesOf(method, raw.length - 1);
  if (list.length === 0) return undefined;
  const segments: string[] = [];
  try {
    for (let i = 1; i < raw.length; i++) segments.push(raw[i].includes('%') ? decodeURIComponent(raw[i]) : raw[i]);
  } catch {
    return undefined;
  }
  next: for (const c of list) {
    const { literals } = c;
    for (let i = 0; i < literals.length; i++) {
      const literal = literals[i];
      if (literal !== undefined && literal !== segments[i]) continue next;
    }
    if (among && !among.includes(c.id)) continue;
    // Only the route that fits is made.
    const found = route(c.id);
    const path: Record<string, string> = {};
    for (let i = 0, p = 0; i < literals.length; i++)
      if (literals[i] === undefined) path[found.params[p++]] = segments[i];
    return { route: found, path };
  }
  return undefined;
}

/** False when a path segment has a malformed percent-escape (`%zz`, `%ff`): such a request is a 400. */
export function pathIsWellFormed(pathname: string): boolean {
  try {
    for (const s of pathname.split('/')) decodeURIComponent(s);
    return true;
  } catch {
    return false;
  }
}
