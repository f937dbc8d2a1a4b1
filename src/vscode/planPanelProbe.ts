import type { Plan } from '../core/plan/planSchema';
import type { HostToWebviewMessage, WebviewToHostMessage } from '../shared/panelProtocol';
import type { PanelViewModel } from '../shared/panelViewModel';
import type { PlanPanelController } from './planPanelController';

/** The plan panel as the integration tests see it through the extension's API. */
export interface PlanPanelProbe {
  /** Opens (or reveals) the panel showing `plan`. */
  show(plan: Plan): void;
  /** Whether the panel is open. */
  isOpen(): boolean;
  /** Validates and handles `message` as if the webview had sent it. */
  send(message: unknown): Promise<void>;
  /** Valid messages the host received (from the webview or `send`), oldest first. */
  received(): WebviewToHostMessage[];
  /** Messages the host posted, oldest first. */
  posted(): HostToWebviewMessage[];
  /** Why invalid messages were ignored. */
  refused(): string[];
  /** The last snapshot posted. */
  model(): PanelViewModel | undefined;
  /** Closes the panel. */
  close(): void;
}

/** A probe over the controller's current panel. */
export function createPlanPanelProbe(panels: PlanPanelController): PlanPanelProbe {
  return {
    show: (plan) => {
      panels.show(plan);
    },
    isOpen: () => panels.panel() !== undefined,
    send: async (message) => {
      const panel = panels.panel();
      if (!panel) throw new Error('The plan panel is not open.');
      await panel.receive(message);
    },
    received: () => [...(panels.panel()?.trace.received ?? [])],
    posted: () => [...(panels.panel()?.trace.posted ?? [])],
    refused: () => [...(panels.panel()?.trace.refused ?? [])],
    model: () => panels.panel()?.peekModel(),
    close: () => panels.panel()?.dispose(),
  };
}
