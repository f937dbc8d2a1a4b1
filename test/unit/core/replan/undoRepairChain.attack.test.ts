/*
 * PROMISE UNDER ATTACK (4): Undo of a repaired run (undoRunChain over runChain's runs) undoes the changes of every run of
 * the chain exactly once, in reverse order, leaves a file the user changed since, and Undo run twice does nothing the
 * second time. The chain is "what the user sees as one run": a change sequence split over runs must be undone as the same
 * sequence made by one run would be.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { runChain } from '../../../../src/core/engine/replanRecord';
import { createMemoryCheckpointStore } from '../../../../src/core/tools/checkpointStore';
import { deleteFileTool } from '../../../../src/core/tools/deleteFileTool';
import { undoRun, undoRunChain } from '../../../../src/core/tools/undoRun';
import { writeFileTool } from '../../../../src/core/tools/writeFileTool';
import type { CheckpointStore } from '../../../../src/core/runStorePorts';
import type { WorkspaceFs } from '../../../../src/core/workspacePorts';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { makeToolContext, neverAborted } from '../../../fakes/toolContext';

const paths = ['a.txt', 'b.txt', 'src/c.txt'] as const;

interface Change {
  run: number;
  step: string;
  path: (typeof paths)[number];
  /** The new content, or undefined to delete (when the file exists). */
  content: string | undefined;
}

async function snapshotOf(workspace: WorkspaceFs): Promise<Record<string, string | undefined>> {
  const out: Record<string, string | undefined> = {};
  for (const path of paths) {
    const stat = await workspace.stat(path, neverAborted);
    out[path] = stat?.type === 'file' ? await workspace.readText(path, neverAborted) : undefined;
  }
  return out;
}

async function apply(workspace: WorkspaceFs, checkpoints: CheckpointStore, runIds: string[], changes: readonly Change[]): Promise<void> {
  for (const change of changes) {
    const context = makeToolContext({ workspace, checkpoints, runId: runIds[change.run]!, stepId: change.step });
    const exists = (await workspace.stat(change.path, neverAborted))?.type === 'file';
    if (change.content === undefined) {
      if (exists) await deleteFileTool.run(context, { path: change.path }, neverAborted);
    } else await writeFileTool.run(context, { path: change.path, content: change.content }, neverAborted);
  }
}

const changesArbitrary = (runs: number): fc.Arbitrary<Change[]> =>
  fc
    .array(
      fc.record({
        run: fc.integer({ min: 0, max: runs - 1 }),
        step: fc.constantFrom('S1', 'S2', 'fix'),
        path: fc.constantFrom(...paths),
        content: fc.option(fc.constantFrom('one', 'two', 'three', 'original a'), { nil: undefined }),
      }),
      { minLength: 1, maxLength: 8 },
    )
    // Runs follow each other: every change of run 0, then of run 1, …
    .map((changes) => [...changes].sort((left, right) => left.run - right.run));

const chainOf = (runs: number): string[] => runChain({ runId: runs === 1 ? 'r1' : `r1-replan-${runs - 1}`, replanHistory: Array.from({ length: runs - 1 }, (_, index) => ({ failedRunId: index === 0 ? 'r1' : `r1-replan-${index}` })) });

