import { defineNoun, item, list, type Verbs } from '../../model/command.js';
import { command, contextFlags } from '../../model/define.js';
import { UsageError } from '../../errors.js';
import { exportUsers } from './export.js';
import { importUsers } from './import.js';
import { upload } from './upload.js';
import { resolveUserPath } from '../../client/user-ref.js';
import type { Context } from '../../model/context.js';

const USER_COLUMNS = ['id', 'name', 'login_id', 'sis_user_id', 'email'];

/**
 * The path of the user an argument names: an email address found among the account's users (the instance's unless
 * given).
 */
const userArg = async (ctx: Context, raw: string, account = 'self') =>
  resolveUserPath(await ctx.client(), raw, { account_id: account });
const account = { ...contextFlags.account, default: 'self' } as const;

const listUsers = command({
  name: 'list',
  summary: 'List users in an account',
  aliases: ['ls'],
  routes: ['users.list'],
  columns: USER_COLUMNS,
  options: {
    account,
    search: {
      long: 'search',
      value: 'term',
      description: 'partial name, login, email, SIS id, or a full id (3+ characters)',
    },
  },
  examples: ['lms users list --account 1 --search smith', 'lms users list --all -o csv > users.csv'],
  async run({ opts, ctx }) {
    if (opts.search !== undefined && opts.search.length < 3)
      throw new UsageError(`--search needs at least 3 characters, got "${opts.search}"`);
    const client = await ctx.client();
    return list(
      client.ops.users.list({ account_id: opts.account, search_term: opts.search }, { limit: ctx.pageLimit() }),
    );
  },
});

const getUser = command({
  name: 'get',
  args: [{ name: 'id', optional: true }],
  argIds: { id: 'user' },
  summary: 'Show one user (default: yourself)',
  routes: ['users.get'],
  lookups: ['users.list'],
  columns: USER_COLUMNS,
  examples: ['lms users get self', 'lms users get sis_user_id:S-007'],
  async run({ args, ctx }) {
    const client = await ctx.client();
    return item(await client.ops.users.get({ id: await userArg(ctx, args[0] ?? 'self') }));
  },
});

const profileFlags = {
  name: { long: 'name', value: 'name', description: 'full name' },
  shortName: { long: 'short-name', value: 'name', description: 'display name for informal places' },
  sortableName: { long: 'sortable-name', value: 'name', description: 'name used for sorting, e.g. "Doe, Jane"' },
  timeZone: { long: 'time-zone', value: 'zone', description: 'IANA time zone, e.g. America/Denver' },
  locale: { long: 'locale', value: 'code', description: 'two-letter language code, e.g. en' },
} as const;

const createUser = command({
  name: 'create',
  summary: 'Create a user with a login in an account',
  routes: ['users.create'],
  columns: USER_COLUMNS,
  options: {
    account,
    loginId: {
      long: 'login-id',
      value: 'login',
      description: 'the unique login (pseudonym[unique_id])',
      required: true,
    },
    ...profileFlags,
    birthdate: { long: 'birthdate', value: 'date', description: 'birth date (ISO 8601)' },
    password: { long: 'password', value: 'password', description: 'initial password' },
    sisUserId: { long: 'sis-user-id', value: 'id', description: 'SIS id (needs SIS permission)' },
    sendConfirmation: { long: 'send-confirmation', description: 'send the account-creation notice' },
    skipRegistration: {
      long: 'skip-registration',
      description: 'mark the user registered (no self-registration step)',
    },
    email: { long: 'email', value: 'address', description: 'email communication channel' },
    channelType: {
      long: 'channel-type',
      value: 'type',
      description: 'communication channel type (with --channel-address), e.g. sms',
    },
    channelAddress: { long: 'channel-address', value: 'address', description: 'communication channel address' },
  },
  examples: ['lms users create --login-id jdoe --name "Jane Doe" --email jdoe@example.edu'],
  async run({ opts, ctx }) {
    if (opts.email && opts.channelAddress) throw new UsageError('give either --email or --channel-address, not both');
    if (opts.channelType && !opts.channelAddress) throw new UsageError('--channel-type needs --channel-address');
    const channel = opts.email
      ? { type: 'email', address: opts.email }
      : opts.channelAddress
        ? { type: opts.channelType ?? 'email', address: opts.channelAddress }
        : undefined;
    const client = await ctx.client();
    const user = await client.ops.users.create({
      account_id: opts.account,
      user: {
        name: opts.name,
        short_name: opts.shortName,
        sortable_name: opts.sortableName,
        time_zone: opts.timeZone,
        locale: opts.locale,
        birthdate: opts.birthdate,
        ...(opts.skipRegistration ? { skip_registration: true } : {}),
      },
      pseudonym: {
        unique_id: opts.loginId,
        password: opts.password,
        sis_user_id: opts.sisUserId,
        send_confirmation: opts.sendConfirmation ? true : undefined,
      },
      communication_channel: channel,
    });
    return item(user);
  },
});

