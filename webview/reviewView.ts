import { LitElement, css, html, nothing, type TemplateResult } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-checkbox/index.js';
import '@vscode-elements/elements/dist/vscode-textarea/index.js';
import type { PanelEdit, ShownPlan, WebviewToHostMessage } from '../src/shared/panelProtocol';
import type { ReviewView } from '../src/shared/panelViewModel';
import { renderChanges, renderCritique } from './critiqueSection';
import { focusAfterEdit, type FocusTarget, type PendingFocus, type StepControl } from './focusAfterEdit';
import { emitAction, formValuesEvent, reviewDraftEvent } from './panelAction';
import { panelStyles } from './panelStyles';
import { renderStepCard, type StepCardContext } from './stepCard';
import { closeFormEvent } from './stepEditForm';
import './planTopics';
import { showsTopics } from './topicsText';
import { renderVersionPicker } from './versionPicker';
import { renderObjective } from './objectiveHeading';
import { closeForm, reviewLocks } from './reviewLocks';
import type { ReviewDraft } from './panelStore';
import type { FormValues } from './stepFormModel';

/**
 * Review mode: the objective and plan version (with the earlier versions to go back to),
 * what Regenerate changed, the critic, the steps with their actions and inline edit form,
 * Add step, Regenerate with feedback, and Start / Cancel. Focus follows the user's actions:
 * a form returns it to the button that opened it, a removed or moved step hands it to the
 * step that takes its place or to the moved step, Regenerate keeps it on the feedback
 * field, going back to a version puts it on the version list.
 */
export class ReviewViewElement extends LitElement {
  static override properties = { review: { attribute: false }, version: { attribute: false }, editing: { state: true }, adding: { state: true }, feedback: { state: true }, allFindings: { state: true }, pickedVersion: { state: true }, stopAtEstimate: { state: true } };
  static override styles = [
    panelStyles,
    css`
      ol.steps { list-style: none; padding: 0; margin: 0; }
      .estimate-lines { margin: 4px 0 8px; padding-left: 1.2em; }
      .actions { position: sticky; bottom: 0; padding: 8px 0; background: var(--vscode-editor-background); border-top: 1px solid var(--vscode-panel-border, var(--vscode-contrastBorder, transparent)); }
      .regenerate vscode-textarea { width: 100%; }
      .regenerate label { display: block; margin-bottom: 4px; }
      header .tag { font-size: 0.9em; }
      .model-needed { padding: 6px 10px; margin: 8px 0; border-radius: 3px; border: 1px solid var(--vscode-inputValidation-errorBorder, var(--vscode-errorForeground)); border-left-width: 4px; }
      .model-needed p { margin: 0 0 6px; }
      .version-picker select { font: inherit; color: var(--vscode-dropdown-foreground); background: var(--vscode-dropdown-background); border: 1px solid var(--vscode-dropdown-border, var(--vscode-contrastBorder, transparent)); border-radius: 2px; padding: 2px 4px; max-width: 32em; }
      .version-picker select:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: -1px; }
    `,
  ];
  review: ReviewView | undefined;
  /** The snapshot version the review came in: Start names it, so the host starts only the plan shown here. */
  version = 0;
  editing: string | undefined;
  adding = false;
  feedback = '';
  /** Start sets the run's budget from the estimate ("Stop the run at $0.40"). */
  stopAtEstimate = false;
  /** Whether every finding of the critic shows (a long list starts folded). */
  allFindings = false;
  /** The version picked in the version list (before going back to it). */
  pickedVersion: number | undefined;
  /**
   * What was typed and not sent when the panel was hidden or reloaded: the forms and feedback come back with it, once.
   * Not reactive: the app passes each draft back as it keeps it, which needs no render.
   */
  draft: ReviewDraft | undefined;
  private draftRestored = false;
  /** What the open forms' fields hold, as they report it (nothing until a field changed). */
  private formValues: { editing?: FormValues; adding?: FormValues } = {};

