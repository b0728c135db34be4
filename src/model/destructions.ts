// What a plan destroys, as data: the exact destructive changes a dry run shows and a confirmation
// binds (which object, and what happens to it, from what to what). A confirmation holds for these
// changes, not for the words of its question: "conclude 3" asked and "conclude 8" run are two plans.
// The planners (the bulk engine's dry run, apply's plan) say them; a person's "yes" at a terminal
// and `lms mcp`'s confirmation token are both checked against the plan made again before the run.
import { ExitCode, LmsError } from '../errors.js';

export interface Destruction {
  /** The object, as a person finds it: `user ravi (enrollment 25)`, `section BIO-101-B (id 7) of course BIO-101`. */
  object: string;
  /** What happens to it, and its values before and after when it has them: `deactivate (state: active → inactive)`. */
  change: string;
}

/** Keys in order at every depth: one value, one text. */
export function sortedKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortedKeys);
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(
    Object.keys(v)
      .sort()
      .map((k) => [k, sortedKeys((v as Record<string, unknown>)[k])]),
  );
}

/**
 * The changes as one text: each change's JSON, in sorted order, so that the same changes listed in
 * another order (the instance's listing order is not promised) are the same plan.
 */
export function canonicalDestructions(changes: readonly Destruction[]): string {
  return JSON.stringify(changes.map((c) => JSON.stringify(sortedKeys({ object: c.object, change: c.change }))).sort());
}

/** The most changes a message about a changed plan lists of each side. */
const SHOWN = 10;

/**
 * A plan that changed between the question and the run: nothing was run. It exits as the API's
 * refusal of a conflicting write does (5), and says what changed, so the person can ask again.
 */
export class PlanChangedError extends LmsError {
  constructor(asked: string, now: string, before: readonly Destruction[], after: readonly Destruction[]) {
    const key = (c: Destruction) => JSON.stringify([c.object, c.change]);
    const was = new Set(before.map(key));
    const is = new Set(after.map(key));
    const lines = (sign: string, list: readonly Destruction[]) => {
      const shown = list.slice(0, SHOWN).map((c) => `  ${sign} ${c.change}: ${c.object}`);
      return list.length > SHOWN ? [...shown, `  ${sign} … and ${list.length - SHOWN} more`] : shown;
    };
    const added = after.filter((c) => !was.has(key(c)));
    const gone = before.filter((c) => !is.has(key(c)));
    const changed = [...lines('+', added), ...lines('-', gone)].join('\n');
    super(
      `the plan changed after it was asked about; nothing was changed.\n  asked: ${asked}\n  now:   ${now}\n${changed}`,
      ExitCode.rejected,
      {
        hint: 'run the command again: it plans afresh and asks about the new plan',
        details: { plan_changed: true, added, removed: gone },
      },
    );
  }
}
