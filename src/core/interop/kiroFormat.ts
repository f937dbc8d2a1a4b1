import type { Plan } from '../plan/planSchema';
import { readMarkdownTasks, writeMarkdownTasks, type ItemReader } from './markdownTasks';
import { planToTasks } from './planToTasks';
import { dependsOnText, splitDependsOn, type SourceDocument, type SourceTask } from './sourceTasks';

const item = /^(\d+(?:\.\d+)*)\.?\s+(?!\s)([^\n]*)$/;
const kiroKey = /^\d+(?:\.\d+)*$/;

/**
 * Reads Kiro's `.kiro/specs/<feature>/tasks.md`: numbered checkbox tasks (`- [ ] 1. …`,
 * sub-tasks `- [ ] 1.1 …` nested below), `- [ ]*` for an optional task, sub-bullets as
 * instructions and `_Requirements: 1.2, 3.1_` as requirement links. Kiro works through the
 * tasks in order; "(depends on 2.1)" names dependencies.
 */
export function readKiro(text: string, name: string): SourceDocument {
  return readMarkdownTasks(text, readKiroItem, name);
}

function readKiroItem(itemText: string): ReturnType<ItemReader> {
  const found = item.exec(itemText.trim());
  const { text: title, dependsOn } = splitDependsOn(found ? found[2]! : itemText.trim());
  return { ...(found ? { key: found[1]! } : {}), title, parallel: false, labels: [], ...(dependsOn !== undefined ? { dependsOn } : {}) };
}

/** Writes `plan` as a Kiro `tasks.md`: numbered tasks (the steps' own numbers when they are Kiro's, nested by them), `*` on optional ones. */
export function writeKiro(plan: Plan): string {
  const own = plan.steps.every((step) => kiroKey.test(step.id));
  const document = planToTasks(plan, { parallel: false, optional: true, keyOf: (step, index) => (own ? step.id : String(index + 1)) });
  for (const task of document.tasks) task.depth = (task.key ?? '').split('.').length - 1;
  return writeMarkdownTasks(document, { writeItem: kiroItem, readItem: readKiroItem, optionalMark: true, spaced: true });
}

function kiroItem(task: SourceTask): string {
  return `${task.key}${task.depth === 0 ? '.' : ''} ${task.title}${task.dependsOn !== undefined ? ` ${dependsOnText(task.dependsOn)}` : ''}`;
}
