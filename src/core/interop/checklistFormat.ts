import type { Plan } from '../plan/planSchema';
import { readMarkdownTasks, writeMarkdownTasks, type ItemReader } from './markdownTasks';
import { planToTasks } from './planToTasks';
import { dependsOnText, splitDependsOn, type SourceDocument, type SourceTask } from './sourceTasks';

/**
 * Reads a plain Markdown checklist (GitHub's task lists): every `- [ ]` / `- [x]` item is a
 * task, in order, nested items below their parent, headings as sections; "(depends on S2)"
 * names dependencies by step id.
 */
export function readChecklist(text: string, name: string): SourceDocument {
  return readMarkdownTasks(text, readChecklistItem, name);
}

function readChecklistItem(itemText: string): ReturnType<ItemReader> {
  const { text: title, dependsOn } = splitDependsOn(itemText.trim());
  return { title, parallel: false, labels: [], ...(dependsOn !== undefined ? { dependsOn } : {}) };
}

/** Writes `plan` as a Markdown checklist; a step whose place does not give its dependencies names them by the ids the list reads back (`S1`…). */
export function writeChecklist(plan: Plan): string {
  const document = planToTasks(plan, { parallel: false, keyOf: (_step, index) => `S${index + 1}` });
  return writeMarkdownTasks(document, { writeItem: checklistItem, readItem: readChecklistItem, optionalMark: false, spaced: false });
}

function checklistItem(task: SourceTask): string {
  return `${task.title}${task.dependsOn !== undefined ? ` ${dependsOnText(task.dependsOn)}` : ''}`;
}
