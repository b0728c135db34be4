// The state an enrollment is given by enrolling: one declaration that `enrollments add --state`, the
// state column of `enrollments import` and an apply file's roster (which enrolls through `add`) all
// read, so a value that ends access is destructive wherever it is given.
import type { OptionSpec } from '../../model/command.js';

/** What the API takes as `enrollment[enrollment_state]` when enrolling (invited unless said). */
const ENROLL_STATES = ['active', 'invited', 'inactive'] as const;

/** States that end an enrollment's access, by the word for what reaching them does to it. */
export const ENDING_STATES: Readonly<Record<string, string>> = {
  inactive: 'deactivate',
  completed: 'conclude',
  deleted: 'delete',
};

export const stateFlag = {
  long: 'state',
  value: 'state',
  description: 'active, invited (default) or inactive; inactive deactivates the enrollment the user already has there',
  choices: ENROLL_STATES,
  // Enrolling someone already enrolled sets their enrollment's state.
  destroys: ENROLL_STATES.filter((s) => s in ENDING_STATES),
} as const satisfies OptionSpec;
