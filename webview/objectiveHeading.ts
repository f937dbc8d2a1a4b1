import { html, nothing, type TemplateResult } from 'lit';

/** Most characters of the heading a plan's objective gets; a longer objective's rest is in "Full request". */
export const maxHeadingChars = 120;

/**
 * The heading of an objective (often the user's whole request, possibly thousands of
 * characters): its first line, cut between words before `maxHeadingChars` with "…";
 * `cut` when the heading is not the whole objective (more lines, or a longer line).
 */
export function objectiveTitle(objective: string): { title: string; cut: boolean } {
  const text = objective.trim();
  const [first = ''] = text.split(/\r?\n/, 1);
  const line = first.trim();
  if (line.length <= maxHeadingChars) return { title: line === '' ? 'Plan' : line, cut: line !== text };
  const room = line.slice(0, maxHeadingChars - 1);
  const space = room.lastIndexOf(' ');
  // A cut between words when one is near the end; else at the limit, never through a surrogate pair.
  const kept = (space >= maxHeadingChars / 2 ? room.slice(0, space) : room).replace(/[\ud800-\udbff]$/, '').trimEnd();
  return { title: `${kept}…`, cut: true };
}

/**
 * The panel's objective heading (focusable, the first thing read), and when the objective
 * is longer than its heading, a closed "Full request" disclosure holding all of it, its
 * lines kept and wrapped inside the panel.
 */
export function renderObjective(objective: string): TemplateResult {
  const { title, cut } = objectiveTitle(objective);
  return html`<h1 class="objective" tabindex="-1">${title}</h1>
    ${cut
      ? html`<details class="full-request">
          <summary>Full request (${objective.trim().length.toLocaleString()} characters)</summary>
          <div class="full-request-text">${objective.trim()}</div>
        </details>`
      : nothing}`;
}
