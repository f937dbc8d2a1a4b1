import type { StepKind } from '../../plan/planSchema';
import { clarificationExecutor } from './clarificationExecutor';
import { humanReviewExecutor } from './humanReviewExecutor';
import { llmStepExecutor } from './llmStepExecutor';
import { manualExecutor } from './manualExecutor';
import type { StepExecutor } from './stepExecutor';
import { toolExecutor } from './toolExecutor';

/** The executor of each step kind. */
export const stepExecutors: Readonly<Record<StepKind, StepExecutor>> = {
  tool: toolExecutor,
  agent: llmStepExecutor,
  synthesis_gate: llmStepExecutor,
  human_review: humanReviewExecutor,
  clarification: clarificationExecutor,
  manual: manualExecutor,
};
