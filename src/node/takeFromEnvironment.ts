import * as fs from 'node:fs';

/** What `takeFromEnvironment` removed, and whether the process's initial environment block no longer shows it. */
export interface TakenVariables {
  values: Record<string, string>;
  /** False where the initial block could not be cleared (not Linux, `/proc/self/mem` not writable). */
  hidden: boolean;
}

/**
 * Removes the variables `names` selects from `process.env` and returns them. Deleting from
 * `process.env` is not enough: Linux shows every process of the same user a process's
 * environment as it was at start (`/proc/PID/environ`, read from the process's memory),
 * whatever it changed since. So on Linux the removed entries are also overwritten with
 * zero bytes in that block, through `/proc/self/mem`; nothing points at them any more
 * once `process.env` forgot them. Call it before anything else reads those variables.
 */
export function takeFromEnvironment(names: (name: string) => boolean): TakenVariables {
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value === undefined || !names(name)) continue;
    values[name] = value;
    delete process.env[name];
  }
  if (Object.keys(values).length === 0) return { values, hidden: true };
  return { values, hidden: process.platform === 'linux' && clearInitialEntries((name) => name in values) };
}

/** Zeroes the entries of the initial environment block whose name `matches`; true when none is left. */
function clearInitialEntries(matches: (name: string) => boolean): boolean {
  try {
    const stat = fs.readFileSync('/proc/self/stat', 'latin1');
    // Fields after "(comm)" start at field 3; env_start and env_end are fields 50 and 51.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const start = Number(fields[47]);
    const end = Number(fields[48]);
    if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || end <= start) return false;
    const block = Buffer.alloc(end - start);
    const memory = fs.openSync('/proc/self/mem', 'r+');
    try {
      fs.readSync(memory, block, 0, block.length, start);
      for (let offset = 0; offset < block.length; ) {
        const stop = block.indexOf(0, offset);
        const entryEnd = stop < 0 ? block.length : stop;
        const entry = block.toString('latin1', offset, entryEnd);
        const equals = entry.indexOf('=');
        if (equals > 0 && matches(entry.slice(0, equals))) {
          fs.writeSync(memory, Buffer.alloc(entryEnd - offset), 0, entryEnd - offset, start + offset);
        }
        offset = entryEnd + 1;
      }
    } finally {
      fs.closeSync(memory);
    }
    return !fs
      .readFileSync('/proc/self/environ', 'latin1')
      .split('\0')
      .some((entry) => entry.indexOf('=') > 0 && matches(entry.slice(0, entry.indexOf('='))));
  } catch {
    return false;
  }
}
