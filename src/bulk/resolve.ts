// The reference check of a bulk job: before anything is written (and on a dry run), every user,
// section or other record the rows name is looked up, so a file naming one that does not exist is
// refused whole, with its lines, instead of half applied. Each distinct reference is asked about
// once, a few at a time: a roster names the same section on every row, and a real instance's rate
// limit makes more than a handful of requests in flight only buy throttling.
import { pool } from '../pool.js';
import { ApiError } from '../errors.js';

/**
 * `look(key)` for each distinct key, at most `concurrency` at once; the answers by key. A lookup
 * that throws stops the check (an auth or network problem is the job's, not a row's).
 */
export async function lookupEach<K, V>(
  keys: Iterable<K>,
  look: (key: K) => Promise<V>,
  concurrency: number,
): Promise<Map<K, V>> {
  const queue = [...new Set(keys)];
  const values = await pool(queue, concurrency, look);
  return new Map<K, V>(queue.map((key, i) => [key, values[i]]));
}

/** The record, or undefined when the API says there is none (404); any other error is thrown. */
export async function orMissing<T>(request: Promise<T>): Promise<T | undefined> {
  try {
    return await request;
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return undefined;
    throw e;
  }
}
