import { one, paged } from '../operation.js';
import type { Id } from '../types/common.js';
import type { UploadTicket } from '../types/school.js';
import type { AvatarOption, CreateUserParams, FollowRecord, ListUsersParams, PageView, Profile, UpdateUserParams, User, UserSettings } from '../types/users.js';

type UserRef = { id: Id };
type UserPath = { user_id: Id };

export const users = {
  list: paged<ListUsersParams, User>('users.list'),
  get: one<UserRef, User>('users.get'),
  create: one<CreateUserParams, User>('users.create'),
  update: one<UpdateUserParams, User>('users.update'),
  delete: one<{ account_id: Id; id: Id }, User>('users.delete'),
  getSettings: one<UserRef, UserSettings>('users.getSettings'),
  updateSettings: one<UserRef & { manual_mark_as_read?: boolean }, UserSettings>('users.updateSettings'),
  follow: one<UserPath, FollowRecord>('users.follow'),
  unfollow: one<UserPath, FollowRecord | undefined>('users.unfollow'),
  profile: one<UserPath, Profile>('users.profile'),
  avatars: one<UserPath, AvatarOption[]>('users.avatars'),
  pageViews: paged<UserPath & { start_time?: string; end_time?: string }, PageView>('users.pageViews'),
  uploadFile: one<UserPath & { name: string; size: number; content_type?: string; parent_folder_path?: string; on_duplicate?: 'overwrite' | 'rename' }, UploadTicket>('users.uploadFile'),
};
