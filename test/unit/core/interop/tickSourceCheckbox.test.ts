import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runPlan } from '../../../../src/core/engine/runPlan';
import type { RunEvent } from '../../../../src/core/engine/runEvents';
import type { RunOptions } from '../../../../src/core/engine/runOptions';
import { importTaskFile } from '../../../../src/core/interop/importTaskFile';
import { tickSourceCheckbox } from '../../../../src/core/interop/tickSourceCheckbox';
import type { Plan } from '../../../../src/core/plan/planSchema';
import type { WorkspaceFs } from '../../../../src/core/workspacePorts';
import { createMemoryCheckpointStore } from '../../../../src/core/tools/checkpointStore';
import { undoRun } from '../../../../src/core/tools/undoRun';
import { createNodeWorkspace } from '../../../../src/node/nodeWorkspace';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { ManualClock } from '../../../fakes/manualClock';
import { ScriptedInteraction } from '../../../fakes/scriptedInteraction';

const tasks = [
  '\uFEFF# Tasks: Photo albums',
  '',
  '## Phase 1: Setup',
  '- [x] T001 Create the project',
  '- [ ] T002 [P] Add src/models/album.ts',
  '- [ ] T003 [P] Add src/models/photo.ts',
  '- [ ] T004 [P] Add src/models/tag.ts',
  '',
  '## Phase 2: Wire',
  '- [ ] T005 Wire the models together',
  '',
].join('\r\n');

function imported(file = 'specs/001/tasks.md', text = tasks): Plan {
  const result = importTaskFile(file, text, { model: true, tick: true });
  assert.ok(result.ok);
  return result.plan;
}

/** Every read and write yields a macrotask turn, so the parallel steps' ticks interleave as real I/O makes them. */
function slowed(workspace: WorkspaceFs): WorkspaceFs {
  const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
  return {
    ...workspace,
    rootLabel: workspace.rootLabel,
    readText: async (...args) => (await turn(), workspace.readText(...args)),
    writeText: async (...args) => (await turn(), workspace.writeText(...args)),
    stat: async (...args) => (await turn(), workspace.stat(...args)),
  };
}

async function run(plan: Plan, options: Partial<RunOptions> & { workspace: WorkspaceFs }): Promise<{ events: RunEvent[]; status: string; runId: string }> {
  const handle = runPlan(plan, {
    clock: new ManualClock(0, { autoAdvance: true }),
    stepRunner: async () => 'done',
    stepEpilogue: tickSourceCheckbox,
    interaction: ScriptedInteraction.approvingAll(),
    maxConcurrency: 4,
    ...options,
  });
  const events: RunEvent[] = [];
  handle.events.subscribe((event) => events.push(event));
  const result = await handle.result;
  return { events, status: result.status, runId: result.runId };
}

const warnings = (events: RunEvent[]): string[] => events.flatMap((event) => (event.type === 'step_warning' ? [`${event.stepId}: ${event.message}`] : []));

