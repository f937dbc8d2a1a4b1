import { constants as bufferConstants } from 'node:buffer';
import { timingSafeEqual } from 'node:crypto';
import { constants } from 'node:fs';
import { appendFile, type FileHandle, lstat, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { AnswerSeal, JournalEntry, JournalSnapshot, LoadedJournal, RunListing, RunStore } from '../core/runStorePorts';
import { runIdPattern } from '../shared/vocabulary';
import { makeIgnoredFolder } from './ignoredFolder';
import { openPlainFile, readOpenFile, readPlainFile } from './readBoundedText';
import { lockRun } from './runLock';
import { syncFolder } from './syncFolder';
import { createUserAnswerSeal } from './userAnswerSeal';

const journalSuffix = '.jsonl';
const snapshotSuffix = '.snapshot.json';

/**
 * The most bytes read of one run file (a journal, a snapshot, a checkpoint log): the longest text JavaScript can hold, so
 * no journal that could be read before is refused, and a file in the workspace can never cost more.
 */
export const maxRunFileBytes = bufferConstants.MAX_STRING_LENGTH;

/** `maxRunFileBytes` in MB, for messages. */
export const maxRunFileMegabytes = Math.floor(maxRunFileBytes / 1024 / 1024);

/**
 * A `RunStore` in a directory (created on first write, with a `.gitignore` of `*`: `makeIgnoredFolder`): `<runId>.jsonl` holds one event
 * per line, appended in order; `<runId>.snapshot.json` the newest snapshot, replaced
 * atomically (temporary file + rename). A last line cut short by a crash is reported by
 * `load` and cut off before the next append, so the journal stays valid JSON lines.
 * `delete` removes both files of the run. With `lockRuns` (the CLI, where several processes may share the folder),
 * the first append of a run takes its lock for this process (`lockRun`): another process's appends to it are refused.
 * An append that failed part way (a full disk) is cut back, and its entries are written first by the next append (in
 * order, so the journal has no gap); when it cannot be cut back, what it wrote is cut off before the next. `appendFile`:
 * the file system's (a test's disk that fills up), given the journal's open handle.
 *
 * The folder may hold what a repository committed: every file of a run is opened without following a link and without
 * waiting on a pipe, and read or written only when the opened descriptor is a regular file with one name
 * (`openPlainFile`); else `load` and `append` reject with a `NotPlainFileError` naming it, and nothing is read or
 * written there. At most `maxRunFileBytes` of a file are read. Appends go through a descriptor opened `O_APPEND`;
 * a temporary snapshot is made new (`O_EXCL`). A snapshot that is not a plain file is ignored (the journal has every
 * event) and replaced by the next one. `list` never follows a link: a run whose journal is not a plain file is listed,
 * and `load` says what it is.
 *
 * A snapshot is trusted as the run's state at its event, so it is sealed as it is written: its first line is the
 * `seal`'s code (the user's key, `createUserAnswerSeal`, by default) of the run's id and the rest. `load` gives only a
 * snapshot whose seal holds; one a repository committed, another user wrote, or damage changed (of any shape) is left
 * out, and the run is read from its journal's events alone.
 */
export function createFileRunStore(
  dir: string,
  options: { lockRuns?: boolean; appendFile?: typeof appendFile; seal?: AnswerSeal } = {},
): RunStore {
  const append = options.appendFile ?? appendFile;
  const seal = options.seal ?? createUserAnswerSeal();
  const repaired = new Set<string>();
  /** Entries of a run an append failed to write (a full disk), written first by its next append. */
  const unwritten = new Map<string, string>();
  /** Runs whose journal's name `sync` made durable (the folder's entry flushed). */
  const durableNames = new Set<string>();
  const pathOf = (runId: string, suffix: string): string => {
    if (!runIdPattern.test(runId)) {
      throw new Error(`"${runId}" is not a valid run id: use letters, digits, ".", "_" and "-" only (at most 128 characters).`);
    }
    return join(dir, `${runId}${suffix}`);
  };

  /** See `RunStore.sync`. */
  const sync = async (runId: string): Promise<void> => {
    let handle: FileHandle;
    try {
      handle = await openPlainFile(pathOf(runId, journalSuffix), constants.O_WRONLY | constants.O_APPEND);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    try {
      await handle.datasync();
    } finally {
      await handle.close();
    }
    // The journal's name too, once: a new file's data on the disk under no name is lost all the same.
    if (!durableNames.has(runId)) {
      await syncFolder(dir);
      durableNames.add(runId);
    }
  };

  return {
    async append(runId, entries) {
      const file = pathOf(runId, journalSuffix);
      if (!repaired.has(runId)) {
        await makeIgnoredFolder(dir);
        if (options.lockRuns === true) await lockRun(dir, runId);
        await cutTornTail(file);
        await removeLeftSnapshots(dir, `${runId}${snapshotSuffix}.`);
        repaired.add(runId);
      }
      const text = (unwritten.get(runId) ?? '') + entries.map((entry) => `${JSON.stringify(entry)}\n`).join('');
      if (text === '') return;
      const handle = await openPlainFile(file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT);
      try {
        const { size } = await handle.stat();
        try {
          await append(handle, text, 'utf8');
          unwritten.delete(runId);
        } catch (error) {
          // Part of it may be on disk (a full disk): cut back to what was there, and the entries go first with the next
          // append, so the journal has no gap the run could not be resumed over. Not cut back: the next append cuts the
          // torn line off first, so no entry is glued to it.
          if (await handle.truncate(size).then(() => true, () => false)) unwritten.set(runId, text);
          else {
            unwritten.delete(runId);
            repaired.delete(runId);
          }
          throw error;
        }
      } finally {
        await handle.close();
      }
    },

    sync,

    async writeSnapshot(runId, snapshot) {
      const file = pathOf(runId, snapshotSuffix);
      const text = sealedSnapshotText(runId, JSON.stringify(snapshot), seal);
      await makeIgnoredFolder(dir);
      const temporary = `${file}.${process.pid}.tmp`;
      // The events a snapshot claims are on the disk before it is: after a power loss, a snapshot ahead of its journal
      // made the run one that cannot be resumed ("its snapshot is at event M").
      await sync(runId);
      try {
        // Made new, never opened through what is in its place (a committed link would be written through).
        await rm(temporary, { force: true });
        const handle = await openPlainFile(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL);
        try {
          await handle.writeFile(text, 'utf8');
          await handle.datasync();
        } finally {
          await handle.close();
        }
        await rename(temporary, file);
      } catch (error) {
        // A full disk: what was written of it goes, not to hold the space the run needs next.
        await rm(temporary, { force: true }).catch(() => undefined);
        throw error;
      }
    },

    async load(runId): Promise<LoadedJournal | undefined> {
      const file = pathOf(runId, journalSuffix);
      // Whoever loads a journal may append to it next: check its tail again then.
      repaired.delete(runId);
      let bytes: Buffer | undefined;
      try {
        bytes = await readPlainFile(file, maxRunFileBytes);
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
      if (bytes === undefined) throw tooLarge(file);
      const lines = bytes.toString('utf8').split('\n');
      const entries: JournalEntry[] = [];
      const lineNumbers: number[] = [];
      let tornLine: LoadedJournal['tornLine'];
      // The last line that holds anything: one cut short by a crash, or garbage ending in a line break.
      const lastFilled = lines.findLastIndex((line) => line.trim() !== '');
      lines.forEach((line, index) => {
        if (line.trim() === '') return;
        const isLast = index === lastFilled;
        let entry: unknown;
        try {
          entry = JSON.parse(line);
        } catch {
          if (!isLast) {
            throw new Error(
              `Line ${index + 1} of the run journal ${file} is not valid JSON, and lines follow it, so the run cannot be read: ` +
                'repair or delete that line to resume it, or move the file out of its folder to forget the run.',
            );
          }
          tornLine = { lineNumber: index + 1, text: line };
          return;
        }
        // No run writes values nested that deep; printing or copying one overflowed the stack (a committed journal).
        if (nestedDeeperThan(entry, maxJournalDepth)) {
          throw new Error(
            `Line ${index + 1} of the run journal ${file} holds values nested more than ${maxJournalDepth} levels deep, which no run writes, ` +
              'so the run cannot be read: it was changed outside Task Planner. Delete the file to forget the run.',
          );
        }
        entries.push(entry as JournalEntry);
        lineNumbers.push(index + 1);
      });
      const snapshot = await readSnapshot(runId, pathOf(runId, snapshotSuffix), seal);
      return { entries, lines: lineNumbers, ...(snapshot ? { snapshot } : {}), ...(tornLine ? { tornLine } : {}) };
    },

    async list(): Promise<RunListing[]> {
      let names: string[];
      try {
        names = await readdir(dir);
      } catch (error) {
        if (isMissing(error)) return [];
        throw error;
      }
      // lstat: a link is listed by its own time, never followed (one dangling or out of the workspace); `load` refuses it.
      const listings = await Promise.all(
        names
          .filter((name) => name.endsWith(journalSuffix))
          .map(async (name) => {
            const found = await lstat(join(dir, name)).catch((error: unknown) => (isMissing(error) ? undefined : Promise.reject(error)));
            return found === undefined ? undefined : { runId: name.slice(0, -journalSuffix.length), updatedAt: found.mtimeMs };
          }),
      );
      return listings.filter((listing) => listing !== undefined).sort((a, b) => b.updatedAt - a.updatedAt);
    },

    async delete(runId) {
      const journal = pathOf(runId, journalSuffix);
      // The journal goes last: a run whose deletion was cut short stays listed, and deleting it again finishes.
      await rm(pathOf(runId, snapshotSuffix), { force: true });
      await rm(journal, { force: true });
      repaired.delete(runId);
      durableNames.delete(runId);
    },
  };
}

/**
 * Removes the temporary snapshots `<prefix><pid>.tmp` of processes that no longer run (killed while writing one): they
 * stayed in the folder for good. Another running process's, and anything else, is left alone.
 */
async function removeLeftSnapshots(dir: string, prefix: string): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    const pid = name.startsWith(prefix) && name.endsWith('.tmp') ? Number(name.slice(prefix.length, -'.tmp'.length)) : Number.NaN;
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || processRuns(pid)) continue;
    await rm(join(dir, name), { force: true }).catch(() => undefined);
  }
}

