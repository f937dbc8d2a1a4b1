import * as fs from 'node:fs';

/** What `/proc` says about one process: its parent and its start time (clock ticks after boot). */
interface ProcessInfo {
  ppid: number;
  start: string;
}

/**
 * Everything a process started, followed through Linux's `/proc` by parentage, so a
 * descendant that called `setsid` (a new session and process group) is still found. Every
 * process seen is remembered with its start time: one whose parent died after it was seen
 * (adopted by init) is still signalled, and a recycled pid never is. A daemon whose parent
 * exited before any look at the tree escapes; where there is no `/proc`, only the root's
 * process group is signalled.
 */
export interface ProcessTree {
  /**
   * SIGTERM to every process of the tree, and to the root and its process group when
   * `includeRootGroup`; stopped while it is sent, like `kill`, then continued.
   */
  terminate(includeRootGroup: boolean): void;
  /**
   * SIGKILL to the root, its process group and every process of the tree. They are stopped
   * first (SIGSTOP) and `/proc` read again until no new one appears, so none can fork a
   * child that escapes between the reading and the kill.
   */
  kill(): void;
}

/** Follows the tree of processes under `rootPid`. Synchronous: a few milliseconds per look. */
export function followProcessTree(rootPid: number): ProcessTree {
  const known = new Map<number, string>();
  /** Reads `/proc` and adds the current descendants to `known`; the ones still alive and new. */
  const look = (): { alive: number[]; fresh: number[] } => {
    const processes = readProcesses();
    const children = new Map<number, number[]>();
    for (const [pid, info] of processes) {
      const siblings = children.get(info.ppid);
      if (siblings) siblings.push(pid);
      else children.set(info.ppid, [pid]);
    }
    const fresh: number[] = [];
    const queue = [rootPid];
    for (let pid = queue.shift(); pid !== undefined; pid = queue.shift()) {
      for (const child of children.get(pid) ?? []) {
        if (!known.has(child)) fresh.push(child);
        known.set(child, (processes.get(child) as ProcessInfo).start);
        queue.push(child);
      }
    }
    const alive = [...known].filter(([pid, start]) => processes.get(pid)?.start === start).map(([pid]) => pid);
    return { alive, fresh };
  };
  /** Stops the tree (and the root's group when `withRootGroup`) until no new process appears; the processes seen alive. */
  const freeze = (withRootGroup: boolean): number[] => {
    if (withRootGroup) {
      send(-rootPid, 'SIGSTOP');
      send(rootPid, 'SIGSTOP');
    }
    let alive: number[] = [];
    for (let round = 0; round < 50; round++) {
      const seen = look();
      alive = seen.alive;
      for (const pid of alive) send(pid, 'SIGSTOP');
      if (seen.fresh.length === 0) break;
    }
    return alive;
  };
  return {
    terminate(includeRootGroup) {
      const alive = freeze(includeRootGroup);
      const all = includeRootGroup ? [-rootPid, rootPid, ...alive] : alive;
      for (const pid of all) send(pid, 'SIGTERM');
      for (const pid of all) send(pid, 'SIGCONT');
    },
    kill() {
      const alive = freeze(true);
      for (const pid of [-rootPid, rootPid, ...alive]) send(pid, 'SIGKILL');
    },
  };
}

function readProcesses(): Map<number, ProcessInfo> {
  const processes = new Map<number, ProcessInfo>();
  let names: string[];
  try {
    names = fs.readdirSync('/proc');
  } catch {
    return processes;
  }
  for (const name of names) {
    const first = name.charCodeAt(0);
    if (first < 48 || first > 57) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${name}/stat`, 'latin1');
    } catch {
      continue; // Exited while listing.
    }
    // "pid (comm) state ppid … starttime(22) …": comm may hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    processes.set(Number(name), { ppid: Number(fields[1]), start: fields[19] ?? '' });
  }
  return processes;
}

function send(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Already gone (or never ours to signal).
  }
}
