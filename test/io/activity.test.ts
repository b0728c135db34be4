import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createContext } from '../../src/model/context.js';
import {
  createActivity,
  quietActivity,
  spinnerAllowed,
  SPINNER_DELAY_MS,
  type Spinner,
} from '../../src/io/activity.js';
import { trackedTransport } from '../../src/transport/tracked.js';
import type { ApiResponse } from '../../src/transport/types.js';
import { fakeIO } from '../helpers/fake-io.js';
import { session } from '../helpers/run-lms.js';

/** A spinner that records what it was told. */
function recordingSpinner() {
  const events: string[] = [];
  const spinner: Spinner = {
    text: '',
    start(text) {
      events.push(`start ${text ?? ''}`);
    },
    stop() {
      events.push('stop');
    },
  };
  const factory = vi.fn(async () => spinner);
  return { events, spinner, factory };
}

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('activity spinner', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows nothing for work that ends within the delay, and never loads the spinner', async () => {
    const { events, factory } = recordingSpinner();
    const activity = createActivity(fakeIO({ tty: true }), { enabled: true, spinner: factory });
    const work = deferred<number>();
    const tracked = activity.track(work.promise, 'Loading');
    await vi.advanceTimersByTimeAsync(SPINNER_DELAY_MS - 1);
    work.resolve(42);
    expect(await tracked).toBe(42);
    await vi.advanceTimersByTimeAsync(SPINNER_DELAY_MS * 2);
    expect(events).toEqual([]);
    expect(factory).not.toHaveBeenCalled();
  });

  it('shows the spinner after the delay and clears it when the work ends', async () => {
    const { events, factory } = recordingSpinner();
    const activity = createActivity(fakeIO({ tty: true }), { enabled: true, spinner: factory });
    const work = deferred();
    const tracked = activity.track(work.promise, 'Fetching users');
    await vi.advanceTimersByTimeAsync(SPINNER_DELAY_MS);
    expect(events).toEqual(['start Fetching users']);
    work.resolve();
    await tracked;
    expect(events).toEqual(['start Fetching users', 'stop']);
  });

  it('clears the spinner when the work fails, and passes the failure on', async () => {
    const { events, factory } = recordingSpinner();
    const activity = createActivity(fakeIO({ tty: true }), { enabled: true, spinner: factory });
    const work = deferred();
    const tracked = activity.track(work.promise);
    await vi.advanceTimersByTimeAsync(SPINNER_DELAY_MS);
    work.reject(new Error('refused'));
    await expect(tracked).rejects.toThrow('refused');
    expect(events).toEqual(['start Working…', 'stop']);
  });

  it('shares one spinner between overlapping work, labelled by the newest', async () => {
    const { events, spinner, factory } = recordingSpinner();
    const activity = createActivity(fakeIO({ tty: true }), { enabled: true, spinner: factory });
    const a = deferred();
    const b = deferred();
    const tracked = [activity.track(a.promise, 'page 1'), activity.track(b.promise, 'page 2')];
    await vi.advanceTimersByTimeAsync(SPINNER_DELAY_MS);
    expect(events).toEqual(['start page 2']);
    b.resolve();
    await tracked[1];
    expect(spinner.text).toBe('page 1');
    a.resolve();
    await tracked[0];
    expect(events).toEqual(['start page 2', 'stop']);
    expect(factory).toHaveBeenCalledTimes(1);
  });

  it('stays hidden while paused (a prompt, a progress bar), and comes back a moment after resuming', async () => {
    const { events, factory } = recordingSpinner();
    const activity = createActivity(fakeIO({ tty: true }), { enabled: true, spinner: factory });
    const work = deferred();
    const tracked = activity.track(work.promise, 'Waiting');
    await vi.advanceTimersByTimeAsync(SPINNER_DELAY_MS);
    const resume = activity.pause();
    expect(events).toEqual(['start Waiting', 'stop']);
    await vi.advanceTimersByTimeAsync(SPINNER_DELAY_MS * 3);
    expect(events).toEqual(['start Waiting', 'stop']);
    resume();
    resume(); // twice is harmless
    await vi.advanceTimersByTimeAsync(SPINNER_DELAY_MS - 1);
    expect(events).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(events).toEqual(['start Waiting', 'stop', 'start Waiting']);
    work.resolve();
    await tracked;
    expect(events.at(-1)).toBe('stop');
  });

  it('pauses nest: hidden until every pause is resumed', async () => {
    const { events, factory } = recordingSpinner();
    const activity = createActivity(fakeIO({ tty: true }), { enabled: true, spinner: factory });
    const outer = activity.pause();
    const inner = activity.pause();
    const work = deferred();
    const tracked = activity.track(work.promise);
    await vi.advanceTimersByTimeAsync(SPINNER_DELAY_MS * 2);
    inner();
    await vi.advanceTimersByTimeAsync(SPINNER_DELAY_MS * 2);
    expect(events).toEqual([]);
    outer();
    await vi.advanceTimersByTimeAsync(SPINNER_DELAY_MS);
    expect(events).toEqual(['start Working…']);
    work.resolve();
    await tracked;
  });

  it('never shows after stop', async () => {
    const { events, factory } = recordingSpinner();
    const activity = createActivity(fakeIO({ tty: true }), { enabled: true, spinner: factory });
    const work = deferred();
    const tracked = activity.track(work.promise);
    activity.stop();
    await vi.advanceTimersByTimeAsync(SPINNER_DELAY_MS * 2);
    expect(events).toEqual([]);
    work.resolve();
    await tracked;
  });

  it('trackedTransport shows the spinner while a request is slow, labelled with the host', async () => {
    const { events, factory } = recordingSpinner();
    const activity = createActivity(fakeIO({ tty: true }), { enabled: true, spinner: factory });
    const answer = deferred<ApiResponse>();
    const transport = trackedTransport(async () => answer.promise, activity);
    const pending = transport({ method: 'GET', url: 'https://lms.example.edu/api/v1/users/self', headers: {} });
    await vi.advanceTimersByTimeAsync(SPINNER_DELAY_MS);
    expect(events).toEqual(['start Waiting for lms.example.edu']);
    answer.resolve({ status: 200, headers: {}, body: '{}' });
    expect((await pending).status).toBe(200);
    expect(events).toEqual(['start Waiting for lms.example.edu', 'stop']);
  });

  it('trackedTransport leaves the transport as it is when spinners are off', () => {
    const transport = async () => ({ status: 204, headers: {}, body: '' });
    expect(trackedTransport(transport, quietActivity)).toBe(transport);
  });

  it('is quiet when not enabled', async () => {
    const { factory } = recordingSpinner();
    expect(createActivity(fakeIO({ tty: true }), { enabled: false, spinner: factory })).toBe(quietActivity);
  });
});