const updateUser = command({
  name: 'update',
  args: [{ name: 'id' }],
  argIds: { id: 'user' },
  summary: "Edit a user's names, time zone, locale or avatar, or suspend or unsuspend their logins",
  routes: ['users.update'],
  lookups: ['users.list'],
  columns: USER_COLUMNS,
  options: {
    ...profileFlags,
    avatarToken: {
      long: 'avatar-token',
      value: 'token',
      description: 'a token from `lms users avatars` (wins over --avatar-url)',
    },
    avatarUrl: { long: 'avatar-url', value: 'url', description: 'an external avatar image URL (128 px square)' },
    suspend: {
      long: 'suspend',
      destroys: true,
      description:
        'suspend every login of the user you may change (user[event]; asks first; `users logins` shows ' + 'them)',
    },
    unsuspend: { long: 'unsuspend', description: "make the user's suspended logins active again" },
  },
  examples: [
    'lms users update self --time-zone Europe/Berlin',
    'lms users update sis_user_id:S-012 --suspend --yes',
    'lms users update 7 --avatar-token $(lms users avatars 7 -o json | jq -r ".[0].token")',
  ],
  async run({ args, opts, ctx }) {
    const avatar =
      opts.avatarToken || opts.avatarUrl
        ? { token: opts.avatarToken, url: opts.avatarToken ? undefined : opts.avatarUrl }
        : undefined;
    const changes = {
      name: opts.name,
      short_name: opts.shortName,
      sortable_name: opts.sortableName,
      time_zone: opts.timeZone,
      locale: opts.locale,
      avatar,
      event: opts.suspend ? 'suspend' : opts.unsuspend ? 'unsuspend' : undefined,
    } as const;
    if (opts.suspend && opts.unsuspend) throw new UsageError('give either --suspend or --unsuspend, not both');
    if (Object.values(changes).every((v) => v === undefined))
      throw new UsageError(
        'nothing to update: give at least one of --name, --short-name, --sortable-name, --time-zone, --locale, ' +
          '--avatar-token, --avatar-url, --suspend, --unsuspend',
      );
    const client = await ctx.client();
    return item(await client.ops.users.update({ id: await userArg(ctx, args[0]), user: changes }));
  },
});

const deleteUser = command({
  name: 'delete',
  args: [{ name: 'id' }],
  argIds: { id: 'user' },
  summary: 'Delete a user from an account (asks first; --yes in scripts)',
  routes: ['users.get', 'users.delete'],
  lookups: ['users.list'],
  examples: ['lms users delete sis_user_id:S-012 --account 1 --yes'],
  columns: USER_COLUMNS,
  options: { account },
  async run({ args, opts, ctx }) {
    const from = opts.account === 'self' ? 'the root account' : `account ${opts.account}`;
    const id = await userArg(ctx, args[0], opts.account);
    const describe = async () => {
      const user = await (await ctx.client()).ops.users.get({ id });
      const login = user.login_id ? `, ${user.login_id}` : '';
      return `Delete user ${user.id} (${user.name ?? 'no name'}${login}) from ${from}`;
    };
    await ctx.confirm(`Delete user ${args[0]} from ${from}`, { describe });
    const client = await ctx.client();
    const result = await client.ops.users.delete({ account_id: opts.account, id });
    return item((result as { user?: unknown }).user ?? result);
  },
});

const settings = defineNoun({
  name: 'settings',
  summary: "Read or change a user's settings",
  commands: [
    command({
      name: 'get',
      args: [{ name: 'id', optional: true }],
      argIds: { id: 'user' },
      summary: 'Show settings (default: yourself)',
      routes: ['users.getSettings'],
      lookups: ['users.list'],
      examples: ['lms users settings get'],
      async run({ args, ctx }) {
        return item(await (await ctx.client()).ops.users.getSettings({ id: await userArg(ctx, args[0] ?? 'self') }));
      },
    }),
    command({
      name: 'update',
      args: [{ name: 'id', optional: true }],
      argIds: { id: 'user' },
      summary: 'Change settings (default: yourself)',
      routes: ['users.updateSettings'],
      lookups: ['users.list'],
      examples: ['lms users settings update --manual-mark-as-read true'],
      options: {
        manualMarkAsRead: {
          long: 'manual-mark-as-read',
          value: 'bool',
          description: 'true: discussion posts are not marked read automatically',
          choices: ['true', 'false'],
        },
      },
      async run({ args, opts, ctx }) {
        if (opts.manualMarkAsRead === undefined)
          throw new UsageError('nothing to update: give --manual-mark-as-read true|false');
        const client = await ctx.client();
        return item(
          await client.ops.users.updateSettings({
            id: await userArg(ctx, args[0] ?? 'self'),
            manual_mark_as_read: opts.manualMarkAsRead === 'true',
          }),
        );
      },
    }),
  ],
});

