import { join } from 'node:path';
import type { AnswerSeal, CheckpointStore } from '../core/runStorePorts';
import { loadCheckpointFile } from './checkpointFile';
import { createUserAnswerSeal } from './userAnswerSeal';

/** Run ids a checkpoint file may be named after: no separators, nothing hidden. */
const safeRunId = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

/**
 * A `CheckpointStore` with one file per run in `directory` (`<runId>.checkpoints.json`,
 * beside the CLI's journals), each loaded on first use: runs of several processes on one
 * folder never write each other's file. Durable as `loadCheckpointFile`, and as guarded: the folder may hold what a
 * repository committed, so a file there that is a link, a hard link, a pipe or a device is never read or appended to (the
 * run's changes are refused with an error naming it), and its records are sealed with the user's key (`seal`, by default
 * `createUserAnswerSeal`'s): a record without that seal is never listed, only `unvouched`, so Undo never writes back
 * what a repository wrote there.
 */
export function createCheckpointFolder(directory: string, options: { seal?: AnswerSeal } = {}): CheckpointStore {
  const seal = options.seal ?? createUserAnswerSeal();
  const stores = new Map<string, Promise<CheckpointStore>>();
  const storeOf = (runId: string): Promise<CheckpointStore> => {
    if (!safeRunId.test(runId)) return Promise.reject(new Error(`"${runId}" is not a run id whose changes can be kept in a file.`));
    let store = stores.get(runId);
    if (store === undefined) {
      store = loadCheckpointFile(join(directory, `${runId}.checkpoints.json`), { seal });
      stores.set(runId, store);
    }
    return store;
  };
  return {
    record: async (checkpoint) => (await storeOf(checkpoint.runId)).record(checkpoint),
    settle: async (checkpoint, state) => (await storeOf(checkpoint.runId)).settle(checkpoint, state),
    list: async (runId) => (safeRunId.test(runId) ? (await storeOf(runId)).list(runId) : []),
    unvouched: async (runId) => (safeRunId.test(runId) ? ((await (await storeOf(runId)).unvouched?.(runId)) ?? []) : []),
  };
}
