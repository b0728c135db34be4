// Every noun of the command tree, in help order. A new noun adds its folder and a line here.
import type { CommandSpec, NounSpec } from '../cli/command.js';
import { apiNoun } from './api/index.js';
import { completionCommand } from './completion/index.js';
import { mockNoun } from './mock/index.js';
import { profileNoun } from './profile/index.js';
import { accountsNoun, assignmentsNoun, coursesNoun, filesNoun, groupsNoun } from './school.js';
import { usersNoun } from './users/index.js';

export const nouns: (NounSpec | CommandSpec<never>)[] = [
  usersNoun,
  accountsNoun,
  coursesNoun,
  assignmentsNoun,
  groupsNoun,
  filesNoun,
  profileNoun,
  apiNoun,
  mockNoun,
  completionCommand as CommandSpec<never>,
];
