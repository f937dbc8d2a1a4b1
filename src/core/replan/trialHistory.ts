import type { TrialRecord } from '../engine/replanRecord';
import type { RunEvent } from '../engine/runEvents';
import type { Plan, Step } from '../plan/planSchema';

const maxOutputChars = 4_000;

/**
 * Collects every failed attempt from a run's events (fed in order through `observe`):
 * the step's approach from `plan`, its streamed output since the attempt started, the
 * verification diagnosis with what the attempt returned, and the error. Appends to `trials`.
 */
export function createTrialCollector(plan: Plan, trials: TrialRecord[]): (event: RunEvent) => void {
  const steps = new Map(plan.steps.map((step) => [step.id, step]));
  const outputs = new Map<string, string>();
  const started = new Map<string, number>();
  const diagnoses = new Map<string, string>();
  const returned = new Map<string, unknown>();
  return (event) => {
    switch (event.type) {
      case 'step_started':
        outputs.set(event.stepId, '');
        started.set(event.stepId, event.time);
        diagnoses.delete(event.stepId);
        returned.delete(event.stepId);
        return;
      case 'step_output':
        outputs.set(event.stepId, ((outputs.get(event.stepId) ?? '') + event.text).slice(-maxOutputChars));
        return;
      case 'verification_failed':
        diagnoses.set(event.stepId, event.diagnosis);
        if (event.result !== undefined) returned.set(event.stepId, event.result);
        return;
      case 'step_failed': {
        const step = steps.get(event.stepId);
        const diagnosis = diagnoses.get(event.stepId);
        const result = returned.get(event.stepId);
        trials.push({
          stepId: event.stepId,
          title: step?.title ?? event.stepId,
          approach: step ? describeApproach(step) : '(unknown step)',
          attempt: event.attempt,
          output: outputs.get(event.stepId) ?? '',
          error: event.error,
          ...(diagnosis === undefined ? {} : { diagnosis }),
          ...(result === undefined ? {} : { result }),
          time: event.time,
          durationMs: event.time - (started.get(event.stepId) ?? event.time),
        });
        return;
      }
      default:
        return;
    }
  };
}

/** A one-line description of how a step goes about its work. */
export function describeApproach(step: Step): string {
  if (step.kind === 'tool') return `tool ${step.tool ?? '(none)'} with args ${JSON.stringify(step.args ?? {})}`;
  if (step.kind === 'agent') return `agent ${step.agent ?? 'default'} with input: ${step.input ?? step.title}`;
  return `${step.kind}: ${step.input ?? step.title}`;
}
