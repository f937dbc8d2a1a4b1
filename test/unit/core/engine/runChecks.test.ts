import assert from 'node:assert/strict';
import { runPlan } from '../../../../src/core/engine/runPlan';
import type { RunOptions, RunResult, StepRunner } from '../../../../src/core/engine/runOptions';
import type { RunEvent } from '../../../../src/core/engine/runEvents';
import type { Check, Plan, Step } from '../../../../src/core/plan/planSchema';
import type { CommandResult, CommandRunner, CommandSpec } from '../../../../src/core/commandPorts';
import type { Diagnostics, DiagnosticsSnapshot, EditorDiagnostic } from '../../../../src/core/editorPorts';
import { runCommandTool } from '../../../../src/core/tools/runCommandTool';
import { gateByWorkspaceTrust } from '../../../../src/core/tools/workspaceTrustGate';
import { writeFileTool } from '../../../../src/core/tools/writeFileTool';
import { answeringInteraction } from '../../../fakes/answeringInteraction';
import { ManualClock } from '../../../fakes/manualClock';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { makePlan, makeStep } from '../../../support/randomPlans';

/** A command runner that answers each run with `answer(spec)` and records the specs. */
function fakeRunner(answer: (spec: CommandSpec) => Partial<CommandResult>): CommandRunner & { runs: CommandSpec[] } {
  const runs: CommandSpec[] = [];
  return {
    runs,
    describeCwd: async (cwd) => `/ws/${cwd}`,
    async run(spec) {
      runs.push(spec);
      return { exitCode: 0, signal: null, stdout: '', stderr: '', timedOut: false, truncated: false, durationMs: 5, ...answer(spec) };
    },
  };
}

interface Outcome {
  result: RunResult;
  events: RunEvent[];
  diagnoses: string[];
  seenDiagnoses: (string | undefined)[];
}

async function run(steps: Step[], options: Partial<RunOptions> = {}, behave?: StepRunner): Promise<Outcome> {
  const events: RunEvent[] = [];
  const seenDiagnoses: (string | undefined)[] = [];
  const stepRunner: StepRunner = async (step, ctx) => {
    seenDiagnoses.push(ctx.diagnosis);
    return behave ? behave(step, ctx) : step.id;
  };
  const plan: Plan = makePlan(steps);
  const handle = runPlan(plan, { idSource: () => 'run-1', stepRunner, workspace: createMemoryWorkspace(), clock: new ManualClock(0, { autoAdvance: true }), ...options });
  handle.events.subscribe((event) => events.push(event));
  const result = await handle.result;
  const diagnoses = events.flatMap((event) => (event.type === 'verification_failed' ? [event.diagnosis] : []));
  return { result, events, diagnoses, seenDiagnoses };
}

const checked = (checks: Check[], patch: Partial<Step> = {}): Step => makeStep('s', { checks, ...patch });

