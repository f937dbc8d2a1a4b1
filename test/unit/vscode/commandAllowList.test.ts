import assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { allowRulesStateKey, EditorCommandAllowList } from '../../../src/vscode/commandAllowList';
import { memoryMemento } from '../../fakes/memoryMemento';

function allowList(options: { user?: unknown; workspace?: unknown; state?: vscode.Memento; trusted?: () => boolean } = {}) {
  const warnings: string[][] = [];
  const state = options.state ?? memoryMemento();
  const list = new EditorCommandAllowList({
    setting: () => ({ user: options.user, workspace: options.workspace }),
    state,
    isTrusted: options.trusted ?? (() => true),
    warn: (problems) => warnings.push([...problems]),
  });
  return { list, warnings, state };
}

describe('EditorCommandAllowList', () => {
  it('puts together the rules of this workspace and the user settings; the workspace settings\' are listed but allow nothing', async () => {
    const { list } = allowList({ user: ['make lint'], workspace: [['npm', 'run', 'build']] });
    await list.add(['npm', 'test']);
    assert.deepEqual(list.rules(), [['npm', 'test'], ['make', 'lint']]);
    assert.deepEqual(
      list.list().map((listed) => [listed.source, listed.ignored]),
      [['workspace', false], ['userSetting', false], ['workspaceSetting', true]],
    );
  });

  it('attack (issue 27): a trusted cloned repository\'s .vscode/settings.json cannot allow its own commands', () => {
    const { list, warnings } = allowList({ workspace: ['npm test', 'make', ['./run-me.sh']], trusted: () => true });
    assert.deepEqual(list.rules(), [], 'the workspace settings allowed a command');
    assert.deepEqual(warnings, []);
  });

  it('ignores the workspace\'s own rules (stored and in its settings) in Restricted Mode, read at every call', async () => {
    let trusted = true;
    const { list } = allowList({ user: ['make lint'], workspace: ['npm test'], trusted: () => trusted });
    await list.add(['npm', 'run', 'build']);
    assert.equal(list.rules().length, 2);
    trusted = false;
    assert.deepEqual(list.rules(), [['make', 'lint']]);
    assert.deepEqual(
      list
        .list()
        .filter((listed) => listed.ignored)
        .map((listed) => listed.source),
      ['workspace', 'workspaceSetting'],
      'listed, marked as ignored',
    );
    await assert.rejects(
      list.add(['npm', 'test']),
      /^Error: The command cannot be allowed: this workspace is in Restricted Mode, where its own allow rules are ignored\.$/,
    );
    trusted = true;
    assert.equal(list.rules().length, 2, 'trusting the workspace applies at once');
  });

  it('keeps a rule for the workspace it was made in: another workspace\'s state does not have it', async () => {
    const first = allowList();
    const second = allowList();
    await first.list.add(['npm', 'test']);
    assert.deepEqual(first.list.rules(), [['npm', 'test']]);
    assert.deepEqual(second.list.rules(), []);
  });

  it('refuses a blanket rule and stores a rule once; removes it', async () => {
    const { list, state } = allowList();
    assert.match(list.problem(['bash']) ?? '', /would let bash run any code/);
    await assert.rejects(list.add([]), /an empty rule would allow every command/);
    await assert.rejects(list.add(['sh', '-c']), /would let sh run any code/);
    await list.add(['npm', 'test']);
    await list.add(['npm', 'test']);
    assert.deepEqual(state.get(allowRulesStateKey), [['npm', 'test']]);
    assert.ok(list.canAllow({ argv: ['npm', 'test'], cwd: 'pkg' }));
    assert.equal(list.canAllow({ argv: ['./check.sh'], cwd: 'pkg' }), false, 'a relative program rule would not allow it in pkg');
    assert.equal(list.canAllow({ argv: ['node'], cwd: '' }), false);
    await list.remove(['npm', 'test']);
    assert.deepEqual(list.rules(), []);
  });

  it("a check command whose program is the project's own can become a rule naming that program's path, in any folder", () => {
    const { list } = allowList();
    assert.ok(list.canAllow({ argv: ['pytest', '-q'], cwd: 'pkg', program: '.venv/bin/pytest' }));
    assert.equal(list.canAllow({ argv: ['python', '-c', 'x'], cwd: '', program: '.venv/bin/python' }), false, 'still no blanket rule');
  });

  it('G1: makes a command an exact rule; a rule for further arguments only when typed with ...', async () => {
    const { list, state } = allowList();
    assert.match(list.problem(['make', '...']) ?? '', /its last word "\.\.\." would make a rule that allows any further arguments/);
    await assert.rejects(list.add(['make', '...']), /The command cannot be allowed: its last word/);
    assert.equal(list.canAllow({ argv: ['make', '...'], cwd: '' }), false);
    assert.match(list.problem(['bash', '...']) ?? '', /would let bash run any code/, 'a blanket rule is named first');
    assert.equal(list.ruleProblem(['make', '...']), undefined);
    await list.addRule(['make', '...']);
    await list.addRule(['make', '...']);
    await list.add(['npm', 'test']);
    assert.deepEqual(state.get(allowRulesStateKey), [['make', '...'], ['npm', 'test']]);
    await assert.rejects(list.addRule(['sed', '...']), /further arguments to sed/);
    const restricted = allowList({ trusted: () => false }).list;
    assert.match(restricted.ruleProblem(['make', '...']) ?? '', /Restricted Mode/);
    assert.match(restricted.problem(['make', '...']) ?? '', /Restricted Mode/);
  });

  it('leaves out a bad setting entry, keeps the others, and warns once per distinct list of problems', () => {
    const { list, warnings } = allowList({ user: ['npm test', 'npm test; rm -rf ~', 7], workspace: 'npm test' });
    assert.deepEqual(list.rules(), [['npm', 'test']]);
    list.rules();
    assert.deepEqual(warnings, [[
      'taskPlanner.commands.allowed (user settings), entry 2: "npm test; rm -rf ~" is not a plain command line (only letters, digits, spaces and _@%+=:,./- are read); write it as a list of words, such as ["npm", "test", "--", "--grep", "two words"]; it was ignored.',
      'taskPlanner.commands.allowed (user settings), entry 3: must be a command line such as "npm test" or a list of words such as ["npm", "test"]; it was ignored.',
    ]]);
  });

  it('reads stored rules through the same checks: an edited workspace state allows nothing blanket', () => {
    const { list } = allowList({ state: memoryMemento({ [allowRulesStateKey]: [[], ['bash'], 'npm test', { argv: ['x'] }] }) });
    assert.deepEqual(list.rules(), [['npm', 'test']]);
    assert.deepEqual(allowList({ state: memoryMemento({ [allowRulesStateKey]: 'npm test' }) }).list.rules(), []);
  });
});
