import { LitElement, css, html, nothing, type TemplateResult } from 'lit';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-progress-bar/index.js';
import type { WebviewMessage, WebviewToHostMessage } from '../src/shared/panelProtocol';
import type { PendingView, ReplacedStepView, RunStatusView, RunStepView, RunView } from '../src/shared/panelViewModel';
import { describeStepProgress, finishedSteps } from '../src/shared/stepProgress';
import { shownUsd } from '../src/shared/shownUsd';
import { formatDuration } from '../src/shared/formatDuration';
import { formatStatus, stepDot } from './formatting';
import { runStatusLabel, runStatusWithUndo } from '../src/shared/runStatusLabels';
import { emitAction } from './panelAction';
import type { OutputState } from './panelStore';
import { panelStyles } from './panelStyles';
import { runAnnouncement } from './runAnnouncement';
import { renderReplans, renderSummary } from './runSummary';
import { renderTimeline, timelineAfter } from './timelineChart';
import { stepFailureLines, type FailureLine } from './stepFailureLines';
import { attemptsText } from './attemptsText';
import { titleWithCode } from './codeSpans';
import { progressText } from '../src/shared/progressPercent';
import { renderObjective } from './objectiveHeading';

/** An action on a step of the run shown, before the run's id is added. */
type RunActionWithoutRun<M = WebviewMessage<'openApproval' | 'markManualStep' | 'undoFromHere' | 'runFromHere'>> = M extends unknown ? Omit<M, 'runId'> : never;

const failureClass: Record<FailureLine['kind'], string> = { earlier: 'warning', error: 'error', diagnosis: 'warning' };
// The colour of the run's status dot (a `.s-*` class); a run partly done never looks completed.
const runDots: Record<RunStatusView, string> = {
  running: 'running',
  waiting: 'skipped',
  completed: 'completed',
  partial: 'partial',
  failed: 'failed',
  cancelled: 'skipped',
  interrupted: 'skipped',
};

/** The run's cost so far; "cost unknown" when no call had a price (a local model), never a "$0" that reads as free. */
function costText(usage: NonNullable<RunView['usage']>): string {
  // Nothing priced cost anything: a "$0" beside calls without a price read as free (a trial).
  if (usage.unpricedRequests > 0 && usage.costUsd === 0) return 'cost unknown';
  const saved = usage.savedUsd > 0 ? ` (saved ${shownUsd(usage.savedUsd)})` : '';
  return `${shownUsd(usage.costUsd)}${saved}${usage.unpricedRequests > 0 ? ' (some calls without a known price)' : ''}`;
}

/**
 * Run mode: progress, tokens and cost, pending approvals and questions (each opens the
 * editor prompt), live status per step with attempts and diagnoses (and, once the run is
 * over, Undo from here on each step that changed files), the focused step's streamed
 * output, the timeline, the replan history and the final summary. Progress and every
 * waiting prompt are announced through one polite live region.
 */
export class RunViewElement extends LitElement {
  static override properties = { run: { attribute: false }, output: { attribute: false } };
  static override styles = [
    panelStyles,
    css`
      table { border-collapse: collapse; width: 100%; }
      th, td { text-align: left; padding: 3px 8px; border-bottom: 1px solid var(--vscode-panel-border, var(--vscode-contrastBorder, transparent)); vertical-align: top; }
      th { color: var(--vscode-descriptionForeground); font-weight: 600; }
      figure { margin: 0; }
      td.details { overflow-wrap: break-word; max-width: 420px; }
      /* "15.8 s" read as "15.8" over "s" in a narrow panel (a trial). */
      td.time { white-space: nowrap; }
      /* a command's output keeps its lines (a pytest failure reads as it printed), wrapped inside the panel */
      td.details > div { white-space: pre-wrap; }
      tbody.replaced .replaced-heading { padding-top: 12px; font-weight: 600; }
      tr.replaced-step { opacity: 0.85; }
      .timeline svg { display: block; background: var(--vscode-editorWidget-background, transparent); border: 1px solid var(--vscode-panel-border, var(--vscode-contrastBorder, transparent)); }
      .tick { stroke: var(--vscode-editorLineNumber-foreground, #888); stroke-width: 0.5; opacity: 0.5; }
      .tick-label { fill: var(--vscode-descriptionForeground); font-size: 11px; }
      rect.bar { fill: var(--status); stroke: var(--vscode-contrastBorder, none); }
      .pending li { margin: 4px 0; }
      .manual-step { list-style: none; margin: 8px 0; padding: 6px 8px; border-left: 3px solid var(--vscode-charts-yellow, #bf8803); }
      .manual-step .instructions { white-space: pre-wrap; overflow-wrap: anywhere; margin: 4px 0 6px; }
      .output pre { max-height: 200px; }
      vscode-progress-bar { margin: 6px 0; }
    `,
  ];
  run: RunView | undefined;
  output: OutputState | undefined;
  /** When `run` arrived (ms, `performance.now()`): a live run's clock goes on from its `elapsedMs` between snapshots. */
  private receivedAt = 0;
  private clock: ReturnType<typeof setInterval> | undefined;

