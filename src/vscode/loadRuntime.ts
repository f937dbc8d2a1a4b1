import type * as Runtime from './runtime';

/** The exports of `dist/runtime.js` (see `./runtime`). */
export type TaskPlannerRuntime = typeof Runtime;

let loaded: TaskPlannerRuntime | undefined;

/**
 * Loads the heavy runtime on first call (a separate bundle, so activation parses and runs
 * none of it) and returns the same module afterwards.
 */
export function loadRuntime(): TaskPlannerRuntime {
  // A plain require: esbuild keeps it external for the extension bundle (see esbuild.mjs).
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- an import would be bundled into activation
  return (loaded ??= require('./runtime') as TaskPlannerRuntime);
}
