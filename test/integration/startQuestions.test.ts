// Issue 27, E3 in the real extension host: one answer at Start never allows more check commands than one question
// lists where they can be read (at most five); a command the question left out asks when it runs.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Check, Plan } from '../../src/core/plan/planSchema';
import type { TaskPlannerApi } from './testBuild/testExtension';

async function api(): Promise<TaskPlannerApi> {
  const extension = vscode.extensions.getExtension<TaskPlannerApi>('task-planner.task-planner');
  assert.ok(extension);
  return extension.activate();
}

/** One step writing `path`, checked by `checks`. */
function checkedPlan(path: string, checks: Check[]): Plan {
  return {
    id: `plan-${path}`,
    version: 1,
    objective: `Write ${path}`,
    createdAt: '2026-01-01T00:00:00.000Z',
    agents: {},
    steps: [
      { id: 'S1', title: `Write ${path}`, kind: 'tool', tool: 'write_file', args: { path, content: 'checked\n' }, dependsOn: [], onFailure: 'stop', maxAttempts: 1, critical: true, onVerificationFailure: 'stop', checks },
    ],
  };
}

describe('Check commands at Start (issue 27, E3)', function () {
  this.timeout(120_000);
  const config = () => vscode.workspace.getConfiguration('taskPlanner');

  before(async () => {
    await config().update('approvalPolicy', 'commandsOnly', vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    await config().update('approvalPolicy', undefined, vscode.ConfigurationTarget.Global);
  });

  it('of seven look-alike commands, one Allow runs only those its question listed (at most five); each other asks when it runs', async () => {
    const planner = await api();
    // Seven distinct commands that read alike, as a hostile plan hides a harmful one among look-alikes.
    const checks: Check[] = Array.from({ length: 7 }, (_, index) => ({ kind: 'command' as const, argv: [process.execPath, '-e', `process.exit(0) // check ${index + 1}`] }));
    const asked = planner.checkCommands.questions.length;
    planner.checkCommands.answer(true);
    const started = planner.startPlan(checkedPlan('batched.txt', checks));
    // Each command the question left out asks as a command approval when its check runs: rejected here.
    let later = 0;
    for (;;) {
      const next = await Promise.race([planner.nextPrompt(), started.then(() => undefined)]);
      if (next === undefined) break;
      assert.deepEqual(next, { stepId: 'S1', kind: 'approval' });
      later++;
      await vscode.commands.executeCommand('taskPlanner.reject', 'S1');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const result = await started;
    const question = planner.checkCommands.questions[asked] ?? '';
    const listed = question.split('\n').filter((line) => line.startsWith('  '));
    // At most five, and no more text than one dialog shows (this host's node path is long: fewer then).
    assert.ok(listed.length >= 1 && listed.length <= 5, question);
    assert.ok(listed.join('').length <= 600 + 2 * listed.length, question);
    assert.ok(listed.every((line, index) => line.includes(`check ${index + 1}"`)), question);
    assert.doesNotMatch(question, /check [67]/);
    assert.equal(later, 7 - listed.length, 'the commands left out of the question did not each ask when they ran');
    const outcomes = result.steps.S1?.checks?.map((outcome) => outcome.passed);
    assert.deepEqual(outcomes, [...listed.map(() => true), ...Array.from({ length: later }, () => false)], result.steps.S1?.diagnosis);
    assert.match(result.steps.S1?.diagnosis ?? '', /check 7`\) failed: not allowed: The user rejected running/);
  });
});