  private readonly send = (message: WebviewToHostMessage): void => emitAction(this, message);

  /** Sends an action on a step of the run shown, naming that run: the host acts only while it still shows it. */
  private sendAboutRun(message: RunActionWithoutRun): void {
    if (this.run) this.send({ ...message, runId: this.run.runId });
  }

  override willUpdate(changed: Map<PropertyKey, unknown>): void {
    if (changed.has('run')) this.receivedAt = performance.now();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // A newcomer saw "36 ms" for as long as the run waited on their answer: nothing changed, so nothing was sent.
    this.clock = setInterval(() => {
      if (this.run?.status === 'running' || this.run?.status === 'waiting') this.requestUpdate();
    }, 1_000);
  }

  override disconnectedCallback(): void {
    clearInterval(this.clock);
    super.disconnectedCallback();
  }

  /** Puts focus on the run's heading (after the panel switched to the run). */
  focusHeading(): void {
    this.renderRoot.querySelector<HTMLElement>('h1')?.focus();
  }

  /** Puts focus where a reader continues after the focused control went away: the summary once there is one, else the heading. */
  focusFallback(): void {
    (this.renderRoot.querySelector<HTMLElement>('#summary-heading') ?? this.renderRoot.querySelector<HTMLElement>('h1'))?.focus();
  }

  override render(): TemplateResult | typeof nothing {
    const run = this.run;
    if (!run) return nothing;
    const live = run.status === 'running' || run.status === 'waiting';
    const focus = run.steps.find((step) => step.id === run.focusStepId);
    const listed = new Set(run.summary?.failures.map((failure) => failure.stepId) ?? []);
    const tail = focus ? this.output?.tails[focus.id] : undefined;
    return html`<header>
        ${renderObjective(run.objective)}
        <div class="visually-hidden" role="status" data-run-announcement>${runAnnouncement(run)}</div>
        <div class="row">
          <span class="status s-${run.undone ? 'skipped' : runDots[run.status]}"><span class="status-dot"></span><strong class="run-status">${runStatusWithUndo(run.status, run.steps, run.undone)}</strong></span>
          <span class="progress-text">${describeStepProgress(run.progress)}</span>
          ${run.activity ? html`<span class="muted" data-role="run-activity">${run.activity}…</span>` : nothing}
          <span class="muted" data-elapsed>${formatDuration(live ? run.elapsedMs + Math.max(0, performance.now() - this.receivedAt) : run.elapsedMs)} · plan version ${run.planVersion}</span>
          ${run.usage ? html`<span class="usage" title="Model use so far">${run.usage.totalTokens.toLocaleString()} tokens${run.usage.cachedTokens > 0 ? ` (${run.usage.cachedTokens.toLocaleString()} cached)` : ''} · ${costText(run.usage)} · ${run.usage.requests} ${run.usage.requests === 1 ? 'request' : 'requests'}</span>` : html`<span class="muted usage">no model calls during the run</span>`}
          <span class="spacer"></span>
          ${live ? html`<vscode-button secondary data-action="cancel" @click=${() => this.send({ type: 'cancelRun', runId: run.runId })}>Cancel run</vscode-button>` : nothing}
        </div>
        <vscode-progress-bar aria-label="Run progress" .value=${finishedSteps(run.progress)} .max=${Math.max(1, run.progress.total)}></vscode-progress-bar>
      </header>
      ${run.pending.length > 0
        ? html`<section class="pending" aria-labelledby="pending-heading">
            <h2 id="pending-heading">Waiting for you</h2>
            <ul>
              ${run.pending.map((request) => (request.kind === 'manual' ? this.renderManualStep(request) : this.renderPrompt(request)))}
            </ul>
          </section>`
        : nothing}
      ${run.summary ? renderSummary(run.summary, runStatusLabel(run.status, run.steps), run.undone, run.runId, this.send) : nothing}
      ${
        // A run no step of which started yet (or one opened after a reload before it went on) has no time to show.
        run.timeline.bars.length === 0
          ? nothing
          : html`<section aria-labelledby="timeline-heading"><h2 id="timeline-heading">Timeline</h2>${renderTimeline(live ? timelineAfter(run.timeline, performance.now() - this.receivedAt) : run.timeline)}</section>`
      }
      ${focus
        ? html`<section class="output" aria-labelledby="output-heading">
            <h2 id="output-heading">Output of <span class="mono">${focus.id}</span> <span class="muted bounded-title">${focus.title}</span></h2>
            <pre tabindex="0">${tail ?? (focus.resultPreview ? focus.resultPreview : noOutput(focus, live))}</pre>
          </section>`
        : nothing}
      <section aria-labelledby="run-steps-heading">
        <h2 id="run-steps-heading">Steps</h2>
        <table>
          <thead><tr><th scope="col">#</th><th scope="col">Step</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Time</th><th scope="col">Details</th></tr></thead>
          <tbody>${run.steps.map((step, index) => this.renderStep(step, index, { over: !live, undoable: !live && run.summary?.canUndo === true, listed }))}</tbody>
          ${run.replacedSteps?.length ? this.renderReplacedSteps(run.replacedSteps) : nothing}
        </table>
      </section>
      ${renderReplans(run.replans)}
      ${run.warnings.length > 0 ? html`<section><h2>Warnings</h2><ul>${run.warnings.map((warning) => html`<li class="warning">${warning}</li>`)}</ul></section>` : nothing}`;
  }

