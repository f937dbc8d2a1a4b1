import type { WebviewToHostMessage } from '../src/shared/panelProtocol';

/** Name of the event components fire to ask the app to send a message to the host. */
export const panelActionEvent = 'panel-action';

/** Asks the app (through a bubbling, composed event) to post `message` to the host. */
export function emitAction(from: HTMLElement, message: WebviewToHostMessage): void {
  from.dispatchEvent(new CustomEvent<WebviewToHostMessage>(panelActionEvent, { detail: message, bubbles: true, composed: true }));
}
