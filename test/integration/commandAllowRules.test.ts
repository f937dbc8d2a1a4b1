// Command allow rules in the real extension host: a rule lets `npm test` (the demo workspace's test script) run
// without a prompt in a trusted workspace; what only looks like it still asks; the workspace's own stored rules do
// nothing while the allow list reads the workspace as untrusted (Restricted Mode), and its settings.json never allows a
// command (workspaceSettings.test.ts); the Start-time question can make its check commands rules of this workspace.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RunResult } from '../../src/core/engine/runOptions';
import type { Check, Plan } from '../../src/core/plan/planSchema';
import type { TaskPlannerApi } from './testBuild/testExtension';

async function api(): Promise<TaskPlannerApi> {
  const extension = vscode.extensions.getExtension<TaskPlannerApi>('task-planner.task-planner');
  assert.ok(extension);
  return extension.activate();
}

/** A one-step plan: run `argv` with run_command (a non-zero exit is a result, not a failure). */
function commandPlan(name: string, argv: string[]): Plan {
  return {
    id: `plan-${name}`,
    version: 1,
    objective: `Run ${argv.join(' ')}`,
    createdAt: '2026-01-01T00:00:00.000Z',
    agents: {},
    steps: [
      {
        id: 'C1',
        title: `Run ${name}`,
        kind: 'tool',
        tool: 'run_command',
        args: { argv, allowFailure: true },
        dependsOn: [],
        onFailure: 'stop',
        maxAttempts: 1,
        critical: true,
        onVerificationFailure: 'stop',
      },
    ],
  };
}

/** Starts `plan` and says whether it asked before running its command: a prompt is rejected (nothing runs), else the run ends by itself. */
async function startAndSeeIfAsked(planner: TaskPlannerApi, plan: Plan): Promise<{ asked: boolean; result: RunResult }> {
  const running = planner.startPlan(plan);
  const asked = await Promise.race([planner.nextPrompt().then(() => true), running.then(() => false)]);
  if (asked) {
    assert.deepEqual(planner.pendingPrompts(), [{ stepId: 'C1', kind: 'approval' }]);
    await vscode.commands.executeCommand('taskPlanner.reject', 'C1', 'not allowed in this test');
  }
  return { asked, result: await running };
}

