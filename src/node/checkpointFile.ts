import { open, mkdir, readFile, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createMemoryCheckpointStore } from '../core/tools/checkpointStore';
import type { Checkpoint, CheckpointStore } from '../core/ports';

/**
 * A `CheckpointStore` kept in one JSON file (under the extension's workspace storage, or
 * beside a CLI run's journal), so "Undo run" still works after a window reload and a
 * resumed run knows which changes were under way when the process died. Each record and
 * each settlement rewrites the file atomically and durably (written, synced, renamed)
 * before it resolves: the intent of a change is on disk before the change is made.
 */
export async function loadCheckpointFile(file: string): Promise<CheckpointStore> {
  let saved: Checkpoint[];
  try {
    saved = JSON.parse(await readFile(file, 'utf8')) as Checkpoint[];
  } catch {
    saved = [];
  }
  const memory = createMemoryCheckpointStore(Array.isArray(saved) ? saved : []);
  let writing = Promise.resolve();
  const save = async (): Promise<void> => {
    const next = writing.then(async () => {
      await mkdir(dirname(file), { recursive: true });
      const handle = await open(`${file}.tmp`, 'w');
      try {
        await handle.writeFile(JSON.stringify(memory.toJSON()), 'utf8');
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(`${file}.tmp`, file);
    });
    // A failed save fails its own change, not every later one.
    writing = next.catch(() => undefined);
    await next;
  };
  return {
    async record(checkpoint) {
      const stored = await memory.record(checkpoint);
      await save();
      return stored;
    },
    async settle(checkpoint, state) {
      await memory.settle(checkpoint, state);
      await save();
    },
    list: (runId) => memory.list(runId),
  };
}