describe('attack: Undo of a repaired run (undoRunChain)', () => {
  it('property: a chain of 1–4 runs is undone to the files before the first run; Undo again changes nothing and restores nothing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 4 }).chain((runs) => fc.tuple(fc.constant(runs), changesArbitrary(runs))),
        async ([runs, changes]) => {
          const workspace = createMemoryWorkspace({ 'a.txt': 'original a', 'src/c.txt': 'original c' });
          const checkpoints = createMemoryCheckpointStore();
          const chain = chainOf(runs);
          const before = await snapshotOf(workspace);
          await apply(workspace, checkpoints, chain, changes);
          const report = await undoRunChain(chain, { workspace, checkpoints });
          assert.deepEqual(report.refused, [], JSON.stringify(report.refused));
          assert.deepEqual(await snapshotOf(workspace), before, 'the chain is not undone to the files before its first run');
          const again = await undoRunChain(chain, { workspace, checkpoints });
          assert.deepEqual([again.restored, again.removed, again.refused, again.overwritable], [[], [], [], []], 'Undo run twice did something the second time');
          assert.deepEqual(await snapshotOf(workspace), before);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('property: a file the user changed after the chain keeps the user\'s content; the other files go back', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 4 }).chain((runs) => fc.tuple(fc.constant(runs), changesArbitrary(runs))),
        fc.constantFrom(...paths),
        async ([runs, changes], edited) => {
          const workspace = createMemoryWorkspace({ 'a.txt': 'original a', 'src/c.txt': 'original c' });
          const checkpoints = createMemoryCheckpointStore();
          const chain = chainOf(runs);
          const before = await snapshotOf(workspace);
          await apply(workspace, checkpoints, chain, changes);
          const after = await snapshotOf(workspace);
          // Only a file the chain changed and left differently from before counts as "the run's": the user edits it.
          fc.pre(changes.some((change) => change.path === edited) && after[edited] !== before[edited]);
          await workspace.writeText(edited, 'the user\'s own text', neverAborted);
          const report = await undoRunChain(chain, { workspace, checkpoints });
          assert.equal(await workspace.readText(edited, neverAborted), 'the user\'s own text', 'Undo wrote over the user\'s change');
          assert.deepEqual(report.refused.map((entry) => entry.path), [edited], 'named once, as left alone');
          for (const path of paths) if (path !== edited) assert.equal((await snapshotOf(workspace))[path], before[path], `${path} not undone`);
        },
      ),
      { numRuns: 300 },
    );
  });

  /**
   * The first run writes "v1", the repair writes "v2"; the user then puts back "v1" by hand (they reverted the repair's
   * edit in their editor). Made by one run (two steps), Undo leaves the file alone: "the run changed the file and changed it
   * back, then the user made it what the change found: it is the user's work" (undoRun). Split over a repair, is it
   * left alone the same way?
   */
  // Broke (2026-12-07): the chain's Undo took each run back in turn; a file set back by hand to what an earlier run left
  // was that run's content, which its Undo then took back to the chain's start.
  it('a file the user set back by hand to what the first run left is left alone as one run\'s Undo leaves it', async () => {
    const single = createMemoryWorkspace({ 'notes.md': 'v0' });
    const singleCheckpoints = createMemoryCheckpointStore();
    await writeFileTool.run(makeToolContext({ workspace: single, checkpoints: singleCheckpoints, runId: 'one', stepId: 'S1' }), { path: 'notes.md', content: 'v1' }, neverAborted);
    await writeFileTool.run(makeToolContext({ workspace: single, checkpoints: singleCheckpoints, runId: 'one', stepId: 'S2' }), { path: 'notes.md', content: 'v2' }, neverAborted);
    await single.writeText('notes.md', 'v1', neverAborted);
    const oneRun = await undoRun('one', { workspace: single, checkpoints: singleCheckpoints });
    assert.equal(await single.readText('notes.md', neverAborted), 'v1', 'one run: left alone (the user\'s work)');
    assert.deepEqual([...new Set(oneRun.refused.map((entry) => entry.path))], ['notes.md']);

    const workspace = createMemoryWorkspace({ 'notes.md': 'v0' });
    const checkpoints = createMemoryCheckpointStore();
    await writeFileTool.run(makeToolContext({ workspace, checkpoints, runId: 'r1', stepId: 'S1' }), { path: 'notes.md', content: 'v1' }, neverAborted);
    await writeFileTool.run(makeToolContext({ workspace, checkpoints, runId: 'r1-replan-1', stepId: 'fix' }), { path: 'notes.md', content: 'v2' }, neverAborted);
    await workspace.writeText('notes.md', 'v1', neverAborted);
    const report = await undoRunChain(['r1', 'r1-replan-1'], { workspace, checkpoints });
    assert.equal(await workspace.readText('notes.md', neverAborted), 'v1', `the chain wrote over the user's edit: ${JSON.stringify(report)}`);
    assert.deepEqual(report.refused.map((entry) => entry.path), ['notes.md']);
  });

  it('a chain read from a journal whose replanHistory lists its runs out of order is still undone newest run first', async () => {
    const workspace = createMemoryWorkspace({ 'notes.md': 'v0' });
    const checkpoints = createMemoryCheckpointStore();
    const write = (runId: string, content: string) =>
      writeFileTool.run(makeToolContext({ workspace, checkpoints, runId, stepId: 'S1' }), { path: 'notes.md', content }, neverAborted);
    await write('r1', 'v1');
    await write('r1-replan-1', 'v2');
    await write('r1-replan-2', 'v3');
    const chain = runChain({ runId: 'r1-replan-2', replanHistory: [{ failedRunId: 'r1-replan-1' }, { failedRunId: 'r1' }] });
    await undoRunChain(chain, { workspace, checkpoints });
    assert.equal(await workspace.readText('notes.md', neverAborted), 'v0', `undone in the order ${[...chain].reverse().join(', ')}`);
  });
});
