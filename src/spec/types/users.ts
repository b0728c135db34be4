import type { ApiObject, Id } from './common.js';

export interface User extends ApiObject {
  id: number;
  name: string;
  sortable_name: string;
  short_name: string;
  sis_user_id?: string | null;
  integration_id?: string | null;
  login_id?: string | null;
  avatar_url?: string;
  email?: string | null;
  locale?: string | null;
  time_zone?: string | null;
  /** Shown where the root account allows pronouns. */
  pronouns?: string | null;
}

export interface Profile extends ApiObject {
  id: number;
  name: string;
  primary_email?: string;
  login_id?: string;
  calendar?: { ics: string };
}

export interface AvatarOption extends ApiObject {
  type: 'external' | 'attachment' | 'no_pic';
  url: string;
  token: string;
  display_name: string;
}

export interface PageView extends ApiObject {
  url: string;
  created_at: string;
  controller: string;
  action: string;
}

export interface FollowRecord extends ApiObject {
  following_user_id: number;
  followed_user_id: number;
  created_at: string;
}

export interface UserSettings extends ApiObject {
  manual_mark_as_read: boolean;
}

export interface ListUsersParams {
  account_id: Id;
  search_term?: string;
  [key: string]: unknown;
}

export interface CreateUserParams {
  account_id: Id;
  user?: {
    name?: string;
    short_name?: string;
    sortable_name?: string;
    time_zone?: string;
    locale?: string;
    birthdate?: string;
  };
  pseudonym: {
    unique_id: string;
    password?: string;
    sis_user_id?: string;
    integration_id?: string;
    /** An authentication provider's id, or its type (the first provider of that type). */
    authentication_provider_id?: string;
    send_confirmation?: boolean;
  };
  communication_channel?: { type?: string; address?: string };
}

export interface UpdateUserParams {
  id: Id;
  user: {
    name?: string;
    short_name?: string;
    sortable_name?: string;
    time_zone?: string;
    locale?: string;
    /** Set on the user's profile; an empty string clears them (users_controller#update). */
    pronouns?: string;
    avatar?: { token?: string; url?: string };
    /** Suspends or unsuspends every login of the user the caller may change (users_controller#update). */
    event?: 'suspend' | 'unsuspend';
  };
}

/** One of a user's logins (pseudonyms_controller#index, pseudonym_json). */
export interface Login extends ApiObject {
  id: number;
  user_id: number;
  account_id: number;
  unique_id: string;
  /** Only to callers who may read SIS data on the login's account, as integration_id. */
  sis_user_id?: string | null;
  integration_id?: string | null;
  authentication_provider_id?: number | string | null;
  /** `active` or `suspended` (a deleted login is not listed). */
  workflow_state?: string;
  created_at?: string;
}