describe('when a spinner is allowed', () => {
  it.each<[string, boolean, Record<string, string | undefined>, boolean, boolean]>([
    ['stderr a terminal', true, {}, true, true],
    ['stderr piped', false, {}, true, false],
    ['NO_COLOR set', true, { NO_COLOR: '1' }, true, false],
    ['NO_COLOR empty (still set)', true, { NO_COLOR: '' }, true, false],
    ['--no-color', true, {}, false, false],
    ['TERM=dumb', true, { TERM: 'dumb' }, true, false],
  ])('%s', (_what, tty, env, colorFlag, expected) => {
    expect(spinnerAllowed(fakeIO({ tty }), env, colorFlag)).toBe(expected);
  });
});

describe('with ora on a terminal', () => {
  it('draws frames on stderr after the delay and clears the line when done', async () => {
    const written: string[] = [];
    const stderr = Object.assign(
      new Writable({
        write(chunk: Buffer | string, _encoding, done) {
          written.push(chunk.toString());
          done();
        },
      }),
      {
        isTTY: true,
        columns: 80,
        cursorTo: (_x: number) => {
          written.push('<cursorTo>');
          return true;
        },
        clearLine: (_dir: number) => {
          written.push('<clearLine>');
          return true;
        },
        moveCursor: (_dx: number, _dy: number) => true,
      },
    );
    const io = { ...fakeIO({ tty: true }), stderr };
    // Fake timers: the delay, ora's frame interval and the request run on one clock, not the machine's.
    vi.useFakeTimers();
    try {
      const activity = createActivity(io, { enabled: true, delayMs: 20 });
      const tracked = activity.track(new Promise((resolve) => setTimeout(resolve, 250)), 'Checking the token');
      await vi.advanceTimersByTimeAsync(20);
      await vi.dynamicImportSettled();
      await vi.advanceTimersByTimeAsync(280);
      await tracked;
    } finally {
      vi.useRealTimers();
    }
    const text = written.join('');
    expect(text).toContain('Checking the token');
    expect(written.at(-1)).not.toContain('Checking the token');
    expect(text).toContain('<clearLine>');
  });
});

describe('in a command', () => {
  it('a prompt pauses the spinner while it is open', async () => {
    vi.useFakeTimers();
    try {
      const { events, factory } = recordingSpinner();
      const seen: string[] = [];
      const io = fakeIO({ tty: true });
      const ctx = createContext(
        {
          io,
          env: {},
          spinner: factory,
          prompter: {
            secret: async () => '',
            confirm: async () => {
              seen.push(events.join(','));
              return true;
            },
          },
        },
        {
          mock: true,
          all: false,
          perPage: 100,
          verbose: false,
          color: true,
          input: true,
          yes: false,
          timeoutSeconds: 30,
          insecure: false,
        },
      );
      const work = deferred();
      const tracked = ctx.activity.track(work.promise, 'Waiting');
      await vi.advanceTimersByTimeAsync(SPINNER_DELAY_MS);
      expect(events).toEqual(['start Waiting']);
      const answer = (await ctx.prompter()).confirm('Sure?');
      expect(await answer).toBe(true);
      expect(seen).toEqual(['start Waiting,stop']);
      await vi.advanceTimersByTimeAsync(SPINNER_DELAY_MS);
      expect(events).toEqual(['start Waiting', 'stop', 'start Waiting']);
      work.resolve();
      await tracked;
    } finally {
      vi.useRealTimers();
    }
  });

  it('is quiet when stderr is not a terminal', async () => {
    const { factory } = recordingSpinner();
    const r = await session().run('users get self', { spinner: factory });
    expect(r.exitCode).toBe(0);
    expect(factory).not.toHaveBeenCalled();
  });
});
