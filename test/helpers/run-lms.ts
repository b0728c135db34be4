// Runs the CLI in-process with fake IO against an in-memory mock: the way most tests exercise commands.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../../src/cli/entry.js';
import type { Prompter } from '../../src/model/context.js';
import type { Keychain } from '../../src/config/keychain.js';
import type { SpinnerFactory } from '../../src/io/activity.js';
import { openMock, type MockRuntime } from '../../src/mock/runtime.js';
import { assertDeclaredRoutes, watchRoutes } from './declared-routes.js';
import { jsonChecked, seedSchool } from './mock-client.js';
import { fakeIO } from './fake-io.js';
import { memoryKeychain } from './keychain.js';

export interface LmsResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  tty?: boolean;
  stdin?: string;
  env?: Record<string, string>;
  prompter?: Prompter;
  /** A fake activity spinner (shown only when stderr is a "TTY"). */
  spinner?: SpinnerFactory;
}

export interface Session {
  mock: MockRuntime;
  configDir: string;
  /** LMS_STATE_DIR unless the session's environment names another: its journals and audit.log. */
  stateDir: string;
  /** Where the session's commands keep tokens: one in memory unless the session was given another. */
  keychain: Keychain;
  /** Runs one command line (split like a shell would, with quotes honoured). */
  run(line: string | string[], options?: RunOptions): Promise<LmsResult>;
}

export const FIXED_NOW = '2026-11-02T12:00:00.000Z';

/**
 * A fresh seeded in-memory mock, an empty profile directory and a keychain in memory (never the
 * machine's), shared by the calls of one test.
 */
export function session(env: Record<string, string> = {}, options: { keychain?: Keychain } = {}): Session {
  // As `--mock` opens it: a request without a User-Agent is refused, so every command run here
  // proves that lms sends one. Every route a command calls is checked against its declaration.
  const mock = watchRoutes(
    jsonChecked(
      openMock(':memory:', { LMS_MOCK_NOW: FIXED_NOW, LMS_MOCK_JOB_TICK_MS: '0' }, seedSchool, {
        requireUserAgent: true,
      }),
    ),
  );
  const configDir = mkdtempSync(join(tmpdir(), 'lms-test-config-'));
  // Journals and the audit log of the session's writes, never in the user's own cache.
  const stateDir = mkdtempSync(join(tmpdir(), 'lms-test-state-'));
  const keychain = options.keychain ?? memoryKeychain();
  return {
    mock,
    configDir,
    stateDir: env.LMS_STATE_DIR ?? stateDir,
    keychain,
    async run(line, options = {}) {
      const io = fakeIO({ tty: options.tty, stdin: options.stdin });
      const argv = Array.isArray(line) ? line : splitArgs(line);
      const exitCode = await run(argv, {
        io,
        env: { LMS_MOCK: '1', LMS_STATE_DIR: stateDir, ...env, ...options.env },
        mock,
        configDir,
        keychain,
        prompter: options.prompter,
        spinner: options.spinner,
      });
      // The command has ended: a route it called without declaring it fails the test here.
      assertDeclaredRoutes();
      return { exitCode, stdout: io.stdoutText(), stderr: io.stderrText() };
    },
  };
}

export function splitArgs(line: string): string[] {
  const args: string[] = [];
  for (const m of line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) args.push(m[1] ?? m[2] ?? m[3]);
  return args;
}
