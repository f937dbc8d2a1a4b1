import assert from 'node:assert/strict';
import { runPlan } from '../../../../src/core/engine/runPlan';
import type { CheckpointStore } from '../../../../src/core/runStorePorts';
import { builtinTools } from '../../../../src/core/tools/builtinTools';
import { createMemoryCheckpointStore } from '../../../../src/core/tools/checkpointStore';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { ManualClock } from '../../../fakes/manualClock';
import { makePlan, makeStep } from '../../../support/randomPlans';

/** A checkpoint store on a disk that fills up once the first records are in: every settlement's line is refused. */
function fullAfterRecords(): CheckpointStore & { settleCalls: number } {
  const inner = createMemoryCheckpointStore();
  const store = {
    settleCalls: 0,
    record: (checkpoint: Parameters<CheckpointStore['record']>[0]) => inner.record(checkpoint),
    async settle(checkpoint: Parameters<CheckpointStore['settle']>[0], state: Parameters<CheckpointStore['settle']>[1]) {
      store.settleCalls++;
      await inner.settle(checkpoint, state);
      throw Object.assign(new Error('EFBIG: file too large, write'), { code: 'EFBIG' });
    },
    list: (runId: string) => inner.list(runId),
  };
  return store;
}

/** Whether `promise` settles within `turns` turns of the event loop (no timer: a run left waiting for ever never does). */
async function settlesWithin(promise: Promise<unknown>, turns: number): Promise<boolean> {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let turn = 0; turn < turns && !settled; turn++) await new Promise((resolve) => setImmediate(resolve));
  return settled;
}

/**
 * Outside attack (crash fuzzing of the command line, `ulimit -f 1` under a plan of three parallel changes): a change that
 * creates folders records several intents; when the checkpoint log refused the first one's settlement (a full disk), the
 * others were never settled, the run waited for them for ever, and `task-planner run` ended with exit code 70 ("the
 * command stopped before it finished, with nothing left to wait on; this is a bug").
 */
describe('a change whose settlements the checkpoint log refuses (a full disk)', () => {
  for (const [name, step] of [
    ['write_file into new folders', { tool: 'write_file', args: { path: 'new/dir/out.txt', content: 'fresh\n' } }],
    ['create_directory of nested folders', { tool: 'create_directory', args: { path: 'a/b/c' } }],
  ] as const) {
    it(`${name}: the run still ends, every intent settled in memory`, async () => {
      const checkpoints = fullAfterRecords();
      const plan = makePlan([makeStep('w', { kind: 'tool', agent: undefined, input: undefined, ...step })]);
      const handle = runPlan(plan, {
        clock: new ManualClock(0, { autoAdvance: true }),
        workspace: createMemoryWorkspace({ 'keep.txt': 'x\n' }),
        tools: builtinTools(),
        approvalPolicy: 'commandsOnly',
        checkpoints,
        idSource: () => 'full',
      });
      assert.ok(await settlesWithin(handle.result, 5000), 'the run ended');
      const states = (await checkpoints.list('full')).map((checkpoint) => checkpoint.state);
      assert.ok(states.length >= 3, `intents recorded: ${states.join(', ')}`);
      assert.equal(checkpoints.settleCalls, states.length, 'every intent was settled (its line refused)');
    });
  }
});