  private pendingFocus: PendingFocus | undefined;
  /** Set by "Go back to this version": the plan version shown then; focus goes to the version list once a newer one shows. */
  private restoredFrom: number | undefined;
  /**
   * The plan version a Regenerate was asked on, until a newer one comes: the feedback stays until then, so a Regenerate
   * that failed can be asked again (a trial's model error emptied the field).
   */
  private regeneratedFrom: number | undefined;
  private focusTarget: FocusTarget | undefined;

  /** What the plan is based on: "Read 7 files, 3 searches", each file a link that opens it, the searches and your answers. */
  private renderBasis(review: ReviewView): TemplateResult | typeof nothing {
    const basis = review.basis;
    if (!basis) return nothing;
    return html`<section class="plan-basis" aria-labelledby="basis-heading">
      <h2 id="basis-heading">Based on</h2>
      <p class="basis-summary">${basis.summary}</p>
      ${basis.files.length > 0
        ? html`<ul class="basis-files">
            ${basis.files.map(
              (path) => html`<li><button class="link mono" aria-label=${`Open ${path}`} @click=${() => this.send({ type: 'openFile', path })}>${path}</button></li>`,
            )}
          </ul>`
        : nothing}
      ${basis.searches.length > 0 ? html`<p class="basis-searches muted">Searched: ${basis.searches.map((search) => `"${search}"`).join(', ')}</p>` : nothing}
      ${basis.answers.length > 0
        ? html`<dl class="basis-answers">
            ${basis.answers.map((answer) => html`<dt>${answer.question}</dt><dd>${answer.answer === '' ? html`<span class="muted">no answer: the planner chose</span>` : answer.answer}</dd>`)}
          </dl>`
        : nothing}
    </section>`;
  }

  private readonly send = (message: WebviewToHostMessage): void => {
    this.pendingFocus = undefined;
    this.restoredFrom = undefined;
    emitAction(this, message);
  };

  /** Sends an edit made with `control` of the step at `index`; focus moves once the new plan version shows it. */
  private readonly sendEdit = (edit: PanelEdit, control: StepControl, index: number): void => {
    const plan = this.shownPlan();
    if (!plan) return;
    this.send({ type: 'edit', plan, edit });
    this.pendingFocus = { edit, control, index, planVersion: plan.version };
  };

  /** The plan shown, as review actions name it: the host acts only while that version is still the one under review. */
  private shownPlan(): ShownPlan | undefined {
    return this.review && { id: this.review.planId, version: this.review.planVersion };
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // Only the form that closed goes (with what it held): another open form keeps what was typed in it.
    this.addEventListener(closeFormEvent, (event: Event) => {
      const { stepId } = (event as CustomEvent<{ stepId: string | undefined }>).detail;
      const opener: FocusTarget = stepId !== undefined ? { type: 'step', stepId, control: 'edit' } : { type: 'add' };
      const open = closeForm({ editing: this.editing, adding: this.adding }, stepId);
      if (open.editing !== this.editing) this.formValues.editing = undefined;
      if (!open.adding) this.formValues.adding = undefined;
      this.editing = open.editing;
      this.adding = open.adding;
      this.focusTarget = opener;
    });
    this.addEventListener(formValuesEvent, (event: Event) => {
      const { stepId, values } = (event as CustomEvent<{ stepId: string | undefined; values: FormValues }>).detail;
      if (stepId === undefined) this.formValues.adding = values;
      else if (stepId === this.editing) this.formValues.editing = values;
      this.sendDraft();
    });
  }

  /** Hands what was typed and not sent to the app, which keeps it in the panel's saved state. */
  private sendDraft(): void {
    const review = this.review;
    if (!review || !this.draftRestored) return;
    const draft: ReviewDraft = {
      planId: review.planId,
      ...(this.editing !== undefined ? { editing: { stepId: this.editing, values: this.formValues.editing ?? {} } } : {}),
      ...(this.adding ? { adding: this.formValues.adding ?? {} } : {}),
      ...(this.feedback !== '' ? { feedback: this.feedback } : {}),
    };
    this.dispatchEvent(new CustomEvent<ReviewDraft>(reviewDraftEvent, { detail: draft, bubbles: true, composed: true }));
  }

