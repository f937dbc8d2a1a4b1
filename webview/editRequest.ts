import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { editResultEvent, type EditResult } from './panelAction';

let lastEditRequest = 0;

/**
 * The edit a form sent and waits on (a lit controller): `send` numbers it, and when the host's answer (`editResult`,
 * which the app passes on as a window event) says it was taken, `taken` runs (the form closes); a refused edit leaves the
 * form as it was, whatever snapshot came meanwhile. Until the answer, `sentOn` is the plan version it was sent on.
 */
export class EditRequest implements ReactiveController {
  private sent: { request: number; planVersion: number } | undefined;

  constructor(
    host: ReactiveControllerHost,
    private readonly taken: () => void,
  ) {
    host.addController(this);
  }

  /** The plan version of the edit waiting for its answer, or `undefined` when none waits. */
  get sentOn(): number | undefined {
    return this.sent?.planVersion;
  }

  /** A number for the edit about to be sent on `planVersion`, unique in this page: the host's answer names it. */
  send(planVersion: number): number {
    lastEditRequest += 1;
    this.sent = { request: lastEditRequest, planVersion };
    return lastEditRequest;
  }

  /** Stops waiting (the form closed): a late answer does nothing. */
  forget(): void {
    this.sent = undefined;
  }

  hostConnected(): void {
    window.addEventListener(editResultEvent, this.onResult as EventListener);
  }

  hostDisconnected(): void {
    window.removeEventListener(editResultEvent, this.onResult as EventListener);
  }

  private readonly onResult = (event: CustomEvent<EditResult>): void => {
    if (event.detail.request !== this.sent?.request) return;
    this.sent = undefined;
    if (event.detail.taken) this.taken();
  };
}
