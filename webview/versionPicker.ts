import { html, nothing, type TemplateResult } from 'lit';
import type { ReviewView } from '../src/shared/panelViewModel';

/**
 * The versions of the plan under review in a select named "Plan version" (keyboard: arrows
 * pick, Tab reaches the button): picking one shows it (`pick`, the host sends it read only as
 * `viewing`), "Go back to this version" brings it back as the next version (off, saying why,
 * while `locked`), and "Show the newest version" leaves it. Only shown once there is more than one version.
 */
export function renderVersionPicker(
  review: ReviewView,
  picked: number | undefined,
  pick: (version: number) => void,
  restore: (version: number) => void,
  locked?: string,
): TemplateResult | typeof nothing {
  if (review.versions.length < 2) return nothing;
  const known = (version: number | undefined): version is number => version !== undefined && review.versions.some((entry) => entry.version === version);
  const selected = known(picked) ? picked : known(review.viewing?.version) ? review.viewing.version : review.planVersion;
  const newest = review.planVersion;
  return html`<div class="row version-picker">
    <label for="plan-version">Plan version</label>
    <select id="plan-version" name="plan-version" @change=${(event: Event) => pick(Number((event.target as HTMLSelectElement).value))}>
      ${review.versions.map((version) => html`<option value=${String(version.version)} ?selected=${version.version === selected}>${version.label}${version.version === newest ? ' (newest)' : ''}</option>`)}
    </select>
    <vscode-button secondary data-action="restore-version" ?disabled=${selected === newest || locked !== undefined} title=${locked ?? (selected === newest ? 'Pick an earlier version first' : `Bring back version ${selected} as the next version`)} @click=${() => restore(selected)}>Go back to this version</vscode-button>
    ${review.viewing ? html`<vscode-button secondary data-action="show-newest" @click=${() => pick(newest)}>Show the newest version</vscode-button>` : nothing}
  </div>`;
}
