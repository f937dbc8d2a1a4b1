import { importedFrom } from './originTick';
import type { Plan } from './planSchema';

/**
 * What names `plan` (or its run) in a row, a view's title or a notification, before each view cuts it to its width. A plan
 * imported from a task file (a step says where it came from: `importedFrom`) is named by its objective's first line that
 * is not blank, the file's title: the rest of its objective is every other line of the file, and a Spec Kit file's runs
 * read "Tasks: Photo albums **Input**: Design documents from …" (a trial). Any other plan by its whole objective: a
 * request typed on several lines is all the request. The whole objective stays in tooltips and the panel.
 */
export function planName(plan: Pick<Plan, 'objective' | 'steps'>): string {
  const imported = plan.steps.some((step) => step.input !== undefined && importedFrom(step.input) !== undefined);
  if (!imported) return plan.objective;
  return plan.objective.split('\n').find((line) => line.trim() !== '')?.trim() ?? plan.objective;
}
