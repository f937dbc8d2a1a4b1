import { LitElement, css, html, nothing, type TemplateResult } from 'lit';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import type { HostToWebviewMessage, MessageHandlers, WebviewToHostMessage } from '../src/shared/panelProtocol';
import type { PanelViewModel } from '../src/shared/panelViewModel';
import { dispatchHostMessage } from './hostMessages';
import { editResultEvent, panelActionEvent, reviewDraftEvent, type EditResult } from './panelAction';
import { applyOutputChunk, applyOutputResync, applyRunDelta, applySnapshot, emptyPanelState, withDraft, type PanelState, type ReviewDraft } from './panelStore';
import { panelStyles } from './panelStyles';
import { noticeAfterSnapshot } from './refusalNotice';
import type { HostConnection } from './vscodeApi';
import './reviewView';
import './runView';

/** What the review and run views offer the app for moving focus. */
interface FocusableView extends LitElement {
  focusHeading(): void;
  focusFallback(): void;
}

/**
 * The plan panel's root: restores its state after being hidden, says `ready`, applies the
 * host's snapshots (dropping stale ones), run deltas (asking for the whole snapshot when one
 * does not fit the version shown) and output chunks (asking for a resync on a gap),
 * persists the state, shows notices, and posts the components' actions to the host.
 * Publishes the shown version, counters and last render time as data attributes.
 * Keeps focus in the panel: a mode change (review to run) puts it on the new heading, and
 * when the focused control goes away (Dismiss, Cancel run) it goes to the notice or the
 * view's next sensible element instead of the page.
 */
export class PanelApp extends LitElement {
  static override properties = { state: { state: true }, notice: { state: true } };
  static override styles = [
    panelStyles,
    css`
      :host { padding: 8px 20px 24px; max-width: 1100px; }
      /* Sticky: a refusal of an edit far down the plan is seen where the user is, not at the top of the page. Opaque, over the cards. */
      .notice { position: sticky; top: 0; z-index: 2; display: flex; gap: 8px; align-items: flex-start; padding: 6px 10px; margin: 8px 0; border-radius: 3px; border: 1px solid var(--vscode-inputValidation-infoBorder, var(--vscode-focusBorder)); border-left-width: 4px; background: var(--vscode-editorWidget-background, var(--vscode-editor-background)); }
      .notice.error { border-color: var(--vscode-inputValidation-errorBorder, var(--vscode-errorForeground)); color: var(--vscode-foreground); }
      .notice p { margin: 0; flex: 1; }
    `,
  ];
  state: PanelState = emptyPanelState();
  notice: Extract<HostToWebviewMessage, { type: 'notice' }> | undefined;
  // The plan under review and its version when the notice came: a refusal goes with a later successful edit, or another plan.
  private noticePlanVersion: number | undefined;
  private noticePlanId: string | undefined;
  private host: HostConnection | undefined;
  /** Whether focus was inside the panel when the current update began (only then may the update move it). */
  private hadFocus = false;
  private modeChanged = false;
  private toTop = false;

  /** Connects to the host; call once before the element renders anything useful. */
  connect(host: HostConnection): void {
    this.host = host;
    this.state = host.restore() ?? emptyPanelState();
    window.addEventListener('message', this.onHostMessage);
    this.addEventListener(panelActionEvent, this.onAction as EventListener);
    this.addEventListener(reviewDraftEvent, this.onDraft as EventListener);
    this.addEventListener('keydown', this.onKeyDown);
    host.post({ type: 'ready', ...(this.state.model ? { session: this.state.model.session, version: this.state.model.version } : {}) });
  }

  override disconnectedCallback(): void {
    window.removeEventListener('message', this.onHostMessage);
    this.removeEventListener(panelActionEvent, this.onAction as EventListener);
    this.removeEventListener(reviewDraftEvent, this.onDraft as EventListener);
    this.removeEventListener('keydown', this.onKeyDown);
    super.disconnectedCallback();
  }

  // vscode-button acts on Enter's keydown; without this, the same key's keypress would then
  // activate whatever the action focused next (Save focuses Edit, which would reopen the form).
  private readonly onKeyDown = (event: KeyboardEvent): void => {
    if (event.key === 'Enter' && (event.composedPath()[0] as Element | undefined)?.localName === 'vscode-button') event.preventDefault();
  };

  private readonly onAction = (event: CustomEvent<WebviewToHostMessage>): void => {
    event.stopPropagation();
    this.host?.post(event.detail);
  };

  // What was typed in the review and not sent goes into the saved state: a hide or a reload tears this page down.
  private readonly onDraft = (event: CustomEvent<ReviewDraft>): void => {
    event.stopPropagation();
    this.setPanelState(withDraft(this.state, event.detail));
  };

