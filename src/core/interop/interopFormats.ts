/**
 * The task-list formats of other tools that a plan is read from and written to, declared
 * once: GitHub Spec Kit's `tasks.md`, Kiro's `.kiro/specs/<feature>/tasks.md`, Cursor's
 * `.cursor/plans/*.plan.md`, the plans Copilot's Plan agent saves (`plan-*.prompt.md`) and
 * plain Markdown checklists.
 */
export const interopFormats = ['speckit', 'kiro', 'cursor', 'copilot', 'checklist'] as const;

/** One of `interopFormats`. */
export type InteropFormat = (typeof interopFormats)[number];

/** The name of each format as its users know it. */
export const interopFormatNames: Record<InteropFormat, string> = {
  speckit: 'Spec Kit tasks.md',
  kiro: 'Kiro tasks.md',
  cursor: 'Cursor plan',
  copilot: 'Copilot plan',
  checklist: 'Markdown checklist',
};

/**
 * Whether a file of each format marks a task done with a checkbox, which a run can tick (`run --tick`): a Cursor plan keeps
 * a todo's status in its front matter and a Copilot plan numbers its steps, so neither has a box to tick.
 */
export const tickableFormats: Record<InteropFormat, boolean> = {
  speckit: true,
  kiro: true,
  cursor: false,
  copilot: false,
  checklist: true,
};

/** Whether `text` names one of `interopFormats`. */
export function isInteropFormat(text: string): text is InteropFormat {
  return (interopFormats as readonly string[]).includes(text);
}