describe('step checks', () => {
  describe('file_exists and file_absent', () => {
    it('passes when the file is there, and journals the outcome for the views and predicates', async () => {
      const { result, events } = await run([checked([{ kind: 'file_exists', path: 'out/report.md' }])], { workspace: createMemoryWorkspace({ 'out/report.md': 'hi' }) });
      assert.equal(result.status, 'completed');
      const evaluated = events.find((event) => event.type === 'checks_evaluated');
      assert.deepEqual(evaluated && 'checks' in evaluated ? evaluated.checks : undefined, [{ kind: 'file_exists', passed: true, detail: 'out/report.md exists' }]);
      assert.deepEqual(result.steps.s?.checks, [{ kind: 'file_exists', passed: true, detail: 'out/report.md exists' }]);
    });

    it('fails verification when the file is missing, naming the check', async () => {
      const { result, diagnoses } = await run([checked([{ kind: 'file_absent', path: 'a.txt' }, { kind: 'file_exists', path: 'out/report.md' }])], {
        workspace: createMemoryWorkspace({ 'b.txt': '' }),
      });
      assert.equal(result.status, 'failed');
      assert.deepEqual(diagnoses, ['Check 2 (file exists `out/report.md`) failed: out/report.md does not exist']);
      assert.equal(result.steps.s?.diagnosis, diagnoses[0]);
    });

    it('file_absent fails when the file is there and passes once it is gone', async () => {
      const present = await run([checked([{ kind: 'file_absent', path: 'tmp.log' }])], { workspace: createMemoryWorkspace({ 'tmp.log': 'x' }) });
      assert.deepEqual(present.diagnoses, ['Check 1 (file absent `tmp.log`) failed: tmp.log exists']);
      const gone = await run([checked([{ kind: 'file_absent', path: 'tmp.log' }])]);
      assert.equal(gone.result.status, 'completed');
      assert.deepEqual(gone.result.steps.s?.checks, [{ kind: 'file_absent', passed: true, detail: 'tmp.log does not exist' }]);
    });

    it('a plan whose check path escapes the workspace does not start, saying why', async () => {
      const { result, events } = await run([checked([{ kind: 'file_exists', path: '../../etc/passwd' }])]);
      assert.equal(result.status, 'failed');
      assert.equal(events.some((event) => event.type === 'step_started'), false);
      assert.match(result.metadata.reason ?? '', /check 1 \(file_exists\) has a path that leaves the workspace: it climbs out of the workspace root with "\.\."/);
    });
  });

  describe('file_contains', () => {
    const workspace = () => createMemoryWorkspace({ 'src/app.ts': 'export const version = "1.2.3";\n' });

    it('passes on the text and on a pattern', async () => {
      const { result } = await run([checked([{ kind: 'file_contains', path: 'src/app.ts', text: 'version', pattern: '^export const \\w+ = "\\d+\\.\\d+' }])], { workspace: workspace() });
      assert.equal(result.status, 'completed');
      assert.equal(result.steps.s?.checks?.[0]?.detail, 'src/app.ts contains what was asked');
    });

    it('fails naming what is missing, and a missing file', async () => {
      const { diagnoses } = await run(
        [checked([{ kind: 'file_contains', path: 'src/app.ts', text: 'VERSION', pattern: '^import' }, { kind: 'file_contains', path: 'nope.ts', text: 'x' }])],
        { workspace: workspace() },
      );
      assert.deepEqual(diagnoses, [
        'Check 1 (contents of `src/app.ts`) failed: src/app.ts does not contain the text "VERSION" nor a match of "^import"\nCheck 2 (contents of `nope.ts`) failed: nope.ts does not exist',
      ]);
    });

    it('a plan with a check that has nothing to look for does not start, saying why', async () => {
      const { result, diagnoses, seenDiagnoses } = await run([checked([{ kind: 'file_contains', path: 'src/app.ts' }], { onVerificationFailure: 'retry', maxAttempts: 3 })], {
        workspace: workspace(),
      });
      assert.equal(result.status, 'failed');
      assert.match(result.metadata.reason ?? '', /check 1 \(file_contains\) says neither what text nor what pattern to look for/);
      assert.deepEqual([diagnoses, seenDiagnoses], [[], []]);
    });
  });

  describe('command', () => {
    const tools = [runCommandTool];
    const npmTest: Check = { kind: 'command', argv: ['npm', 'test'] };

    it('passes on the expected exit code after asking like run_command', async () => {
      const runner = fakeRunner(() => ({ exitCode: 0, stdout: 'ok' }));
      const interaction = answeringInteraction({ approval: () => ({ approved: true }) });
      const { result } = await run([checked([npmTest])], { tools, commandRunner: runner, interaction });
      assert.equal(result.status, 'completed');
      assert.deepEqual(interaction.asked, [{ kind: 'approval', stepId: 's' }]);
      assert.deepEqual(runner.runs.map((spec) => spec.argv), [['npm', 'test']]);
      assert.deepEqual(result.steps.s?.checks, [{ kind: 'command', passed: true, detail: 'exit code 0' }]);
    });

    it('fails with the exit code and the last output', async () => {
      const runner = fakeRunner(() => ({ exitCode: 1, stdout: '1 passing\n', stderr: '1 failing: adds numbers' }));
      const { diagnoses } = await run([checked([npmTest])], {
        tools,
        commandRunner: runner,
        checkCommands: { allowed: true, commands: [{ argv: ['npm', 'test'], cwd: '' }] },
      });
      assert.deepEqual(diagnoses, ['Check 1 (command `npm test`) failed: exit code 1, expected 0; last output: 1 passing\n\n1 failing: adds numbers']);
    });

    it('checks expectExitCode and outputContains', async () => {
      const runner = fakeRunner(() => ({ exitCode: 2, stdout: 'lint: 3 problems' }));
      const consent = { allowed: true, commands: [{ argv: ['lint'], cwd: 'pkg' }] };
      const ok = await run([checked([{ kind: 'command', argv: ['lint'], cwd: 'pkg', expectExitCode: 2, outputContains: '3 problems' }])], {
        tools,
        commandRunner: runner,
        checkCommands: consent,
        workspace: createMemoryWorkspace({ 'pkg/a': '' }),
      });
      assert.equal(ok.result.status, 'completed');
      assert.equal(runner.runs[0]?.cwd, 'pkg');
      const missing = await run([checked([{ kind: 'command', argv: ['lint'], cwd: 'pkg', expectExitCode: 2, outputContains: 'no problems' }])], {
        tools,
        commandRunner: runner,
        checkCommands: consent,
        workspace: createMemoryWorkspace({ 'pkg/a': '' }),
      });
      assert.deepEqual(missing.diagnoses, ['Check 1 (command `lint`) failed: exit code 2 as expected, but the output does not contain "no problems"; last output: lint: 3 problems']);
    });

    it('allowed at Start: a step running exactly that command is not asked about again; another command, folder or a declined one asks (issue 28 item 11)', async () => {
      const runner = fakeRunner(() => ({ exitCode: 0 }));
      const commandStep = (id: string, args: Record<string, unknown>, checks: Check[] = []): Step =>
        makeStep(id, { kind: 'tool', tool: 'run_command', args, agent: undefined, input: undefined, checks });
      const runSteps = async (steps: Step[], allowed: boolean) => {
        const interaction = answeringInteraction({ approval: () => ({ approved: true }) });
        const handle = runPlan(makePlan(steps), {
          idSource: () => 'run-1',
          tools,
          commandRunner: runner,
          interaction,
          approvalPolicy: 'always',
          workspace: createMemoryWorkspace({ 'pkg/a': '' }),
          clock: new ManualClock(0, { autoAdvance: true }),
          checkCommands: { allowed, commands: [{ argv: ['npm', 'test'], cwd: '' }] },
        });
        const result = await handle.result;
        return { result, asked: interaction.asked.map((entry) => entry.stepId) };
      };
      const same = await runSteps([commandStep('T1', { argv: ['npm', 'test'] }), commandStep('T2', { argv: ['npm', 'test'] }, [npmTest])], true);
      assert.equal(same.result.status, 'completed');
      assert.deepEqual(same.asked, [], 'the step asked again about the command allowed at Start');
      const other = await runSteps(
        [commandStep('A1', { argv: ['npm', 'test', '--', '--watch'] }), commandStep('A2', { argv: ['npm', 'test'], cwd: 'pkg' }), commandStep('A3', { argv: ['npm', 'test'] }, [npmTest])],
        true,
      );
      assert.deepEqual(other.asked, ['A1', 'A2']);
      const declined = await runSteps([commandStep('D1', { argv: ['npm', 'test'] })], false);
      assert.deepEqual(declined.asked, ['D1'], 'a step runs a declined command only after asking');
    });

    it('allowed at Start: runs without asking; declined: fails as not allowed without running', async () => {
      const runner = fakeRunner(() => ({ exitCode: 0 }));
      const interaction = answeringInteraction({});
      const allowed = await run([checked([npmTest])], { tools, commandRunner: runner, interaction, checkCommands: { allowed: true, commands: [{ argv: ['npm', 'test'], cwd: '' }] } });
      assert.equal(allowed.result.status, 'completed');
      assert.deepEqual(interaction.asked, []);
      const declined = await run([checked([npmTest], { onVerificationFailure: 'retry', maxAttempts: 3 })], {
        tools,
        commandRunner: runner,
        interaction,
        checkCommands: { allowed: false, commands: [{ argv: ['npm', 'test'], cwd: '' }] },
      });
      assert.deepEqual(declined.diagnoses, ['Check 1 (command `npm test`) failed: not allowed: the check commands were declined when the run started']);
      assert.equal(declined.seenDiagnoses.length, 1, 'a declined command is not retried');
      assert.equal(runner.runs.length, 1);
      assert.deepEqual(interaction.asked, []);
    });

    it('a check command that was not shown at Start (a repair plan\'s, an edited one) is asked about, even when the others were allowed', async () => {
      const runner = fakeRunner(() => ({ exitCode: 0 }));
      const asked: string[][] = [];
      const interaction = answeringInteraction({
        approval: (request) => {
          if (request.kind === 'command') asked.push([...request.argv, `in ${request.cwd}`]);
          return { approved: false, reason: 'never shown to me' };
        },
      });
      const allowedAtStart = { allowed: true, commands: [{ argv: ['npm', 'test'], cwd: '' }] };
      const sneaked: Check[] = [npmTest, { kind: 'command', argv: ['sh', '-c', 'rm -rf ~'] }, { kind: 'command', argv: ['npm', 'test'], cwd: 'pkg' }];
      const { diagnoses } = await run([checked(sneaked)], { tools, commandRunner: runner, interaction, checkCommands: allowedAtStart, workspace: createMemoryWorkspace({ 'pkg/a': '' }) });
      assert.deepEqual(
        runner.runs.map((spec) => spec.argv),
        [['npm', 'test']],
        'only the command allowed at Start ran',
      );
      assert.deepEqual(asked, [
        ['sh', '-c', 'rm -rf ~', 'in /ws/'],
        ['npm', 'test', 'in /ws/pkg'],
      ]);
      assert.equal(diagnoses.length, 1);
      assert.match(diagnoses[0] ?? '', /^Check 2 \(command `sh -c rm -rf ~`\) failed: not allowed: .*never shown to me/);
    });

    it('a command the user rejects is a failed check, not a skipped step or a crash', async () => {
      const runner = fakeRunner(() => ({ exitCode: 0 }));
      const interaction = answeringInteraction({ approval: () => ({ approved: false, reason: 'not now' }) });
      const { result, diagnoses } = await run([checked([npmTest])], { tools, commandRunner: runner, interaction });
      assert.equal(result.status, 'failed');
      assert.equal(result.steps.s?.status, 'failed');
      assert.equal(runner.runs.length, 0);
      assert.equal(diagnoses.length, 1);
      assert.match(diagnoses[0] ?? '', /^Check 1 \(command `npm test`\) failed: not allowed: The user rejected running \["npm","test"\] in \/ws\/: not now\./);
    });

    it('a command nobody can approve fails its check instead of leaving the step waiting', async () => {
      const runner = fakeRunner(() => ({ exitCode: 0 }));
      const { result, diagnoses } = await run([checked([npmTest])], { tools, commandRunner: runner });
      assert.equal(result.status, 'failed');
      assert.deepEqual(result.pending ?? [], []);
      assert.deepEqual(diagnoses, ['Check 1 (command `npm test`) failed: not run: it needs your approval and nobody could answer (allow the check commands when the run starts)']);
    });

    it('caps a huge output to its tail and makes control characters safe', async () => {
      const huge = `${'x'.repeat(500_000)}\u001b[31mred\u001b[0m\r\nbell\u0007 back\u0008 end`;
      const runner = fakeRunner(() => ({ exitCode: 1, stdout: huge }));
      const { diagnoses, result } = await run([checked([npmTest])], { tools, commandRunner: runner, checkCommands: { allowed: true, commands: [{ argv: ['npm', 'test'], cwd: '' }] } });
      const diagnosis = diagnoses[0] ?? '';
      assert.ok(diagnosis.length < 2_200, `diagnosis of ${diagnosis.length} characters`);
      assert.ok(diagnosis.endsWith('red\nbell\\u0007 back\\u0008 end'), diagnosis.slice(-80));
      assert.doesNotMatch(diagnosis, /[\u0000-\u0009\u000b-\u001f]/);
      assert.ok((result.steps.s?.checks?.[0]?.detail.length ?? 0) <= 2_000);
    });

    it('in Restricted Mode a check command is refused like run_command, before it asks or runs', async () => {
      const runner = fakeRunner(() => ({ exitCode: 0 }));
      const refusals: string[] = [];
      const gated = gateByWorkspaceTrust(tools, { isTrusted: () => false, onRefused: (refusal) => refusals.push(`${refusal.stepId} ${refusal.tool}`) });
      const interaction = answeringInteraction({ approval: () => ({ approved: true }) });
      const { result, diagnoses, seenDiagnoses } = await run([checked([npmTest], { onVerificationFailure: 'retry', maxAttempts: 3 })], { tools: gated, commandRunner: runner, interaction });
      assert.equal(result.status, 'failed');
      assert.deepEqual([runner.runs.length, interaction.asked.length, seenDiagnoses.length], [0, 0, 1]);
      assert.deepEqual(refusals, ['s run_command']);
      assert.match(diagnoses[0] ?? '', /^Check 1 \(command `npm test`\) failed: run_command was not run because this workspace is in Restricted Mode/);
    });

    it('fails clearly in a run without the run_command tool', async () => {
      const { diagnoses } = await run([checked([npmTest])]);
      assert.deepEqual(diagnoses, ['Check 1 (command `npm test`) failed: not available: this run has no run_command tool to run commands with']);
    });
  });

  describe('no_new_diagnostics', () => {
    /** Diagnostics whose current errors the test sets; records the paths asked about. */
    function fakeDiagnostics(): Diagnostics & { errors: EditorDiagnostic[]; asked: (readonly string[])[]; snapshots: number } {
      const fake = {
        errors: [] as EditorDiagnostic[],
        asked: [] as (readonly string[])[],
        snapshots: 0,
        snapshot: async (): Promise<DiagnosticsSnapshot> => {
          fake.snapshots++;
          return { errors: [...fake.errors] };
        },
        errorsSince: async (before: DiagnosticsSnapshot, paths: readonly string[]) => {
          fake.asked.push(paths);
          return fake.errors.filter((error) => paths.includes(error.path) && !before.errors.some((old) => old.message === error.message));
        },
      };
      return fake;
    }
    const writes = (text: string): Step =>
      makeStep('s', { kind: 'tool', tool: 'write_file', args: { path: 'src/a.ts', content: text }, checks: [{ kind: 'no_new_diagnostics' }] });

    it('looks at the files the step changed and fails on an error that was not there before', async () => {
      const diagnostics = fakeDiagnostics();
      diagnostics.errors.push({ path: 'src/old.ts', line: 1, message: 'old error' });
      const workspace = createMemoryWorkspace();
      const behaviour = { write: async () => diagnostics.errors.push({ path: 'src/a.ts', line: 3, message: "Type 'string' is not assignable to type 'number'.", source: 'ts' }) };
      const tool = { ...writeFileTool, run: async (...args: Parameters<typeof writeFileTool.run>) => { const written = await writeFileTool.run(...args); await behaviour.write(); return written; } };
      const { result, diagnoses } = await run([writes('export const n: number = "x";')], { tools: [tool], workspace, diagnostics, approvalPolicy: 'commandsOnly' });
      assert.equal(result.status, 'failed');
      assert.deepEqual(diagnostics.asked, [['src/a.ts']]);
      assert.equal(diagnostics.snapshots, 1);
      assert.deepEqual(diagnoses, ["Check 1 (no new errors in the changed files) failed: 1 new error: src/a.ts:3 Type 'string' is not assignable to type 'number'. (ts)"]);
    });

    it('passes when the step left no new error', async () => {
      const diagnostics = fakeDiagnostics();
      const { result } = await run([writes('export const n: number = 1;')], { tools: [writeFileTool], diagnostics, approvalPolicy: 'commandsOnly' });
      assert.equal(result.status, 'completed');
      assert.deepEqual(result.steps.s?.checks, [{ kind: 'no_new_diagnostics', passed: true, detail: 'no new errors in src/a.ts' }]);
    });

    it('takes no snapshot for a step without such a check, nor for a step without checks', async () => {
      const diagnostics = fakeDiagnostics();
      const { result } = await run([checked([{ kind: 'file_absent', path: 'x' }]), makeStep('plain')], { diagnostics });
      assert.equal(result.status, 'completed');
      assert.equal(diagnostics.snapshots, 0);
    });

    it('is not available in the command line: it fails and never passes', async () => {
      const { result, diagnoses } = await run([checked([{ kind: 'no_new_diagnostics', paths: ['src/a.ts'] }])]);
      assert.equal(result.status, 'failed');
      assert.deepEqual(diagnoses, ["Check 1 (no new errors in `src/a.ts`) failed: not available in the command line (it needs the editor's diagnostics), so it did not pass"]);
    });
  });

  describe('in the step', () => {
    it('a failed check is retried with its diagnosis, and the next attempt can pass', async () => {
      const workspace = createMemoryWorkspace();
      const { result, seenDiagnoses } = await run(
        [checked([{ kind: 'file_exists', path: 'done.txt' }], { onVerificationFailure: 'retry', maxAttempts: 2 })],
        { workspace },
        async (step, ctx) => {
          if (ctx.attempt === 2) await workspace.writeText('done.txt', 'ok');
          return step.id;
        },
      );
      assert.equal(result.status, 'completed');
      assert.deepEqual(seenDiagnoses, [undefined, 'Check 1 (file exists `done.txt`) failed: done.txt does not exist']);
      assert.equal(result.steps.s?.attempts, 2);
    });

    it('binds the outcomes as `checks` for the verification predicate, and `[]` without checks', async () => {
      const { result } = await run(
        [
          checked([{ kind: 'file_absent', path: 'x' }], { verification: 'checks.length === 1 && checks[0].passed && checks[0].kind === "file_absent" ? true : JSON.stringify(checks)' }),
          makeStep('plain', { verification: 'Array.isArray(checks) && checks.length === 0' }),
        ],
      );
      assert.equal(result.steps.s?.status, 'completed');
      assert.equal(result.steps.plain?.status, 'completed');
    });

    it('the predicate is not run when a check failed', async () => {
      const { diagnoses } = await run([checked([{ kind: 'file_exists', path: 'x' }], { verification: '"predicate ran"' })]);
      assert.deepEqual(diagnoses, ['Check 1 (file exists `x`) failed: x does not exist']);
    });
  });
});
