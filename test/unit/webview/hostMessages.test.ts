import assert from 'node:assert/strict';
import type { HostToWebviewMessage, MessageHandlers } from '../../../src/shared/panelProtocol';
import { dispatchHostMessage } from '../../../webview/hostMessages';

/** Handlers that record the messages they get, by type. */
function recording(): { handlers: MessageHandlers<HostToWebviewMessage>; seen: HostToWebviewMessage[] } {
  const seen: HostToWebviewMessage[] = [];
  const record = (message: HostToWebviewMessage): void => {
    seen.push(message);
  };
  return { seen, handlers: { snapshot: record, runDelta: record, output: record, outputResync: record, notice: record, editResult: record } };
}

describe('dispatchHostMessage (the webview side of host messages)', () => {
  it('hands each message of the protocol to the handler of its type', () => {
    const { handlers, seen } = recording();
    const notice: HostToWebviewMessage = { type: 'notice', id: 3, level: 'info', text: 'Saved', untilEdit: false };
    const chunk: HostToWebviewMessage = { type: 'output', runId: 'r', seq: 1, stepId: 'S1', text: 'hi' };
    assert.equal(dispatchHostMessage(handlers, notice), undefined);
    assert.equal(dispatchHostMessage(handlers, chunk), undefined);
    assert.deepEqual(seen, [notice, chunk]);
  });

  it('says what arrived when the type is unknown or missing, and hands it to nobody', () => {
    const { handlers, seen } = recording();
    assert.equal(dispatchHostMessage(handlers, { type: 'confetti', amount: 3 }), 'a "confetti" message');
    assert.equal(dispatchHostMessage(handlers, { type: 'toString' }), 'a "toString" message', 'inherited names are not handlers');
    assert.equal(dispatchHostMessage(handlers, { model: {} }), 'a message without a type');
    assert.equal(dispatchHostMessage(handlers, null), 'a message without a type');
    assert.equal(dispatchHostMessage(handlers, `${'x'.repeat(100)}`), 'a message without a type');
    assert.equal(dispatchHostMessage(handlers, { type: 'y'.repeat(500) }), `a "${'y'.repeat(40)}" message`);
    assert.deepEqual(seen, []);
  });
});
