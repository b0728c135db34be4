import { progressById } from '../../jobs.js';
import { notFound, numericId, type Handler } from '../../kit.js';
import { permit } from '../access.js';
import { mayReadProgress } from './policy.js';
import { progressJson } from './present.js';

const get: Handler = (ctx) => {
  const id = numericId(ctx.path.id!);
  const p = id === undefined ? undefined : progressById(ctx.db, id);
  if (!p) throw notFound();
  permit(mayReadProgress(ctx, p));
  return progressJson(ctx, p);
};

export const progressHandlers = { 'progress.get': get };