  /** Opens the forms and puts back the feedback the draft held (the page was torn down by a hide or a reload). */
  private restoreDraft(review: ReviewView): void {
    this.draftRestored = true;
    const draft = this.draft;
    if (draft?.planId !== review.planId) return;
    const editing = draft.editing;
    if (editing && review.steps.some((step) => step.id === editing.stepId)) {
      this.editing = editing.stepId;
      if (Object.keys(editing.values).length > 0) this.formValues.editing = editing.values;
    }
    if (draft.adding) {
      this.adding = true;
      if (Object.keys(draft.adding).length > 0) this.formValues.adding = draft.adding;
    }
    this.feedback = draft.feedback ?? '';
  }

  /** Puts focus on the plan's heading (after the panel switched to review). */
  focusHeading(): void {
    this.renderRoot.querySelector<HTMLElement>('h1')?.focus();
  }

  /** Puts focus where a reader continues after the focused control went away: the heading. */
  focusFallback(): void {
    this.focusHeading();
  }

  override willUpdate(changed: Map<string, unknown>): void {
    if (!this.draftRestored && this.review) this.restoreDraft(this.review);
    const pending = this.pendingFocus;
    // The host's answer to a pick (the version it shows, or the plan changed) replaces the pick.
    if (changed.has('review')) this.pickedVersion = undefined;
    if (changed.has('review') && this.regeneratedFrom !== undefined && this.review && this.review.planVersion > this.regeneratedFrom) {
      this.regeneratedFrom = undefined;
      this.feedback = '';
    }
    if (!changed.has('review') || !pending || !this.review || this.review.planVersion <= pending.planVersion) return;
    this.pendingFocus = undefined;
    this.focusTarget = focusAfterEdit(pending, this.review.steps);
  }

  override updated(changed: Map<string, unknown>): void {
    if (changed.has('editing') || changed.has('adding') || changed.has('feedback')) this.sendDraft();
    if (this.restoredFrom !== undefined && this.review && this.review.planVersion > this.restoredFrom) {
      // the button went disabled with the version it brought back: the list it came from keeps focus
      this.restoredFrom = undefined;
      this.renderRoot.querySelector<HTMLElement>('#plan-version')?.focus();
    }
    const target = this.focusTarget;
    if (!target) return;
    this.focusTarget = undefined;
    const card = target.type === 'step' ? this.renderRoot.querySelector<HTMLElement>(`li.step[data-step-id="${CSS.escape(target.stepId)}"]`) : null;
    const element =
      target.type === 'add'
        ? this.renderRoot.querySelector<HTMLElement>('vscode-button[data-action="add"]')
        : target.control === 'card'
          ? card
          : card?.querySelector<HTMLElement>(`button[data-action="${target.control}"]`);
    element?.focus();
  }

