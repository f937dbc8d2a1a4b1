/** Whether a process with id `pid` exists (a zombie not yet reaped counts), whoever owns it. */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process lives, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
