import { html, nothing, type TemplateResult } from 'lit';
import type { WebviewToHostMessage } from '../src/shared/panelProtocol';
import type { ReplanView, RunSummaryView } from '../src/shared/panelViewModel';
import { formatDuration } from '../src/shared/formatDuration';
import { runStatusSentence, undoneLabels, type UndoneExtent } from '../src/shared/runStatusLabels';

/**
 * The end of a run: its outcome (the counts and model use are in the header above it, said once), its repairs and
 * resumes, what each step produced, the failures with their
 * diagnoses, changed files (each opens in the editor), the files kept from the model and "Undo run"; `status` is the
 * run's status in words (`runStatusLabel`), followed by what Undo took back of it (`undone`: a newcomer read "Run completed"
 * over changes undone as the changes being there); Resume and Undo name the run `runId` (the host acts only while it shows it).
 */
export function renderSummary(
  summary: RunSummaryView,
  status: string,
  undone: UndoneExtent | undefined,
  runId: string,
  send: (message: WebviewToHostMessage) => void,
): TemplateResult {
  return html`<section class="summary card" aria-labelledby="summary-heading">
    <h2 id="summary-heading" tabindex="-1">${runStatusSentence(status)} <span class="muted">in ${formatDuration(summary.durationMs)}</span>${undone === undefined ? nothing : html` · ${undoneLabels[undone]}`}</h2>
    ${summary.reason ? html`<p class=${summary.status === 'partial' ? 'keep-lines' : 'error keep-lines'}>${summary.reason}</p>` : nothing}
    ${summary.notes === undefined ? nothing : html`<p class="summary-notes">${summary.notes}</p>`}
    ${summary.stepLines.length > 0
      ? html`<h3>What each step produced</h3>
          <ul class="step-lines">
            ${summary.stepLines.map((step) => html`<li>
                <span class="mono">${step.id}</span> ${step.title}: <span class=${step.status === 'failed' ? 'error' : ''}>${step.line}</span>
                ${step.earlier === undefined ? nothing : html`<br /><span class="muted">${step.earlier}</span>`}
                ${step.checks === undefined ? nothing : html`<br /><span class="step-check-outcomes">Checks: ${step.checks}</span>`}
              </li>`)}
            ${summary.moreSteps > 0 ? html`<li class="muted">… and ${summary.moreSteps} more steps</li>` : nothing}
          </ul>`
      : nothing}
    ${summary.failures.length > 0
      ? html`<h3>Failures</h3>
          <ul class="failures">
            ${summary.failures.map(
              (failure) => html`<li><span class="mono">${failure.stepId}</span> ${failure.title}: <span class="error keep-lines">${failure.error}</span>${failure.diagnosis && failure.diagnosis !== failure.error ? html`<div>Diagnosis: ${failure.diagnosis}</div>` : nothing}</li>`,
            )}
            ${summary.moreFailures > 0 ? html`<li class="muted">… and ${summary.moreFailures} more failed steps</li>` : nothing}
          </ul>`
      : nothing}
    ${summary.changedFiles.length > 0
      ? html`<h3>Changed files</h3>
          <ul class="changed-files">
            ${summary.changedFiles.map((path) => html`<li><button class="link" aria-label=${`Show the changes to ${path}: before the run and now`} @click=${() => send({ type: 'openFile', path })}>${path}</button></li>`)}
          </ul>`
      : summary.undoMessage
        ? nothing // the files it changed are undone: the undo message below says so
        : summary.undoneFiles.length > 0
          ? // Opened again after Undo: "No file was changed" read as if the run never changed one (a newcomer's trial).
            html`<p class="muted">Undo put back what the run changed: ${summary.undoneFiles.join(', ')}.</p>`
          : html`<p class="muted">${unchangedText(summary)}</p>`}
    ${summary.keptFromModel ? html`<p class="kept-from-model">${summary.keptFromModel}</p>` : nothing}
    ${summary.undoMessage ? html`<p role="status">${summary.undoMessage}</p>` : nothing}
    ${summary.canResume
      ? html`<vscode-button data-action="resume" aria-label="Resume run: go on from where it stopped, finished steps not redone" @click=${() => send({ type: 'resumeRun', runId })}>Resume run</vscode-button>`
      : nothing}
    ${summary.canUndo ? html`<vscode-button secondary data-action="undo" aria-label="Undo run: restore every file this run changed" @click=${() => send({ type: 'undoRun', runId })}>Undo run</vscode-button>` : nothing}
    <vscode-button secondary data-action="export-markdown" aria-label="Export as Markdown: open the plan and what the run did as a checklist" @click=${() => send({ type: 'exportMarkdown' })}>Export as Markdown</vscode-button>
  </section>`;
}

/** What a run that changed no file through the file tools says, naming what may have changed files all the same. */
function unchangedText(summary: RunSummaryView): string {
  // A newcomer edited a file by hand for a step of theirs, marked it done, and read "No file was changed."
  const others = [...(summary.ranCommands ? ['commands'] : []), ...(summary.doneByYou ? ['the steps you did yourself'] : [])];
  if (others.length === 0) return 'No file was changed.';
  return `No file was changed through the file tools (${others.join(' and ')} may change files too; Undo run cannot restore those).`;
}

/** Every repair of the plan during the run, with the failed attempts the replanner was given. */
export function renderReplans(replans: readonly ReplanView[]): TemplateResult | typeof nothing {
  if (replans.length === 0) return nothing;
  return html`<section class="replans" aria-labelledby="replans-heading">
    <h2 id="replans-heading">Replan history</h2>
    <ol>
      ${replans.map(
        (replan) => html`<li>
          <strong>Repair ${replan.replan}</strong> (plan version ${replan.planVersion}) for <span class="mono">${replan.stepIds.join(', ')}</span>: ${replan.reason}
          <div class="muted">kept ${replan.keptStepIds.length} step${replan.keptStepIds.length === 1 ? '' : 's'}; new or changed: ${replan.newStepIds.join(', ') || 'none'}</div>
          ${replan.trials.length > 0
            ? html`<ul>
                ${replan.trials.map(
                  (trial) => html`<li class="trial"><span class="mono">${trial.stepId}</span> attempt ${trial.attempt} (${trial.approach}):
                    <div class="error keep-lines">${trial.error}</div>${trial.diagnosis && trial.diagnosis !== trial.error ? html`<div class="keep-lines">diagnosis: ${trial.diagnosis}</div>` : nothing}</li>`,
                )}
              </ul>`
            : nothing}
        </li>`,
      )}
    </ol>
  </section>`;
}
