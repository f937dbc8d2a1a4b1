import { html, nothing, type TemplateResult } from 'lit';
import type { PanelEdit } from '../src/shared/panelProtocol';
import type { StepView } from '../src/shared/panelViewModel';
import type { StepApproval } from '../src/shared/vocabulary';
import { renderArguments } from './argumentList';
import { boundedTitle, shownText } from './formatting';
import { readableReferences } from './readableReferences';
import type { StepControl } from './focusAfterEdit';
import { titleWithCode } from './codeSpans';

/** What a step card needs besides its step. */
export interface StepCardContext {
  total: number;
  editing: boolean;
  added: boolean;
  changedFields: readonly string[] | undefined;
  /** Why the step's edit actions are off now (Regenerate is under way), or `undefined`. */
  locked: string | undefined;
  /** An earlier version looked at: the step shows no actions. */
  readOnly?: boolean;
  /** Sends `edit`, made with `control` of the step at `index`. */
  send(edit: PanelEdit, control: StepControl, index: number): void;
  edit(stepId: string | undefined): void;
}

/**
 * One step of the review as a template (not an element, so 500 steps render fast): kind,
 * tool and arguments or agent and input, dependencies, failure policy, verification,
 * checks and problems; actions Edit, Move up/down (also Alt+↑/↓), Skip/Unskip and Remove, each with
 * an accessible name that starts with its visible text and says which step it acts on (none when `readOnly`).
 */
export function renderStepCard(step: StepView, ctx: StepCardContext, editor: TemplateResult | typeof nothing): TemplateResult {
  const send = (edit: PanelEdit, control: StepControl): void => ctx.send(edit, control, step.index);
  const move = (toIndex: number, control: StepControl): void => send({ type: 'moveStep', stepId: step.id, toIndex }, control);
  const onKey = (event: KeyboardEvent): void => {
    if (!event.altKey || (event.key !== 'ArrowUp' && event.key !== 'ArrowDown') || event.target !== event.currentTarget) return;
    event.preventDefault();
    const to = step.index + (event.key === 'ArrowUp' ? -1 : 1);
    if (to >= 0 && to < ctx.total && ctx.locked === undefined && ctx.readOnly !== true) move(to, 'card');
  };
  const label = `${step.index + 1}. ${boundedTitle(shownText(step.title))}, step ${step.id}${step.skipped ? ', skipped' : step.skippedWith === undefined ? '' : `, skipped with step ${step.skippedWith}`}`;
  const classes = ['card', 'step', step.skipped || step.skippedWith !== undefined ? 'skipped' : '', ctx.added ? 'added' : ctx.changedFields ? 'changed' : ''].join(' ');
  return html`<li class=${classes} data-step-id=${step.id} tabindex="0" aria-label=${label} @keydown=${onKey}>
    <div class="row">
      <span class="muted mono">${step.index + 1}.</span>
      <strong class="step-title bounded-title" title=${step.title.length > 120 ? boundedTitle(shownText(step.title), 1_000) : nothing}>${titleWithCode(step.title)}</strong>
      <span class="tag" title="Kind">${step.kind.replace('_', ' ')}</span>
      <span class="muted mono">${step.id}</span>
      ${step.skipped ? html`<span class="tag step-skipped">skipped</span>` : nothing}
      ${step.skippedWith === undefined ? nothing : html`<span class="tag step-skipped" title=${`It waits on ${step.skippedWith}, which you skipped, so the run skips it too.`}>skipped with ${step.skippedWith}</span>`}
      ${approvalTag(step.approval)}
      ${ctx.added ? html`<span class="tag">new</span>` : ctx.changedFields ? html`<span class="tag" title=${`Changed: ${ctx.changedFields.join(', ')}`}>changed</span>` : nothing}
      <span class="spacer"></span>
      ${ctx.readOnly ? nothing : html`<span class="row" role="group" aria-label=${`Actions for step ${step.id}`}>
        <button class="icon-button" data-action="edit" aria-label=${`Edit step ${step.id}`} title=${ctx.locked ?? 'Edit'} ?disabled=${ctx.locked !== undefined && !ctx.editing} aria-expanded=${ctx.editing ? 'true' : 'false'} @click=${() => ctx.edit(ctx.editing ? undefined : step.id)}>Edit</button>
        <button class="icon-button" data-action="up" aria-label=${`Move step ${step.id} up`} title=${ctx.locked ?? 'Move up (Alt+↑)'} ?disabled=${step.index === 0 || ctx.locked !== undefined} @click=${() => move(step.index - 1, 'up')}>↑</button>
        <button class="icon-button" data-action="down" aria-label=${`Move step ${step.id} down`} title=${ctx.locked ?? 'Move down (Alt+↓)'} ?disabled=${step.index === ctx.total - 1 || ctx.locked !== undefined} @click=${() => move(step.index + 1, 'down')}>↓</button>
        <button class="icon-button" data-action="skip" aria-label=${`${step.skipped ? 'Unskip' : 'Skip'} step ${step.id}`} title=${ctx.locked ?? (step.skipped ? 'Unskip' : 'Skip')} ?disabled=${ctx.locked !== undefined} @click=${() => send({ type: step.skipped ? 'unskipStep' : 'skipStep', stepId: step.id }, 'skip')}>${step.skipped ? 'Unskip' : 'Skip'}</button>
        <button class="icon-button" data-action="remove" aria-label=${`Remove step ${step.id}`} title=${ctx.locked ?? 'Remove'} ?disabled=${ctx.locked !== undefined} @click=${() => send({ type: 'removeStep', stepId: step.id }, 'remove')}>Remove</button>
      </span>`}
    </div>
    ${editor === nothing ? renderDetails(step) : editor}
  </li>`;
}

