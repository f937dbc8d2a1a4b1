import assert from 'node:assert/strict';
import { runPlan } from '../../../../src/core/engine/runPlan';
import { resumeRun } from '../../../../src/core/engine/resumeRun';
import { createMemoryRunStore } from '../../../../src/core/engine/memoryRunStore';
import type { Step } from '../../../../src/core/plan/planSchema';
import { builtinTools } from '../../../../src/core/tools/builtinTools';
import { createMemoryCheckpointStore } from '../../../../src/core/tools/checkpointStore';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { ManualClock } from '../../../fakes/manualClock';
import { makePlan, makeStep } from '../../../support/randomPlans';

const edit = (id: string, search: string, replace: string, dependsOn: string[] = []): Step =>
  makeStep(id, { kind: 'tool', agent: undefined, input: undefined, tool: 'edit_file', args: { path: 'f.txt', edits: [{ search, replace }] }, dependsOn });

/**
 * Outside attack (crash fuzzing of the CLI): the journal is written behind the engine (batched, no flush between a step's
 * completion and its dependents' start), while each change's checkpoint is synced before the change. A SIGKILL while the
 * journal's batch holding step x's completion is still queued (behind a large earlier line: a 2 MB file's diff) leaves
 * x unfinished in the journal, its change `applied` in the checkpoint log, and x's dependent y's change of the same file
 * landed over it. The resumed run judged x's change by the file alone: neither x's result nor its start, so `uncertain`,
 * and x asked again whatever the policy, its re-run offering `version = 1.1.1`: approve and x is applied twice, reject and
 * x and y are skipped although both landed.
 */
describe('resumeRun when the journal was behind the checkpoints (a dependent step changed the file again)', () => {
  for (const yState of ['applied', 'intended'] as const) {
    it(`finishes without asking or applying x twice (y's change ${yState} when the process died)`, async () => {
      const workspace = createMemoryWorkspace({ 'f.txt': 'name = demo\nversion = 1\nlast\n' });
      const checkpoints = createMemoryCheckpointStore();
      const store = createMemoryRunStore();
      const clock = new ManualClock(0, { autoAdvance: true });
      const plan = makePlan([edit('x', 'version = 1', 'version = 1.1'), edit('y', 'last', 'last+', ['x'])]);
      const common = { clock, workspace, tools: builtinTools(), approvalPolicy: 'commandsOnly' as const, checkpoints };
      const first = await runPlan(plan, { ...common, store, idSource: () => 'behind' }).result;
      assert.equal(first.status, 'completed');
      assert.equal(workspace.snapshot()['f.txt'], 'name = demo\nversion = 1.1\nlast+\n');

      // The crash: the journal holds everything before x's report of its change; the checkpoint log (synced) is ahead.
      const entries = (await store.load('behind'))?.entries ?? [];
      const cut = entries.findIndex((entry) => entry.type === 'file_changed' && (entry as { stepId?: string }).stepId === 'x');
      assert.ok(cut > 0);
      const journal = createMemoryRunStore();
      await journal.append('behind', entries.slice(0, cut));
      const saved = (await checkpoints.list('behind')).map((checkpoint) =>
        checkpoint.stepId === 'y' && yState === 'intended' ? { ...checkpoint, state: 'intended' as const } : checkpoint,
      );
      const asked: string[] = [];
      const resumed = await resumeRun('behind', {
        ...common,
        checkpoints: createMemoryCheckpointStore(saved),
        store: journal,
        interaction: {
          requestApproval: async (request: { stepId: string }) => {
            asked.push(request.stepId);
            return { approved: true };
          },
        } as never,
      }).result;
      assert.deepEqual(asked, [], 'nothing may have run twice here: every change is in the file as the run left it');
      assert.equal(workspace.snapshot()['f.txt'], 'name = demo\nversion = 1.1\nlast+\n', 'x applied once, not 1.1.1');
      assert.equal(resumed.status, 'completed');
    });
  }

  it('still asks when the file holds something else than what the run left (edited by hand after the crash)', async () => {
    const workspace = createMemoryWorkspace({ 'f.txt': 'name = demo\nversion = 1\nlast\n' });
    const checkpoints = createMemoryCheckpointStore();
    const store = createMemoryRunStore();
    const common = { clock: new ManualClock(0, { autoAdvance: true }), workspace, tools: builtinTools(), approvalPolicy: 'commandsOnly' as const, checkpoints };
    await runPlan(makePlan([edit('x', 'version = 1', 'version = 1.1'), edit('y', 'last', 'last+', ['x'])]), { ...common, store, idSource: () => 'edited' })
      .result;
    const entries = (await store.load('edited'))?.entries ?? [];
    const journal = createMemoryRunStore();
    await journal.append(
      'edited',
      entries.slice(
        0,
        entries.findIndex((entry) => entry.type === 'file_changed' && (entry as { stepId?: string }).stepId === 'x'),
      ),
    );
    await workspace.writeText('f.txt', 'name = demo\nversion = 1.1\nlast+\nmine\n');
    const asked: string[] = [];
    const resumed = await resumeRun('edited', {
      ...common,
      checkpoints: createMemoryCheckpointStore(await checkpoints.list('edited')),
      store: journal,
      interaction: {
        requestApproval: async (request: { stepId: string }) => {
          asked.push(request.stepId);
          return 'defer';
        },
      } as never,
    }).result;
    assert.ok(asked.includes('x'), 'x may or may not be in the file: asked');
    assert.equal(resumed.status, 'waiting');
  });
});
