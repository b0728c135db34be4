// The mock's front door: everything the rest of lms asks of the mock (opening it, seeding it,
// serving it over HTTP(S), its faults) comes through here, and nothing else of src/mock is imported
// from outside it. The build makes this module a file of its own (dist/mock.cjs), so a command
// against an instance never reads the mock's code; test/spec/layers.test.ts holds the rule.
export { defaultMockDbPath, listTokens, loadMock, MOCK_ADMIN_TOKEN, MOCK_BASE_URL, reseed } from './runtime.js';
export { SEED_EPOCH } from './seed.js';
export { DEFAULT_THROTTLE, describeFaults, hasFaults, withFaults } from './faults.js';
export { requireUserAgent } from './user-agent.js';
export { driverName, openSqlite } from './db/driver.js';

// What a mock command alone runs, loaded when it first asks, as before the mock was a file of its
// own: a --mock listing does not evaluate the HTTP server, its certificate or the generated school.
export const generator = () => import('./generate.js');
export const server = () => import('./serve.js');
export const certificates = () => import('./tls.js');
