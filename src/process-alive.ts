// Whether a process that left its id in a lock or a journal still runs.

/** Is there a process with this id? Another user's counts: it answers EPERM. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
