// Confirmation tokens: a destructive call first answers its plan (its dry run) and a token; the
// same call again with that token runs, once. The token is bound to the tool, its exact arguments,
// what the plan destroys (its destructive changes, as the planner says them: which objects, from
// what to what) and this server process (signed with the process's own key, as cursors are), and
// holds CONFIRM_TTL_MS: a person is shown the plan, and what runs is what they saw. The confirmed
// run makes its plan again before it writes; one that destroys anything else runs nothing, and the
// call answers the new plan with a new token (as terraform refuses a stale saved plan).
import { randomBytes } from 'node:crypto';
import type { ConfirmedPlan } from '../model/context.js';
import { canonicalDestructions, sortedKeys, type Destruction } from '../model/destructions.js';
import { UsageError } from '../errors.js';
import { sign, signedBy } from './sign.js';

export const CONFIRM_TTL_MS = 10 * 60 * 1000;

/** The most plans kept for the audit of their confirmation: the oldest go first. */
const MAX_PLANS = 256;

/** What a server process remembers of its tokens. */
export interface Confirmations {
  /** Tokens already redeemed, by nonce, with when they expire (forgotten after, as they are refused anyway). */
  spent: Map<string, number>;
  /** The plans tokens were handed out with, by nonce, for whoever records the confirmed call. */
  plans: Map<string, ConfirmedPlan>;
}

export const newConfirmations = (): Confirmations => ({ spent: new Map(), plans: new Map() });

interface Body {
  k: 'confirm';
  /** The tool. */
  t: string;
  /** sha256 of the arguments' canonical JSON. */
  a: string;
  /** The plan's digest (planDigest): of its destructive changes, or of its JSON when it says none. */
  p: string;
  /** Expiry, in ms since the epoch. */
  e: number;
  n: string;
}

/** The arguments as one text: keys in order, at every depth; `confirm` and `dry_run` left out. */
export function canonicalArguments(given: Record<string, unknown>): string {
  const kept = Object.fromEntries(Object.entries(given).filter(([k]) => k !== 'confirm' && k !== 'dry_run'));
  return JSON.stringify(sortedKeys(kept));
}

/** Keyed, as the token carries it where the model reads it: the digest of real names is not a guess to check. */
const digest = (text: string, key: Buffer) => sign(text, key);

/**
 * What a token binds of a plan: its destructive changes when its planner says them (the confirmed
 * run's are checked against these), its JSON otherwise (a plain dry run's request, which the
 * arguments decide).
 */
export function planDigest(plan: { changes: readonly Destruction[] } | { json: Record<string, unknown> }, key: Buffer) {
  if ('changes' in plan) return digest(`changes:${canonicalDestructions(plan.changes)}`, key);
  return digest(`plan:${JSON.stringify(sortedKeys(plan.json))}`, key);
}

/** A token for this call of the tool, its plan remembered. */
export function issueToken(
  tool: string,
  given: Record<string, unknown>,
  plan: Record<string, unknown>,
  destroys: readonly Destruction[] | undefined,
  key: Buffer,
  memory: Confirmations,
  now: number,
): { token: string; expiresAt: string } {
  const arguments_ = canonicalArguments(given);
  const p = planDigest(destroys ? { changes: destroys } : { json: plan }, key);
  const nonce = randomBytes(12).toString('base64url');
  const body: Body = { k: 'confirm', t: tool, a: digest(arguments_, key), p, e: now + CONFIRM_TTL_MS, n: nonce };
  const encoded = Buffer.from(JSON.stringify(body)).toString('base64url');
  for (const [nonce, kept] of memory.plans) {
    if (memory.plans.size < MAX_PLANS && Date.parse(kept.issuedAt) + CONFIRM_TTL_MS > now) break;
    memory.plans.delete(nonce);
  }
  memory.plans.set(body.n, {
    tool,
    arguments: JSON.parse(arguments_) as Record<string, unknown>,
    plan,
    planDigest: body.p,
    issuedAt: new Date(now).toISOString(),
  });
  return { token: `${encoded}.${sign(encoded, key)}`, expiresAt: new Date(body.e).toISOString() };
}

/**
 * The plan the token confirms, the token spent; or a usage error saying why it does not hold: not
 * this process's, for another call, expired, or used.
 */
export function redeemToken(
  token: string,
  tool: string,
  given: Record<string, unknown>,
  key: Buffer,
  memory: Confirmations,
  now: number,
): ConfirmedPlan {
  const again = `call ${tool} without confirm for its plan and a new token, and show the plan to the person first`;
  const refuse = (why: string, reason: string) =>
    new UsageError(`${tool}: the confirmation token ${why}: refused`, {
      hint: again,
      details: { refused: true, confirm: reason },
    });
  const [encoded, mac] = token.split('.');
  let body: Body | undefined;
  if (encoded && mac && signedBy(encoded, mac, key)) {
    try {
      body = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as Body;
    } catch {
      body = undefined;
    }
  }
  if (body?.k !== 'confirm')
    throw refuse(
      'is not one this server process handed out (a token holds only in the server that planned the call)',
      'unknown',
    );
  if (body.t !== tool || body.a !== digest(canonicalArguments(given), key))
    throw refuse(
      `was handed out for ${body.t === tool ? 'other arguments' : `another tool (${body.t})`}, not for these`,
      'other_call',
    );
  for (const [nonce, expires] of memory.spent) if (expires <= now) memory.spent.delete(nonce);
  if (memory.spent.has(body.n)) throw refuse('was used already (a token runs its call once)', 'used');
  if (body.e <= now)
    throw refuse(
      `expired at ${new Date(body.e).toISOString()} (a token holds ${CONFIRM_TTL_MS / 60_000} minutes)`,
      'expired',
    );
  memory.spent.set(body.n, body.e);
  const plan = memory.plans.get(body.n);
  memory.plans.delete(body.n);
  return (
    plan ?? {
      tool,
      arguments: JSON.parse(canonicalArguments(given)) as Record<string, unknown>,
      plan: {},
      planDigest: body.p,
      issuedAt: new Date(body.e - CONFIRM_TTL_MS).toISOString(),
    }
  );
}
