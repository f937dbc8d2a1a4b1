import { LitElement, css, html, nothing, type TemplateResult } from 'lit';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-checkbox/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-textarea/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import type { PanelEdit } from '../src/shared/panelProtocol';
import type { StepView } from '../src/shared/panelViewModel';
import { fieldErrors, newStepSchema, stepPatchSchema } from '../src/shared/stepEditSchema';
import { emitAction } from './panelAction';
import { panelStyles } from './panelStyles';

const kinds = ['tool', 'agent', 'synthesis_gate', 'human_review', 'clarification'] as const;
const policies = ['stop', 'skip', 'retry', 'replan'] as const;

type Values = Record<string, string>;

/**
 * The inline form that edits a step (or adds one, when `step` is absent), validated with
 * the same zod schemas the host checks on arrival (`src/shared/stepEditSchema.ts`). Errors
 * show next to their field; a valid form sends one `edit` message and closes.
 */
export class StepEditForm extends LitElement {
  static override properties = { step: { attribute: false }, tools: { attribute: false }, insertAt: { attribute: false }, values: { state: true }, errors: { state: true } };
  static override styles = [
    panelStyles,
    css`
      form { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 6px 12px; align-items: center; margin-top: 8px; }
      label { color: var(--vscode-descriptionForeground); }
      .field-error { grid-column: 2; margin-top: -4px; }
      .buttons { grid-column: 1 / -1; display: flex; gap: 8px; }
      vscode-textfield, vscode-textarea, vscode-single-select { width: 100%; }
    `,
  ];
  step: StepView | undefined;
  tools: readonly string[] = [];
  insertAt: number | undefined;
  values: Values = {};
  errors: Record<string, string> = {};

  override connectedCallback(): void {
    super.connectedCallback();
    const step = this.step;
    this.values = step
      ? { title: step.title, kind: step.kind, tool: step.tool ?? '', args: step.args ?? '{}', agent: step.agent ?? '', input: step.input ?? '', dependsOn: step.dependsOn.join(', '), onFailure: step.onFailure, maxAttempts: String(step.maxAttempts), critical: String(step.critical), verification: step.verification ?? '' }
      : { id: '', title: '', kind: 'tool', tool: this.tools[0] ?? '', args: '{}', agent: 'default', input: '', dependsOn: '' };
  }

  override firstUpdated(): void {
    (this.renderRoot.querySelector('vscode-textfield') as HTMLElement | null)?.focus();
  }

  private readonly onField = (event: Event): void => {
    const target = event.target as HTMLElement & { value?: string; checked?: boolean; name?: string };
    const name = target.getAttribute('name');
    if (!name) return;
    this.values = { ...this.values, [name]: target.tagName === 'VSCODE-CHECKBOX' ? String(target.checked === true) : String(target.value ?? '') };
  };