  /** The steps repairs replaced, under a heading per plan version, as they ended there (no actions: they are not part of the plan run now). */
  private renderReplacedSteps(replaced: readonly ReplacedStepView[]): TemplateResult {
    const versions = [...new Set(replaced.map((step) => step.planVersion))];
    return html`${versions.map(
      (version) => html`<tbody class="replaced">
        <tr><th scope="rowgroup" colspan="6" class="replaced-heading">Replaced by a repair: steps of plan version ${version} as they ended</th></tr>
        ${replaced
          .filter((step) => step.planVersion === version)
          .map(
            (step) => html`<tr class="run-step replaced-step" data-step-id=${step.id} data-status=${step.status} data-plan-version=${version}>
              <td class="muted">v${version}</td>
              <td><strong class="bounded-title">${titleWithCode(step.title)}</strong> <span class="muted mono">${step.id} · ${step.runner}</span></td>
              <td><span class="status s-${step.status}"><span class="status-dot"></span><span class="step-status">${formatStatus(step.status)}</span></span></td>
              <td>${attemptsText(step)}</td>
              <td class="time">${step.durationMs !== undefined ? formatDuration(step.durationMs) : ''}</td>
              <td class="details">${this.renderFailure(step)}${step.reason && !step.error ? html`<div class="muted">${step.reason}</div>` : nothing}</td>
            </tr>`,
          )}
      </tbody>`,
    )}`;
  }

  private renderPrompt(request: PendingView): TemplateResult {
    return html`<li class="row"><span class="tag">${request.kind}</span> <span class="mono">${request.stepId}</span> ${request.prompt}
      <vscode-button data-action="open-approval" aria-label=${`Open the ${request.kind} of step ${request.stepId} in the editor`} @click=${() => this.sendAboutRun({ type: 'openApproval', stepId: request.stepId })}>Open</vscode-button></li>`;
  }

  /** A step that is the user's to do: its instructions in full, then Done and Failed (the host asks for the note or the reason). */
  private renderManualStep(request: PendingView): TemplateResult {
    const [heading, ...instructions] = request.prompt.split('\n');
    return html`<li class="manual-step" data-step-id=${request.stepId}>
      <div><strong>${heading}</strong></div>
      <div class="instructions">${instructions.join('\n').trim()}</div>
      <div class="row">
        <vscode-button data-action="manual-done" aria-label=${`Done: mark step ${request.stepId} done`} @click=${() => this.sendAboutRun({ type: 'markManualStep', stepId: request.stepId, done: true })}>Done</vscode-button>
        <vscode-button secondary data-action="manual-failed" aria-label=${`Failed: step ${request.stepId} could not be done`} @click=${() => this.sendAboutRun({ type: 'markManualStep', stepId: request.stepId, done: false })}>Failed</vscode-button>
      </div>
    </li>`;
  }