const follow = command({
  name: 'follow',
  args: [{ name: 'id' }],
  summary: 'Follow a user (their profile must be public)',
  routes: ['users.follow'],
  lookups: ['users.list'],
  examples: ['lms users follow 8'],
  async run({ args, ctx }) {
    return item(await (await ctx.client()).ops.users.follow({ user_id: await userArg(ctx, args[0]) }));
  },
});

const unfollow = command({
  name: 'unfollow',
  args: [{ name: 'id' }],
  summary: 'Stop following a user',
  routes: ['users.unfollow'],
  lookups: ['users.list'],
  destroys: false,
  examples: ['lms users unfollow 8'],
  async run({ args, ctx }) {
    await (await ctx.client()).ops.users.unfollow({ user_id: await userArg(ctx, args[0]) });
    ctx.io.stderr.write(`No longer following user ${args[0]}.\n`);
    return undefined;
  },
});

const profile = command({
  name: 'profile',
  args: [{ name: 'id', optional: true }],
  summary: "Show a user's profile (calendar feed only for your own)",
  routes: ['users.profile'],
  lookups: ['users.list'],
  examples: ['lms users profile sis_login_id:sam'],
  columns: ['id', 'name', 'primary_email', 'login_id', 'time_zone'],
  async run({ args, ctx }) {
    return item(await (await ctx.client()).ops.users.profile({ user_id: await userArg(ctx, args[0] ?? 'self') }));
  },
});

const avatars = command({
  name: 'avatars',
  args: [{ name: 'id', optional: true }],
  summary: 'List the avatar options of a user, with the tokens `users update --avatar-token` takes',
  routes: ['users.avatars'],
  lookups: ['users.list'],
  examples: ['lms users avatars'],
  columns: ['type', 'display_name', 'token', 'url'],
  async run({ args, ctx }) {
    return {
      kind: 'list',
      items: await (await ctx.client()).ops.users.avatars({ user_id: await userArg(ctx, args[0] ?? 'self') }),
    };
  },
});

const logins = command({
  name: 'logins',
  args: [{ name: 'id', optional: true }],
  argIds: { id: 'user' },
  summary: "List a user's logins and whether each is active or suspended (default: yourself)",
  routes: ['users.logins'],
  lookups: ['users.list'],
  examples: ['lms users logins sis_user_id:S-012'],
  columns: ['id', 'unique_id', 'sis_user_id', 'account_id', 'workflow_state'],
  async run({ args, ctx }) {
    const client = await ctx.client();
    return list(
      client.ops.users.logins({ user_id: await userArg(ctx, args[0] ?? 'self') }, { limit: ctx.pageLimit() }),
    );
  },
});

const pageViews = command({
  name: 'page-views',
  args: [{ name: 'id', optional: true }],
  summary: "List a user's page views, newest first",
  routes: ['users.pageViews'],
  lookups: ['users.list'],
  examples: ['lms users page-views 7 --start-time 2026-09-01'],
  columns: ['created_at', 'http_method', 'url', 'controller', 'action'],
  options: {
    startTime: { long: 'start-time', value: 'time', description: 'only views at or after this time (ISO 8601)' },
    endTime: { long: 'end-time', value: 'time', description: 'only views at or before this time (ISO 8601)' },
  },
  async run({ args, opts, ctx }) {
    for (const [flag, value] of [
      ['--start-time', opts.startTime],
      ['--end-time', opts.endTime],
    ] as const) {
      if (value !== undefined && Number.isNaN(Date.parse(value)))
        throw new UsageError(`${flag} is not a date or time: "${value}"`);
    }
    const client = await ctx.client();
    return list(
      client.ops.users.pageViews(
        { user_id: await userArg(ctx, args[0] ?? 'self'), start_time: opts.startTime, end_time: opts.endTime },
        { limit: ctx.pageLimit() },
      ),
    );
  },
});

export const usersVerbs: Verbs = [
  listUsers,
  getUser,
  createUser,
  updateUser,
  deleteUser,
  importUsers,
  exportUsers,
  settings,
  follow,
  unfollow,
  profile,
  avatars,
  logins,
  pageViews,
  upload,
];
