import assert from 'node:assert/strict';
import type { ApprovalRequest } from '../../../src/core/interactionPorts';
import type * as InteractionModule from '../../../src/vscode/vscodeInteraction';
import type * as PromptsModule from '../../../src/vscode/pendingPrompts';
import { requireWithVscode } from '../../fakes/requireWithVscode';
import { EventEmitter } from '../../fakes/vscodeEventEmitter';

/** The smallest `vscode` the command question needs: an event emitter, `setContext`, and a modal that answers `choose`. */
function editor(choose: (buttons: string[]) => string | undefined) {
  const asked: { message: string; detail: string; buttons: string[] }[] = [];
  const api = {
    EventEmitter,
    commands: { executeCommand: () => Promise.resolve(undefined) },
    window: {
      showWarningMessage: (message: string, options: { detail?: string }, ...buttons: string[]) => {
        asked.push({ message, detail: options.detail ?? '', buttons });
        return Promise.resolve(choose(buttons));
      },
      showErrorMessage: () => Promise.resolve(undefined),
      showInformationMessage: () => Promise.resolve(undefined),
    },
  };
  const { PendingPrompts } = requireWithVscode<typeof PromptsModule>(require.resolve('../../../src/vscode/pendingPrompts'), api);
  const { createVscodeInteraction } = requireWithVscode<typeof InteractionModule>(require.resolve('../../../src/vscode/vscodeInteraction'), api);
  return { asked, PendingPrompts, createVscodeInteraction };
}

const command = (extra: Partial<Extract<ApprovalRequest, { kind: 'command' }>> = {}): Extract<ApprovalRequest, { kind: 'command' }> => ({
  kind: 'command',
  stepId: 'S1',
  title: 'Run the tool script',
  argv: ['./run.sh'],
  cwd: '/work/project/tools',
  shell: false,
  requestId: 'S1@0123456789ab',
  ...extra,
});

/** Proposal documents a command's question never opens. */
const documents = { drop: () => undefined, close: () => Promise.resolve() } as never;

describe('attack: "Allow this command for this workspace" offered where its rule would allow another file', () => {
  it('a relative program asked in another folder than the workspace folder is run once, and no rule is offered or stored', async () => {
    const allow = 'Allow this command for this workspace';
    const { asked, PendingPrompts, createVscodeInteraction } = editor((buttons) => (buttons.includes(allow) ? allow : 'Run'));
    const added: (readonly string[])[] = [];
    const rules = { problem: () => undefined, add: async (argv: readonly string[]) => void added.push(argv) };
    const pending = new PendingPrompts();
    const interaction = createVscodeInteraction(pending, documents, { commandRules: rules });
    const decision = await interaction.requestApproval(command({ noRuleHere: true }), new AbortController().signal);
    assert.deepEqual(decision, { approved: true });
    assert.deepEqual(added, [], 'a rule ["./run.sh"] would allow the root\'s run.sh, never shown, and never this one');
    assert.equal(asked[0]?.buttons.includes(allow), false);
    assert.match(asked[0]?.detail ?? '', /is not offered: a rule of these words would allow them only in the workspace folder itself/);
  });

  it('held: the same command asked in the workspace folder is offered the rule', async () => {
    const allow = 'Allow this command for this workspace';
    const { PendingPrompts, createVscodeInteraction } = editor((buttons) => (buttons.includes(allow) ? allow : undefined));
    const added: (readonly string[])[] = [];
    const rules = { problem: () => undefined, add: async (argv: readonly string[]) => void added.push(argv) };
    const interaction = createVscodeInteraction(new PendingPrompts(), documents, { commandRules: rules });
    assert.deepEqual(await interaction.requestApproval(command({ cwd: '/work/project' }), new AbortController().signal), { approved: true });
    assert.deepEqual(added, [['./run.sh']]);
  });
});

describe('the command question and what an allow rule given from it covers', () => {
  const allow = 'Allow this command for this workspace';
  const rules = (added: (readonly string[])[]) => ({ problem: () => undefined, add: async (argv: readonly string[]) => void added.push(argv) });

  it("says where the rule is given that npm test runs what the workspace's package.json says (by design)", async () => {
    const { asked, PendingPrompts, createVscodeInteraction } = editor(() => 'Run');
    const interaction = createVscodeInteraction(new PendingPrompts(), documents, { commandRules: rules([]) });
    await interaction.requestApproval(command({ argv: ['npm', 'test'], cwd: '/work/project' }), new AbortController().signal);
    assert.ok(asked[0]?.buttons.includes(allow));
    assert.match(
      asked[0]?.detail ?? '',
      /"npm test" runs what the workspace's own package\.json and \.npmrc say when it runs \(a repository's scripts and build files are its own code\): allow it only in a project you trust\./,
    );
  });

  it("attack: a git command whose repository's own configuration names programs shows them, and offers no rule (it would ask again)", async () => {
    const added: (readonly string[])[] = [];
    const { asked, PendingPrompts, createVscodeInteraction } = editor(() => 'Run');
    const interaction = createVscodeInteraction(new PendingPrompts(), documents, { commandRules: rules(added) });
    const repositoryPrograms = ['diff.external = tools/x.sh (.git/config)'];
    await interaction.requestApproval(command({ argv: ['git', 'diff'], cwd: '/work/project', repositoryPrograms }), new AbortController().signal);
    assert.equal(asked[0]?.buttons.includes(allow), false);
    assert.match(asked[0]?.detail ?? '', /Git also runs what this repository's own configuration names: diff\.external = tools\/x\.sh \(\.git\/config\)\. Run it only if you put them there\./);
    assert.deepEqual(added, []);
  });
});
