import { metaValue } from '../../db/meta.js';
import type { Db } from '../../db/open.js';
import {
  badRequest,
  bool,
  HttpError,
  invalid,
  noContent,
  obj,
  paginate,
  keysetSource,
  list as listParam,
  str,
  timestamp,
  fileUrl,
  crypto,
  type Handler,
  type MockCtx,
  type UserRow,
} from '../../kit.js';
import { checkText, text } from '../../fields.js';
import { findAccount, findCourse, findUser, rootOf } from '../lookup.js';
import { demand, permit, reachOf } from '../access.js';
import { atRoot, mayManage, maySee, personalRights, usersPolicy } from '../../school/users/policy.js';
import { ianaZone } from '../../time-zones.js';
import { removeAllAdminRolesOf } from '../admins/repo.js';
import { deleteEnrollmentsOfUser } from '../../school/enrollments/repo.js';
import { imagesOf } from '../files/repo.js';
import { startUpload } from '../files/upload.js';
import {
  addChannel,
  addLogin,
  createUser,
  deleteUser,
  follow as addFollow,
  loginOf,
  loginTaken,
  pageViewsQuery,
  primaryEmail,
  sisUserIdTaken,
  unfollow as removeFollow,
  updateUser,
  userById,
  usersOfAccountQuery,
  usersOfCourseQuery,
  type ListedUser,
} from '../../school/users/repo.js';
import { userJson, avatarUrl } from '../../school/users/present.js';
import { applyLoginEvent, logins } from './logins.js';

// ---- validation -------------------------------------------------------------------------------

/** IANA names and the friendly framework names real instances accept; anything else is rejected. */
function timeZone(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  const zone = ianaZone(value);
  if (!zone) throw invalid('user', 'time_zone', 'inclusion', `'${value}' is not a known time zone`);
  return zone;
}

function locale(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^[a-z]{2}(-[A-Z]{2})?$/.test(value))
    throw invalid('user', 'locale', 'inclusion', `'${value}' is not a two-letter ISO 639-1 code`);
  return value;
}

/** Real instances cap logins at 100 characters, every other string at 255. */
const LOGIN = text({ max: 100, required: true });
const STRING = text();

// ---- avatars ----------------------------------------------------------------------------------

interface AvatarOption {
  type: 'external' | 'attachment' | 'no_pic';
  url: string;
  token: string;
  display_name: string;
  [key: string]: unknown;
}

/** Tokens are opaque to clients: a digest of the option, salted by the database's secret. */
function avatarToken(db: Db, userId: number, type: string, url: string): string {
  const secret = metaValue(db, 'seeded_at') ?? '';
  return crypto().createHash('sha256').update(`${secret}|${userId}|${type}|${url}`).digest('hex').slice(0, 40);
}

function avatarOptions(ctx: MockCtx, user: UserRow): AvatarOption[] {
  const { db } = ctx;
  const email = primaryEmail(db, user.id) ?? '';
  const gravatar =
    `https://secure.gravatar.com/avatar/${crypto().createHash('md5').update(email.trim().toLowerCase()).digest('hex')}` +
    '?s=128&d=identicon';
  const options: AvatarOption[] = [
    {
      type: 'external',
      url: gravatar,
      token: avatarToken(db, user.id, 'external', gravatar),
      display_name: 'gravatar pic',
    },
  ];
  const images = imagesOf(db, 'User', user.id);
  for (const a of images) {
    const url = fileUrl(ctx, a.id, a.uuid);
    options.push({
      type: 'attachment',
      url,
      token: avatarToken(db, user.id, 'attachment', url),
      display_name: a.display_name,
      id: a.id,
      'content-type': a.content_type,
      filename: a.filename,
      size: a.size,
    });
  }
  const none = `${ctx.origin}/images/messages/avatar-50.png`;
  options.push({ type: 'no_pic', url: none, token: avatarToken(db, user.id, 'no_pic', none), display_name: 'no pic' });
  return options;
}

// ---- handlers ---------------------------------------------------------------------------------

