import { constants } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { timingSafeEqual } from 'node:crypto';
import { canonicalJson } from '../core/engine/answerSeals';
import { createMemoryCheckpointStore } from '../core/tools/checkpointStore';
import type { AnswerSeal, Checkpoint, CheckpointState, CheckpointStore } from '../core/runStorePorts';
import { maxRunFileBytes, maxRunFileMegabytes } from './fileRunStore';
import { makeIgnoredFolder } from './ignoredFolder';
import { NotPlainFileError, openPlainFile, readPlainFile } from './readBoundedText';
import { syncFolder } from './syncFolder';

/** A record as a log line holds it: with the user's seal of it (`sealOf`) in a log that is sealed. */
type SealedCheckpoint = Checkpoint & { seal?: string };

/** One line of a checkpoint log: a change recorded (its intent), or a recorded change settled. */
type LogLine = { record: SealedCheckpoint } | { settle: { runId: string; seq: number; state: Exclude<CheckpointState, 'intended'> } };

/**
 * The user's seal of a record (`AnswerSeal`: an HMAC under a key of theirs outside every workspace): what the change was
 * (run, step, order, path, where it led, operation, the file before it with its text and mode, the hash it left), not its
 * state, which settlements change. Marked as a checkpoint's, so no seal of an answer stands for one.
 */
function sealOf(checkpoint: Checkpoint, seal: AnswerSeal): string {
  const { state: _state, ...sealed } = checkpoint as SealedCheckpoint;
  delete sealed.seal;
  return seal.mac(canonicalJson({ checkpoint: sealed }));
}