describe('tickSourceCheckbox', () => {
  it('ticks each completed step in the task file, parallel steps included, each tick asked with its diff, journaled and undone with the run', async () => {
    const memory = createMemoryWorkspace({ 'specs/001/tasks.md': tasks });
    const interaction = ScriptedInteraction.approvingAll();
    const checkpoints = createMemoryCheckpointStore();
    const { events, status, runId } = await run(imported(), { workspace: slowed(memory), interaction, checkpoints, approvalPolicy: 'always' });
    assert.equal(status, 'completed');
    assert.deepEqual(warnings(events), []);
    assert.equal(memory.snapshot()['specs/001/tasks.md'], tasks.replace(/- \[ \]/g, '- [x]'));
    const asked = interaction.approvals().map((request) => (request.kind === 'file' ? `${request.stepId} ${request.proposal.path}` : request.kind));
    assert.deepEqual(asked.sort(), ['T002 specs/001/tasks.md', 'T003 specs/001/tasks.md', 'T004 specs/001/tasks.md', 'T005 specs/001/tasks.md']);
    const diff = interaction.approvals().find((request) => request.kind === 'file' && request.stepId === 'T005');
    assert.match(diff?.kind === 'file' ? diff.proposal.diff : '', /-- \[ \] T005 Wire the models together\r?\n\+- \[x\] T005 Wire the models together/);
    const changed = events.flatMap((event) => (event.type === 'file_changed' ? [event.stepId] : []));
    assert.deepEqual(changed.sort(), ['T002', 'T003', 'T004', 'T005']);
    // The tick lands before the step completes: the step's own change.
    const order = events.map((event) => `${event.type}${'stepId' in event ? ` ${event.stepId}` : ''}`);
    assert.ok(order.indexOf('file_changed T005') < order.indexOf('step_completed T005'));
    await undoRun(runId, { workspace: memory, checkpoints });
    assert.equal(memory.snapshot()['specs/001/tasks.md'], tasks);
  });

  it('a tick is within the step\'s files: under a policy that does not ask for file changes it is made without asking (it asked under every policy, and without a terminal was lost)', async () => {
    const plan = imported();
    assert.deepEqual(plan.steps.find((step) => step.id === 'T002')?.writes, ['src/models/album.ts'], 'an agent step names the files of its task');
    const memory = createMemoryWorkspace({ 'specs/001/tasks.md': tasks });
    const interaction = new ScriptedInteraction({ approvals: [] });
    const { events, status } = await run(plan, { workspace: memory, interaction, approvalPolicy: 'commandsOnly' });
    assert.equal(status, 'completed');
    assert.deepEqual(warnings(events), []);
    assert.deepEqual(interaction.approvals(), []);
    assert.equal(memory.snapshot()['specs/001/tasks.md'], tasks.replace(/- \[ \]/g, '- [x]'));
  });

  it('ticks a Kiro task with sub-tasks once they are done, and leaves it unticked when one fails (a trial\'s parent was ticked first)', async () => {
    const kiro = ['# Implementation Plan', '', '- [ ] 1. Tag storage', '  - [ ] 1.1 Add the model', '  - [ ] 1.2 Add the store', '  - [ ]* 1.3 Optional tests', '- [ ] 2. Wire it up', ''].join('\n');
    const file = '.kiro/specs/tags/tasks.md';
    const plan = importTaskFile(file, kiro, { model: true, tick: true });
    assert.ok(plan.ok);
    const order: string[] = [];
    const memory = createMemoryWorkspace({ [file]: kiro });
    const watched: WorkspaceFs = {
      ...memory,
      rootLabel: memory.rootLabel,
      writeText: async (path, text, ...rest) => {
        order.push(text.split('\n').filter((line) => line.includes('[x]')).map((line) => line.trim().split(' ')[2]).join(' '));
        return memory.writeText(path, text, ...rest);
      },
    };
    const done = await run(plan.plan, { workspace: watched, maxConcurrency: 1 });
    assert.equal(done.status, 'completed');
    assert.deepEqual(warnings(done.events), []);
    assert.equal(memory.snapshot()[file], kiro.replace('- [ ] 1.', '- [x] 1.').replace('- [ ] 1.1', '- [x] 1.1').replace('- [ ] 1.2', '- [x] 1.2').replace('- [ ] 2.', '- [x] 2.').replace('- [ ]* 1.3', '- [x]* 1.3'));
    // 1. is ticked with its last sub-task, in the same change, not before them.
    assert.deepEqual(order, ['1.1', '1. 1.1 1.2', '1. 1.1 1.2 1.3', '1. 1.1 1.2 1.3 2.']);

    const failing = createMemoryWorkspace({ [file]: kiro });
    const halted = await run(plan.plan, {
      workspace: failing,
      maxConcurrency: 1,
      stepRunner: async (step) => {
        if (step.id === '1.2') throw new Error('the store does not build');
        return 'done';
      },
    });
    assert.equal(halted.status, 'failed');
    assert.equal(failing.snapshot()[file], kiro.replace('- [ ] 1.1', '- [x] 1.1'), 'the task above a failed sub-task was ticked');
  });

  it('attack: sub-tasks that complete at the same moment tick their task, whichever ticks last (each saw the other still running)', async () => {
    const kiro = ['# Implementation Plan', '', '- [ ] 1. Tag storage', '  - [ ] 1.1 Add the model', '  - [ ] 1.2 Add the store', ''].join('\n');
    const file = '.kiro/specs/tags/tasks.md';
    const result = importTaskFile(file, kiro, { model: true, tick: true });
    assert.ok(result.ok);
    // Written by hand: both sub-tasks wait on their task alone and change files of their own, so they run side by side.
    const sideBySide = { '1.1': { writes: ['src/model.ts'] }, '1.2': { dependsOn: ['1'], writes: ['src/store.ts'] } } as Record<string, Partial<Plan['steps'][number]>>;
    const plan: Plan = { ...result.plan, steps: result.plan.steps.map((step) => ({ ...step, ...sideBySide[step.id] })) };
    for (const round of [0, 1]) {
      const memory = createMemoryWorkspace({ [file]: kiro });
      let release: () => void = () => undefined;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let waiting = 0;
      const done = await run(plan, {
        workspace: memory,
        stepRunner: async (step) => {
          if (step.id === '1') return 'done';
          // Both sub-tasks end together, in either order.
          if (++waiting === 2) setImmediate(release);
          await gate;
          if (round === 1 && step.id === '1.1') await Promise.resolve();
          return 'done';
        },
      });
      assert.equal(done.status, 'completed');
      assert.deepEqual(warnings(done.events), []);
      assert.equal(memory.snapshot()[file], kiro.replace(/- \[ \]/g, '- [x]'), `round ${round}`);
    }
  });

  it('leaves the file alone when the import did not ask for ticks', async () => {
    const memory = createMemoryWorkspace({ 'tasks.md': '- [ ] T001 Do it\n' });
    const plan = importTaskFile('tasks.md', '- [ ] T001 Do it\n', { model: true });
    assert.ok(plan.ok);
    const interaction = ScriptedInteraction.approvingAll();
    const { status } = await run(plan.plan, { workspace: memory, interaction });
    assert.equal(status, 'completed');
    assert.equal(memory.snapshot()['tasks.md'], '- [ ] T001 Do it\n');
    assert.deepEqual(interaction.approvals(), []);
  });

  it('a tick the user rejects leaves the box empty and the step completed, with a warning', async () => {
    const memory = createMemoryWorkspace({ 'tasks.md': '- [ ] T001 Do it\n' });
    const interaction = new ScriptedInteraction({ approvals: [{ approved: false }] });
    const { events, status } = await run(imported('tasks.md', '- [ ] T001 Do it\n'), { workspace: memory, interaction });
    assert.equal(status, 'completed');
    assert.equal(memory.snapshot()['tasks.md'], '- [ ] T001 Do it\n');
    assert.equal(warnings(events).length, 1);
    assert.match(warnings(events)[0]!, /^T001: .*reject/i);
  });

  it('refuses clearly when the task is no longer in the file, or the file is gone, and the run still completes', async () => {
    const memory = createMemoryWorkspace({ 'specs/001/tasks.md': '# Tasks\n\n- [ ] T009 Something else\n' });
    const { events, status } = await run(imported(), { workspace: memory });
    assert.equal(status, 'completed');
    assert.equal(memory.snapshot()['specs/001/tasks.md'], '# Tasks\n\n- [ ] T009 Something else\n');
    assert.ok(warnings(events).some((warning) => /^T005: specs\/001\/tasks\.md has no checkbox for task T005 any more \(it was on line 10\)/.test(warning)));
    const gone = await run(imported(), { workspace: createMemoryWorkspace({}) });
    assert.equal(gone.status, 'completed');
    assert.ok(warnings(gone.events).some((warning) => /^T002: specs\/001\/tasks\.md is gone, so the checkbox of "Add src\/models\/album\.ts" could not be ticked/.test(warning)));
  });

  it('ticks a task the user moved since the import, found by its id', async () => {
    const memory = createMemoryWorkspace({ 'tasks.md': '- [ ] T001 First\n- [ ] T002 Second\n' });
    const plan = imported('tasks.md', '- [ ] T001 First\n- [ ] T002 Second\n');
    await memory.writeText('tasks.md', 'Notes the user wrote.\n\n- [ ] T002 Second\n- [ ] T001 First\n');
    const { status } = await run(plan, { workspace: memory });
    assert.equal(status, 'completed');
    assert.equal(memory.snapshot()['tasks.md'], 'Notes the user wrote.\n\n- [x] T002 Second\n- [x] T001 First\n');
  });

  it('never writes through a link that leads outside the workspace', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-tick-'));
    try {
      const root = path.join(dir, 'ws');
      fs.mkdirSync(root);
      fs.writeFileSync(path.join(dir, 'outside.md'), '- [ ] T001 Do it\n');
      fs.symlinkSync(path.join(dir, 'outside.md'), path.join(root, 'tasks.md'));
      const { events, status } = await run(imported('tasks.md', '- [ ] T001 Do it\n'), { workspace: createNodeWorkspace(root) });
      assert.equal(status, 'completed');
      assert.equal(fs.readFileSync(path.join(dir, 'outside.md'), 'utf8'), '- [ ] T001 Do it\n');
      assert.equal(warnings(events).length, 1);
      const outside = await run(imported('../outside.md', '- [ ] T001 Do it\n'), { workspace: createNodeWorkspace(root) });
      assert.equal(fs.readFileSync(path.join(dir, 'outside.md'), 'utf8'), '- [ ] T001 Do it\n');
      assert.equal(warnings(outside.events).length, 1);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