/** Whether a process `pid` runs (one of another user answers EPERM: it runs). */
function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}


/**
 * Truncates a journal to its last good line when a crash left a partial one, or its last line (ending in a line break)
 * is not JSON: `load` reported either as the torn last line, and an append after it would leave it damaged in the middle.
 */
async function cutTornTail(file: string): Promise<void> {
  let handle: FileHandle;
  try {
    handle = await openPlainFile(file, constants.O_RDWR);
  } catch (error) {
    if (isMissing(error)) return;
    throw error;
  }
  try {
    const text = (await handle.stat()).size > maxRunFileBytes ? undefined : await readOpenFile(handle, maxRunFileBytes);
    if (text === undefined) throw tooLarge(file);
    let end = text.length;
    while (end > 0 && (text[end - 1] === 0x0a || text[end - 1] === 0x0d || text[end - 1] === 0x20)) end--;
    if (end === 0) return;
    const start = text.lastIndexOf(0x0a, end - 1) + 1;
    const complete = text.length > 0 && text[text.length - 1] === 0x0a;
    if (complete && parses(text.subarray(start, end).toString('utf8'))) return;
    await handle.truncate(start);
  } finally {
    await handle.close();
  }
}

function parses(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}

/** A snapshot file's text: the seal's code of the run's id and `json`, a line, then `json`. */
function sealedSnapshotText(runId: string, json: string, seal: AnswerSeal): string {
  return `${seal.mac(`${runId}\n${json}`)}\n${json}`;
}

