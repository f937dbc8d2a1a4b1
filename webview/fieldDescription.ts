/**
 * Marks the control inside a form component (`vscode-textfield`, `-textarea`,
 * `-single-select`) invalid and described by `error` (then by its `note`, the line saying
 * what the field accepts), or not invalid and described by the note alone, or by nothing.
 * An `aria-describedby` id cannot reach into the component's shadow root, so the control
 * gets the element references themselves (ARIA element reflection, which may point from a
 * shadow root to an element of an enclosing one).
 */
export function tieToError(field: Element, error: HTMLElement | null, note: HTMLElement | null = null): void {
  const control = field.shadowRoot?.querySelector<HTMLElement>('input, textarea, [role="combobox"]');
  if (!control) return;
  control.ariaInvalid = error ? 'true' : null;
  const descriptions = [error, note].filter((element): element is HTMLElement => element !== null);
  control.ariaDescribedByElements = descriptions.length > 0 ? descriptions : null;
}