const list: Handler = (ctx) => {
  const account = findAccount(ctx, ctx.path.account_id);
  demand(ctx, usersPolicy.list, { account });
  const term = str(ctx.params, 'search_term');
  if (term !== undefined && term.length < 3) {
    throw new HttpError(400, {
      errors: [{ field: 'search_term', message: '3 or more characters is required', error_code: 'invalid' }],
    });
  }
  return paginate(ctx, keysetSource<ListedUser>(ctx.db, usersOfAccountQuery(account.id, rootOf(account), term)), (u) =>
    userJson(ctx, u),
  );
};

/**
 * A course's users, as CoursesController#users answers: a search term of 2 characters or more
 * matches names, logins, SIS ids and email addresses; the email only with include[]=email, and only
 * where the caller may see it (userJson).
 */
const courseUsers: Handler = (ctx) => {
  const course = findCourse(ctx, ctx.path.course_id);
  const reach = reachOf(ctx, usersPolicy.listCourse, course);
  const term = str(ctx.params, 'search_term')?.trim();
  if (term !== undefined && term.length < 2) {
    throw new HttpError(400, {
      errors: [{ field: 'search_term', message: '2 or more characters is required', error_code: 'invalid' }],
    });
  }
  const withEmail = listParam(ctx.params, 'include').map(String).includes('email');
  const query = usersOfCourseQuery(course.id, {
    term: term || undefined,
    sections: reach === 'all' ? undefined : reach,
  });
  return paginate(ctx, keysetSource<ListedUser>(ctx.db, query), (u) => {
    const { email, ...json } = userJson(ctx, u);
    return withEmail && email !== undefined ? { ...json, email } : json;
  });
};

const get: Handler = (ctx) => {
  const user = findUser(ctx, ctx.path.id);
  permit(maySee(ctx, user));
  return userJson(ctx, user);
};

const create: Handler = (ctx) => {
  const account = findAccount(ctx, ctx.path.account_id);
  demand(ctx, usersPolicy.manage, { account });
  const user = obj(ctx.params, 'user');
  const pseudonym = obj(ctx.params, 'pseudonym');
  const channel = obj(ctx.params, 'communication_channel');

  const uniqueId = checkText(LOGIN, str(pseudonym, 'unique_id')?.trim(), 'pseudonym', 'unique_id');
  const sisUserId = checkText(STRING, str(pseudonym, 'sis_user_id')?.trim() || undefined, 'pseudonym', 'sis_user_id');
  const loginText = (field: string) =>
    checkText(STRING, str(pseudonym, field)?.trim() || undefined, 'pseudonym', field);
  const integrationId = loginText('integration_id');
  const provider = loginText('authentication_provider_id');
  checkText(STRING, str(pseudonym, 'password'), 'pseudonym', 'password');
  for (const field of ['name', 'short_name', 'sortable_name'] as const)
    checkText(STRING, str(user, field)?.trim(), 'user', field);
  checkText(STRING, str(channel, 'address')?.trim(), 'communication_channel', 'address');
  if (sisUserId !== undefined || integrationId !== undefined) demand(ctx, usersPolicy.setSis, { account });
  const root = rootOf(account);
  if (loginTaken(ctx.db, root, uniqueId))
    throw invalid('pseudonym', 'unique_id', 'taken', 'ID already in use for this account and authentication provider');
  if (sisUserId && sisUserIdTaken(ctx.db, root, sisUserId))
    throw invalid('pseudonym', 'sis_user_id', 'taken', `SIS ID "${sisUserId}" is already in use`);
  const name = str(user, 'name')?.trim() || uniqueId;
  const address = str(channel, 'address')?.trim();
  const channelType = str(channel, 'type') ?? 'email';
  if (address && channelType === 'email' && !/^[^@\s]+@[^@\s]+$/.test(address))
    throw invalid('communication_channel', 'address', 'invalid', `'${address}' is not a valid email address`);
  const now = ctx.now();
  const userId = createUser(ctx.db, {
    name,
    shortName: str(user, 'short_name')?.trim(),
    sortableName: str(user, 'sortable_name')?.trim(),
    timeZone: timeZone(str(user, 'time_zone')),
    locale: locale(str(user, 'locale')),
    birthdate: timestamp(user, 'birthdate'),
    registered: bool(user, 'skip_registration') === true,
    now,
  });
  addLogin(ctx.db, {
    user: userId,
    account: root,
    uniqueId,
    sis: sisUserId,
    integration: integrationId,
    provider,
    password: str(pseudonym, 'password'),
    now,
  });
  if (address) addChannel(ctx.db, { user: userId, type: channelType, address });
  return userJson(ctx, userById(ctx.db, userId)!);
};

