import { html, nothing, type TemplateResult } from 'lit';
import type { ReviewView } from '../src/shared/panelViewModel';

/**
 * The versions of the plan under review in a select named "Plan version" (keyboard: arrows
 * pick, Tab reaches the button) and "Go back to this version", which brings the picked one
 * back as the next version (off, saying why, while `locked`). Only shown once there is more than one version.
 */
export function renderVersionPicker(
  review: ReviewView,
  picked: number | undefined,
  pick: (version: number) => void,
  restore: (version: number) => void,
  locked?: string,
): TemplateResult | typeof nothing {
  if (review.versions.length < 2) return nothing;
  const selected = picked !== undefined && review.versions.some((version) => version.version === picked) ? picked : review.planVersion;
  return html`<div class="row version-picker">
    <label for="plan-version">Plan version</label>
    <select id="plan-version" name="plan-version" @change=${(event: Event) => pick(Number((event.target as HTMLSelectElement).value))}>
      ${review.versions.map((version) => html`<option value=${String(version.version)} ?selected=${version.version === selected}>${version.label}${version.version === review.planVersion ? ' (shown)' : ''}</option>`)}
    </select>
    <vscode-button secondary data-action="restore-version" ?disabled=${selected === review.planVersion || locked !== undefined} title=${locked ?? (selected === review.planVersion ? 'Pick an earlier version first' : `Bring back version ${selected} as the next version`)} @click=${() => restore(selected)}>Go back to this version</vscode-button>
  </div>`;
}
