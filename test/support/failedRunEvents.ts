import type { RunEvent } from '../../src/core/engine/runEvents';
import type { Plan } from '../../src/core/plan/planSchema';
import { numberedEvents } from './numberedEvents';

/** The events of run `run-7` of `plan` (steps A, then B): A completes, B fails asking for a repair plan, the run fails. */
export function failedRunEvents(plan: Plan): RunEvent[] {
  return numberedEvents('run-7', [
    { type: 'run_started', plan },
    { type: 'step_started', stepId: 'A', attempt: 1 },
    { type: 'step_completed', stepId: 'A', result: 'contents of a' },
    { type: 'step_started', stepId: 'B', attempt: 1 },
    { type: 'step_failed', stepId: 'B', attempt: 1, error: 'no', disposition: 'fail', replan: true },
    { type: 'run_failed', reason: 'B failed' },
  ]);
}