  /** Takes back the step's changes and those of the later steps that depend on it or changed the same files (the host says what it did). */
  private renderUndoFromHere(step: RunStepView): TemplateResult {
    const files = step.changedFiles === 1 ? '1 file' : `${step.changedFiles} files`;
    const label = `Undo from here: restore the ${files} step ${step.id} changed, and the changes of the later steps that depend on it or changed the same files`;
    return html`<vscode-button secondary data-action="undo-from-here" aria-label=${label}
      title="Restore what this step and the later steps that build on it changed"
      @click=${() => this.sendAboutRun({ type: 'undoFromHere', stepId: step.id })}>Undo from here</vscode-button>`;
  }

  private renderFailure(step: RunStepView, fullAt?: string): TemplateResult[] {
    return stepFailureLines(step, fullAt).map((line) => html`<div class=${failureClass[line.kind]}>${line.text}</div>`);
  }

  /** Runs the step and every later step that depends on it again, keeping the results of the others (a new run). */
  private renderRunFromHere(step: RunStepView): TemplateResult {
    return html`<vscode-button secondary data-action="run-from-here" aria-label=${`Run from here: run step ${step.id} and the steps that depend on it again`}
      title="Run this step and the later steps that depend on it again, keeping the other steps' results"
      @click=${() => this.sendAboutRun({ type: 'runFromHere', stepId: step.id })}>Run from here</vscode-button>`;
  }

  /**
   * One step's row. `over`: the run has ended, so every step offers Run from here; `undoable`: it is
   * also not undone as a whole, so a step that changed files offers Undo from here.
   */
  /** `listed`: the steps whose failure the summary's Failures says in full; their row says its first line. */
  private renderStep(step: RunStepView, index: number, { over, undoable, listed }: { over: boolean; undoable: boolean; listed: ReadonlySet<string> }): TemplateResult {
    return html`<tr class="run-step" data-step-id=${step.id} data-status=${step.status}>
      <td class="muted">${index + 1}</td>
      <td><strong class="bounded-title">${titleWithCode(step.title)}</strong> <span class="muted mono">${step.id} · ${step.runner}</span></td>
      <td><span class="status s-${stepDot(step)}"><span class="status-dot"></span><span class="step-status">${step.statusLabel ?? formatStatus(step.status)}</span></span></td>
      <td>${attemptsText(step)}</td>
      <td class="time">${step.durationMs !== undefined ? formatDuration(step.durationMs) : ''}</td>
      <td class="details">
        ${step.feedback === undefined ? nothing : html`<div class="muted" data-role="step-feedback">You rejected a change and said: “${step.feedback}”. The agent revises it.</div>`}
        ${step.progress ? html`<div class="muted" data-role="step-progress">${progressText(step.progress, step.percent)}</div>` : nothing}
        ${step.progress && step.percent !== undefined
          ? html`<vscode-progress-bar class="step-progress" aria-label=${`${step.title}: ${step.percent}%`} .value=${step.percent} .max=${100}></vscode-progress-bar>`
          : nothing}
        ${this.renderFailure(step, listed.has(step.id) ? 'Failures' : undefined)}
        ${step.reason && !step.error ? html`<div class="muted">${step.reason}</div>` : nothing}
        ${step.resultPreview ? html`<div class="muted mono">${step.resultPreview}</div>` : nothing}
        ${step.changesUndone ? html`<div class="muted" data-role="changes-undone">Changes undone: the files no longer hold this step's work.</div>` : nothing}
        ${undoable && step.changedFiles ? this.renderUndoFromHere(step) : nothing}
        ${over ? this.renderRunFromHere(step) : nothing}
      </td>
    </tr>`;
  }
}

customElements.define('plan-run', RunViewElement);

/**
 * The output pane of a step without output: a step that ended without doing its work says how it ended ("No output:
 * rejected by you."), not that it "printed nothing", which reads as work done quietly.
 */
function noOutput(step: RunStepView, live: boolean): string {
  if (step.status === 'skipped' || step.status === 'failed') return `No output: ${step.statusLabel ?? step.status}.`;
  if (step.status === 'awaiting_user') return 'No output: this step is yours to do.';
  if (live) return 'No output yet.';
  // A step a reload cut off did not print nothing: it did not finish (a second trial).
  return step.status === 'completed' ? 'No output: the step printed nothing.' : 'No output: the step did not finish.';
}

