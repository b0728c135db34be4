// The spinner of a command that waits on an instance (src/io/activity.ts), over its transport.
import { quietActivity, type Activity } from '../io/activity.js';
import type { Transport } from './types.js';

/**
 * A transport whose every request is tracked: wrap the outermost transport (retries and back-off
 * included), so the spinner covers the whole wait for an answer. `Waiting for HOST` is the label.
 */
export function trackedTransport(transport: Transport, activity: Activity): Transport {
  if (activity === quietActivity) return transport;
  return (req) => activity.track(transport(req), `Waiting for ${hostOf(req.url)}`);
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'the server';
  }
}
