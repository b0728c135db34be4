// A spinner on stderr while the command waits on something slow (a request, a page), in the manner
// of gh: nothing for the first moment, so quick commands never flicker; only on a terminal, never
// with NO_COLOR or --no-color; hidden while a prompt is open or a progress bar is drawn. ora is
// loaded the first time a spinner is actually due, never at start-up.
import type { IOStreams, Output } from './streams.js';

/** How long work runs before a spinner appears. */
export const SPINNER_DELAY_MS = 400;

export interface Activity {
  /**
   * Resolves or rejects as `work` does; while it is pending for longer than a moment, a spinner
   * (with `label`) shows on stderr. Several tracked pieces of work share one spinner.
   */
  track<T>(work: Promise<T>, label?: string): Promise<T>;
  /**
   * Hides the spinner (if shown) and keeps it hidden until the returned function is called: for
   * prompts and progress bars, which draw on the same terminal. Pauses nest; resuming twice is harmless.
   */
  pause(): () => void;
  /** Clears the spinner for good (before an exit). */
  stop(): void;
}

/** The little of a spinner that Activity drives; ora's instances have it. */
export interface Spinner {
  start(text?: string): unknown;
  stop(): unknown;
  text: string;
}

export type SpinnerFactory = (stream: Output) => Promise<Spinner>;

export interface ActivityOptions {
  /** Whether spinners may show at all: see spinnerAllowed. */
  enabled: boolean;
  delayMs?: number;
  /** Makes the spinner; by default an ora spinner, imported on first use. */
  spinner?: SpinnerFactory;
}

/** A spinner needs stderr to be a terminal and colours to be allowed (NO_COLOR, --no-color, TERM=dumb). */
export function spinnerAllowed(io: IOStreams, env: NodeJS.ProcessEnv, colorFlag: boolean): boolean {
  return io.stderrIsTTY && colorFlag && env.NO_COLOR === undefined && env.TERM !== 'dumb';
}

const oraSpinner: SpinnerFactory = async (output) => {
  // A spinner is allowed only on a terminal, which systemIO hands over as Node's own stream.
  const stream = output as Partial<NodeJS.WritableStream>;
  if (typeof stream.on !== 'function' || typeof stream.end !== 'function')
    throw new Error('a spinner draws on a stream');
  // A terminal that reports no width (0 columns, as some containers' do before their first resize)
  // gets none: ora counts the lines it must clear by the width, and would never finish clearing.
  if ((stream as { columns?: number }).columns === 0) throw new Error('a spinner needs the terminal to have a width');
  const { default: ora } = await import('ora');
  // discardStdin off: ora would otherwise take stdin over, and a prompt may follow.
  return ora({ stream: stream as NodeJS.WritableStream, isEnabled: true, discardStdin: false, color: 'cyan' });
};

/** Does nothing: for runs where spinners are not allowed. */
export const quietActivity: Activity = {
  track: (work) => work,
  pause: () => () => undefined,
  stop: () => undefined,
};

export function createActivity(io: IOStreams, options: ActivityOptions): Activity {
  if (!options.enabled) return quietActivity;
  const delayMs = options.delayMs ?? SPINNER_DELAY_MS;
  const makeSpinner = options.spinner ?? oraSpinner;
  /** Labels of the work in flight, newest last. */
  const pending: string[] = [];
  let pauses = 0;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let spinner: Spinner | undefined;
  let spinnerLoading: Promise<Spinner | undefined> | undefined;
  let shown = false;

  const label = () => pending.at(-1) || 'Working…';
  const due = () => !stopped && pauses === 0 && pending.length > 0;

  function schedule(): void {
    if (timer || shown || !due()) return;
    timer = setTimeout(() => {
      timer = undefined;
      void show();
    }, delayMs);
    timer.unref?.();
  }

  function cancelTimer(): void {
    if (timer) clearTimeout(timer);
    timer = undefined;
  }

  async function show(): Promise<void> {
    if (!due()) return;
    spinnerLoading ??= makeSpinner(io.stderr).catch(() => undefined);
    spinner = await spinnerLoading;
    // The work may have finished, or a prompt opened, while ora was loading.
    if (!spinner || !due() || shown) return;
    shown = true;
    spinner.start(label());
  }

  function hide(): void {
    cancelTimer();
    if (shown) {
      shown = false;
      spinner?.stop();
    }
  }

  return {
    async track<T>(work: Promise<T>, text?: string): Promise<T> {
      const entry = text ?? '';
      pending.push(entry);
      if (shown && spinner) spinner.text = label();
      schedule();
      try {
        return await work;
      } finally {
        pending.splice(pending.lastIndexOf(entry), 1);
        if (pending.length === 0) hide();
        else if (shown && spinner) spinner.text = label();
      }
    },

    pause() {
      pauses++;
      hide();
      let resumed = false;
      return () => {
        if (resumed) return;
        resumed = true;
        pauses--;
        schedule();
      };
    },

    stop() {
      stopped = true;
      hide();
    },
  };
}
