import { op } from '../operation.js';
import type { Id } from '../../spec/types/common.js';
import type { ActivityItem, ActivitySummaryEntry, TodoItem } from '../../spec/types/activity.js';
import type { UpcomingEvent } from '../../spec/types/calendar.js';
import type { UploadTicket } from '../../spec/types/school.js';
import type { AvatarOption, CreateUserParams, FollowRecord, ListUsersParams, PageView, Profile, UpdateUserParams, User, UserSettings } from '../../spec/types/users.js';

type UserRef = { id: Id };
type UserPath = { user_id: Id };

export const users = {
  list: op('users.list').as<ListUsersParams, User>(),
  get: op('users.get').as<UserRef, User>(),
  create: op('users.create').as<CreateUserParams, User>(),
  update: op('users.update').as<UpdateUserParams, User>(),
  delete: op('users.delete').as<{ account_id: Id; id: Id }, User>(),
  getSettings: op('users.getSettings').as<UserRef, UserSettings>(),
  updateSettings: op('users.updateSettings').as<UserRef & { manual_mark_as_read?: boolean }, UserSettings>(),
  follow: op('users.follow').as<UserPath, FollowRecord>(),
  unfollow: op('users.unfollow').as<UserPath, FollowRecord | undefined>(),
  profile: op('users.profile').as<UserPath, Profile>(),
  avatars: op('users.avatars').as<UserPath, AvatarOption[]>(),
  pageViews: op('users.pageViews').as<UserPath & { start_time?: string; end_time?: string }, PageView>(),
  activityStream: op('users.activityStream').as<{ only_active_courses?: boolean }, ActivityItem>(),
  /** The same stream at `/users/activity_stream`, as real instances also serve it. */
  activityStreamAlias: op('users.activityStreamAlias').as<{ only_active_courses?: boolean }, ActivityItem>(),
  hideStreamItem: op('users.hideStreamItem').as<{ id: Id }, { hidden: boolean }>(),
  activityStreamSummary: op('users.activityStreamSummary').as<Record<string, never>, ActivitySummaryEntry[]>(),
  todo: op('users.todo').as<Record<string, never>, TodoItem[]>(),
  /** What DELETE on a to-do item's `ignore` URL does (`permanent: 1`: its `ignore_permanently`). */
  ignoreTodo: op('users.ignoreTodo').as<{ asset_string: string; purpose: 'grading' | 'submitting'; permanent?: 0 | 1 }, { ignored: boolean }>(),
  upcomingEvents: op('users.upcomingEvents').as<Record<string, never>, UpcomingEvent[]>(),
  uploadFile: op('users.uploadFile').as<UserPath & { name: string; size: number; content_type?: string; parent_folder_path?: string; on_duplicate?: 'overwrite' | 'rename' }, UploadTicket>(),
};
