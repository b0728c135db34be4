import { defineCommand, defineNoun, list } from '../../cli/command.js';
import { UsageError } from '../../errors.js';

export const mockNoun = defineNoun({
  name: 'mock',
  summary: 'The built-in mock instance: seed it, list its tokens, serve it over HTTP',
  commands: [
    defineCommand({
      name: 'seed',
      summary: 'Reset the mock database to the seeded school (accounts, courses, sections, users, tokens)',
      async run({ ctx }) {
        const { reseed } = await import('../../mock/runtime.js');
        const mock = await ctx.mock();
        reseed(mock.db);
        ctx.io.stderr.write(`Seeded the mock school in ${mock.path}. \`lms mock tokens\` lists its users' tokens.\n`);
        return undefined;
      },
    }),
    defineCommand({
      name: 'reset',
      summary: 'Empty the mock database, keeping only the root account and its admin',
      async run({ ctx }) {
        await ctx.confirm('Erase everything in the mock database');
        const { reseed } = await import('../../mock/runtime.js');
        const mock = await ctx.mock();
        reseed(mock.db, { minimal: true });
        ctx.io.stderr.write(`Reset the mock database in ${mock.path}.\n`);
        return undefined;
      },
    }),
    defineCommand({
      name: 'tokens',
      summary: 'List the access tokens of the mock users',
      columns: ['user_id', 'name', 'role', 'token'],
      async run({ ctx }) {
        const { listTokens } = await import('../../mock/runtime.js');
        return list(listTokens((await ctx.mock()).db));
      },
    }),
    defineCommand<{ port: string; host: string; quiet?: boolean }>({
      name: 'serve',
      summary: 'Serve the mock over HTTP (loopback by default); logs one line per request',
      options: [
        { flags: '--port <n>', description: 'port (0 picks a free one)', default: '4010' },
        { flags: '--host <address>', description: 'address to bind', default: '127.0.0.1' },
        { flags: '--quiet', description: 'no per-request log lines' },
      ],
      examples: ['lms mock serve --port 4010 &', 'LMS_BASE_URL=http://127.0.0.1:4010 LMS_TOKEN=1~mock-admin lms users list'],
      async run({ opts, ctx }) {
        const port = Number(opts.port);
        if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be 0-65535, got "${opts.port}"`);
        const { serveMock } = await import('../../mock/serve.js');
        const mock = await ctx.mock();
        const log = opts.quiet ? undefined : (line: string) => ctx.io.stderr.write(`${line}\n`);
        const { server, url } = await serveMock({ handler: mock.handler, host: opts.host, port, log });
        ctx.io.stderr.write(`lms mock serving ${mock.path} at ${url} (Ctrl-C stops)\n`);
        await new Promise<void>((resolve) => {
          const stop = () => server.close(() => resolve());
          process.once('SIGINT', stop);
          process.once('SIGTERM', stop);
        });
        return undefined;
      },
    }),
  ],
});