describe('Command allow rules in the editor', function () {
  this.timeout(120_000);
  const config = () => vscode.workspace.getConfiguration('taskPlanner');
  const npmTest = ['npm', 'test'];

  afterEach(async () => {
    const planner = await api();
    planner.setWorkspaceTrusted(undefined);
    await planner.commandRules.remove(npmTest);
    await config().update('commands.allowed', undefined, vscode.ConfigurationTarget.Global);
    planner.checkCommands.answer(true);
  });

  it('without a rule npm test asks; with the rule it runs without a prompt, with more arguments only under a rule ending in ...', async () => {
    const planner = await api();
    const before = await startAndSeeIfAsked(planner, commandPlan('npm-test', npmTest));
    assert.equal(before.asked, true);

    await planner.commandRules.add(npmTest);
    assert.deepEqual(planner.commandRules.inForce(), [npmTest]);
    const allowed = await startAndSeeIfAsked(planner, commandPlan('npm-test', npmTest));
    assert.equal(allowed.asked, false);
    assert.equal(allowed.result.status, 'completed', allowed.result.steps.C1?.error);
    assert.equal((allowed.result.steps.C1?.result as { exitCode?: number } | undefined)?.exitCode, 0, 'the demo workspace\'s tests pass');

    // (Not --test-reporter: it loads a module, so it asks under npm test ... too, since an attack ran code through it.)
    const reporter = [...npmTest, '--', '--test-name-pattern=.'];
    const exact = await startAndSeeIfAsked(planner, commandPlan('npm-test-reporter', reporter));
    assert.equal(exact.asked, true, 'the rule allows npm test exactly as written');

    await config().update('commands.allowed', ['npm test ...'], vscode.ConfigurationTarget.Global);
    const longer = await startAndSeeIfAsked(planner, commandPlan('npm-test-reporter', reporter));
    assert.equal(longer.asked, false);
    assert.equal(longer.result.status, 'completed', longer.result.steps.C1?.error);
    const swapped = await startAndSeeIfAsked(planner, commandPlan('npm-test-shell', [...npmTest, '--script-shell=/usr/bin/printf']));
    assert.equal(swapped.asked, true, 'an argument that runs another program asks under npm test ... too');
    const loaded = await startAndSeeIfAsked(planner, commandPlan('npm-test-loads', [...npmTest, '--', '--test-reporter=dot']));
    assert.equal(loaded.asked, true, 'a test reporter loads a module: it asks under npm test ... too');
  });

  it('asks for every command that only looks like the rule: joined words, look-alike letters, spaces, case, a shell', async () => {
    const planner = await api();
    await planner.commandRules.add(npmTest);
    for (const argv of [
      ['npm', 'test;rm', '-rf', '.'],
      ['npm', 'tеst'],
      ['npm', 'test '],
      ['npm', ' test'],
      ['NPM', 'test'],
      ['npm'],
      ['sh', '-c', 'npm test'],
    ]) {
      const { asked, result } = await startAndSeeIfAsked(planner, commandPlan('look-alike', argv));
      assert.equal(asked, true, JSON.stringify(argv));
      assert.notEqual(result.status, 'completed', JSON.stringify(argv));
    }
  });

  it('in Restricted Mode ignores the workspace\'s own stored rules and keeps the user\'s', async () => {
    const planner = await api();
    await planner.commandRules.add(npmTest);
    await config().update('commands.allowed', [['make', 'check']], vscode.ConfigurationTarget.Global);
    assert.deepEqual(planner.commandRules.inForce(), [npmTest, ['make', 'check']]);

    planner.setWorkspaceTrusted(false);
    assert.deepEqual(planner.commandRules.inForce(), [['make', 'check']]);
    const restricted = await startAndSeeIfAsked(planner, commandPlan('npm-test', npmTest));
    assert.equal(restricted.asked, true, 'the stored rule did nothing');
    await assert.rejects(planner.commandRules.add(['npm', 'run', 'build']), /Restricted Mode/);
  });

  it('a blanket rule in the settings is left out, whatever else it holds', async () => {
    const planner = await api();
    await config().update('commands.allowed', ['npm', ['sh', '-c'], '', 'npm test; rm -rf .', ['npm', 'test']], vscode.ConfigurationTarget.Global);
    assert.deepEqual(planner.commandRules.inForce(), [npmTest]);
    const { asked } = await startAndSeeIfAsked(planner, commandPlan('shell', ['sh', '-c', 'npm test']));
    assert.equal(asked, true);
  });

  it('at Start, "Always Allow in This Workspace" makes the check commands rules, so the next run does not ask', async () => {
    const planner = await api();
    const check: Check = { kind: 'command', argv: npmTest };
    const plan: Plan = {
      ...commandPlan('checked', ['npm', 'test']),
      steps: [
        {
          id: 'W1',
          title: 'Write checked.txt',
          kind: 'tool',
          tool: 'write_file',
          args: { path: 'allow-rules-checked.txt', content: 'x\n' },
          dependsOn: [],
          onFailure: 'stop',
          maxAttempts: 1,
          critical: true,
          onVerificationFailure: 'stop',
          checks: [check],
        },
      ],
    };
    await config().update('approvalPolicy', 'commandsOnly', vscode.ConfigurationTarget.Global);
    try {
      const asked = planner.checkCommands.questions.length;
      planner.checkCommands.answer('workspace');
      const first = await planner.startPlan(plan);
      assert.equal(first.status, 'completed', first.steps.W1?.diagnosis);
      assert.equal(planner.checkCommands.questions.length, asked + 1);
      assert.equal(planner.checkCommands.offered.at(-1), true);
      assert.deepEqual(planner.commandRules.inForce(), [npmTest]);
      planner.checkCommands.answer(undefined);
      const second = await planner.startPlan(plan);
      assert.equal(second.status, 'completed', second.steps.W1?.diagnosis);
      assert.equal(planner.checkCommands.questions.length, asked + 1, 'no question: the rule allows the check command');
    } finally {
      await config().update('approvalPolicy', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  describe("a repository's own program (issue 29)", () => {
    const folder = (): string => vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    const plantedNpm = ['node_modules/.bin/npm', 'test'];

    beforeEach(() => {
      const bin = path.join(folder(), 'node_modules', '.bin');
      fs.mkdirSync(bin, { recursive: true });
      fs.writeFileSync(path.join(bin, 'npm'), '#!/bin/sh\necho "planted npm $*"\n', { mode: 0o755 });
    });
    afterEach(async () => {
      fs.rmSync(path.join(folder(), 'node_modules'), { recursive: true, force: true });
      await (await api()).commandRules.remove(plantedNpm);
    });

    it('attack: node_modules/.bin/npm asks although npm test is allowed; a rule naming its path allows it, and it is what runs', async () => {
      const planner = await api();
      await planner.commandRules.add(npmTest);
      const planted = await startAndSeeIfAsked(planner, commandPlan('npm-test-planted', npmTest));
      assert.equal(planted.asked, true, 'the rule for the npm on PATH allowed the repository\'s own npm');

      await planner.commandRules.add(plantedNpm);
      const allowed = await startAndSeeIfAsked(planner, commandPlan('npm-test-planted', npmTest));
      assert.equal(allowed.asked, false);
      const result = allowed.result.steps.C1?.result as { stdout?: string; program?: string } | undefined;
      assert.deepEqual([result?.stdout, result?.program], ['planted npm test\n', 'node_modules/.bin/npm']);
    });

    it('the Start question names the program, and "Always Allow in This Workspace" makes a rule naming its path', async () => {
      const planner = await api();
      const check: Check = { kind: 'command', argv: npmTest };
      const plan: Plan = {
        ...commandPlan('checked-planted', ['npm', 'test']),
        steps: [
          {
            id: 'W1',
            title: 'Write planted.txt',
            kind: 'tool',
            tool: 'write_file',
            args: { path: 'allow-rules-planted.txt', content: 'x\n' },
            dependsOn: [],
            onFailure: 'stop',
            maxAttempts: 1,
            critical: true,
            onVerificationFailure: 'stop',
            checks: [check],
          },
        ],
      };
      await config().update('approvalPolicy', 'commandsOnly', vscode.ConfigurationTarget.Global);
      try {
        planner.checkCommands.answer('workspace');
        const run = await planner.startPlan(plan);
        assert.equal(run.status, 'completed', run.steps.W1?.diagnosis);
        assert.match(planner.checkCommands.questions.at(-1) ?? '', /\n {2}npm \(node_modules\/\.bin\/npm\) test \(in the workspace folder\)\n/);
        assert.deepEqual(planner.commandRules.inForce(), [plantedNpm]);
      } finally {
        await config().update('approvalPolicy', undefined, vscode.ConfigurationTarget.Global);
      }
    });
  });
});