const update: Handler = (ctx) => {
  const target = findUser(ctx, ctx.path.id);
  permit(mayManage(ctx, target));
  const changes = obj(ctx.params, 'user');
  const next = { ...target };
  for (const field of ['name', 'short_name', 'sortable_name'] as const) {
    const v = checkText(STRING, str(changes, field)?.trim(), 'user', field);
    if (v !== undefined) {
      if (v.trim() === '' && field === 'name') throw invalid('user', 'name', 'blank', "can't be blank");
      next[field] = v.trim();
    }
  }
  const pronouns = checkText(STRING, str(changes, 'pronouns')?.trim(), 'user', 'pronouns');
  if (pronouns !== undefined) next.pronouns = pronouns || null;
  const tz = timeZone(str(changes, 'time_zone'));
  if (tz) next.time_zone = tz;
  const loc = locale(str(changes, 'locale'));
  if (loc) next.locale = loc;
  const avatar = obj(changes, 'avatar');
  const token = str(avatar, 'token');
  const url = checkText(STRING, str(avatar, 'url'), 'user', 'avatar');
  if (token) {
    // The token supersedes the url.
    const chosen = avatarOptions(ctx, target).find((o) => o.token === token);
    if (!chosen) throw invalid('user', 'avatar', 'invalid', 'unknown avatar token');
    next.avatar_url = chosen.type === 'no_pic' ? null : chosen.url;
  } else if (url) {
    if (!/^https?:\/\/\S+$/i.test(url)) throw invalid('user', 'avatar', 'invalid', `'${url}' is not an http(s) URL`);
    next.avatar_url = url;
  }
  applyLoginEvent(ctx, target, str(changes, 'event'));
  updateUser(ctx.db, target.id, next, ctx.now());
  return userJson(ctx, userById(ctx.db, target.id)!);
};

const remove: Handler = (ctx) => {
  const account = findAccount(ctx, ctx.path.account_id);
  const target = findUser(ctx, ctx.path.id);
  permit(mayManage(ctx, target, account.id));
  const before = userJson(ctx, target);
  const now = ctx.now();
  deleteUser(ctx.db, target.id, now);
  deleteEnrollmentsOfUser(ctx.db, target.id, now);
  removeAllAdminRolesOf(ctx.db, target.id);
  return { user: before };
};

function settingsJson(u: UserRow) {
  return {
    manual_mark_as_read: u.manual_mark_as_read === 1,
    collapse_global_nav: false,
    hide_dashcard_color_overlays: false,
  };
}

const getSettings: Handler = (ctx) => {
  const target = findUser(ctx, ctx.path.id);
  permit(mayManage(ctx, target));
  return settingsJson(target);
};

const updateSettings: Handler = (ctx) => {
  const target = findUser(ctx, ctx.path.id);
  permit(mayManage(ctx, target));
  const manual = bool(ctx.params, 'manual_mark_as_read');
  if (manual !== undefined) updateUser(ctx.db, target.id, { manual_mark_as_read: manual ? 1 : 0 }, ctx.now());
  return settingsJson(userById(ctx.db, target.id)!);
};

