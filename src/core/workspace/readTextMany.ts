import type { ReadOptions, WorkspaceFs } from '../workspacePorts';

/**
 * Called once per path, in the order given, with the file's text, or with `text`
 * `undefined` and the error `readText` would have rejected with. Returning `false` stops
 * the reading; throwing stops it and rejects `readTextMany` with what was thrown.
 */
export type TextVisitor = (path: string, text: string | undefined, error: unknown) => boolean | void;

/** Options of `readTextMany`, as in `readText`: a file they refuse is visited with the error, unread. */
export type ReadManyOptions = ReadOptions;

/**
 * An optional capability of a `WorkspaceFs`: reading many files in one call, for search
 * over a whole workspace, without the cost of one promise per file. Each path gets exactly
 * the confinement, size limit and errors of `readText`; only the bookkeeping is shared.
 * Rejects when `signal` aborts, checking it between files.
 */
export interface ManyTextReader {
  readTextMany(paths: readonly string[], visit: TextVisitor, signal?: AbortSignal, options?: ReadManyOptions): Promise<void>;
}

/** `true` when `workspace` also reads many files in one call (see `ManyTextReader`). */
export function canReadTextMany(workspace: WorkspaceFs): workspace is WorkspaceFs & ManyTextReader {
  return typeof (workspace as Partial<ManyTextReader>).readTextMany === 'function';
}

/** Reads run ahead of the visits by at most this many files on the `readText` fallback. */
export const fallbackReadAhead = 64;

/**
 * Reads `paths` in order and hands each to `visit` (see `TextVisitor`): through the
 * workspace's own `readTextMany` when it has one, else through `readText` with up to
 * `fallbackReadAhead` reads in flight. Rejects when `signal` aborts.
 */
export async function readTextMany(
  workspace: WorkspaceFs,
  paths: readonly string[],
  visit: TextVisitor,
  signal?: AbortSignal,
  options: ReadManyOptions = {},
): Promise<void> {
  signal?.throwIfAborted();
  if (canReadTextMany(workspace)) return workspace.readTextMany(paths, visit, signal, options);
  type Outcome = { text: string; error?: undefined } | { text?: undefined; error: unknown };
  const read = (path: string): Promise<Outcome> =>
    workspace.readText(path, signal, options).then(
      (text) => ({ text }),
      (error: unknown) => ({ error }),
    );
  const window: Promise<Outcome>[] = [];
  let next = 0;
  try {
    while (window.length < fallbackReadAhead && next < paths.length) window.push(read(paths[next++] as string));
    for (let index = 0; index < paths.length; index++) {
      const outcome = await (window.shift() as Promise<Outcome>);
      if (next < paths.length) window.push(read(paths[next++] as string));
      signal?.throwIfAborted();
      if (visit(paths[index] as string, outcome.text, outcome.error) === false) return;
    }
  } finally {
    // Reads still in flight finish before this settles, so none outlives the call.
    await Promise.allSettled(window);
  }
}
