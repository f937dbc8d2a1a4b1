import { resolve } from 'node:path';
import type { RunHandle, RunResult } from '../core/engine/runOptions';
import { terminalStepStatuses, type PendingRequest, type RunEvent } from '../core/engine/runEvents';
import type { Plan } from '../core/plan/planSchema';
import type { CliIo } from './cliIo';
import { progressReporter } from './progressReporter';

/** Exit code of a finished run (see the help text). */
export function exitCodeOf(result: RunResult): number {
  const codes: Record<RunResult['status'], number> = { completed: 0, failed: 1, waiting: 3, cancelled: 4, interrupted: 4 };
  return codes[result.status];
}

/**
 * Follows a started run: progress on stderr, Ctrl+C cancels (the journal stays
 * resumable), then the result on stdout as JSON or as a summary.
 */
export async function followRun(handle: RunHandle, plan: Plan | undefined, workspace: string, json: boolean, io: CliIo): Promise<number> {
  let reporter: ((event: RunEvent) => void) | undefined;
  // A resumed run's plan is known only once its journal is loaded, by its first event. The
  // state is read once, when the reporter is made: reading it per event (a copy of every
  // step) made the command line quadratic in plan size.
  const unsubscribe = handle.events.subscribe((event) => {
    if (reporter === undefined) {
      const state = handle.state();
      const known = plan ?? state.plan;
      if (!known) return;
      const ended = Object.values(state.steps).filter((step) => terminalStepStatuses.has(step.status)).length;
      reporter = progressReporter(known, io.err, ended);
    }
    reporter(event);
  });
  const onInterrupt = (): void => handle.cancel('Interrupted (Ctrl+C).');
  process.once('SIGINT', onInterrupt);
  let result: RunResult;
  try {
    result = await handle.result;
  } finally {
    process.removeListener('SIGINT', onInterrupt);
    unsubscribe();
  }
  return reportRunResult(result, workspace, json, io);
}

/** Prints a finished run on stdout (as JSON, or a summary with resume hints); returns its exit code. */
export function reportRunResult(result: RunResult, workspace: string, json: boolean, io: CliIo): number {
  if (json) {
    io.out(JSON.stringify(result, null, 2));
    return exitCodeOf(result);
  }
  const lines = [`Run ${result.runId}: ${result.status}${result.metadata.reason ? ` (${result.metadata.reason})` : ''}`];
  for (const [id, step] of Object.entries(result.steps)) {
    lines.push(`  ${step.status.padEnd(22)} ${id}${step.reason ? `: ${step.reason}` : step.error && step.status !== 'completed' ? `: ${step.error}` : ''}`);
  }
  for (const warning of result.metadata.warnings) lines.push(`  warning: ${warning}`);
  if (result.status === 'waiting') {
    lines.push('Pending requests:');
    for (const request of result.pending ?? []) lines.push(`  ${request.stepId} (${request.kind}): ${request.prompt}`);
    const hint = (result.pending ?? [])
      .map((request) =>
        resumeHint[request.kind](request.stepId),
      )
      .join(' ');
    lines.push(`Answer with: task-planner resume ${result.runId} --workspace ${JSON.stringify(resolve(workspace))} ${hint}`);
  }
  io.out(lines.join('\n'));
  return exitCodeOf(result);
}

/** The `resume` flag that answers each kind of pending request. */
const resumeHint: Record<PendingRequest['kind'], (stepId: string) => string> = {
  approval: (stepId) => `--approve ${stepId}`,
  clarification: (stepId) => `--answer ${stepId}=...`,
  review: (stepId) => `--accept-review ${stepId}`,
  budget: () => '--max-requests N (or --max-tokens N, --max-cost USD) above the limit reached',
};