  private submit(event?: Event): void {
    event?.preventDefault();
    const v = this.values;
    const errors: Record<string, string> = {};
    let args: Record<string, unknown> | undefined;
    if (v.kind === 'tool') {
      try {
        const parsed: unknown = JSON.parse(v.args?.trim() || '{}');
        if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) errors.args = 'Arguments must be a JSON object, e.g. {"path": "README.md"}.';
        else args = parsed as Record<string, unknown>;
      } catch (error) {
        errors.args = `Arguments are not valid JSON: ${(error as Error).message}`;
      }
    }
    const dependsOn = (v.dependsOn ?? '').split(',').map((id) => id.trim()).filter((id) => id !== '');
    const byKind = v.kind === 'tool' ? { ...(v.tool ? { tool: v.tool } : {}), ...(args ? { args } : {}) } : { ...(v.agent?.trim() ? { agent: v.agent.trim() } : {}), input: v.input ?? '' };
    if (this.step) {
      const patch = { title: v.title ?? '', kind: v.kind, dependsOn, onFailure: v.onFailure, maxAttempts: Number(v.maxAttempts), critical: v.critical === 'true', verification: v.verification ?? '', ...byKind };
      const parsed = stepPatchSchema.safeParse(patch);
      if (!parsed.success) Object.assign(errors, { ...fieldErrors(parsed.error), ...errors });
      this.errors = errors;
      if (parsed.success && Object.keys(errors).length === 0) this.finish({ type: 'updateStep', stepId: this.step.id, patch: parsed.data });
      return;
    }
    const parsed = newStepSchema.safeParse({ id: v.id ?? '', title: v.title ?? '', kind: v.kind, dependsOn, ...byKind, ...(v.kind === 'tool' ? {} : { input: v.input || v.title || '' }) });
    if (!parsed.success) Object.assign(errors, { ...fieldErrors(parsed.error), ...errors });
    this.errors = errors;
    if (parsed.success && Object.keys(errors).length === 0) this.finish({ type: 'addStep', step: parsed.data, ...(this.insertAt === undefined ? {} : { index: this.insertAt }) });
  }

  private finish(edit: PanelEdit): void {
    emitAction(this, { type: 'edit', edit });
    this.close();
  }

  private close(): void {
    this.dispatchEvent(new CustomEvent('close-form', { bubbles: true, composed: true }));
  }

  private onKey = (event: KeyboardEvent): void => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      this.close();
    } else if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      this.submit();
    }
  };

  override render(): TemplateResult {
    const v = this.values;
    const id = this.step?.id ?? 'new';
    const label = this.step ? `Edit step ${id}` : 'Add a step';
    return html`<form aria-label=${label} @input=${this.onField} @change=${this.onField} @keydown=${this.onKey} @submit=${(event: Event) => this.submit(event)} novalidate>
      ${this.step ? nothing : this.text('id', 'Id', 'e.g. S010')}
      ${this.text('title', 'Title')}
      ${this.select('kind', 'Kind', kinds)}
      ${v.kind === 'tool'
        ? html`${this.select('tool', 'Tool', this.tools.length > 0 ? this.tools : [v.tool ?? ''])} ${this.area('args', 'Arguments (JSON)', true)}`
        : html`${this.text('agent', 'Agent')} ${this.area('input', 'Input', false)}`}
      ${this.text('dependsOn', 'Depends on', 'ids, comma-separated')}
      ${this.step
        ? html`${this.select('onFailure', 'On failure', policies)} ${this.text('maxAttempts', 'Attempts')}
            <label for="critical-${id}">Critical</label><vscode-checkbox id="critical-${id}" name="critical" label="Critical: a failure stops the run" ?checked=${v.critical === 'true'}></vscode-checkbox>
            ${this.text('verification', 'Verification', 'e.g. result.length > 0')}`
        : nothing}
      <div class="buttons">
        <vscode-button data-action="save" aria-label=${this.step ? `Save step ${id}` : 'Add this step'} @click=${() => this.submit()}>${this.step ? 'Save' : 'Add step'}</vscode-button>
        <vscode-button secondary data-action="cancel-edit" aria-label="Cancel editing" @click=${() => this.close()}>Cancel</vscode-button>
      </div>
    </form>`;
  }

  private text(name: string, label: string, placeholder = ''): TemplateResult {
    const fieldId = `${name}-${this.step?.id ?? 'new'}`;
    return html`<label for=${fieldId}>${label}</label>
      <vscode-textfield id=${fieldId} name=${name} label=${label} placeholder=${placeholder} .value=${this.values[name] ?? ''} ?invalid=${this.errors[name] !== undefined}></vscode-textfield>
      ${this.errorOf(name)}`;
  }

  private area(name: string, label: string, monospace: boolean): TemplateResult {
    const fieldId = `${name}-${this.step?.id ?? 'new'}`;
    return html`<label for=${fieldId}>${label}</label>
      <vscode-textarea id=${fieldId} name=${name} label=${label} rows="4" ?monospace=${monospace} .value=${this.values[name] ?? ''} ?invalid=${this.errors[name] !== undefined}></vscode-textarea>
      ${this.errorOf(name)}`;
  }

  private select(name: string, label: string, options: readonly string[]): TemplateResult {
    const fieldId = `${name}-${this.step?.id ?? 'new'}`;
    const value = this.values[name] ?? '';
    return html`<label for=${fieldId}>${label}</label>
      <vscode-single-select id=${fieldId} name=${name} aria-label=${label} .value=${value}>
        ${options.map((option) => html`<vscode-option value=${option} ?selected=${option === value}>${option}</vscode-option>`)}
      </vscode-single-select>
      ${this.errorOf(name)}`;
  }

  private errorOf(name: string): TemplateResult | typeof nothing {
    const message = this.errors[name];
    return message === undefined ? nothing : html`<div class="field-error error" role="alert" data-field-error=${name}>${message}</div>`;
  }
}

customElements.define('step-edit-form', StepEditForm);
