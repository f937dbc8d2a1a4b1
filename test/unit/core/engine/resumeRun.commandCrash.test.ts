import assert from 'node:assert/strict';
import { createMemoryRunStore } from '../../../../src/core/engine/memoryRunStore';
import { resumeRun } from '../../../../src/core/engine/resumeRun';
import { runPlan } from '../../../../src/core/engine/runPlan';
import type { CommandAllowList, CommandRunner } from '../../../../src/core/commandPorts';
import type { ApprovalRequest, Interaction } from '../../../../src/core/interactionPorts';
import { builtinTools } from '../../../../src/core/tools/builtinTools';
import { terminalInteraction } from '../../../../src/cli/terminalInteraction';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { ManualClock } from '../../../fakes/manualClock';
import { ScriptedInteraction } from '../../../fakes/scriptedInteraction';
import { diesOnFirstStart, finishedCommand } from '../../../support/crashingCommand';
import { makePlan, makeStep } from '../../../support/randomPlans';

const appendStep = makeStep('log', { kind: 'tool', agent: undefined, input: undefined, tool: 'run_command', args: { argv: ['./append-release-note.sh'] } });
const done = finishedCommand('appended\n');
const allowingIt: CommandAllowList = { rules: () => [['./append-release-note.sh']] };
const runner = (): CommandRunner & { starts: number } => diesOnFirstStart('appended\n');

/** Runs the plan until its command has started, then leaves it there as a killed process would leave its journal. */
async function interruptedWhileRunning(commands: CommandRunner & { starts: number }) {
  const store = createMemoryRunStore();
  const common = { clock: new ManualClock(0, { autoAdvance: true }), tools: builtinTools(), workspace: createMemoryWorkspace(), allowedCommands: allowingIt, store };
  runPlan(makePlan([appendStep]), { ...common, commandRunner: commands, idSource: () => 'run-c', interaction: ScriptedInteraction.approvingAll() });
  while (commands.starts === 0) await new Promise((resolve) => setImmediate(resolve));
  return common;
}

describe('resumeRun after a crash while a command ran (issue 26, finding 3)', () => {
  it('never runs again silently a command that may have run: it asks, even where an allow rule allowed it, saying why', async () => {
    const commands = runner();
    const common = await interruptedWhileRunning(commands);
    const interaction = new ScriptedInteraction({ approvals: [{ approved: false, reason: 'it already ran' }] });
    const result = await resumeRun('run-c', { ...common, commandRunner: commands, interaction }).result;
    assert.equal(commands.starts, 1, 'not started again');
    const asked = interaction.approvals()[0] as Extract<ApprovalRequest, { kind: 'command' }>;
    assert.equal(asked.kind, 'command');
    assert.equal(asked.mayHaveRun, true);
    assert.notEqual(result.status, 'completed');
  });

  it('runs it again once the user says so, and a fresh command of a fresh run asks nothing more than its rule says', async () => {
    const commands = runner();
    const common = await interruptedWhileRunning(commands);
    const result = await resumeRun('run-c', { ...common, commandRunner: commands, interaction: new ScriptedInteraction({ approvals: [{ approved: true }] }) }).result;
    assert.equal(result.status, 'completed');
    assert.equal(commands.starts, 2);
    const fresh = new ScriptedInteraction();
    const quick: CommandRunner = { describeCwd: async () => '/work/project', run: async () => done };
    const again = await runPlan(makePlan([appendStep]), { ...common, store: createMemoryRunStore(), commandRunner: quick, interaction: fresh }).result;
    assert.equal(again.status, 'completed');
    assert.equal(fresh.requests.length, 0, 'a command no crash interrupted runs as its rule says');
  });

  it('the command line\'s --yes does not answer it: without a terminal the run waits for the user', async () => {
    const commands = runner();
    const common = await interruptedWhileRunning(commands);
    const io = { interactive: false, out: () => undefined, err: () => undefined, ask: async () => '' };
    const interaction: Interaction = terminalInteraction(io, { yes: true });
    const result = await resumeRun('run-c', { ...common, commandRunner: commands, interaction }).result;
    assert.equal(result.status, 'waiting');
    assert.equal(commands.starts, 1);
  });
});
