import { LitElement, css, html, nothing, type TemplateResult } from 'lit';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-checkbox/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-textarea/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import type { StepView } from '../src/shared/panelViewModel';
import type { StepKind } from '../src/shared/vocabulary';
import { tieToError } from './fieldDescription';
import { EditRequest } from './editRequest';
import { revealScroll } from './formReveal';
import { emitAction, formValuesEvent } from './panelAction';
import { panelStyles } from './panelStyles';
import { typeaheadPick, typedAfter, type TypedPrefix } from './typeahead';
import {
  errorSummary,
  fieldSpecs,
  formFields,
  formToEdit,
  initialValues,
  withFieldValue,
  type FieldControl,
  type FieldName,
  type FieldSpec,
  type FormValues,
} from './stepFormModel';

/** Name of the event the form fires when it closes (after a valid Save, on Cancel or Escape); it bubbles out of shadow roots. */
export const closeFormEvent = 'close-form';

type FieldElement = HTMLElement & { value?: string; checked?: boolean; updateComplete?: Promise<unknown> };

/**
 * The inline form that edits a step (or adds one, when `step` is absent). Its fields come
 * from `stepFormModel` (which fields a kind has is data there, not markup here); each is
 * named by its visible label, validated with the host's zod schemas, and an invalid one is
 * marked invalid, described by its message, announced, and focused. Opening focuses the
 * first field and scrolls the whole form into view, above the review's sticky footer; a valid Save sends one `edit` message, and the form closes once the host says
 * it took it (`editResult`): an edit the host refuses leaves the form as it was, even when a
 * newer plan version (another change) showed before the refusal.
 */
export class StepEditForm extends LitElement {
  static override properties = {
    step: { attribute: false },
    tools: { attribute: false },
    skills: { attribute: false },
    planId: { attribute: false },
    planVersion: { attribute: false },
    locked: { attribute: false },
    insertAt: { attribute: false },
    templates: { attribute: false },
    toolParameters: { attribute: false },
    stepIds: { attribute: false },
    draftValues: { attribute: false },
    needingModel: { attribute: false },
    values: { state: true },
    errors: { state: true },
  };
  static override styles = [
    panelStyles,
    css`
      form { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 6px 12px; align-items: center; margin-top: 8px; }
      label { color: var(--vscode-foreground); }
      .field-error, .field-note { grid-column: 2; margin-top: -4px; overflow-wrap: anywhere; }
      .field-note { color: var(--vscode-descriptionForeground); }
      .buttons { grid-column: 1 / -1; display: flex; gap: 8px; }
      vscode-textfield, vscode-textarea, vscode-single-select { width: 100%; }
    `,
  ];
  step: StepView | undefined;
  tools: readonly string[] = [];
  /** The workspace's skill names, once read: the Skills field names them and refuses others. */
  skills: readonly string[] | undefined;
  /** The id of the plan shown: the edit names it, and the host takes it only while that plan is under review. */
  planId = '';
  /** The version of the plan shown: the edit names it (the host takes it only while that version is under review). */
  planVersion: number | undefined;
  /** Why Save is off now (Regenerate is under way): the form keeps what was typed until it can be saved. */
  locked: string | undefined;
  insertAt: number | undefined;
  /** Each tool's required arguments to fill in, by name: a new tool step starts with its tool's. */
  templates: Readonly<Record<string, string>> = {};
  /** Each tool's argument names: another tool chosen keeps the typed arguments it takes too. */
  toolParameters: Readonly<Record<string, readonly string[]>> = {};
  /** The plan's step ids: a new step is offered the next free one. */
  stepIds: readonly string[] = [];
  /** What the fields held when the panel was hidden or reloaded (the review's draft): the form opens with it. */
  draftValues: FormValues | undefined;
  /** The step kinds a model does, when none is set up: the Kind choice says they need one. */
  needingModel: readonly StepKind[] = [];
  values: FormValues = {};
  errors: Record<string, string> = {};
  private announcement = '';
  /** The arguments each tool had in this form when another was chosen (`withFieldValue`). */
  private argumentsByTool: Record<string, string> = {};
  /** What was typed into a list so far, to choose in it by its start (`onSelectKey`). */
  private typed: TypedPrefix | undefined;
  /** The edit sent, until the host answers: the form closes when it was taken (a refusal leaves it open, nothing lost). */
  private readonly request = new EditRequest(this, () => this.close());

  override connectedCallback(): void {
    super.connectedCallback();
    this.values = this.draftValues ?? initialValues(this.step, this.tools, { templates: this.templates, stepIds: this.stepIds });
  }

  override firstUpdated(): void {
    const first = formFields(this.values.kind, !this.step)[0];
    // Focus first: it scrolls its field into view, and the whole form is shown after that.
    void (first ? this.focusField(first) : Promise.resolve()).then(() => this.reveal());
  }

