import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

// Two projects: `unit` runs commands, the client and the mock in process; `e2e` spawns the built
// binary, servers and proxies, and spends much of its time waiting on them, so it runs more files at
// once than there are cores. `npm test` runs both; `npx vitest run --project unit` runs one.
export default defineConfig({
  define: {
    __LMS_VERSION__: JSON.stringify(pkg.version),
    __LMS_JQ_WASM__: JSON.stringify(createRequire(import.meta.url).resolve('jq-wasm/inline')),
  },
  test: {
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // A test that opens and closes many mock databases asks the collector to let go of their files.
    execArgv: ['--expose-gc'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: ['test/e2e/**'],
          // A worker runs its files one after another on the modules it has loaded, rather than loading
          // them again for each: what a file sets it undoes (vi.unstubAllEnvs, useRealTimers), and nothing
          // here mocks a module.
          isolate: false,
          maxWorkers: availableParallelism(),
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          maxWorkers: availableParallelism() + 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