function renderDetails(step: StepView): TemplateResult {
  return html`<dl>
    ${step.kind === 'tool'
      ? html`<dt>Tool</dt><dd class="mono step-tool">${shownText(step.tool ?? '(none)')}</dd>
          <dt>Arguments</dt><dd>${renderArguments(step.arguments)}</dd>`
      : html`${step.agent ? html`<dt>Agent</dt><dd class="mono">${shownText(step.agent)}</dd>` : nothing}
          ${step.input ? html`<dt>Input</dt><dd class="step-input keep-lines">${shownText(readableReferences(step.input.replace(/(\r?\n){3,}/g, '\n\n')))}</dd>` : nothing}`}
    <dt>Depends on</dt><dd class="step-deps">${step.dependsOn.length > 0 ? step.dependsOn.join(', ') : html`<span class="muted">nothing</span>`}</dd>
    <dt>On failure</dt><dd class="step-failure-policy" title=${`onFailure: ${step.onFailure}${step.critical ? ', critical' : ''}`}>${failurePolicyText(step)}</dd>
    ${step.verification ? html`<dt>Verification</dt><dd><code>${shownText(step.verification)}</code></dd>` : nothing}
    ${step.checks ? html`<dt>Checks</dt><dd class="step-checks">${step.checks}</dd>` : nothing}
    ${step.checks || step.verification
      ? html`<dt>If a check fails</dt><dd class="step-verification-policy">${verificationPolicyText(step)}</dd>`
      : nothing}
    ${step.uses ? html`<dt>Uses</dt><dd class="step-uses">${step.uses}</dd>` : nothing}
    ${step.basedOn ? html`<dt>Based on</dt><dd class="mono step-based-on">${step.basedOn}</dd>` : nothing}
    ${step.writes ? html`<dt>Changes only</dt><dd class="mono step-writes" title="Steps whose files overlap never run at once; a change of another file asks first">${step.writes}</dd>` : nothing}
    ${step.when ? html`<dt>Runs when</dt><dd>${step.when.code ? html`<code>${shownText(step.when.text)}</code>` : shownText(step.when.text)}</dd>` : nothing}
    ${step.problems.length > 0 ? html`<dt>Problems</dt><dd>${step.problems.map((problem) => html`<div class=${problem.startsWith('Error') ? 'error' : 'warning'}>${problem}</div>`)}</dd>` : nothing}
  </dl>`;
}

/** A command is tried again only when it could end otherwise (commandFailure.ts): a failing test suite fails the same way. */
function commandRetryNote(step: StepView): string {
  return step.kind === 'tool' && step.tool === 'run_command' ? ' (after a time-out, a signal or a network error; a command that fails is not run again)' : '';
}

/**
 * What the run does when a step fails (its `onFailure`, attempts and `critical`), in plain words: "skip · critical" said
 * nothing a newcomer could read, and "critical" alone changes nothing for a step skipped on failure (a trial).
 */
function failurePolicyText(step: StepView): string {
  // As the engine decides (failurePolicy.ts): any policy tries again while attempts remain; then skip skips, stop and
  // retry halt the run for a critical step and skip any other, replan asks for a repair plan.
  const atEnd: Record<StepView['onFailure'], string> = {
    skip: 'the step is skipped and the run goes on',
    stop: step.critical ? 'the run stops' : 'the step is skipped and the run goes on',
    retry: step.critical ? 'the run stops' : 'the step is skipped and the run goes on',
    replan: 'a repair plan is asked for',
  };
  return step.maxAttempts > 1 ? `tried again, up to ${step.maxAttempts} attempts${commandRetryNote(step)}; then ${atEnd[step.onFailure]}` : atEnd[step.onFailure];
}

/** What the run does when a step's checks or verification fail (its `onVerificationFailure`), in plain words. */
function verificationPolicyText(step: StepView): string {
  // As the engine decides (failurePolicy.ts): stop and retry, once attempts are used up, halt the run only for a critical step.
  const atEnd = step.critical ? 'the step fails and the run stops' : 'the step fails and the run goes on without it';
  const words: Record<StepView['onVerificationFailure'], string> = {
    stop: atEnd,
    skip: 'the step fails and the run goes on without it',
    retry: step.maxAttempts > 1 ? `tried again, up to ${step.maxAttempts} attempts in all; then ${atEnd}` : `no attempt is left, so ${atEnd}`,
    replan: 'the step fails and a repair plan is asked for',
  };
  return words[step.onVerificationFailure];
}

/** The tag that says what a step will do about approval under the current policy and workspace trust. */
const approvalTags: Record<StepApproval, { text: string; title: string } | undefined> = {
  asks: { text: 'approval', title: 'Asks for approval before it changes anything (the approval policy in the settings)' },
  mayAsk: { text: 'may ask approval', title: 'Its agent has tools that ask for approval before they change anything, if it calls them' },
  refused: { text: 'refused: untrusted', title: 'Restricted Mode refuses this step before it changes anything: trust the workspace to run it' },
  none: undefined,
};

function approvalTag(approval: StepApproval): TemplateResult | typeof nothing {
  const tag = approvalTags[approval];
  return tag ? html`<span class="tag" title=${tag.title}>${tag.text}</span>` : nothing;
}
