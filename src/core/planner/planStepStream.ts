import { JSONParser } from '@streamparser/json';
import { plannerOutputSchema } from '../plan/planSchema';
import type { LlmDelta } from '../llm/llmTypes';

/** A step as the planner model writes it (before `parsePlan` fills in defaults). */
export type PlannerStep = (typeof plannerOutputSchema)['shape']['steps']['element']['_output'];

/**
 * Turns the planner's streamed reply into steps, each emitted as soon as the model has
 * closed its JSON object (incremental parsing with `@streamparser/json`, path `$.steps.*`).
 * Text before the first `{` (prose, a code fence) is skipped; anything after the plan
 * object, or text that is not JSON, just stops the stream of steps (the final reply is
 * still parsed tolerantly). On a `retry` delta the parser starts over and steps are emitted
 * again from index 0: a consumer replaces the step it had at that index.
 */
export function createPlanStepStream(onStep: (step: PlannerStep, index: number) => void): (delta: LlmDelta) => void {
  let parser: JSONParser | undefined;
  // Stryker disable next-line BooleanLiteral: reset() below sets it before any delta arrives
  let started = false;
  // Stryker disable next-line BooleanLiteral: reset() below sets it before any delta arrives
  let broken = false;

  const reset = (): void => {
    started = false;
    broken = false;
    // Stryker disable next-line BooleanLiteral: keeping the stack only costs memory; the values emitted are the same
    parser = new JSONParser({ paths: ['$.steps.*'], keepStack: false });
    parser.onValue = ({ value, key }) => {
      const step = plannerOutputSchema.shape.steps.element.safeParse(value);
      // Stryker disable next-line ConditionalExpression: with the path $.steps.* every key is an array index
      if (step.success && typeof key === 'number') onStep(step.data, key);
    };
    // Stryker disable next-line BlockStatement: the parser also ignores input once it failed; the flag only spares it the calls
    parser.onError = () => {
      // Stryker disable next-line BooleanLiteral: as above
      broken = true;
    };
  };
  reset();

  return (delta) => {
    if (delta.kind === 'retry') {
      reset();
      return;
    }
    if (delta.kind !== 'text' || broken || !parser) return;
    let text = delta.text;
    if (!started) {
      const start = text.indexOf('{');
      if (start < 0) return;
      started = true;
      text = text.slice(start);
    }
    parser.write(text);
  };
}
