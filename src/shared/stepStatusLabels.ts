import type { StepStatus } from './vocabulary';

/** Each step status in words for people (short, lower case), the same in every view. */
export const stepStatusLabels: Readonly<Record<StepStatus, string>> = {
  pending: 'pending',
  blocked: 'blocked',
  ready: 'ready',
  running: 'running',
  awaiting_approval: 'awaiting approval',
  awaiting_clarification: 'awaiting answer',
  awaiting_review: 'awaiting review',
  awaiting_user: 'yours to do',
  completed: 'completed',
  failed: 'failed',
  skipped: 'skipped',
};

/** A step skipped because its condition was not met (the fix of tests that passed): done as planned, no work left. */
export const notNeededLabel = 'not needed';
