import assert from 'node:assert/strict';
import { describeCheckCommand } from '../../../../src/core/engine/checkCommandConsent';
import type { ApprovalRequest } from '../../../../src/core/interactionPorts';
import { allowRuleProblem } from '../../../../src/core/tools/commandAllowRules';
import { commandApprovalText, shownCommandWord } from '../../../../src/core/tools/commandApprovalText';
import { visibleControls } from '../../../../src/shared/visibleCharacters';

// Attack on "An approval applies only to what you saw: … the same command line" and "Nothing from a model … reaches your
// screen unescaped": a repository's package.json holds two scripts, "test" (mocha) and "test\u200b" (anything); the model
// asks to run `npm run test\u200b`. The editor's modal (vscodeInteraction.askCommandApproval shows `commandApprovalText`'s
// detail as it is) and the Start question (describeCheckCommand) show `npm run "test"`: the zero-width space, a word joiner,
// a soft hyphen or tag characters stay invisible inside the quotes. (The CLI's terminalSafe escapes them; the editor does not.)
const hidden = ['test\u200b', 'test\u2060', 'te\u00adst', 'test\u{E0020}\u{E0065}\u{E0076}\u{E0069}\u{E006C}'];

describe('attack: invisible characters in a command word', () => {
  for (const word of hidden) {
    const escaped = JSON.stringify(word);
    it(`the command question shows ${escaped} with its invisible character escaped`, () => {
      const request: Extract<ApprovalRequest, { kind: 'command' }> = { kind: 'command', stepId: 'S', title: 'Run the tests', argv: ['npm', 'run', word], cwd: '/ws', shell: false };
      const { detail } = commandApprovalText(request);
      assert.equal(detail, visibleControls(detail), `shown: ${JSON.stringify(detail)}`);
      assert.equal(shownCommandWord(word), visibleControls(shownCommandWord(word)));
    });

    it(`the Start question shows the check command ${escaped} with its invisible character escaped`, () => {
      const shown = describeCheckCommand({ argv: ['npm', 'run', word], cwd: '' });
      assert.equal(shown, visibleControls(shown), `shown: ${JSON.stringify(shown)}`);
      assert.match(shown, /\\u/, 'the hidden character is spelled out');
    });

    it(`a rule holding ${escaped} cannot be made`, () => {
      assert.match(allowRuleProblem(['npm', 'run', word]) ?? '', /contains an invisible character/);
    });
  }
});
