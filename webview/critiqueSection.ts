import { html, nothing, type TemplateResult } from 'lit';
import type { PlanChangeView, ReviewView } from '../src/shared/panelViewModel';

const severityOrder = { critical: 0, warning: 1, info: 2 } as const;

/** Findings shown before "Show all": the most severe first, so a long list does not push the steps away. */
const findingsShownFirst = 12;

/**
 * The critic's verdict: score, summary, findings by severity (with their step) and
 * recommendations. Only the first findings show until `expanded` (the button calls `expand`).
 */
export function renderCritique(review: ReviewView, expanded: boolean, expand: () => void): TemplateResult {
  const sorted = [...review.findings].sort((a, b) => severityOrder[a.severity] - severityOrder[b.severity]);
  const findings = expanded ? sorted : sorted.slice(0, findingsShownFirst);
  const hidden = sorted.length - findings.length;
  return html`<section class="critique" aria-labelledby="critique-heading">
    <h2 id="critique-heading">Critic: <span class="score">${review.score}/10</span></h2>
    <p class="muted">${review.summary}</p>
    ${findings.length > 0
      ? html`<ul class="findings">
          ${findings.map(
            (finding) => html`<li class="finding ${finding.severity === 'critical' ? 'error' : finding.severity === 'warning' ? 'warning' : ''}">
              <strong>${finding.severity}</strong> · <span title=${finding.check}>${finding.name}</span>${finding.stepId ? html` · <span class="mono">${finding.stepId}</span>` : nothing}: ${finding.message}
            </li>`,
          )}
        </ul>
        ${hidden > 0 ? html`<button class="link-button show-all-findings" @click=${expand}>Show ${hidden} more finding${hidden === 1 ? '' : 's'}</button>` : nothing}`
      : nothing}
    ${review.recommendations.length > 0
      ? html`<h3>Recommendations</h3>
          <ul class="recommendations">${review.recommendations.map((text) => html`<li>${text}</li>`)}</ul>`
      : nothing}
    ${review.planProblems.length > 0 ? html`<ul class="plan-problems">${review.planProblems.map((text) => html`<li class="error">${text}</li>`)}</ul>` : nothing}
  </section>`;
}

/** What Regenerate changed: added, removed and changed steps, by id. */
export function renderChanges(changes: PlanChangeView | undefined): TemplateResult | typeof nothing {
  if (!changes) return nothing;
  const none = changes.added.length === 0 && changes.removed.length === 0 && changes.changed.length === 0 && !changes.objectiveChanged;
  return html`<section class="changes card" aria-labelledby="changes-heading" role="region">
    <h2 id="changes-heading">What changed from version ${changes.fromVersion} to ${changes.toVersion}</h2>
    ${none ? html`<p class="muted">Nothing: the planner returned the same steps.</p>` : nothing}
    <ul>
      ${changes.objectiveChanged ? html`<li>The objective changed.</li>` : nothing}
      ${changes.added.length > 0 ? html`<li class="diff-added">Added: <span class="mono">${changes.added.join(', ')}</span></li>` : nothing}
      ${changes.removed.length > 0 ? html`<li class="diff-removed">Removed: <span class="mono">${changes.removed.join(', ')}</span></li>` : nothing}
      ${changes.changed.map((change) => html`<li class="diff-changed">Changed <span class="mono">${change.id}</span>: ${change.fields.join(', ')}</li>`)}
    </ul>
  </section>`;
}
