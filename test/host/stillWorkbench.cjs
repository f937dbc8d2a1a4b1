// The user settings of every window a test run opens (the end-to-end suites' and the integration tests'), not of
// `npm start`'s: a workbench that draws only what changed and polls nothing no test asks for.
'use strict';

/**
 * No blinking cursors, smooth scrolling, animations or minimap: on a 2-core machine the browser's page is most of an
 * end-to-end run's CPU, and these redraws took a tenth of it (measured on runInEditor.test.ts: 119-124 CPU seconds, 107
 * with these). No automatic port forwarding: its finder looked for new listening ports every second in child processes
 * of the extension host, 9 % of a core while a window sat idle (1.79 CPU seconds in 20 s; 0.03 without, 2026-12-04).
 * None of the tests is about them.
 */
const stillWorkbench = {
  'workbench.reduceMotion': 'on',
  'editor.cursorBlinking': 'solid',
  'editor.smoothScrolling': false,
  'workbench.list.smoothScrolling': false,
  'terminal.integrated.cursorBlinking': false,
  'editor.minimap.enabled': false,
  'remote.autoForwardPorts': false,
  'remote.autoForwardPortsSource': 'output',
};

module.exports = { stillWorkbench };