  /** Scrolls the page so the whole form shows above the review's sticky footer (a newcomer's form opened half under it). */
  private reveal(): void {
    const form = this.renderRoot.querySelector('form');
    if (!form) return;
    const root = this.getRootNode();
    const footer = root instanceof ShadowRoot ? root.querySelector<HTMLElement>('.actions') : null;
    const bottom = Math.min(window.innerHeight, footer?.getBoundingClientRect().top ?? window.innerHeight);
    const dy = revealScroll(form.getBoundingClientRect(), { top: 0, bottom });
    if (dy !== 0) window.scrollBy({ top: dy, behavior: 'instant' });
  }

  override updated(changed: Map<string, unknown>): void {
    // a change of kind shows other fields, whose notes need tying too
    if (changed.has('errors') || changed.has('values') || changed.has('skills')) void this.tieErrors();
  }

  /** Where a field's id starts (unique per form: an edit form per step, one Add form). */
  private fieldId(name: FieldName): string {
    return `${name}-${this.step?.id ?? 'new'}`;
  }

  private fieldElement(name: FieldName): FieldElement | null {
    return this.renderRoot.querySelector<FieldElement>(`[name="${name}"]`);
  }

  private async focusField(name: FieldName): Promise<void> {
    const element = this.fieldElement(name);
    await element?.updateComplete;
    element?.focus();
  }

  private async tieErrors(): Promise<void> {
    for (const name of formFields(this.values.kind, !this.step)) {
      const element = this.fieldElement(name);
      if (!element) continue;
      await element.updateComplete;
      const id = this.fieldId(name);
      tieToError(element, this.renderRoot.querySelector<HTMLElement>(`#${id}-error`), this.renderRoot.querySelector<HTMLElement>(`#${id}-note`));
    }
  }

  // Listened to on each control: the selects' change events do not bubble.
  private readonly onField = (event: Event): void => {
    const target = event.currentTarget as FieldElement;
    const name = target.getAttribute('name');
    if (!name) return;
    if (!Object.hasOwn(fieldSpecs, name)) return;
    // What the tool left had as arguments, for a switch back to it.
    if (name === 'tool' && this.values.tool !== undefined) this.argumentsByTool = { ...this.argumentsByTool, [this.values.tool]: this.values.args ?? '' };
    this.values = withFieldValue(
      this.values,
      name as FieldName,
      target.tagName === 'VSCODE-CHECKBOX' ? String(target.checked === true) : String(target.value ?? ''),
      this.templates,
      this.toolParameters,
      this.argumentsByTool,
    );
    // kept in the panel's saved state: hiding the panel tears this page down, and the form comes back with it
    this.dispatchEvent(new CustomEvent(formValuesEvent, { detail: { stepId: this.step?.id, values: this.values }, bubbles: true, composed: true }));
  };

  private submit(event?: Event): void {
    event?.preventDefault();
    // While Regenerate runs the host refuses the edit: what was typed stays here, to be saved once its plan shows.
    if (this.locked !== undefined) return;
    // A second Save before the answer (a double click) would be refused as made on a version gone: one edit at a time.
    if (this.request.sentOn !== undefined && this.request.sentOn === this.planVersion) return;
    const result = formToEdit(this.values, this.step, {
      ...(this.insertAt === undefined ? {} : { insertAt: this.insertAt }),
      ...(this.skills === undefined ? {} : { skills: this.skills }),
    });
    if (result.ok) {
      this.errors = {};
      // Closed once the host says it took the edit; a refusal (its notice says why) keeps what was typed.
      const version = this.planVersion ?? 0;
      emitAction(this, { type: 'edit', plan: { id: this.planId, version }, edit: result.edit, request: this.request.send(version) });
      return;
    }
    const shown = formFields(this.values.kind, !this.step);
    this.errors = result.errors;
    // the same text twice would not be announced again: a trailing no-break space makes it new
    const summary = errorSummary(result.errors, shown);
    this.announcement = this.announcement === summary ? `${summary}\u00a0` : summary;
    const firstInvalid = shown.find((name) => name in result.errors);
    if (firstInvalid) void this.updateComplete.then(() => this.focusField(firstInvalid));
  }

  private close(): void {
    this.dispatchEvent(new CustomEvent<{ stepId: string | undefined }>(closeFormEvent, { detail: { stepId: this.step?.id }, bubbles: true, composed: true }));
  }

