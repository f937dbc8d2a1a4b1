import * as fs from 'node:fs';

/** Alive and not a zombie (a container's PID 1 may never reap orphans). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

/** Host pids of live (not zombie) `sleep <marker>` processes. */
export function pidsWith(marker: string): number[] {
  const pids: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').endsWith(`sleep\0${marker}\0`) && isAlive(Number(name))) pids.push(Number(name));
    } catch {
      // Gone while listing.
    }
  }
  return pids;
}

/** Polls until no `sleep <marker>` is left; the pids still there after `ms`. */
export async function survivorsAfter(marker: string, ms: number): Promise<number[]> {
  for (let waited = 0; ; waited += 10) {
    const left = pidsWith(marker);
    if (left.length === 0 || waited >= ms) return left;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Polls until `sleep <marker>` runs. */
export async function startedWith(marker: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (pidsWith(marker).length > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no process with ${marker} started`);
}

let markers = 0;
/** A unique `sleep` duration that names the processes of one test (`sleep 300.<pid><n>`). */
export const uniqueSleep = (): string => `300.${process.pid}${++markers}`;

/**
 * Shell scripts that try to outlive the process that runs them, by a `marker` naming their
 * `sleep`: a daemon that forked twice has init (or a subreaper) as parent, not the command.
 */
export const escapes = {
  'a setsid grandchild': (marker: string) => `setsid sleep ${marker} & sleep 100`,
  'a double-forked daemon': (marker: string) => `(setsid sh -c 'sleep ${marker} & exit' &) ; sleep 100`,
  'a daemon whose parent already exited': (marker: string) => `sh -c '(setsid sleep ${marker} &)' ; sleep 100`,
};
