import type { RunStatus } from './vocabulary';

/**
 * Each run status in words for people (short, lower case), the same in every view: a
 * `partial` run went to its end with steps failed or skipped, so it reads "partly done",
 * never "completed".
 */
export const runStatusLabels: Readonly<Record<RunStatus, string>> = {
  running: 'running',
  waiting: 'waiting',
  completed: 'completed',
  partial: 'partly done',
  failed: 'failed',
  cancelled: 'cancelled',
  interrupted: 'interrupted',
};