  override render(): TemplateResult | typeof nothing {
    const review = this.review;
    if (!review) return nothing;
    const shown: ShownPlan = { id: review.planId, version: review.planVersion };
    const locks = reviewLocks(review, { editing: this.editing, adding: this.adding });
    const changed = new Map(review.changes?.changed.map((change) => [change.id, change.fields]) ?? []);
    const added = new Set(review.changes?.added ?? []);
    const ctx = (stepId: string): StepCardContext => ({
      total: review.steps.length,
      editing: this.editing === stepId,
      added: added.has(stepId),
      changedFields: changed.get(stepId),
      locked: locks.edit,
      send: this.sendEdit,
      // No form opens while Regenerate runs (its plan replaces this one); closing one always may.
      edit: (id) => {
        if (id !== undefined && locks.edit !== undefined) return;
        this.editing = id;
        this.formValues.editing = undefined;
      },
    });
    const viewing = review.viewing;
    const steps = viewing?.steps ?? review.steps;
    return html`<header>
        ${renderObjective(review.objective)}
        <div class="row">
          ${viewing
            ? html`<span class="tag plan-version viewing-version">version ${viewing.version} · earlier version, read only</span>`
            : html`<span class="tag plan-version">version ${review.planVersion}</span>`}
          <span class="muted">${steps.length} step${steps.length === 1 ? '' : 's'}</span>
          ${review.regenerating ? html`<span role="status">Regenerating…</span>` : nothing}
        </div>
        ${locks.edit ? html`<p class="muted edit-locked">${locks.edit}</p>` : nothing}
        ${renderVersionPicker(review, this.pickedVersion, (version) => this.pickVersion(version), (version) => this.restoreVersion(version), locks.versions)}
        ${showsTopics(review.contextTags, review.skillTags)
          ? html`<plan-topics .topics=${review.contextTags} .skillTags=${review.skillTags} .plan=${shown} .locked=${locks.edit}></plan-topics>`
          : nothing}
      </header>
      ${this.renderBasis(review)} ${renderChanges(review.changes)} ${renderCritique(review, this.allFindings, () => (this.allFindings = true))}
      <section aria-labelledby="steps-heading">
        <div class="row"><h2 id="steps-heading">Steps</h2><span class="spacer"></span>
          <vscode-button secondary data-action="add" aria-expanded=${this.adding ? 'true' : 'false'} ?disabled=${locks.edit !== undefined && !this.adding} title=${locks.edit ?? 'Add a step to the plan'} @click=${() => this.toggleAdd(locks.edit)}>Add step</vscode-button>
        </div>
        ${this.adding ? html`<div class="card"><step-edit-form .tools=${review.tools} .templates=${review.toolTemplates ?? {}} .toolParameters=${review.toolParameters ?? {}} .stepIds=${review.steps.map((step) => step.id)} .skills=${review.skills} .planId=${review.planId} .planVersion=${review.planVersion} .locked=${locks.edit} .draftValues=${this.formValues.adding} .needingModel=${review.kindsNeedingModel ?? []}></step-edit-form></div>` : nothing}
        <ol class="steps">
          ${viewing
            ? repeat(
                viewing.steps,
                (step) => `v${viewing.version}:${step.id}`,
                (step) => renderStepCard(step, { ...ctx(step.id), total: viewing.steps.length, editing: false, added: false, changedFields: undefined, readOnly: true }, nothing),
              )
            : repeat(
            review.steps,
            (step) => step.id,
            (step) => renderStepCard(step, ctx(step.id), this.editing === step.id ? html`<step-edit-form .step=${step} .tools=${review.tools} .templates=${review.toolTemplates ?? {}} .toolParameters=${review.toolParameters ?? {}} .skills=${review.skills} .planId=${review.planId} .planVersion=${review.planVersion} .locked=${locks.edit} .draftValues=${this.formValues.editing} .needingModel=${review.kindsNeedingModel ?? []}></step-edit-form>` : nothing),
          )}
        </ol>
      </section>
      <section class="regenerate" aria-labelledby="regenerate-heading">
        <h2 id="regenerate-heading">Regenerate</h2>
        <label for="feedback">Feedback for the planner</label>
        <vscode-textarea id="feedback" name="feedback" .label=${'Feedback for the planner'} placeholder="What should the planner change? e.g. fewer steps, read the tests first" rows="2" .value=${this.feedback} @input=${(event: Event) => (this.feedback = (event.target as HTMLInputElement).value)}></vscode-textarea>
        <div class="row">
          <vscode-button secondary data-action="regenerate" aria-label="Regenerate the plan with this feedback" ?disabled=${review.regenerating || review.regenerateBlockedReason !== undefined || viewing !== undefined || this.feedback.trim() === ''} title=${review.regenerateBlockedReason ?? (viewing ? locks.edit : undefined) ?? 'Plan again with this feedback'} @click=${() => this.regenerate()}>Regenerate</vscode-button>
          ${review.regenerateBlockedReason ? html`<span class="muted regenerate-blocked">${review.regenerateBlockedReason}</span>` : nothing}
        </div>
      </section>
      ${review.modelNeeded
        ? html`<div class="notice model-needed" role="alert">
            <p>${review.modelNeeded.message}</p>
            <div class="row">
              <vscode-button data-action="make-manual" ?disabled=${locks.edit !== undefined} title=${locks.edit ?? 'Make these steps yours to do'} @click=${() => this.send({ type: 'edit', plan: shown, edit: { type: 'makeManual', stepIds: review.modelNeeded?.stepIds ?? [] } })}>${(review.modelNeeded.stepIds.length === 1 ? 'Do it myself' : 'Do them myself')}</vscode-button>
              <vscode-button secondary data-action="set-up-model" @click=${() => this.send({ type: 'setUpModel' })}>Set up a model</vscode-button>
            </div>
          </div>`
        : nothing}
      ${review.manualSummary ? html`<p class="manual-summary">${review.manualSummary}</p>` : nothing}
      ${review.estimate
        ? html`<section class="estimate" aria-labelledby="estimate-heading">
            <h2 id="estimate-heading">Estimate</h2>
            <ul class="estimate-lines">${review.estimate.lines.map((line) => html`<li>${line.replace(/^Estimate: /, '').trim()}</li>`)}</ul>
            ${review.estimate.stopAt
              ? html`<vscode-checkbox data-action="stop-at-estimate" label=${`Stop the run at ${review.estimate.stopAt}`} ?checked=${this.stopAtEstimate} @change=${(event: Event) => (this.stopAtEstimate = (event.target as HTMLInputElement).checked)}></vscode-checkbox>`
              : nothing}
          </section>`
        : nothing}
      <div class="actions row">
        <vscode-button data-action="start" aria-label="Start the plan" ?disabled=${locks.start !== undefined} title=${locks.start ?? 'Run the plan now'} @click=${() => this.send(this.stopAtEstimate && review.estimate?.stopAt ? { type: 'start', version: this.version, stopAtEstimate: true } : { type: 'start', version: this.version })}>Start</vscode-button>
        <vscode-button secondary data-action="cancel" aria-label="Cancel the review and close the panel" @click=${() => this.send({ type: 'cancelReview', plan: shown })}>Cancel</vscode-button>
        <vscode-button secondary data-action="save-plan-file" aria-label="Save as file: write this plan to a .plan.json file" title="Save this version of the plan as a .plan.json file" @click=${() => this.send({ type: 'savePlanFile' })}>Save as file</vscode-button>
        <vscode-button secondary data-action="export-markdown" aria-label="Export as Markdown: open the plan as a checklist" title="Open the plan as a Markdown checklist, for a pull request" @click=${() => this.send({ type: 'exportMarkdown' })}>Export as Markdown</vscode-button>
        ${locks.start ? html`<span class="muted start-blocked">${locks.start}</span>` : nothing}
      </div>`;
  }

  /** Opens the Add step form (not while `locked`), or closes it with what it held. */
  private toggleAdd(locked: string | undefined): void {
    this.adding = !this.adding && locked === undefined;
    this.formValues.adding = undefined;
  }

  /** Shows version `version` (the newest: the plan itself), as the host sends it; the pick shows at once meanwhile. */
  private pickVersion(version: number): void {
    const plan = this.shownPlan();
    if (!plan) return;
    this.pickedVersion = version;
    emitAction(this, version === plan.version ? { type: 'viewVersion', plan } : { type: 'viewVersion', plan, version });
  }

  private restoreVersion(version: number): void {
    const plan = this.shownPlan();
    if (!plan) return;
    this.send({ type: 'restoreVersion', plan, version });
    this.restoredFrom = this.review?.planVersion;
  }

  private regenerate(): void {
    const feedback = this.feedback.trim();
    const plan = this.shownPlan();
    if (feedback === '' || !plan) return;
    this.send({ type: 'regenerate', plan, feedback });
    this.regeneratedFrom = this.review?.planVersion;
    // the button turns disabled while the planner works: focus stays where the next feedback goes
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>('vscode-textarea[name="feedback"]')?.focus());
  }
}

customElements.define('plan-review', ReviewViewElement);
