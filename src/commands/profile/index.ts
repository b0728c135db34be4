import { defineCommand, item, list, type Verbs } from '../../cli/command.js';
import { UsageError } from '../../errors.js';
import { readAll } from '../../io/streams.js';
import { isLoopbackHost } from '../../net.js';

/** What a profile shows: never the token itself. */
const describeToken = (token?: string) => (token ? `set (${token.length} characters)` : 'not set');

export const profileVerbs: Verbs = [
    defineCommand<{ url: string; tokenStdin?: boolean }>({
      name: 'add <name>',
      summary: 'Add or replace a profile (token from a hidden prompt, or --token-stdin; --insecure to allow remote plain http)',
      options: [
        { flags: '--url <url>', description: 'base URL of the instance, e.g. https://lms.example.edu', required: true },
        { flags: '--token-stdin', description: 'read the access token from standard input' },
      ],
      examples: ['lms profile add prod --url https://lms.example.edu', 'printf %s "$TOKEN" | lms profile add ci --url https://lms.example.edu --token-stdin'],
      async run({ args, opts, ctx }) {
        let url: URL;
        try {
          url = new URL(opts.url);
        } catch {
          throw new UsageError(`--url is not a URL: "${opts.url}"`);
        }
        if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UsageError(`--url must be http(s), not ${url.protocol}`);
        let token: string;
        if (opts.tokenStdin) token = (await readAll(ctx.io.stdin)).toString('utf8').trim();
        else if (ctx.interactive) token = (await (await ctx.prompter()).secret(`Access token for ${url.host}:`)).trim();
        else throw new UsageError('no token: pass --token-stdin and pipe the token in, or run in a terminal to be prompted');
        if (!token) throw new UsageError('the token is empty');
        const store = await ctx.profiles();
        const insecure = ctx.globals.insecure;
        if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && !insecure) {
          throw new UsageError(`${url.host} is a remote host over plain http: the token would travel unencrypted`, { hint: 'use https://, or pass --insecure if you accept that' });
        }
        store.set(args[0], { url: url.toString().replace(/\/+$/, ''), token, ...(insecure ? { insecure: true } : {}) });
        ctx.io.stderr.write(`Saved profile "${args[0]}" (${url.host}) in ${store.path}\n`);
        return undefined;
      },
    }),
    defineCommand({
      name: 'list',
      summary: 'List profiles (tokens are never shown)',
      aliases: ['ls'],
      columns: ['name', 'url', 'current'],
      async run({ ctx }) {
        const store = await ctx.profiles();
        return list(store.list().map(({ name, profile, current }) => ({ name, url: profile.url, current, token: describeToken(profile.token) })));
      },
    }),
    defineCommand({
      name: 'use <name>',
      summary: 'Make a profile the default',
      async run({ args, ctx }) {
        (await ctx.profiles()).use(args[0]);
        ctx.io.stderr.write(`Now using profile "${args[0]}".\n`);
        return undefined;
      },
    }),
    defineCommand({
      name: 'show [name]',
      summary: 'Show a profile (default: the current one)',
      async run({ args, ctx }) {
        const store = await ctx.profiles();
        const name = args[0] ?? ctx.globals.profile ?? (ctx.env.LMS_PROFILE || undefined) ?? store.current();
        if (!name) throw new UsageError('no current profile', { hint: 'lms profile add NAME --url URL' });
        const profile = store.get(name);
        if (!profile) throw new UsageError(`no profile named "${name}"`, { hint: 'lms profile list shows the profiles' });
        return item({ name, url: profile.url, current: store.current() === name, token: describeToken(profile.token), file: store.path });
      },
    }),
    defineCommand({
      name: 'remove <name>',
      summary: 'Remove a profile and its token',
      aliases: ['rm'],
      async run({ args, ctx }) {
        (await ctx.profiles()).remove(args[0]);
        ctx.io.stderr.write(`Removed profile "${args[0]}".\n`);
        return undefined;
      },
    }),
  ];
