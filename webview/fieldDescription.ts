/**
 * Marks the control inside a form component (`vscode-textfield`, `-textarea`,
 * `-single-select`) invalid and described by `error`, or clears both when `error` is null.
 * An `aria-describedby` id cannot reach into the component's shadow root, so the control
 * gets the element reference itself (ARIA element reflection, which may point from a
 * shadow root to an element of an enclosing one).
 */
export function tieToError(field: Element, error: HTMLElement | null): void {
  const control = field.shadowRoot?.querySelector<HTMLElement>('input, textarea, [role="combobox"]');
  if (!control) return;
  control.ariaInvalid = error ? 'true' : null;
  control.ariaDescribedByElements = error ? [error] : null;
}
