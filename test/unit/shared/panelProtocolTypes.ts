// Compile-time checks of the panel protocol, run by `tsc -p test/tsconfig.json` (no runtime part): each
// `@ts-expect-error` fails the type check when the error it expects is gone.
import type { HostToWebviewMessage, MessageHandlers, WebviewMessage } from '../../../src/shared/panelProtocol';
import type { PanelActionHandlers } from '../../../src/vscode/planPanel';

const ignore = (): void => undefined;

// A host message type without a handler in the webview's map does not compile.
// @ts-expect-error `notice` has no handler
export const webviewMissingOne: MessageHandlers<HostToWebviewMessage> = { snapshot: ignore, output: ignore, outputResync: ignore };

// A handler gets the message of its own type.
export const webviewTyped: MessageHandlers<HostToWebviewMessage> = {
  snapshot: ({ model }) => void model.version,
  runDelta: ({ changes }) => void changes.steps,
  // @ts-expect-error an output chunk has no `model`
  output: ({ model }) => void model,
  outputResync: ({ tails }) => void tails,
  notice: ({ text }) => void text,
  editResult: ({ request, taken }) => void (taken ? request : 0),
};

// A user action without a handler on the host does not compile, and connection messages are not actions.
declare const allActions: PanelActionHandlers;
const { markManualStep: _handled, ...allButOne } = allActions;
// @ts-expect-error `markManualStep` has no handler
export const hostMissingOne: PanelActionHandlers = allButOne;
// @ts-expect-error `ready` is answered by the panel itself, not an action
export const notAnAction: keyof PanelActionHandlers = 'ready';
export const anAction: WebviewMessage<'markManualStep'>['type'] & keyof PanelActionHandlers = 'markManualStep';
