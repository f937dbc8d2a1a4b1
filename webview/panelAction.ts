import type { WebviewToHostMessage } from '../src/shared/panelProtocol';

/** Name of the window event the app fires with each `editResult` from the host: the form that sent the edit listens. */
export const editResultEvent = 'panel-edit-result';

/** The host's answer to the edit `request` a form sent. */
export interface EditResult {
  request: number;
  taken: boolean;
}

/** Name of the event the review fires (bubbling to the app) with what was typed and not sent: the app keeps it in the saved state. */
export const reviewDraftEvent = 'review-draft';

/** Name of the event a step form fires with its fields after each change (`stepId` undefined: the Add step form). */
export const formValuesEvent = 'form-values';

/** Name of the event components fire to ask the app to send a message to the host. */
export const panelActionEvent = 'panel-action';

/** Asks the app (through a bubbling, composed event) to post `message` to the host. */
export function emitAction(from: HTMLElement, message: WebviewToHostMessage): void {
  from.dispatchEvent(new CustomEvent<WebviewToHostMessage>(panelActionEvent, { detail: message, bubbles: true, composed: true }));
}
