import { open, readFile, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createMemoryCheckpointStore } from '../core/tools/checkpointStore';
import type { Checkpoint, CheckpointState, CheckpointStore } from '../core/runStorePorts';
import { makeIgnoredFolder } from './ignoredFolder';

/** One line of a checkpoint log: a change recorded (its intent), or a recorded change settled. */
type LogLine = { record: Checkpoint } | { settle: { runId: string; seq: number; state: Exclude<CheckpointState, 'intended'> } };

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
 */
export async function loadCheckpointFile(file: string, options: { open?: typeof open } = {}): Promise<CheckpointStore> {
  const openFile = options.open ?? open;
  const saved = await readSaved(file);
  const memory = createMemoryCheckpointStore(saved.checkpoints);
  let unconverted = saved.array ? memory.toJSON() : undefined;
  // After a line cut short, the next starts on a line of its own.
  let separator = saved.tornTail ? '\n' : '';
  let writing = Promise.resolve();
  const append = async (line: LogLine): Promise<void> => {
    const next = writing.then(async () => {
      await makeIgnoredFolder(dirname(file));
      if (unconverted !== undefined) {
        await rewriteAsLines(file, unconverted);
        unconverted = undefined;
      }
      const handle = await openFile(file, 'a');
      try {
        const { size } = await handle.stat();
        try {
          await handle.writeFile(`${separator}${JSON.stringify(line)}\n`, 'utf8');
          await handle.sync();
          separator = '';
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
      await append({ record: stored });
      return stored;
    },
    async settle(checkpoint, state) {
      await memory.settle(checkpoint, state);
      await append({ settle: { runId: checkpoint.runId, seq: checkpoint.seq, state } });
    },
    list: (runId) => memory.list(runId),
  };
}

/**
 * The checkpoints `file` holds (none when it is missing or unreadable), whether it is an
 * older version's JSON array, and whether its last line was cut short.
 */
async function readSaved(file: string): Promise<{ checkpoints: Checkpoint[]; array: boolean; tornTail: boolean }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return { checkpoints: [], array: false, tornTail: false };
  }
  if (text.trimStart().startsWith('[')) {
    try {
      const saved = JSON.parse(text) as unknown;
      return { checkpoints: Array.isArray(saved) ? (saved as Checkpoint[]) : [], array: true, tornTail: false };
    } catch {
      return { checkpoints: [], array: true, tornTail: false };
    }
  }
  const checkpoints: Checkpoint[] = [];
  for (const line of text.split('\n')) {
    const parsed = parseLine(line);
    if (parsed === undefined) continue;
    if ('record' in parsed) checkpoints.push(parsed.record);
    else {
      const { runId, seq, state } = parsed.settle;
      const stored = checkpoints.find((candidate) => candidate.runId === runId && candidate.seq === seq);
      if (stored !== undefined) stored.state = state;
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
async function rewriteAsLines(file: string, checkpoints: readonly Checkpoint[]): Promise<void> {
  const handle = await open(`${file}.tmp`, 'w');
  try {
    await handle.writeFile(checkpoints.map((record) => `${JSON.stringify({ record })}\n`).join(''), 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(`${file}.tmp`, file);
}
