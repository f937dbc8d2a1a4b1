import assert from 'node:assert/strict';
import { createMemoryRunStore } from '../../../../src/core/engine/memoryRunStore';
import { resumeRun } from '../../../../src/core/engine/resumeRun';
import { runPlan } from '../../../../src/core/engine/runPlan';
import type { CommandAllowList } from '../../../../src/core/commandPorts';
import { builtinTools } from '../../../../src/core/tools/builtinTools';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { ManualClock } from '../../../fakes/manualClock';
import { ScriptedInteraction } from '../../../fakes/scriptedInteraction';
import { diesOnFirstStart } from '../../../support/crashingCommand';
import { makePlan, makeStep } from '../../../support/randomPlans';

// Attack (promise: "a command that may have run asks before it runs again"): the command is not a run_command step but a
// step's check command. A crash while it runs, then a resume: does it ask before running it again?
const checked = makeStep('notes', {
  kind: 'tool',
  agent: undefined,
  input: undefined,
  tool: 'list_files',
  args: {},
  checks: [{ kind: 'command', argv: ['./append-release-note.sh'] }],
});

describe('attack: a check command interrupted by a crash', () => {
  for (const [how, options] of [
    ['allowed by a rule', { allowedCommands: { rules: () => [['./append-release-note.sh']] } satisfies CommandAllowList }],
    ['allowed at Start', { checkCommands: { allowed: true, commands: [{ argv: ['./append-release-note.sh'], cwd: '' }] } }],
  ] as const) {
    it(`a check command ${how} that may have run before a crash asks before it runs again on resume`, async () => {
      const commands = diesOnFirstStart('ok\n');
      const store = createMemoryRunStore();
      const workspace = createMemoryWorkspace({ 'a.txt': 'x' });
      const common = { clock: new ManualClock(0, { autoAdvance: true }), tools: builtinTools(), workspace, store, ...options };
      runPlan(makePlan([checked]), { ...common, commandRunner: commands, idSource: () => 'run-k', interaction: ScriptedInteraction.approvingAll() });
      for (let spin = 0; commands.starts === 0 && spin < 10_000; spin++) await new Promise((resolve) => setImmediate(resolve));
      assert.equal(commands.starts, 1, 'the check command started (and the process then died)');
      const interaction = new ScriptedInteraction({ approvals: [{ approved: false, reason: 'it already ran' }] });
      await resumeRun('run-k', { ...common, commandRunner: commands, interaction }).result;
      assert.equal(commands.starts, 1, `ran again without asking (asked: ${JSON.stringify(interaction.requests.map((r) => r.kind))})`);
      const [asked] = interaction.approvals();
      assert.deepEqual(asked?.kind === 'command' ? [asked.argv, asked.mayHaveRun] : asked, [['./append-release-note.sh'], true], 'asked, saying it may have run');
    });
  }
});
