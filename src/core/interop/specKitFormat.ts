import type { Plan } from '../plan/planSchema';
import { readMarkdownTasks, writeMarkdownTasks, type ItemReader } from './markdownTasks';
import { planToTasks } from './planToTasks';
import { dependsOnText, splitDependsOn, type SourceDocument, type SourceTask } from './sourceTasks';

// The tags end where no tag follows: a bracket that opens none (`T002 [ ] text`, `[a b]`) starts the title. Stopping at
// any bracket there took the whole item for a task without an id, and `T002` became step `S2`, unsaid (attack).
const item = /^(T\d+|TXXX)\b\s*((?:\[[^\]\s]+\]\s*)*)(?!\s|\[[^\]\s]+\])([^\n]*)$/;

/**
 * Reads GitHub Spec Kit's `tasks.md` (its templates/tasks-template.md): phases and their
 * sub-headings as sections, `- [ ] T001 [P] [US1] Description in path/file.py` items (the
 * `T` id, `[P]` for parallel, other leading brackets as story labels, "(depends on T012,
 * T013)" as named dependencies); an item without an id is a task too.
 */
export function readSpecKit(text: string, name: string): SourceDocument {
  return readMarkdownTasks(text, readSpecKitItem, name);
}

function readSpecKitItem(itemText: string): ReturnType<ItemReader> {
  const found = item.exec(itemText);
  const tags = found ? [...found[2]!.matchAll(/\[([^\]\s]+)\]\s*/gy)].map((tag) => tag[1]!) : [];
  const { text: title, dependsOn } = splitDependsOn((found ? found[3]! : itemText).trim());
  return {
    ...(found ? { key: found[1]! } : {}),
    title,
    parallel: tags.includes('P'),
    labels: tags.filter((tag) => tag !== 'P'),
    ...(dependsOn !== undefined ? { dependsOn } : {}),
  };
}

/**
 * Writes `plan` as a Spec Kit `tasks.md`: `T001`… ids (or the steps' own when they are such), `[P]`, story labels, phases as
 * headings. A `tasks.md` imported and written back unedited keeps its structure: its front matter, phases and sub-headings,
 * every other line where it stood among the tasks (a phase's purpose above them, its checkpoint below), `[P]` and
 * "(depends on …)" where the file wrote them, and nowhere else; only blank lines (one between blocks) and `[X]` (`[x]`) may
 * differ.
 */
export function writeSpecKit(plan: Plan): string {
  const document = planToTasks(plan, {
    parallel: true,
    keyOf: (step, index, steps) => (steps.every((each) => /^T\d+$/.test(each.id)) ? step.id : `T${String(index + 1).padStart(3, '0')}`),
  });
  return writeMarkdownTasks(document, { writeItem: specKitItem, readItem: readSpecKitItem, optionalMark: false, spaced: false });
}

/**
 * A story label `readSpecKit` reads back as that one label: no bracket or space in it, and not `P` (parallel). A step's
 * origin is the plan's text (a model's, a plan file's): a label `x] [P` was written `[x] [P]`, read back as parallel,
 * and the task lost what it waited for (attack).
 */
const storyLabel = /^[^[\]\s]+$/;

function specKitItem(task: SourceTask): string {
  const labels = task.labels.filter((label) => storyLabel.test(label) && label !== 'P');
  const tags = [...(task.parallel ? ['P'] : []), ...labels].map((tag) => `[${tag}] `).join('');
  // A title opening with a bracket would read back as a tag of the task ([P]: parallel).
  return `${task.key} ${tags}${task.title.replace(/^\[/, '\\[')}${task.dependsOn !== undefined ? ` ${dependsOnText(task.dependsOn)}` : ''}`;
}