const follow: Handler = (ctx) => {
  const target = findUser(ctx, ctx.path.user_id);
  if (target.id === ctx.caller.id) throw badRequest('you cannot follow yourself');
  if (!target.public_profile)
    throw new HttpError(401, { status: 'unauthorized', errors: [{ message: "this user's profile is not public" }] });
  const createdAt = addFollow(ctx.db, ctx.caller.id, target.id, ctx.now());
  return { following_user_id: ctx.caller.id, followed_user_id: target.id, created_at: createdAt };
};

const unfollow: Handler = (ctx) => {
  const target = findUser(ctx, ctx.path.user_id);
  removeFollow(ctx.db, ctx.caller.id, target.id);
  return noContent();
};

const profile: Handler = (ctx) => {
  const target = findUser(ctx, ctx.path.user_id);
  permit(maySee(ctx, target));
  const rights = personalRights(ctx, target);
  const login = rights.logins ? loginOf(ctx.db, target.id) : undefined;
  const own = target.id === ctx.caller.id;
  return {
    id: target.id,
    name: target.name,
    short_name: target.short_name,
    sortable_name: target.sortable_name,
    title: null,
    bio: null,
    ...(rights.logins
      ? { primary_email: primaryEmail(ctx.db, target.id) ?? null, login_id: login?.unique_id ?? null }
      : {}),
    ...(rights.sis
      ? { sis_user_id: login?.sis_user_id ?? null, sis_login_id: login?.sis_user_id ? login.unique_id : null }
      : {}),
    avatar_url: avatarUrl(ctx, target),
    ...(own
      ? {
          calendar: {
            ics: `${ctx.origin}/feeds/calendars/user_${avatarToken(ctx.db, target.id, 'ics', '').slice(0, 24)}.ics`,
          },
        }
      : {}),
    time_zone: target.time_zone,
    locale: target.locale,
  };
};

const avatars: Handler = (ctx) => {
  const target = findUser(ctx, ctx.path.user_id);
  permit(mayManage(ctx, target));
  return avatarOptions(ctx, target);
};

/**
 * A page view's id as real instances give it: the request's UUID, a string. The mock's is made from
 * the row's id and the database's seed, so it is the same on every read.
 */
function pageViewId(db: Db, id: number): string {
  const hex = crypto()
    .createHash('sha256')
    .update(`${metaValue(db, 'seeded_at') ?? ''}|page_view|${id}`)
    .digest('hex');
  return (
    `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}` +
    `-${((Number.parseInt(hex[16], 16) & 3) | 8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`
  );
}

const pageViews: Handler = (ctx) => {
  const target = findUser(ctx, ctx.path.user_id);
  demand(ctx, usersPolicy.pageViews, atRoot(ctx), target.id);
  const start = timestamp(ctx.params, 'start_time');
  const end = timestamp(ctx.params, 'end_time');
  if (start && end && start > end) throw badRequest('start_time must be before end_time');
  return paginate(ctx, keysetSource<Record<string, unknown>>(ctx.db, pageViewsQuery(target.id, start, end)), (v) => ({
    id: pageViewId(ctx.db, Number(v.id)),
    url: v.url,
    created_at: v.created_at,
    user_agent: v.user_agent,
    http_method: String(v.http_method).toLowerCase(),
    controller: v.controller,
    action: v.action,
    context_type: v.context_type,
    interaction_seconds: v.interaction_seconds,
    links: { user: target.id, context: v.context_id },
  }));
};

const uploadFile: Handler = (ctx) => {
  const target = findUser(ctx, ctx.path.user_id);
  permit(mayManage(ctx, target));
  return startUpload(ctx, { type: 'User', id: target.id }, 'my files');
};

export const usersHandlers = {
  'users.list': list,
  'users.get': get,
  'users.create': create,
  'users.update': update,
  'users.delete': remove,
  'users.getSettings': getSettings,
  'users.updateSettings': updateSettings,
  'users.follow': follow,
  'users.unfollow': unfollow,
  'users.profile': profile,
  'users.avatars': avatars,
  'users.pageViews': pageViews,
  'users.logins': logins,
  'users.uploadFile': uploadFile,
  'courses.users': courseUsers,
};
