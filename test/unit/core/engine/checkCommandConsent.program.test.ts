import assert from 'node:assert/strict';
import { consentedProgram, describeCheckCommand, withProjectPrograms, type CheckCommand } from '../../../../src/core/engine/checkCommandConsent';
import { evaluateCheck, type CheckEnvironment } from '../../../../src/core/engine/evaluateCheck';
import { resolveRunOptions } from '../../../../src/core/engine/resolveRunOptions';
import { deferAllInteraction } from '../../../../src/core/engine/stepInteraction';
import type { Check } from '../../../../src/core/plan/planSchema';
import type { CommandRunner, ProjectProgram } from '../../../../src/core/commandPorts';
import type { Interaction } from '../../../../src/core/interactionPorts';
import { runCommandTool } from '../../../../src/core/tools/runCommandTool';
import { ManualClock } from '../../../fakes/manualClock';
import { freshCommandLog } from '../../../fakes/toolContext';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { ScriptedInteraction } from '../../../fakes/scriptedInteraction';
import { makePlan } from '../../../support/randomPlans';

const pytest: ProjectProgram = { path: '/ws/.venv/bin/pytest', shown: '.venv/bin/pytest', from: 'virtualEnvironment' };
const plantedGit: ProjectProgram = { path: '/ws/.venv/bin/git', shown: '.venv/bin/git', from: 'virtualEnvironment' };

/** A runner whose programs come from `programs` (by name), the others from PATH; it records what it ran. */
function runnerWith(programs: () => Record<string, ProjectProgram>): CommandRunner & { ran: string[][] } {
  const ran: string[][] = [];
  return {
    ran,
    describeCwd: async (cwd) => cwd,
    describeProgram: async (program) => programs()[program],
    run: async (spec) => {
      ran.push(spec.argv);
      return { exitCode: 0, signal: null, stdout: '', stderr: '', timedOut: false, truncated: false, durationMs: 1 };
    },
  };
}

/** Evaluates the command check `argv` allowed at Start as `commands` say, answering questions with `interaction`. */
function evaluateAllowed(argv: string[], runner: CommandRunner, commands: readonly CheckCommand[], interaction: Interaction) {
  const check: Check = { kind: 'command', argv };
  const options = resolveRunOptions(makePlan([]), {
    clock: new ManualClock(),
    workspace: createMemoryWorkspace({}),
    tools: [runCommandTool],
    commandRunner: runner,
    checkCommands: { allowed: true, commands },
  });
  const env = {
    runId: 'run-1',
    stepId: 's',
    stepTitle: 'Step s',
    options,
    interaction,
    commandLog: freshCommandLog,
    signal: new AbortController().signal,
    changedFiles: () => [],
    filesChangedInRun: () => [],
    runStartedAt: undefined,
    diagnosticsBefore: undefined,
  } as CheckEnvironment;
  return evaluateCheck(check, env);
}

describe("check commands allowed at Start: the project's own programs", () => {
  it('shows the program each command resolves to in the question at Start, and keeps it with the consent', async () => {
    const runner = runnerWith(() => ({ pytest }));
    const commands = await withProjectPrograms([{ argv: ['pytest', '-q'], cwd: '' }, { argv: ['git', 'diff', '--exit-code'], cwd: 'sub' }], runner);
    assert.deepEqual(commands, [
      { argv: ['pytest', '-q'], cwd: '', program: '.venv/bin/pytest' },
      { argv: ['git', 'diff', '--exit-code'], cwd: 'sub' },
    ]);
    assert.equal(describeCheckCommand(commands[0]!), 'pytest (.venv/bin/pytest) -q (in the workspace folder)');
    const consent = { allowed: true, commands };
    assert.equal(consentedProgram(consent, { argv: ['pytest', '-q'], cwd: '' }), '.venv/bin/pytest');
    assert.equal(consentedProgram(consent, { argv: ['git', 'diff', '--exit-code'], cwd: 'sub' }), undefined);
    assert.deepEqual(await withProjectPrograms(commands, undefined), commands);
  });

  it('runs the program shown at Start without asking again', async () => {
    const runner = runnerWith(() => ({ pytest }));
    const verdict = await evaluateAllowed(['pytest', '-q'], runner, [{ argv: ['pytest', '-q'], cwd: '', program: '.venv/bin/pytest' }], deferAllInteraction);
    assert.equal(verdict.passed, true, verdict.detail);
    assert.deepEqual(runner.ran, [['pytest', '-q']]);
  });

  it("asks when the program is a repository's own one that was not shown at Start (a .venv/bin/git planted after)", async () => {
    let programs: Record<string, ProjectProgram> = {};
    const runner = runnerWith(() => programs);
    const commands = await withProjectPrograms([{ argv: ['git', 'diff', '--exit-code'], cwd: '' }], runner);
    programs = { git: plantedGit };
    const interaction = new ScriptedInteraction({ approvals: [{ approved: false }] });
    const verdict = await evaluateAllowed(['git', 'diff', '--exit-code'], runner, commands, interaction);
    assert.equal(verdict.passed, false);
    const unanswered = await evaluateAllowed(['git', 'diff', '--exit-code'], runner, commands, deferAllInteraction);
    assert.equal(
      unanswered.detail,
      "not run: it needs your approval and nobody could answer (it runs .venv/bin/git, the workspace's own program, which is not what was allowed at Start)",
    );
    assert.deepEqual(
      interaction.approvals().map((request) => request.kind === 'command' && request.program),
      [plantedGit],
    );
    assert.deepEqual(runner.ran, []);
  });

  it("attack: asks when the program would run a helper of the workspace's (a git-lfs planted in node_modules/.bin after Start)", async () => {
    let programs: Record<string, ProjectProgram> = {};
    const runner = runnerWith(() => programs);
    const commands = await withProjectPrograms([{ argv: ['git', 'lfs', 'status'], cwd: '' }], runner);
    programs = { 'git-lfs': { path: '/ws/node_modules/.bin/git-lfs', shown: 'node_modules/.bin/git-lfs', from: 'nodeModules' } };
    const unanswered = await evaluateAllowed(['git', 'lfs', 'status'], runner, commands, deferAllInteraction);
    assert.equal(
      unanswered.detail,
      "not run: it needs your approval and nobody could answer (it would run node_modules/.bin/git-lfs, the workspace's own git-lfs, which is not what was allowed at Start)",
    );
    assert.deepEqual(runner.ran, []);
  });
});
