import { LitElement, css, html, nothing, type TemplateResult } from 'lit';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import { contextTagsSchema } from '../src/shared/stepEditSchema';
import { tieToError } from './fieldDescription';
import { EditRequest } from './editRequest';
import { emitAction } from './panelAction';
import { panelStyles } from './panelStyles';
import { namesOf } from './stepFormModel';
import type { ShownPlan } from '../src/shared/panelProtocol';
import { topicsNote } from './topicsText';

type TextField = HTMLElement & { value?: string; updateComplete?: Promise<unknown> };

/**
 * The plan's topics (`contextTags`, which give every agent step the skills tagged with one
 * of them), shown in the review with an Edit button that opens a one-field form: the topics
 * comma-separated, with the workspace's skill tags named under it, validated with the host's
 * schema. Save sends one `setContextTags` edit and closes the form once the host took it (a refusal keeps what was
 * typed); Save, Cancel and Escape return focus to Edit.
 */
export class PlanTopicsElement extends LitElement {
  static override properties = {
    topics: { attribute: false },
    skillTags: { attribute: false },
    plan: { attribute: false },
    locked: { attribute: false },
    editing: { state: true },
    error: { state: true },
  };
  static override styles = [
    panelStyles,
    css`
      .topics { display: flex; gap: 8px; align-items: baseline; flex-wrap: wrap; margin: 4px 0; }
      form { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 6px 12px; align-items: center; margin: 4px 0 8px; }
      .field-error, .field-note { grid-column: 2; margin-top: -4px; overflow-wrap: anywhere; }
      .field-note { color: var(--vscode-descriptionForeground); }
      .buttons { grid-column: 1 / -1; display: flex; gap: 8px; }
      vscode-textfield { width: 100%; }
    `,
  ];
  topics: readonly string[] = [];
  skillTags: readonly string[] | undefined;
  /** The plan shown: the edit names it (the host takes it only while that version is under review). */
  plan: ShownPlan | undefined;
  /** Why editing the topics is off now (Regenerate is under way), or `undefined`. */
  locked: string | undefined;
  editing = false;
  error: string | undefined;

  override render(): TemplateResult {
    if (!this.editing) {
      return html`<div class="topics">
        <span class="muted" title="Every agent step is given the workspace's skills tagged with one of the plan's topics">Topics:</span>
        <span data-topics>${this.topics.length > 0 ? this.topics.join(', ') : 'none'}</span>
        <button class="icon-button" data-action="edit-topics" aria-label="Edit the plan's topics" title=${this.locked ?? 'Edit'} ?disabled=${this.locked !== undefined} @click=${() => this.open()}>Edit</button>
      </div>`;
    }
    const note = topicsNote(this.skillTags);
    return html`<form aria-label="Edit the plan's topics" novalidate @submit=${(event: Event) => this.save(event)} @keydown=${this.onKey}>
      <label for="topics-field">Topics</label>
      <vscode-textfield id="topics-field" name="topics" .label=${'Topics'} placeholder="e.g. testing, docs" .value=${this.topics.join(', ')} ?invalid=${this.error !== undefined}></vscode-textfield>
      ${this.error === undefined ? nothing : html`<div class="field-error error" id="topics-error" role="alert">${this.error}</div>`}
      ${note === '' ? nothing : html`<div class="field-note" id="topics-note">${note}</div>`}
      <div class="buttons">
        <vscode-button data-action="save-topics" ?disabled=${this.locked !== undefined} title=${this.locked ?? ''} @click=${() => this.save()}>Save</vscode-button>
        <vscode-button secondary data-action="cancel-topics" @click=${() => this.close()}>Cancel</vscode-button>
        ${this.locked === undefined ? nothing : html`<span class="muted form-locked">${this.locked}</span>`}
      </div>
    </form>`;
  }

  override updated(changed: Map<string, unknown>): void {
    if (this.editing) void this.describeField(changed.has('editing') || changed.has('error'));
  }

  /** Ties the field to its error and note, and focuses it when the form opened or refused the topics. */
  private async describeField(focus: boolean): Promise<void> {
    const field = this.field();
    if (!field) return;
    await field.updateComplete;
    tieToError(field, this.renderRoot.querySelector<HTMLElement>('#topics-error'), this.renderRoot.querySelector<HTMLElement>('#topics-note'));
    if (focus) field.focus();
  }

  private field(): TextField | null {
    return this.renderRoot.querySelector<TextField>('vscode-textfield[name="topics"]');
  }

  /** The edit sent, until the host answers: the form closes when it was taken, and keeps what was typed when not. */
  private readonly request = new EditRequest(this, () => this.close());

  private open(): void {
    this.error = undefined;
    this.editing = true;
  }

  private close(): void {
    this.request.forget();
    this.editing = false;
    this.error = undefined;
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>('button[data-action="edit-topics"]')?.focus());
  }

  private readonly onKey = (event: KeyboardEvent): void => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      this.close();
    } else if (event.key === 'Enter' && (event.target as HTMLElement).getAttribute('name') === 'topics') {
      // Handled here, not left to the browser: its keypress would land on Edit, focused once the form closed, and open it again.
      event.preventDefault();
      this.save();
    }
  };

  private save(event?: Event): void {
    event?.preventDefault();
    // Save's click and a submit can come together: one edit at a time, until the host answers it
    if (!this.editing || !this.plan || this.locked !== undefined || this.request.sentOn !== undefined) return;
    // each once before counting: a repeated topic is not one more against the limit
    const parsed = contextTagsSchema.safeParse([...new Set(namesOf(this.field()?.value))]);
    if (!parsed.success) {
      this.error = parsed.error.issues[0]?.message ?? 'These topics cannot be saved.';
      return;
    }
    emitAction(this, { type: 'edit', plan: this.plan, edit: { type: 'setContextTags', tags: parsed.data }, request: this.request.send(this.plan.version) });
  }
}

customElements.define('plan-topics', PlanTopicsElement);
