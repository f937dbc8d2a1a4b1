import { PanelApp } from './panelApp';
import { connectToHost } from './vscodeApi';

// The plan panel's entry point: the document holds one <plan-panel-app>; connect it to the host.
const app = document.querySelector('plan-panel-app');
if (app instanceof PanelApp) app.connect(connectToHost());
