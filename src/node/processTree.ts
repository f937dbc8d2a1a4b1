import * as fs from 'node:fs';

/** What `/proc` says about one process: parent, process group and start time (clock ticks after boot). */
interface ProcessInfo {
  ppid: number;
  pgid: number;
  start: string;
}

/**
 * Everything a process started, followed through Linux's `/proc` by parentage, so a
 * descendant that called `setsid` (a new session and process group) is still found. Every
 * process seen is remembered with its start time: one whose parent died after it was seen
 * (adopted by init) is still signalled, and a recycled pid never is (nor the root's, once
 * it exited). A daemon whose parent exited before any look at the tree escapes. Where
 * there is no `/proc`, only the root's process group is signalled.
 */
export interface ProcessTree {
  /**
   * Reads `/proc` now and remembers every descendant of the tree's live processes, so one
   * whose parent ends afterwards (a `setsid` daemon of a server being closed) is still
   * signalled by `terminate` and `kill`.
   */
  look(): void;
  /**
   * SIGTERM to every process of the tree, the root and its process group only when
   * `includeRoot`; stopped while it is sent (as `kill` does), then continued.
   */
  terminate(includeRoot: boolean): void;
  /**
   * SIGKILL to the root, its process group and every process of the tree. They are stopped
   * first (SIGSTOP) and `/proc` read again until no new one appears, so none can fork a
   * child that escapes between the reading and the kill.
   */
  kill(): void;
}

/** Follows the tree under `rootPid`, a process just started. Synchronous: a few milliseconds per look. */
export function followProcessTree(rootPid: number): ProcessTree {
  const known = new Map<number, string>();
  const rootStart = readProcess(rootPid)?.start;
  if (rootStart !== undefined) known.set(rootPid, rootStart);

  /** Reads `/proc`, adds the descendants of the known live processes to `known`; what is alive and what is new. */
  const look = (): { alive: number[]; fresh: number[]; groupAlive: boolean } => {
    const processes = readProcesses();
    if (processes.size === 0) return { alive: [], fresh: [], groupAlive: true };
    const isKnownAlive = (pid: number): boolean => known.has(pid) && processes.get(pid)?.start === known.get(pid);
    const children = new Map<number, number[]>();
    for (const [pid, info] of processes) {
      const siblings = children.get(info.ppid);
      if (siblings) siblings.push(pid);
      else children.set(info.ppid, [pid]);
    }
    const fresh: number[] = [];
    const queue = [...known.keys()].filter(isKnownAlive);
    for (let pid = queue.shift(); pid !== undefined; pid = queue.shift()) {
      for (const child of children.get(pid) ?? []) {
        if (known.has(child) && isKnownAlive(child)) continue;
        fresh.push(child);
        known.set(child, (processes.get(child) as ProcessInfo).start);
        queue.push(child);
      }
    }
    const alive = [...known.keys()].filter(isKnownAlive);
    // Signal the group only while a process of ours is in it: a recycled group id is someone else's.
    const groupAlive = alive.some((pid) => processes.get(pid)?.pgid === rootPid);
    return { alive, fresh, groupAlive };
  };
  /** Stops the tree (with the root and its group when `withRoot`) until no new process appears. */
  const freeze = (withRoot: boolean): { alive: number[]; groupAlive: boolean } => {
    let seen = look();
    if (withRoot && seen.groupAlive) send(-rootPid, 'SIGSTOP');
    for (let round = 0; ; round++) {
      for (const pid of seen.alive) if (withRoot || pid !== rootPid) send(pid, 'SIGSTOP');
      if (seen.fresh.length === 0 || round === 50) break;
      seen = look();
    }
    return { alive: withRoot ? seen.alive : seen.alive.filter((pid) => pid !== rootPid), groupAlive: withRoot && seen.groupAlive };
  };
  return {
    look() {
      look();
    },
    terminate(includeRoot) {
      const { alive, groupAlive } = freeze(includeRoot);
      const targets = groupAlive ? [-rootPid, ...alive] : alive;
      for (const pid of targets) send(pid, 'SIGTERM');
      for (const pid of targets) send(pid, 'SIGCONT');
    },
    kill() {
      const { alive, groupAlive } = freeze(true);
      for (const pid of groupAlive ? [-rootPid, ...alive] : alive) send(pid, 'SIGKILL');
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
    const info = readProcess(Number(name));
    if (info) processes.set(Number(name), info);
  }
  return processes;
}

/** One process's entry of `/proc`, or `undefined` once it is gone (or without `/proc`). */
function readProcess(pid: number): ProcessInfo | undefined {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return undefined;
  }
  // "pid (comm) state ppid pgrp … starttime(22) …": comm may hold spaces and parentheses.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { ppid: Number(fields[1]), pgid: Number(fields[2]), start: fields[19] ?? '' };
}

function send(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Already gone (or never ours to signal).
  }
}
