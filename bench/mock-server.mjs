// `lms mock serve` on a free port for a benchmark: resolves with its URL once it says where it listens.
// `flags` go to the server; without `quiet: true` its request log is kept, for `requestLines()`;
// `pid` is the server's own process (for /proc).
import { spawn } from 'node:child_process';

export function startMockServer(lms, env, { flags = [], quiet = true } = {}) {
  const child = spawn(
    process.execPath,
    [lms, 'mock', 'serve', '--port', '0', ...(quiet ? ['--quiet'] : []), ...flags],
    { env, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  const url = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`mock serve did not start:\n${log}`)), 15000);
    child.stderr.on('data', (chunk) => {
      log += chunk;
      const m = /at (https?:\/\/127\.0\.0\.1:\d+)/.exec(log);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.once('exit', () => {
      clearTimeout(timer);
      reject(new Error(`mock serve exited: ${log}`));
    });
  });
  /** The requests the server has logged so far, one line each. */
  const requestLines = () => log.split('\n').filter((l) => /^(GET|POST|PUT|DELETE) \S+ (\d{3}|drop) \d+ms$/.test(l));
  /** Stops the server; resolves once it has exited (and stopped writing to its database). */
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return { url, pid: child.pid, requestLines, stop };
}
