// `lms mock serve` on a free port for a benchmark: resolves with its URL once it says where it listens.
import { spawn } from 'node:child_process';

export function startMockServer(lms, env) {
  const child = spawn(process.execPath, [lms, 'mock', 'serve', '--port', '0', '--quiet'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  const url = new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk) => {
      log += chunk;
      const m = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(log);
      if (m) resolve(m[1]);
    });
    child.once('exit', () => reject(new Error(`mock serve exited: ${log}`)));
  });
  return { url, stop: () => child.kill('SIGTERM') };
}
