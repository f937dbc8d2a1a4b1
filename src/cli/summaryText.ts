import { failureListedApart, type FailureSummary, type RunSummary } from '../core/view/runSummary';
import type { StepStatus } from '../core/engine/runEvents';
import { shownRef } from '../core/plan/attachmentTarget';
import { shortLine } from './shortLine';

/** The mark before each step of the closing summary. */
const statusMark: Readonly<Record<StepStatus, string>> = {
  pending: '·',
  blocked: '·',
  ready: '·',
  running: '▶',
  awaiting_approval: '⏸',
  awaiting_clarification: '⏸',
  awaiting_review: '⏸',
  awaiting_user: '⏸',
  awaiting_budget: '⏸',
  completed: '✔',
  failed: '✘',
  skipped: '↷',
};

/**
 * The command line's closing summary of a run, as lines: the headline, one line per step
 * (what it produced, or why it failed or was skipped), the failures with their diagnoses,
 * the changed files, and the files tools kept from the model. The texts are the summary's, already bounded; the CLI's output
 * boundary (`terminalIo`) escapes their control characters.
 */
export function summaryText(summary: RunSummary): string[] {
  const lines = [`Run ${summary.runId} ${summary.headline}`];
  // A long failure's output is printed once, under Failures (`failureListedApart`): the reason gives its first line.
  const repaired = summary.repairedFailures ?? [];
  const listed = summary.failures.some(failureListedApart) || repaired.some(failureListedApart);
  if (summary.reason !== undefined) lines.push(`  Reason: ${shortLine(summary.reason, 200, listed ? '(see Failures)' : '')}`);
  if (summary.steps.length > 0) {
    lines.push('Steps:');
    for (const step of summary.steps) {
      const label = step.title && step.title !== step.id ? `${step.id} ${step.title}` : step.id;
      lines.push(`  ${statusMark[step.status]} ${label}: ${step.line}`);
      if (step.earlier !== undefined) lines.push(`      ${step.earlier}`);
      if (step.checks !== undefined) lines.push(`      checks: ${step.checks}`);
    }
    if (summary.moreSteps > 0) lines.push(`  … and ${summary.moreSteps} more step${summary.moreSteps === 1 ? '' : 's'} (see them all with --json)`);
  }
  if (summary.failures.length > 0 || repaired.length > 0) {
    lines.push('Failures:');
    // Those a repair plan replaced first (they came first): the progress said each would be here in full.
    for (const failure of repaired) pushFailure(lines, failure, ' (replaced by a repair plan)');
    for (const failure of summary.failures) pushFailure(lines, failure, '');
    const more = summary.moreFailures;
    if (more > 0) lines.push(`  … and ${more} more failed step${more === 1 ? '' : 's'} (see them all with --json)`);
  }
  if (summary.changedFiles.length > 0) {
    lines.push('Changed files:');
    // A path from a journal may hold anything (a committed one is resumed): one line each, its line breaks shown as escapes.
    for (const path of summary.changedFiles) lines.push(`  ${shownRef(path)}`);
    if (summary.moreChangedFiles > 0) lines.push(`  … and ${summary.moreChangedFiles} more`);
  }
  if (summary.keptFromModel !== undefined) lines.push(summary.keptFromModel);
  return lines;
}

function pushFailure(lines: string[], failure: FailureSummary, note: string): void {
  lines.push(`  ${failure.stepId}${note}: ${indentRest(failure.error)}`);
  if (failure.diagnosis !== undefined && failure.diagnosis !== failure.error) lines.push(`    diagnosis: ${indentRest(failure.diagnosis)}`);
}

function indentRest(text: string): string {
  return text.replace(/\n/g, '\n      ');
}
