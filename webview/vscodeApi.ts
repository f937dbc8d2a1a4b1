import type { WebviewToHostMessage } from '../src/shared/panelProtocol';
import type { PanelState } from './panelStore';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

/** The webview's side of the host connection: typed messages out, persisted state across hide/show. */
export interface HostConnection {
  post(message: WebviewToHostMessage): void;
  restore(): PanelState | undefined;
  save(state: PanelState): void;
}

/** Connects to the VS Code host (once per page, as `acquireVsCodeApi` allows). */
export function connectToHost(): HostConnection {
  const api = acquireVsCodeApi();
  return {
    post: (message) => api.postMessage(message),
    restore: () => {
      const saved = api.getState() as PanelState | undefined;
      return saved && typeof saved === 'object' && 'output' in saved && 'stats' in saved ? saved : undefined;
    },
    save: (state) => api.setState(state),
  };
}
