import { LitElement, html, type TemplateResult } from 'lit';
import type { PlanSnapshot } from '../src/shared/planSnapshot';

/**
 * The plan panel's root element: renders the newest plan snapshot the host posted and
 * ignores older ones (snapshots are complete and versioned, never deltas).
 */
class PlanView extends LitElement {
  static override properties = { snapshot: { state: true } };
  snapshot: PlanSnapshot | undefined;

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener('message', this.onMessage);
  }

  override disconnectedCallback(): void {
    window.removeEventListener('message', this.onMessage);
    super.disconnectedCallback();
  }

  private readonly onMessage = (event: MessageEvent<unknown>): void => {
    const data = event.data as { type?: unknown; snapshot?: PlanSnapshot } | null;
    if (data?.type !== 'snapshot' || !data.snapshot) return;
    if (this.snapshot && data.snapshot.version <= this.snapshot.version) return;
    this.snapshot = data.snapshot;
  };

  override render(): TemplateResult {
    if (!this.snapshot) return html`<p>No plan yet. Run <strong>Task Planner: Plan task</strong>.</p>`;
    return html`<h2>${this.snapshot.objective}</h2>
      <ol>
        ${this.snapshot.steps.map((step) => html`<li><strong>${step.title}</strong> <span>${step.runner}</span></li>`)}
      </ol>`;
  }
}

customElements.define('plan-view', PlanView);
