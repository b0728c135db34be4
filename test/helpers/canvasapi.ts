// A client that calls the API the way ucfopen/canvasapi does: its Requester (bracketed form fields
// from nested keyword arguments, GET parameters in the query) and its PaginatedList (per_page on the
// first request, then each Link rel="next" URL followed as given).
/** canvasapi's `combine_kwargs`: nested dicts and lists become bracketed form keys. */
function combineKwargs(kwargs: Record<string, unknown>): [string, string][] {
  const out: [string, string][] = [];
  const walk = (prefix: string, v: unknown) => {
    if (Array.isArray(v)) for (const x of v) walk(`${prefix}[]`, x);
    else if (v !== null && typeof v === 'object')
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) walk(`${prefix}[${k}]`, x);
    else out.push([prefix, typeof v === 'boolean' ? (v ? 'True' : 'False') : String(v)]);
  };
  for (const [k, v] of Object.entries(kwargs)) walk(k, v);
  return out;
}

/** canvasapi's Requester: GET parameters in the query, others as a form body; the answer parsed as JSON. */
export function requester(base: string, token: string) {
  return async (method: string, endpoint: string, kwargs: Record<string, unknown> = {}) => {
    const url = new URL(endpoint.startsWith('http') ? endpoint : `${base}/api/v1/${endpoint}`);
    const form = new URLSearchParams(combineKwargs(kwargs));
    if (method === 'GET') for (const [k, v] of form) url.searchParams.append(k, v);
    const res = await fetch(url, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'User-Agent': 'python-requests/2.32.3' },
      body: method === 'GET' ? undefined : form,
    });
    if (res.status >= 400) throw new Error(`${method} ${url.pathname} answered ${res.status}: ${await res.text()}`);
    return { json: (await res.json()) as unknown, link: res.headers.get('link') ?? '' };
  };
}

/** canvasapi's PaginatedList: per_page on the first request, then each rel="next" URL as given. */
export async function paginated(
  request: ReturnType<typeof requester>,
  endpoint: string,
  kwargs: Record<string, unknown>,
) {
  const all: Record<string, unknown>[] = [];
  let next: string | undefined = endpoint;
  let first = true;
  while (next) {
    const page = await request('GET', next, first ? { ...kwargs, per_page: 2 } : {});
    first = false;
    all.push(...(page.json as Record<string, unknown>[]));
    next = /<([^>]+)>;\s*rel="next"/.exec(page.link)?.[1];
  }
  return all;
}