  /** What each host message does here; a message type the protocol adds without an entry does not compile. */
  private readonly hostHandlers: MessageHandlers<HostToWebviewMessage> = {
    snapshot: (message) => {
      const started = performance.now();
      const { state, applied } = applySnapshot(this.state, message.model);
      // a notice is about what the user did in the mode it came from: reviewing, or watching a run
      if (applied && state.model?.mode !== this.state.model?.mode) {
        this.notice = undefined;
        this.modeChanged = true;
      }
      // Another plan or run starts at its top: the page kept the last one's scroll, and a newcomer's new plan opened at its end.
      if (applied && shownId(state.model) !== shownId(this.state.model)) this.toTop = true;
      if (applied && this.notice) {
        const shown = { notice: this.notice, planVersion: this.noticePlanVersion, ...(this.noticePlanId === undefined ? {} : { planId: this.noticePlanId }) };
        this.notice = noticeAfterSnapshot(shown, message.model)?.notice;
      }
      this.setPanelState(state);
      if (applied) void this.reportRender(message.model.version, started);
    },
    runDelta: (message) => {
      const started = performance.now();
      const { state, applied, resync } = applyRunDelta(this.state, message);
      this.setPanelState(state);
      if (resync) this.host?.post({ type: 'resyncSnapshot', version: this.state.model?.version ?? 0 });
      if (applied) void this.reportRender(message.version, started);
    },
    output: (message) => {
      const { state, resync } = applyOutputChunk(this.state, message);
      this.setPanelState(state);
      if (resync) this.host?.post({ type: 'resyncOutput', ...resync });
    },
    outputResync: (message) => this.setPanelState(applyOutputResync(this.state, message)),
    // The form that sent the edit closes when it was taken, and keeps what was typed when not.
    editResult: ({ request, taken }) => void window.dispatchEvent(new CustomEvent<EditResult>(editResultEvent, { detail: { request, taken } })),
    notice: (message) => {
      this.notice = message;
      const review = this.state.model?.mode === 'review' ? this.state.model.review : undefined;
      this.noticePlanVersion = review?.planVersion;
      this.noticePlanId = review?.planId;
    },
  };

  private readonly onHostMessage = (event: MessageEvent<unknown>): void => {
    const unknown = dispatchHostMessage(this.hostHandlers, event.data);
    if (unknown === undefined) return;
    console.error(`Task Planner plan panel: ignored ${unknown} from the extension`);
    // no edit makes it go
    this.noticePlanVersion = undefined;
    this.noticePlanId = undefined;
    this.notice = {
      type: 'notice',
      id: 0,
      level: 'error',
      untilEdit: false,
      text: `Refused: ${unknown} from the extension, which this panel does not know (the extension was probably updated). Close the panel and open it again with "Task Planner: Show plan".`,
    };
  };

  private setPanelState(state: PanelState): void {
    if (state === this.state) return;
    this.state = state;
    this.host?.save(state);
    const { stats, model } = state;
    this.dataset.version = String(model?.version ?? 0);
    this.dataset.mode = model?.mode ?? 'none';
    this.dataset.received = String(stats.received);
    this.dataset.applied = String(stats.applied);
    this.dataset.stale = String(stats.stale);
    this.dataset.versionGaps = String(stats.versionGaps);
    this.dataset.deltas = String(stats.deltas ?? 0);
  }

  override willUpdate(): void {
    // the DOM is still the one the user was in: is the focus in it?
    this.hadFocus = document.hasFocus() && (this.renderRoot as ShadowRoot).activeElement !== null;
  }

  override updated(): void {
    if (this.toTop) {
      this.toTop = false;
      window.scrollTo(0, 0);
    }
    const modeChanged = this.modeChanged;
    this.modeChanged = false;
    if (this.hadFocus) void this.keepFocus(modeChanged);
  }

  private view(): FocusableView | null {
    return this.renderRoot.querySelector<FocusableView>('plan-review, plan-run');
  }

  /** After an update that began with focus in the panel: the new heading after a mode change, else a fallback when focus fell to the page. */
  private async keepFocus(modeChanged: boolean): Promise<void> {
    await this.view()?.updateComplete;
    // a task later: focusing lays the page out, which would otherwise land inside the measured render time
    await new Promise((resolve) => setTimeout(resolve, 0));
    // focus stayed on something (or went elsewhere in the workbench): leave it there
    if (!document.hasFocus() || (document.activeElement !== document.body && document.activeElement !== null)) return;
    const view = this.view();
    if (modeChanged) return view?.focusHeading();
    const notice = this.renderRoot.querySelector<HTMLElement>('.notice');
    if (notice) notice.focus();
    else view?.focusFallback();
  }

  /** Waits for this element and the view below it to render, then reports the time taken. */
  private async reportRender(version: number, started: number): Promise<void> {
    await this.updateComplete;
    const view = this.view();
    if (view) await view.updateComplete;
    const ms = performance.now() - started;
    this.dataset.renderMs = ms.toFixed(1);
    this.dataset.renderedVersion = String(version);
    this.host?.post({ type: 'rendered', version, ms });
  }

  override render(): TemplateResult {
    const model = this.state.model;
    return html`<main>
      ${this.renderNotice()}
      ${
        !model || model.mode === 'empty'
          ? html`<h1>Task Planner</h1>
            <p>No plan yet. Run <strong>Task Planner: Plan task</strong> to describe what you want done.</p>`
          : model.mode === 'review'
            ? html`<plan-review .review=${model.review} .version=${model.version} .draft=${this.state.draft}></plan-review>`
            : html`<plan-run .run=${model.run} .output=${this.state.output}></plan-run>`
      }
    </main>`;
  }

  private renderNotice(): TemplateResult | typeof nothing {
    const notice = this.notice;
    if (!notice) return nothing;
    return html`<div class="notice ${notice.level}" tabindex="-1" role=${notice.level === 'error' ? 'alert' : 'status'} data-notice-id=${notice.id}>
      <p>${notice.text}</p>
      <button class="icon-button" aria-label="Dismiss this message" title="Dismiss" @click=${() => (this.notice = undefined)}>✕</button>
    </div>`;
  }
}

customElements.define('plan-panel-app', PanelApp);

/**
 * What the panel shows, by identity: the plan under review (its versions are the same one), or a run, any run (a repair
 * run continues the one followed, where the reader may be reading its output).
 */
function shownId(model: PanelViewModel | undefined): string | undefined {
  return model?.mode === 'review' ? `plan:${model.review.planId}` : model?.mode;
}
