import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createMemoryCheckpointStore } from '../core/tools/checkpointStore';
import type { Checkpoint, CheckpointStore } from '../core/ports';

/**
 * A `CheckpointStore` kept in one JSON file (under the extension's workspace storage), so
 * "Undo run" still works after a window reload. Each record rewrites the file atomically.
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
  return {
    async record(checkpoint) {
      const stored = await memory.record(checkpoint);
      writing = writing.then(async () => {
        await mkdir(dirname(file), { recursive: true });
        await writeFile(`${file}.tmp`, JSON.stringify(memory.toJSON()), 'utf8');
        await rename(`${file}.tmp`, file);
      });
      await writing;
      return stored;
    },
    list: (runId) => memory.list(runId),
  };
}
