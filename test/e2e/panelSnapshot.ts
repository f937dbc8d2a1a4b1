// Shows a view model in the plan panel's page as if its host had posted it, for tests of what the page draws.
import type { FrameLocator } from 'playwright-core';
import type { PanelBody } from '../../src/shared/panelViewModel';

/**
 * Posts `body` to the plan panel's page as snapshot `version` of a panel host of session `session` (a new session
 * replaces what the page showed), and resolves once the page rendered it.
 */
export async function showPanelSnapshot(panel: FrameLocator, session: string, body: PanelBody, version = 1): Promise<void> {
  await panel.locator('plan-panel-app').evaluate((_element, message) => window.postMessage(message, '*'), { type: 'snapshot', model: { ...body, session, version } });
  await panel.locator(`plan-panel-app[data-rendered-version="${version}"][data-mode="${body.mode}"]`).waitFor({ timeout: 15_000 });
}
