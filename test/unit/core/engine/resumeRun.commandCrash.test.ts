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
import { deferAllInteraction } from '../../../../src/core/engine/stepInteraction';
import type { RunStore } from '../../../../src/core/runStorePorts';

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

  it('attack: an approval given before the crash (resume --approve, or journaled) does not answer "it may have run" (it ran twice)', async () => {
    const store = createMemoryRunStore();
    const commands = runner();
    const common = { clock: new ManualClock(0, { autoAdvance: true }), tools: builtinTools(), workspace: createMemoryWorkspace(), commandRunner: commands, store };
    // Run with no one to answer (CI): it waits; `resume --approve log` starts the command, and the process is killed.
    const first = await runPlan(makePlan([appendStep]), { ...common, idSource: () => 'run-a', interaction: deferAllInteraction }).result;
    assert.equal(first.status, 'waiting');
    void resumeRun('run-a', { ...common, interaction: deferAllInteraction, approvals: { log: true } }).result;
    while (commands.starts === 0) await new Promise((resolve) => setImmediate(resolve));
    const asking = new ScriptedInteraction({ approvals: [{ approved: false, reason: 'it already ran' }] });
    await resumeRun('run-a', { ...common, store: { ...store }, interaction: asking }).result;
    assert.equal(commands.starts, 1, 'the command that may have run ran again on the approval given before the crash');
    assert.equal((asking.approvals()[0] as Extract<ApprovalRequest, { kind: 'command' }> | undefined)?.mayHaveRun, true);
  });

  it('attack: a command whose start the journal could not store (a full disk) does not start, and fails saying why', async () => {
    const memory = createMemoryRunStore();
    let full = false;
    const store: RunStore = {
      ...memory,
      append: async (runId, entries) => {
        if (entries.some((entry) => (entry as { type?: unknown }).type === 'command_started')) full = true;
        if (full) throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
        return memory.append(runId, entries);
      },
    };
    const commands = runner();
    const common = { clock: new ManualClock(0, { autoAdvance: true }), tools: builtinTools(), workspace: createMemoryWorkspace(), allowedCommands: allowingIt };
    const result = await runPlan(makePlan([appendStep]), { ...common, store, commandRunner: commands, interaction: ScriptedInteraction.approvingAll() }).result;
    assert.equal(commands.starts, 0, 'started with no trace in the journal: after a crash a resume would run it again unasked');
    assert.equal(result.steps['log']?.status, 'failed');
    assert.match(result.steps['log']?.error ?? '', /not started: the run journal could not be written/);
  });

  it('attack: a command starts only once its start line is durable (synced), not just stored: a power loss could lose it', async () => {
    const memory = createMemoryRunStore();
    const stored: string[] = [];
    let durable: string[] = [];
    const store: RunStore = {
      ...memory,
      append: async (runId, entries) => {
        stored.push(...entries.map((entry) => String((entry as { type?: unknown }).type)));
        return memory.append(runId, entries);
      },
      sync: async () => {
        durable = [...stored];
      },
    };
    let durableAtStart: string[] | undefined;
    const commands: CommandRunner = {
      describeCwd: async () => '/work/project',
      run: async () => {
        durableAtStart = [...durable];
        return done;
      },
    };
    const common = { clock: new ManualClock(0, { autoAdvance: true }), tools: builtinTools(), workspace: createMemoryWorkspace(), allowedCommands: allowingIt };
    const result = await runPlan(makePlan([appendStep]), { ...common, store, commandRunner: commands, interaction: ScriptedInteraction.approvingAll() }).result;
    assert.equal(result.status, 'completed');
    assert.equal(durableAtStart?.at(-1), 'command_started');
  });

  it('attack: a command whose start line the disk would not make durable does not start, and fails saying why', async () => {
    const memory = createMemoryRunStore();
    let started = false;
    const store: RunStore = {
      ...memory,
      append: async (runId, entries) => {
        if (entries.some((entry) => (entry as { type?: unknown }).type === 'command_started')) started = true;
        return memory.append(runId, entries);
      },
      sync: async () => {
        if (started) throw Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' });
      },
    };
    const commands = runner();
    const common = { clock: new ManualClock(0, { autoAdvance: true }), tools: builtinTools(), workspace: createMemoryWorkspace(), allowedCommands: allowingIt };
    const result = await runPlan(makePlan([appendStep]), { ...common, store, commandRunner: commands, interaction: ScriptedInteraction.approvingAll() }).result;
    assert.equal(commands.starts, 0);
    assert.equal(result.steps['log']?.status, 'failed');
    assert.match(result.steps['log']?.error ?? '', /not started: the run journal could not be written/);
    assert.match(result.metadata.warnings.join('\n'), /to the disk: EIO/);
  });
});
