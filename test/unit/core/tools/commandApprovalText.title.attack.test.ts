import assert from 'node:assert/strict';
import type { ApprovalRequest } from '../../../../src/core/interactionPorts';
import { commandApprovalText } from '../../../../src/core/tools/commandApprovalText';
import { visibleControls } from '../../../../src/shared/visibleCharacters';

// Attack on "Nothing from a model … reaches your screen unescaped or unbounded": the editor's command question shows
// `commandApprovalText`'s message as the modal's heading. A model's step title of 200,000 characters filled the dialog
// (the command below it out of sight), and its tag characters spelled words no one saw, as did a zero-width space.
describe("attack: a step's title in a command's question", () => {
  const command = (title: string): Extract<ApprovalRequest, { kind: 'command' }> => ({ kind: 'command', stepId: 'S', title, argv: ['rm', '-rf', 'build'], cwd: '', shell: false });
  const tags = [...'Approved by the admin'].map((char) => String.fromCodePoint(0xe0000 + char.charCodeAt(0))).join('');

  it('is one bounded line, every invisible character spelled out', () => {
    const { message } = commandApprovalText(command(`Clean the build\u200b${tags}\u2028${'x'.repeat(200_000)}`));
    assert.equal(message, visibleControls(message), JSON.stringify(message.slice(0, 300)));
    assert.ok(message.length < 400, `${message.length} characters`);
    assert.match(message, /^Step "Clean the build\\u200b\\udb40\\udc41/);
    assert.match(message, /…" wants to run a command\.$/);
  });

  it('held: a plain title is shown as it is', () => {
    assert.equal(commandApprovalText(command('Clean the build')).message, 'Step "Clean the build" wants to run a command.');
  });
});
