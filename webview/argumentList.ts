import { LitElement, css, html, nothing, type TemplateResult } from 'lit';
import type { ArgumentView } from '../src/shared/panelViewModel';
import { foldLines } from './foldLines';
import { shownText } from './formatting';
import { panelStyles } from './panelStyles';

let blockIds = 0;

/**
 * A multi-line argument (a file's content) as a preformatted block, folded after its first
 * lines with a "Show N more lines" button that unfolds it (and "Show fewer lines" back);
 * the button says whether the block is expanded and which block it controls.
 */
export class FoldedBlock extends LitElement {
  static override properties = { text: { attribute: false }, expanded: { state: true } };
  static override styles = [panelStyles, css`pre { max-height: none; margin-top: 2px; }`];
  text = '';
  expanded = false;
  private readonly blockId = `folded-${(blockIds += 1)}`;

  override render(): TemplateResult {
    const { shown, hiddenLines } = foldLines(shownText(this.text));
    const folded = hiddenLines > 0 && !this.expanded;
    return html`<pre id=${this.blockId} class="argument-block">${folded ? shown : shownText(this.text)}</pre>
      ${hiddenLines > 0
        ? html`<button class="link-button fold-toggle" aria-expanded=${this.expanded ? 'true' : 'false'} aria-controls=${this.blockId} @click=${() => (this.expanded = !this.expanded)}>
            ${this.expanded ? 'Show fewer lines' : `Show ${hiddenLines} more line${hiddenLines === 1 ? '' : 's'}`}
          </button>`
        : nothing}`;
  }
}

customElements.define('folded-block', FoldedBlock);

/** A tool step's arguments as text: one line per argument, a multi-line one as a folded block. */
export function renderArguments(args: readonly ArgumentView[] | undefined): TemplateResult {
  if (!args || args.length === 0) return html`<span class="muted">none</span>`;
  return html`<dl class="step-args">
    ${args.map(
      (arg) => html`<dt class="mono">${shownText(arg.name)}</dt>
        <dd data-argument=${shownText(arg.name)}>${argumentValue(arg)}</dd>`,
    )}
  </dl>`;
}

/** One argument's value: a folded block, its text, or "(empty)" for an empty text (an empty file's content read as missing: a trial). */
function argumentValue(arg: ArgumentView): TemplateResult {
  if (arg.block) return html`<folded-block .text=${arg.text}></folded-block>`;
  if (arg.text === '') return html`<span class="muted argument-text">(empty)</span>`;
  return html`<span class="mono argument-text">${shownText(arg.text)}</span>`;
}
