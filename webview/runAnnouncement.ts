import type { RunView } from '../src/shared/panelViewModel';
import { describeStepProgress } from '../src/shared/stepProgress';
import { formatStatus } from './formatting';
import { runStatusLabel, runStatusSentence } from '../src/shared/runStatusLabels';

/** Longest prompt read out per waiting step (the full text is in the editor prompt). */
const promptChars = 160;

/**
 * What a screen reader hears when the run changes: its status and progress, then every
 * prompt waiting for the user ("Waiting for you: approval of step S005, Write notes.md").
 * The panel puts it in a polite live region, so it is spoken whenever the text changes.
 */
export function runAnnouncement(run: RunView): string {
  const progress = `${runStatusSentence(runStatusLabel(run.status, run.steps))}: ${describeStepProgress(run.progress)}.`;
  if (run.pending.length === 0) return progress;
  // A prompt ends the list without its own closing punctuation: "Write src/stats.js?." read as a typo.
  const cut = (text: string): string => (text.length > promptChars ? `${text.slice(0, promptChars)}…` : trimEndPunctuation(text));
  const prompts = run.pending.filter((request) => request.kind !== 'manual');
  // A manual step's prompt starts with a line naming it ("Step S002 is yours to do: …"); Done and Failed answer it in the panel.
  const yours = run.pending.filter((request) => request.kind === 'manual').map((request) => `${cut(request.prompt.split('\n', 1)[0] ?? '')}.`);
  const waiting = prompts.map((request) => `${formatStatus(request.kind)} of step ${request.stepId}, ${cut(request.prompt)}`);
  return [progress, ...(waiting.length > 0 ? [`Waiting for you: ${waiting.join('; ')}. Open answers it in the editor.`] : []), ...yours, ...(yours.length === 1 ? ['Mark it Done or Failed below.'] : yours.length > 1 ? ['Mark each Done or Failed below.'] : [])].join(' ');
}

/** `text` without the full stops, question marks and the like it ends with (linear: no backtracking pattern). */
function trimEndPunctuation(text: string): string {
  let end = text.length;
  while (end > 0 && '.?!:;'.includes(text[end - 1]!)) end--;
  return text.slice(0, end);
}
