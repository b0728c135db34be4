// Matches a request against the route table. Where two routes fit (`users/activity_stream` and
// `users/:id`), the one with a literal segment earliest wins, as in a Rails router.
import { routes, type Route } from '../spec/routes.js';

interface Compiled {
  route: Route;
  segments: string[];
}

const compiled: Compiled[] = routes.map((route) => ({ route, segments: route.path.split('/').slice(1) }));

export interface Match {
  route: Route;
  /** Path ids, percent-decoded (`sis_course_id:CS/101`). */
  path: Record<string, string>;
}

export function matchRoute(method: string, pathname: string): Match | undefined {
  const raw = pathname.replace(/\/+$/, '').split('/').slice(1);
  let segments: string[];
  try {
    segments = raw.map((s) => decodeURIComponent(s));
  } catch {
    return undefined;
  }
  let best: { c: Compiled; score: string } | undefined;
  for (const c of compiled) {
    if (c.route.method !== method || c.segments.length !== segments.length) continue;
    let score = '';
    let ok = true;
    for (let i = 0; i < segments.length; i++) {
      const pattern = c.segments[i];
      if (pattern.startsWith(':')) score += '0';
      else if (pattern === segments[i]) score += '1';
      else {
        ok = false;
        break;
      }
    }
    if (ok && (!best || score > best.score)) best = { c, score };
  }
  if (!best) return undefined;
  const path: Record<string, string> = {};
  best.c.segments.forEach((p, i) => {
    if (p.startsWith(':')) path[p.slice(1)] = segments[i];
  });
  return { route: best.c.route, path };
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