  private readonly onKey = (event: KeyboardEvent): void => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      this.close();
    } else if (event.key === 'Enter' && (event.ctrlKey || event.metaKey || (event.target as HTMLElement).tagName === 'VSCODE-TEXTFIELD')) {
      // Enter in a one-line field is handled here, not left to the browser: its keypress would land on the Edit
      // button, focused once the form closed, and open the form again.
      event.preventDefault();
      this.submit();
    }
  };

  override render(): TemplateResult {
    const id = this.step?.id;
    return html`<form aria-label=${id ? `Edit step ${id}` : 'Add step'} @keydown=${this.onKey} @submit=${(event: Event) => this.submit(event)} novalidate>
      ${formFields(this.values.kind, !this.step).map((name) => this.renderField(fieldSpecs[name]))}
      <div class="buttons">
        <vscode-button data-action="save" aria-label=${id ? `Save step ${id}` : 'Add step'} ?disabled=${this.locked !== undefined} title=${this.locked ?? ''} @click=${() => this.submit()}>${id ? 'Save' : 'Add step'}</vscode-button>
        <vscode-button secondary data-action="cancel-edit" aria-label="Cancel editing" @click=${() => this.close()}>Cancel</vscode-button>
        ${this.locked === undefined ? nothing : html`<span class="muted form-locked">${this.locked}</span>`}
      </div>
      <div class="visually-hidden" role="alert" data-form-announcement>${this.announcement}</div>
    </form>`;
  }

  private renderField(spec: FieldSpec): TemplateResult {
    const fieldId = this.fieldId(spec.name);
    const message = this.errors[spec.name];
    // a checkbox shows its own label beside the box; the other controls are named by theirs
    const label = spec.control === 'checkbox' ? html`<span></span>` : html`<label for=${fieldId}>${spec.label}</label>`;
    const note = spec.note?.(this.skills) ?? '';
    return html`${label}${this.controls[spec.control](spec, fieldId, message !== undefined)}
      ${message === undefined ? nothing : html`<div class="field-error error" id=${`${fieldId}-error`} data-field-error=${spec.name}>${message}</div>`}
      ${note === '' ? nothing : html`<div class="field-note" id=${`${fieldId}-note`} data-field-note=${spec.name}>${note}</div>`}`;
  }

  // `.label` names the input inside each component's shadow root, where `<label for>` cannot reach.
  private readonly controls: Record<FieldControl, (spec: FieldSpec, fieldId: string, invalid: boolean) => TemplateResult> = {
    text: (spec, fieldId, invalid) =>
      html`<vscode-textfield id=${fieldId} name=${spec.name} .label=${spec.label} placeholder=${spec.placeholder ?? ''} .value=${this.values[spec.name] ?? ''} ?invalid=${invalid} @input=${this.onField} @change=${this.onField}></vscode-textfield>`,
    area: (spec, fieldId, invalid) => this.textarea(spec, fieldId, invalid, false),
    code: (spec, fieldId, invalid) => this.textarea(spec, fieldId, invalid, true),
    select: (spec, fieldId) => {
      const value = this.values[spec.name] ?? '';
      const options = (spec.options?.(this.tools, value) ?? []).map((option) => ({ value: option, label: spec.optionLabel?.(option, this.needingModel, this.tools) ?? option }));
      return html`<vscode-single-select id=${fieldId} name=${spec.name} .label=${spec.label} .value=${value} @change=${this.onField} @keydown=${(event: KeyboardEvent) => this.onSelectKey(event, options)}>
        ${options.map((option) => html`<vscode-option value=${option.value} ?selected=${option.value === value}>${option.label}</vscode-option>`)}
      </vscode-single-select>`;
    },
    checkbox: (spec, fieldId) =>
      html`<vscode-checkbox id=${fieldId} name=${spec.name} label=${spec.label} ?checked=${this.values[spec.name] === 'true'} @change=${this.onField}></vscode-checkbox>`,
  };

  /**
   * Type to choose in a list (the tool among a dozen or more), as in a native select: the option whose label starts with
   * what was typed, chosen as a click would (the list component has no such search of its own).
   */
  private onSelectKey(event: KeyboardEvent, options: readonly { value: string; label: string }[]): void {
    // Space opens the list, and a shortcut is not typing.
    if (event.key === ' ' || event.ctrlKey || event.metaKey || event.altKey) return;
    this.typed = typedAfter(this.typed, event.key, event.timeStamp);
    if (this.typed === undefined) return;
    const select = event.currentTarget as HTMLElement & { value: string };
    const current = options.find((option) => option.value === select.value)?.label ?? '';
    const picked = typeaheadPick(options.map((option) => option.label), current, this.typed.text);
    const value = options.find((option) => option.label === picked)?.value;
    if (value === undefined || value === select.value) return;
    select.value = value;
    select.dispatchEvent(new Event('change'));
  }

  private textarea(spec: FieldSpec, fieldId: string, invalid: boolean, monospace: boolean): TemplateResult {
    return html`<vscode-textarea id=${fieldId} name=${spec.name} .label=${spec.label} rows=${spec.rows ?? 4} ?monospace=${monospace} .value=${this.values[spec.name] ?? ''} ?invalid=${invalid} @input=${this.onField} @change=${this.onField}></vscode-textarea>`;
  }
}

customElements.define('step-edit-form', StepEditForm);
