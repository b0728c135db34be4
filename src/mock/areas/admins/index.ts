import { defineArea } from '../area.js';
import { adminsHandlers } from './handlers.js';
import { schema } from './schema.js';
import { seedAdmins } from './seed.js';

export const adminsArea = defineArea({ name: 'admins', schema, handlers: adminsHandlers, seed: seedAdmins });
