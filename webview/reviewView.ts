import { LitElement, css, html, nothing, type TemplateResult } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-textarea/index.js';
import type { WebviewToHostMessage } from '../src/shared/panelProtocol';
import type { ReviewView } from '../src/shared/panelViewModel';
import { renderChanges, renderCritique } from './critiqueSection';
import { emitAction } from './panelAction';
import { panelStyles } from './panelStyles';
import { renderStepCard, type StepCardContext } from './stepCard';
import './stepEditForm';

/**
 * Review mode: the objective and plan version, what Regenerate changed, the critic, the
 * steps with their actions and inline edit form, Add step, Regenerate with feedback, and
 * Start / Cancel.
 */
export class ReviewViewElement extends LitElement {
  static override properties = { review: { attribute: false }, editing: { state: true }, adding: { state: true }, feedback: { state: true }, allFindings: { state: true } };
  static override styles = [
    panelStyles,
    css`
      ol.steps { list-style: none; padding: 0; margin: 0; }
      .actions { position: sticky; bottom: 0; padding: 8px 0; background: var(--vscode-editor-background); border-top: 1px solid var(--vscode-panel-border, var(--vscode-contrastBorder, transparent)); }
      .regenerate vscode-textarea { width: 100%; }
      header .tag { font-size: 0.9em; }
    `,
  ];
  review: ReviewView | undefined;
  editing: string | undefined;
  adding = false;
  feedback = '';
  /** Whether every finding of the critic shows (a long list starts folded). */
  allFindings = false;

  private readonly send = (message: WebviewToHostMessage): void => emitAction(this, message);

  override connectedCallback(): void {
    super.connectedCallback();
    this.addEventListener('close-form', () => {
      this.editing = undefined;
      this.adding = false;
    });
  }

  override render(): TemplateResult | typeof nothing {
    const review = this.review;
    if (!review) return nothing;
    const changed = new Map(review.changes?.changed.map((change) => [change.id, change.fields]) ?? []);
    const added = new Set(review.changes?.added ?? []);
    const ctx = (stepId: string): StepCardContext => ({
      total: review.steps.length,
      editing: this.editing === stepId,
      added: added.has(stepId),
      changedFields: changed.get(stepId),
      send: this.send,
      edit: (id) => (this.editing = id),
    });
    return html`<header>
        <h1 class="objective">${review.objective}</h1>
        <div class="row">
          <span class="tag plan-version" aria-label=${`Plan version ${review.planVersion}`}>version ${review.planVersion}</span>
          <span class="muted">${review.steps.length} step${review.steps.length === 1 ? '' : 's'}</span>
          ${review.regenerating ? html`<span role="status">Regenerating…</span>` : nothing}
        </div>
      </header>
      ${renderChanges(review.changes)} ${renderCritique(review, this.allFindings, () => (this.allFindings = true))}
      <section aria-labelledby="steps-heading">
        <div class="row"><h2 id="steps-heading">Steps</h2><span class="spacer"></span>
          <vscode-button secondary data-action="add" aria-label="Add a step" aria-expanded=${this.adding ? 'true' : 'false'} @click=${() => (this.adding = !this.adding)}>Add step</vscode-button>
        </div>
        ${this.adding ? html`<div class="card"><step-edit-form .tools=${review.tools}></step-edit-form></div>` : nothing}
        <ol class="steps">
          ${repeat(
            review.steps,
            (step) => step.id,
            (step) => renderStepCard(step, ctx(step.id), this.editing === step.id ? html`<step-edit-form .step=${step} .tools=${review.tools}></step-edit-form>` : nothing),
          )}
        </ol>
      </section>
      <section class="regenerate" aria-labelledby="regenerate-heading">
        <h2 id="regenerate-heading">Regenerate</h2>
        <vscode-textarea name="feedback" label="Feedback for the planner" placeholder="What should the planner change? e.g. fewer steps, read the tests first" rows="2" .value=${this.feedback} @input=${(event: Event) => (this.feedback = (event.target as HTMLInputElement).value)}></vscode-textarea>
        <div class="row">
          <vscode-button secondary data-action="regenerate" aria-label="Regenerate the plan with this feedback" ?disabled=${review.regenerating || review.regenerateBlockedReason !== undefined || this.feedback.trim() === ''} title=${review.regenerateBlockedReason ?? 'Plan again with this feedback'} @click=${() => this.regenerate()}>Regenerate</vscode-button>
          ${review.regenerateBlockedReason ? html`<span class="muted regenerate-blocked">${review.regenerateBlockedReason}</span>` : nothing}
        </div>
      </section>
      <div class="actions row">
        <vscode-button data-action="start" aria-label="Start the plan" ?disabled=${review.startBlockedReason !== undefined} title=${review.startBlockedReason ?? 'Run the plan now'} @click=${() => this.send({ type: 'start' })}>Start</vscode-button>
        <vscode-button secondary data-action="cancel" aria-label="Cancel the review and close the panel" @click=${() => this.send({ type: 'cancel' })}>Cancel</vscode-button>
        ${review.startBlockedReason ? html`<span class="muted start-blocked">${review.startBlockedReason}</span>` : nothing}
      </div>`;
  }

  private regenerate(): void {
    const feedback = this.feedback.trim();
    if (feedback === '') return;
    this.send({ type: 'regenerate', feedback });
    this.feedback = '';
  }
}

customElements.define('plan-review', ReviewViewElement);
