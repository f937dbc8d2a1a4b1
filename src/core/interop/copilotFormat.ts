import type { Plan } from '../plan/planSchema';
import { withoutOpenHtmlBlocks } from './htmlBlocks';
import { fence } from './markdownTasks';
import { planToTasks } from './planToTasks';
import {
  bulletItem,
  emptyTask,
  headingLine,
  indentOf,
  inertAfterBullet,
  splitDependsOn,
  type SourceDocument,
  type SourceNote,
  type SourceTask,
} from './sourceTasks';

const planHeading = /^#{1,3}\s+Plan:\s*(\S(?:.*\S)?)\s*$/;
const stepsHeading = /^(?:#{2,4}\s+Steps\b.*|\*\*Steps\b[^*]*\*\*.*)$/i;
const boldHeading = /^\*\*[^*]+\*\*:?\s*(?:\(.*\)\s*)?$/;
const phaseLine = /^\*\*((?:Phase|Stage|Part)\b[^*]*)\*\*:?\s*$/i;
const numbered = /^(\s*)(\d+)[.)]\s+(?:\[([ xX])\]\s+)?(?!\s)(.*)$/;

/**
 * Reads a plan Copilot's Plan agent wrote and saved (`plan-<name>.prompt.md`): `## Plan:
 * <title>`, a TL;DR, then the numbered items under `### Steps` (or `**Steps**`) as tasks in
 * order, their indented bullets as instructions, `[x]` after the number as done, "*depends on
 * 2*" as named dependencies and `**Phase 1: …**` lines as sections. Every other part
 * (relevant files, verification, decisions, further considerations) is a note.
 */
export function readCopilot(text: string, name: string): SourceDocument {
  const tasks: SourceTask[] = [];
  const notes: SourceNote[] = [];
  let title: string | undefined;
  let inSteps = false;
  let section: string[] = [];
  let open: SourceTask | undefined;
  let openIndent = 0;
  text.split(/\r?\n/).forEach((line, index) => {
    const number = index + 1;
    const planTitle = planHeading.exec(line);
    if (planTitle && title === undefined) {
      title = planTitle[1]!;
      return;
    }
    if (stepsHeading.test(line)) {
      inSteps = true;
      open = undefined;
      return;
    }
    const phase = inSteps ? phaseLine.exec(line) : null;
    if (phase) {
      section = [phase[1]!.trim()];
      open = undefined;
      return;
    }
    if (headingLine.test(line) || boldHeading.test(line)) {
      inSteps = false;
      open = undefined;
      notes.push({ line: number, text: line });
      return;
    }
    const item = inSteps ? numbered.exec(line) : null;
    if (item && (open === undefined || indentOf(item[1]!) <= openIndent)) {
      const { text: stepText, dependsOn } = splitDependsOn(item[4]!.trim());
      const task = emptyTask(number, stepText);
      task.key = `S${item[2]}`;
      task.done = item[3] !== undefined && item[3] !== ' ';
      task.section = section;
      if (dependsOn !== undefined) task.dependsOn = dependsOn.map((key) => (/^\d+$/.test(key) ? `S${key}` : key));
      tasks.push(task);
      open = task;
      openIndent = indentOf(item[1]!);
      return;
    }
    if (open !== undefined && line.trim() !== '' && indentOf(/^\s*/.exec(line)![0]) > openIndent) {
      open.details.push((bulletItem.exec(line)?.[2] ?? line.trim()).trimEnd());
      return;
    }
    if (line.trim() !== '') open = undefined;
    if (!(inSteps && line.trim() === '')) notes.push({ line: number, text: line });
  });
  return { title: title ?? name, tasks, notes };
}

/**
 * Writes `plan` as a Copilot plan: `## Plan: <title>`, the rest of the objective, then `### Steps`, numbered, done ones `[x]`, with "*depends on N*" where
 * their place does not say it.
 */
export function writeCopilot(plan: Plan): string {
  const document = planToTasks(plan, { parallel: false, keyOf: (_step, index) => `S${index + 1}` });
  const out = [`## Plan: ${document.title}`, ''];
  // A note that reads as the steps' heading would make the numbered lines after it steps; one that leaves a fence or an
  // HTML block open hid the steps where the file is rendered (attack).
  for (const note of document.notes) {
    const lines = withoutOpenHtmlBlocks(note.text.split('\n')).map((line) => (stepsHeading.test(line.replace(/\r$/, '')) ? `\\${line}` : line));
    if (lines.filter((line) => fence.test(line)).length % 2 === 1) lines.push('```');
    out.push(lines.join('\n'), '');
  }
  out.push('### Steps');
  for (const [index, task] of document.tasks.entries()) {
    const after =
      task.dependsOn === undefined
        ? ''
        : ` *depends on ${task.dependsOn.length === 0 ? 'none' : task.dependsOn.map((key) => key.replace(/^S/, '')).join(', ')}*`;
    out.push(`${index + 1}. ${task.done ? '[x] ' : ''}${inertAfterBullet(task.title)}${after}`);
    for (const detail of [...task.details, ...(task.requirements.length > 0 ? [`_Requirements: ${task.requirements.join(', ')}_`] : [])]) {
      out.push(`   - ${detail}`);
    }
  }
  return `${out.join('\n')}\n`;
}
