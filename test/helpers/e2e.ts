// For end-to-end tests: the built binary in a child process, and `lms mock serve` on a free port.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';

export const root = new URL('../..', import.meta.url).pathname;
export const bin = join(root, 'bin/lms');
export const ADMIN = '1~mock-admin';

/** A scratch directory and an environment that ignores the caller's own lms settings. */
export function e2eWorkspace(prefix: string) {
  const dir = mkdtempSync(join(tmpdir(), `lms-${prefix}-`));
  const env: Record<string, string> = {
    LMS_CONFIG_DIR: join(dir, 'config'),
    LMS_STATE_DIR: join(dir, 'state'),
    LMS_MOCK_DB: join(dir, 'mock.db'),
    NO_COLOR: '1',
    LMS_MOCK: '',
    LMS_TOKEN: '',
    LMS_BASE_URL: '',
    LMS_PROFILE: '',
    LMS_MOCK_FAULTS: '',
    // No Secret Service: a command that stores a token keeps it in the workspace's profile file,
    // never in the keychain of whoever runs the tests. (An address no bus has, rather than none,
    // which would let libdbus fall back to the desktop session's bus.)
    DBUS_SESSION_BUS_ADDRESS: 'disabled:',
    // Requests to the loopback mock go directly, whatever proxy or CA the machine running the tests names.
    HTTPS_PROXY: '',
    https_proxy: '',
    HTTP_PROXY: '',
    http_proxy: '',
    ALL_PROXY: '',
    all_proxy: '',
    NO_PROXY: '',
    no_proxy: '',
    LMS_CA_FILE: '',
    // Nor the CA variables curl, OpenSSL and Node read (a machine may set them for every process):
    // a test that trusts a certificate says so with one of them.
    CURL_CA_BUNDLE: '',
    SSL_CERT_FILE: '',
    NODE_EXTRA_CA_CERTS: '',
  };
  return { dir, env };
}

export async function ensureBuilt(): Promise<void> {
  if (!existsSync(join(root, 'dist/lms.cjs'))) await execa(process.execPath, ['scripts/build.mjs'], { cwd: root });
}

export function spawnLms(args: string[], env: Record<string, string>, input?: string) {
  return execa(process.execPath, [bin, ...args], { env, reject: false, input, extendEnv: true });
}

export interface Served {
  url: string;
  child: ResultPromise;
  log(): string;
  stop(): Promise<void>;
}

/** `lms mock serve --port 0 …`; resolves once it prints its address. */
export async function serveMock(env: Record<string, string>, flags: string[] = []): Promise<Served> {
  const child: ResultPromise = execa(process.execPath, [bin, 'mock', 'serve', '--port', '0', ...flags], {
    env,
    reject: false,
  });
  let log = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`mock serve did not start: ${log}`)), 15_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      // Bound to every interface (--host 0.0.0.0), it is reached on loopback.
      const m = /at (https?):\/\/(127\.0\.0\.1|0\.0\.0\.0):(\d+)/.exec(log);
      if (m) {
        clearTimeout(timer);
        resolve(`${m[1]}://127.0.0.1:${m[3]}`);
      }
    });
    void child.then((r) => reject(new Error(`mock serve exited ${r.exitCode}: ${log}`)));
  });
  return {
    url,
    child,
    log: () => log,
    async stop() {
      child.kill('SIGTERM');
      await child.catch(() => undefined);
    },
  };
}

/** Lines written so far to the bulk-job journals under an LMS_STATE_DIR: how far a running import got. */
export function journalLines(stateDir: string): number {
  const journals = join(stateDir, 'journals');
  if (!existsSync(journals)) return 0;
  return readdirSync(journals)
    .filter((f) => f.endsWith('.ndjson'))
    .reduce((n, f) => n + readFileSync(join(journals, f), 'utf8').split('\n').filter(Boolean).length, 0);
}

/** A child's peak resident set so far (VmHWM), in bytes, or undefined once it is gone (Linux). */
export function peakRss(pid: number): number | undefined {
  try {
    const m = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * util-linux `script` runs a command on a pseudo-terminal and returns its exit code (-e): the terminal tests need it.
 */
export const hasScript = (() => {
  try {
    return execFileSync('script', ['--version'], { encoding: 'utf8' }).includes('util-linux');
  } catch {
    return false;
  }
})();

/** An argument as a POSIX shell reads it back, for the command line `script -c` runs. */
export const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;
