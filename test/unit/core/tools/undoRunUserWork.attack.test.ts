import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { createMemoryCheckpointStore } from '../../../../src/core/tools/checkpointStore';
import { createDirectoryTool } from '../../../../src/core/tools/createDirectoryTool';
import { deleteFileTool } from '../../../../src/core/tools/deleteFileTool';
import { filesChangedSince, undoRun } from '../../../../src/core/tools/undoRun';
import { describeUndo } from '../../../../src/core/tools/describeUndo';
import { writeFileTool } from '../../../../src/core/tools/writeFileTool';
import { createNodeWorkspace } from '../../../../src/node/nodeWorkspace';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { makeToolContext, neverAborted } from '../../../fakes/toolContext';

// Promise under attack: Undo never loses the user's work. It removes a folder the run created only when nothing else is in
// it, and leaves alone (naming it) whatever changed after the run; what it says it will leave alone before the user
// chooses (filesChangedSince) is what it then leaves alone.
describe('attack: undoRun and the user\'s work made after the run', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-undo-user-work-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('attack: a folder the run created, replaced by the user with a link to a folder of theirs holding files, is not removed (the link is their work)', async () => {
    const workspace = createNodeWorkspace(dir);
    const checkpoints = createMemoryCheckpointStore();
    await createDirectoryTool.run(makeToolContext({ workspace, checkpoints, stepId: 'S1' }), { path: 'notes' }, neverAborted);
    // After the run: the user keeps their notes elsewhere and links the run's (empty) folder to them.
    fs.mkdirSync(path.join(dir, 'my-notes'));
    fs.writeFileSync(path.join(dir, 'my-notes', 'diary.md'), 'mine\n');
    fs.rmdirSync(path.join(dir, 'notes'));
    fs.symlinkSync('my-notes', path.join(dir, 'notes'));
    const report = await undoRun('run-1', { workspace, checkpoints });
    assert.ok(fs.lstatSync(path.join(dir, 'notes'), { throwIfNoEntry: false })?.isSymbolicLink(), `the user's link notes -> my-notes was removed: ${describeUndo(report)}`);
    assert.equal(fs.readFileSync(path.join(dir, 'my-notes', 'diary.md'), 'utf8'), 'mine\n');
    assert.deepEqual(report.removed, [], 'Undo said it removed a folder that now holds the user\'s files (through their link)');
  });

  it('attack: a folder the run created, replaced by a link to an empty folder of the user\'s, is named and left alone, not reported removed', async () => {
    const workspace = createNodeWorkspace(dir);
    const checkpoints = createMemoryCheckpointStore();
    await createDirectoryTool.run(makeToolContext({ workspace, checkpoints, stepId: 'S1' }), { path: 'out' }, neverAborted);
    fs.mkdirSync(path.join(dir, 'build'));
    fs.rmdirSync(path.join(dir, 'out'));
    fs.symlinkSync('build', path.join(dir, 'out'));
    const report = await undoRun('run-1', { workspace, checkpoints });
    assert.ok(fs.lstatSync(path.join(dir, 'out'), { throwIfNoEntry: false })?.isSymbolicLink(), `the user's link out -> build was removed: ${describeUndo(report)}`);
    assert.ok(fs.statSync(path.join(dir, 'build')).isDirectory());
  });

  it('attack: a folder the run created that now holds only a hidden file of the user\'s is kept with it', async () => {
    const workspace = createNodeWorkspace(dir);
    const checkpoints = createMemoryCheckpointStore();
    const ctx = makeToolContext({ workspace, checkpoints, stepId: 'S1' });
    await createDirectoryTool.run(ctx, { path: 'made/deep' }, neverAborted);
    await writeFileTool.run(ctx, { path: 'made/deep/run.txt', content: 'by the run\n' }, neverAborted);
    fs.writeFileSync(path.join(dir, 'made', '.keep'), '');
    const report = await undoRun('run-1', { workspace, checkpoints });
    assert.equal(fs.existsSync(path.join(dir, 'made/deep/run.txt')), false);
    assert.equal(fs.existsSync(path.join(dir, 'made', '.keep')), true);
    assert.ok(report.refused.some((entry) => entry.path === 'made'));
  });
});

type RunOp = { kind: 'write'; file: number; text: number } | { kind: 'delete'; file: number };
type UserOp = { kind: 'none' } | { kind: 'write'; file: number; text: number } | { kind: 'delete'; file: number };

describe('attack: what the Undo question says it leaves alone is what Undo leaves alone', () => {
  it('attack: filesChangedSince names exactly the files undoRun then refuses, over random runs and user changes (property)', async () => {
    const files = ['a.txt', 'b.txt'];
    const texts = ['zero\n', 'one\n', 'two\n', 'three\n'];
    const runOp: fc.Arbitrary<RunOp> = fc.oneof(
      fc.record({ kind: fc.constant('write' as const), file: fc.nat(1), text: fc.nat(3) }),
      fc.record({ kind: fc.constant('delete' as const), file: fc.nat(1) }),
    );
    const userOp: fc.Arbitrary<UserOp> = fc.oneof(
      fc.constant({ kind: 'none' as const }),
      fc.record({ kind: fc.constant('write' as const), file: fc.nat(1), text: fc.nat(3) }),
      fc.record({ kind: fc.constant('delete' as const), file: fc.nat(1) }),
    );
    let refusals = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.option(fc.nat(3), { nil: undefined }), { minLength: 2, maxLength: 2 }), fc.array(runOp, { minLength: 1, maxLength: 5 }), fc.array(userOp, { maxLength: 3 }), async (start, ops, user) => {
        const initial: Record<string, string> = {};
        start.forEach((text, index) => {
          if (text !== undefined) initial[files[index]!] = texts[text]!;
        });
        const workspace = createMemoryWorkspace(initial);
        const checkpoints = createMemoryCheckpointStore();
        for (const [index, op] of ops.entries()) {
          const ctx = makeToolContext({ workspace, checkpoints, stepId: `S${index + 1}` });
          try {
            if (op.kind === 'write') await writeFileTool.run(ctx, { path: files[op.file]!, content: texts[op.text]! }, neverAborted);
            else await deleteFileTool.run(ctx, { path: files[op.file]! }, neverAborted);
          } catch {
            // Nothing to delete: no change.
          }
        }
        for (const op of user) {
          if (op.kind === 'write') await workspace.writeText(files[op.file]!, texts[op.text]!);
          else if (op.kind === 'delete' && workspace.snapshot()[files[op.file]!] !== undefined) await workspace.delete(files[op.file]!);
        }
        const said = new Set(await filesChangedSince(workspace, await checkpoints.list('run-1')));
        const before = workspace.snapshot();
        const report = await undoRun('run-1', { workspace, checkpoints });
        const left = new Set(report.refused.map((entry) => entry.path));
        refusals += left.size;
        assert.deepEqual([...said].sort(), [...left].sort(), `question said ${[...said].join(", ")} left alone; Undo left ${[...left].join(", ")} (${describeUndo(report)})`);
        // And nothing it left alone was changed.
        for (const path of left) assert.equal(workspace.snapshot()[path], before[path]);
      }),
      { numRuns: 300 },
    );
    assert.ok(refusals > 0, 'no generated case left a file alone');
  });
});
