import type { RunView } from '../src/shared/panelViewModel';
import { describeStepProgress } from '../src/shared/stepProgress';
import { formatStatus } from './formatting';

/** Longest prompt read out per waiting step (the full text is in the editor prompt). */
const promptChars = 160;

/**
 * What a screen reader hears when the run changes: its status and progress, then every
 * prompt waiting for the user ("Waiting for you: approval of step S005, Write notes.md").
 * The panel puts it in a polite live region, so it is spoken whenever the text changes.
 */
export function runAnnouncement(run: RunView): string {
  const progress = `Run ${formatStatus(run.status)}: ${describeStepProgress(run.progress)}.`;
  if (run.pending.length === 0) return progress;
  const waiting = run.pending.map((request) => `${formatStatus(request.kind)} of step ${request.stepId}, ${request.prompt.length > promptChars ? `${request.prompt.slice(0, promptChars)}…` : request.prompt}`);
  return `${progress} Waiting for you: ${waiting.join('; ')}. Open answers it in the editor.`;
}
