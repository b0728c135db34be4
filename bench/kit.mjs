// What the benchmarks that drive `lms` share: where lms is, a scratch home of its own for the run
// (mock database, caches, config, state), and a reader of a JSON-lines stream (an MCP server's stdout).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));
export const lms = join(root, 'bin', 'lms');

/** A scratch directory for one benchmark, and the environment that keeps lms's files in it. */
export function scratchSpace(name) {
  const scratch = mkdtempSync(join(tmpdir(), `lms-bench-${name}-`));
  const env = {
    ...process.env,
    LMS_MOCK_DB: join(scratch, 'mock.db'),
    LMS_CACHE_DIR: join(scratch, 'cache'),
    LMS_CONFIG_DIR: join(scratch, 'config'),
    LMS_STATE_DIR: join(scratch, 'state'),
  };
  return { scratch, env };
}

/** Calls `onLine` with each JSON line the stream writes, as it completes. */
export function onJsonLines(stream, onLine) {
  let buffer = '';
  stream.on('data', (chunk) => {
    buffer += chunk;
    for (let newline = buffer.indexOf('\n'); newline >= 0; newline = buffer.indexOf('\n')) {
      const line = JSON.parse(buffer.slice(0, newline));
      buffer = buffer.slice(newline + 1);
      onLine(line);
    }
  });
}