async function readSnapshot(runId: string, file: string, seal: AnswerSeal): Promise<JournalSnapshot | undefined> {
  try {
    const bytes = await readPlainFile(file, maxRunFileBytes);
    if (bytes === undefined) return undefined;
    const text = bytes.toString('utf8');
    const cut = text.indexOf('\n');
    const json = text.slice(cut + 1);
    const given = Buffer.from(text.slice(0, Math.max(cut, 0)));
    const expected = Buffer.from(seal.mac(`${runId}\n${json}`));
    // Compared in constant time: how far a forged code matches must not show in how long the check takes.
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    const parsed = JSON.parse(json) as JournalSnapshot;
    // Held to a journal line's depth too: deeper, a committed snapshot would overflow the stack where the line is refused.
    return typeof parsed.seq === 'number' && !nestedDeeperThan(parsed, maxJournalDepth) ? parsed : undefined;
  } catch {
    // A missing or unreadable snapshot, or one that is not a plain file, only costs replay time: the journal has every event.
    return undefined;
  }
}

function tooLarge(file: string): Error {
  return new Error(
    `The run journal ${file} is larger than ${maxRunFileMegabytes} MB, the most Task Planner reads of a run file (the longest ` +
      'text it can hold), so the run cannot be read: move the file out of its folder to forget the run.',
  );
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

/** Levels of nested arrays and objects a journal line may hold: far above what a run writes (an MCP result is cut at 64). */
const maxJournalDepth = 1000;

/** Whether `value` nests arrays and objects more than `limit` levels deep; walked without recursion. */
function nestedDeeperThan(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [item, depth] = next;
    if (item === null || typeof item !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Object.values(item)) if (child !== null && typeof child === 'object') pending.push([child, depth + 1]);
  }
  return false;
}