function sealHolds(checkpoint: SealedCheckpoint, seal: AnswerSeal): boolean {
  if (typeof checkpoint.seal !== 'string') return false;
  const given = Buffer.from(checkpoint.seal);
  const expected = Buffer.from(sealOf(checkpoint, seal));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** `checkpoint` without its seal, as the store hands it out. */
function unsealed(checkpoint: SealedCheckpoint): Checkpoint {
  const { seal: _seal, ...rest } = checkpoint;
  return rest;
}

/**
 * A `CheckpointStore` kept in one append-only file of JSON lines (under the extension's
 * workspace storage, or beside a CLI run's journal), so "Undo run" still works after a
 * window reload and a resumed run knows which changes were under way when the process
 * died. Each record and each settlement appends one line and syncs it before it resolves:
 * the intent of a change is on disk before the change is made, and a change costs one line
 * however many came before (the store is never rewritten). A last line cut short by a
 * crash is skipped; one a failed write left (a full disk) is cut off, or else the next line
 * starts on a line of its own. A file an older version wrote as one JSON array is read, and turned
 * into lines (written aside, synced, renamed over it) at the first write. `open`: the file
 * system's (a test's disk that fills up).
 *
 * Its folder may hold what a repository committed (the CLI keeps it beside the journals): the file is read and appended to
 * only as a plain file (`openPlainFile`: never through a link, never a hard link, a pipe or a device; appends through a
 * descriptor opened `O_APPEND`), at most `maxRunFileBytes` of it are read, and the file written aside is made new
 * (`O_EXCL`). A file that is not plain, or too large, rejects the load with an error naming it, so no change is made
 * whose intent could not be kept.
 *
 * `seal` (a folder a repository can write, as the CLI's): each record is written with the user's seal of it, and only a
 * record whose seal holds is listed; the others (`unvouched`) are what a repository committed to look like a run of the
 * user's, or what an older version wrote, and are never handed to Undo, which would write back the text they hold (an
 * outside attack: a committed run whose record of package.json "before" held a `pretest` script, and whose deleted
 * file came back set-user-ID and writable by everyone).
 */
export async function loadCheckpointFile(file: string, options: { open?: typeof open; seal?: AnswerSeal } = {}): Promise<CheckpointStore> {
  const openFile = options.open ?? open;
  const { seal } = options;
  const saved = await readSaved(file);
  const vouched = seal === undefined ? saved.checkpoints : saved.checkpoints.filter((checkpoint) => sealHolds(checkpoint, seal));
  const unvouched = seal === undefined ? [] : saved.checkpoints.filter((checkpoint) => !vouched.includes(checkpoint)).map(unsealed);
  const memory = createMemoryCheckpointStore(vouched.map(unsealed));
  // An older version's array is turned into lines with every record it holds (sealed again only where the seal held).
  let unconverted = saved.array ? saved.checkpoints : undefined;
  // After a line cut short, the next starts on a line of its own.
  let separator = saved.tornTail ? '\n' : '';
  let writing = Promise.resolve();
  let named = false;
  const append = async (line: LogLine): Promise<void> => {
    const next = writing.then(async () => {
      await makeIgnoredFolder(dirname(file));
      if (unconverted !== undefined) {
        await rewriteAsLines(file, unconverted);
        unconverted = undefined;
      }
      const handle = await openPlainFile(file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT, openFile);
      try {
        const { size } = await handle.stat();
        try {
          await handle.writeFile(`${separator}${JSON.stringify(line)}\n`, 'utf8');
          await handle.sync();
          separator = '';
          // Its name too, once: a new log's synced lines under no name would be lost to a power loss all the same.
          if (!named) {
            await syncFolder(dirname(file));
            named = true;
          }
        } catch (error) {
          // Part of the line may be on disk (a full disk): cut it off, else start the next line on a line of its own, so
          // the next record is not glued to it and lost.
          await handle.truncate(size).catch(() => (separator = '\n'));
          throw error;
        }
      } finally {
        await handle.close();
      }
    });
    // A failed write fails its own change, not every later one.
    writing = next.catch(() => undefined);
    await next;
  };
  return {
    async record(checkpoint) {
      const stored = await memory.record(checkpoint);
      await append({ record: seal === undefined ? stored : { ...stored, seal: sealOf(stored, seal) } });
      return stored;
    },
    async settle(checkpoint, state) {
      await memory.settle(checkpoint, state);
      await append({ settle: { runId: checkpoint.runId, seq: checkpoint.seq, state } });
    },
    list: (runId) => memory.list(runId),
    unvouched: async (runId) => structuredClone(unvouched.filter((checkpoint) => checkpoint.runId === runId)),
  };
}

/**
 * The checkpoints `file` holds (none when it is missing or unreadable), whether it is an
 * older version's JSON array, and whether its last line was cut short. Rejects when it is not a
 * plain file (`NotPlainFileError`) or larger than `maxRunFileBytes`.
 */
async function readSaved(file: string): Promise<{ checkpoints: SealedCheckpoint[]; array: boolean; tornTail: boolean }> {
  let bytes: Buffer | undefined;
  try {
    bytes = await readPlainFile(file, maxRunFileBytes);
  } catch (error) {
    if (error instanceof NotPlainFileError) throw error;
    return { checkpoints: [], array: false, tornTail: false };
  }
  if (bytes === undefined) {
    throw new Error(
      `The checkpoint file ${file} is larger than ${maxRunFileMegabytes} MB, the most Task Planner reads of a run file (the longest ` +
        'text it can hold), so no change was made: move the file out of its folder (Undo then cannot take back the changes it records).',
    );
  }
  const text = bytes.toString('utf8');
  if (text.trimStart().startsWith('[')) {
    try {
      const saved = JSON.parse(text) as unknown;
      return { checkpoints: Array.isArray(saved) ? (saved as SealedCheckpoint[]) : [], array: true, tornTail: false };
    } catch {
      return { checkpoints: [], array: true, tornTail: false };
    }
  }
  const checkpoints: SealedCheckpoint[] = [];
  for (const line of text.split('\n')) {
    const parsed = parseLine(line);
    if (parsed === undefined) continue;
    if ('record' in parsed) checkpoints.push(parsed.record);
    else {
      const { runId, seq, state } = parsed.settle;
      // Every record of that number: one a repository committed may hold the number of one of the user's.
      for (const stored of checkpoints) if (stored.runId === runId && stored.seq === seq) stored.state = state;
    }
  }
  return { checkpoints, array: false, tornTail: text !== '' && !text.endsWith('\n') };
}

function parseLine(line: string): LogLine | undefined {
  if (line.trim() === '') return undefined;
  try {
    const value = JSON.parse(line) as unknown;
    return value !== null && typeof value === 'object' && ('record' in value || 'settle' in value) ? (value as LogLine) : undefined;
  } catch {
    // A line cut short by a crash (only the last can be): the change it began was never made.
    return undefined;
  }
}

/** Replaces `file` with `checkpoints` as record lines: written aside, synced, then renamed over it. */
async function rewriteAsLines(file: string, checkpoints: readonly SealedCheckpoint[]): Promise<void> {
  // Made new, never opened through what is in its place (a committed link would be written through).
  await rm(`${file}.tmp`, { force: true });
  const handle = await openPlainFile(`${file}.tmp`, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL);
  try {
    await handle.writeFile(checkpoints.map((record) => `${JSON.stringify({ record })}\n`).join(''), 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(`${file}.tmp`, file);
}
