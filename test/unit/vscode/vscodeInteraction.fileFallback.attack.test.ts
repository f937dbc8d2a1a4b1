// Attack on the file approval's dialog, shown when the diff editor cannot open: a file's or a model's text in the diff it quotes.
import assert from 'node:assert/strict';
import type { ApprovalRequest } from '../../../src/core/interactionPorts';
import type * as InteractionModule from '../../../src/vscode/vscodeInteraction';
import type * as PromptsModule from '../../../src/vscode/pendingPrompts';
import { requireWithVscode } from '../../fakes/requireWithVscode';
import { EventEmitter } from '../../fakes/vscodeEventEmitter';

function editor() {
  const asked: { message: string; detail: string; buttons: string[] }[] = [];
  const api = {
    EventEmitter,
    // The diff editor cannot open: the dialog asks instead.
    commands: { executeCommand: (command: string) => (command === 'vscode.diff' ? Promise.reject(new Error('no diff editor')) : Promise.resolve(undefined)) },
    window: {
      showWarningMessage: (message: string, options: { detail?: string }, ...buttons: string[]) => {
        asked.push({ message, detail: options.detail ?? '', buttons });
        return Promise.resolve('Reject');
      },
      showErrorMessage: () => Promise.resolve(undefined),
      showInformationMessage: () => Promise.resolve(undefined),
    },
  };
  const { PendingPrompts } = requireWithVscode<typeof PromptsModule>(require.resolve('../../../src/vscode/pendingPrompts'), api);
  const { createVscodeInteraction } = requireWithVscode<typeof InteractionModule>(require.resolve('../../../src/vscode/vscodeInteraction'), api);
  return { asked, PendingPrompts, createVscodeInteraction };
}

const documents = { put: () => ({ current: 'current', proposed: 'proposed' }), drop: () => undefined, close: () => Promise.resolve() } as never;

describe("attack: the file approval's dialog shows the change it asks about as it is", () => {
  it('makes direction overrides, zero-width characters and escape sequences in the diff visible', async () => {
    // Trojan Source: the line reads as a comment on screen, and is code.
    const proposed = 'const isAdmin = false;\n/*\u202E } \u2066if (isAdmin)\u2069 \u2066 begin admins only */\nconst token\u200b = "x";\n\u001b[1A\u001b[2Kok\n';
    const { asked, PendingPrompts, createVscodeInteraction } = editor();
    const request: Extract<ApprovalRequest, { kind: 'file' }> = {
      kind: 'file',
      stepId: 'S1',
      title: 'Tidy the config',
      operation: 'write',
      requestId: 'S1@0123456789ab',
      proposal: { path: 'src/auth.ts', currentText: undefined, proposedText: proposed, diff: `--- /dev/null\n+++ b/src/auth.ts\n@@ -0,0 +1,4 @@\n+${proposed.split('\n').slice(0, 4).join('\n+')}\n` },
    };
    const decision = await createVscodeInteraction(new PendingPrompts(), documents).requestApproval(request, new AbortController().signal);
    assert.deepEqual(decision, { approved: false });
    const { detail } = asked[0]!;
    assert.doesNotMatch(detail, /[\u202a-\u202e\u2066-\u2069\u200b\u001b]/u, detail);
    assert.match(detail, /\/\*\\u202e \} \\u2066if \(isAdmin\)\\u2069/);
    assert.match(detail, /\+const token\\u200b = "x";/);
    assert.match(detail, /^\+const isAdmin = false;$/m, 'the rest of the diff is as it is');
  });
});
