import assert from 'node:assert/strict';
import { WorkspaceError } from '../../../../src/core/workspace/workspaceError';
import { ApprovalRejectedError } from '../../../../src/core/tools/approvals';
import { createMemoryCheckpointStore } from '../../../../src/core/tools/checkpointStore';
import { deleteFileTool } from '../../../../src/core/tools/deleteFileTool';
import { sha256 } from '../../../../src/core/tools/fileVersions';
import { editFileTool } from '../../../../src/core/tools/editFileTool';
import { writeFileTool } from '../../../../src/core/tools/writeFileTool';
import { PathRefusedError } from '../../../../src/core/workspace/resolveInRoot';
import { createConfinedWorkspace } from '../../../../src/core/workspace/confinedWorkspace';
import { createMemoryWorkspace } from '../../../fakes/memoryWorkspace';
import type { MemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { confinedMemoryWorkspace, memoryRoot, stillClock, type MemoryRawFs } from '../../../fakes/memoryRawFs';
import { memoryChangeLocks } from '../../../fakes/memoryChangeLocks';
import { ScriptedInteraction } from '../../../fakes/scriptedInteraction';
import { makeToolContext, neverAborted } from '../../../fakes/toolContext';

describe('changeFile across steps, programs and crashes', () => {
  it('does not hold up a change of another file while a question about one file is open', async () => {
    const workspace = createMemoryWorkspace({ 'a.txt': 'a', 'b.txt': 'b' });
    const interaction = ScriptedInteraction.approvingAll();
    let answer: () => void = () => undefined;
    interaction.requestApproval = () =>
      new Promise((resolve) => {
        answer = () => resolve({ approved: true });
      });
    const asking = writeFileTool.run(makeToolContext({ workspace, interaction }), { path: 'a.txt', content: 'A' }, neverAborted);
    await new Promise((resolve) => setImmediate(resolve));
    const other = await writeFileTool.run(makeToolContext({ workspace, approvalPolicy: 'commandsOnly' }), { path: 'b.txt', content: 'B' }, neverAborted);
    assert.equal(other.operation, 'overwritten');
    assert.deepEqual(workspace.snapshot(), { 'a.txt': 'a', 'b.txt': 'B' });
    answer();
    await asking;
    assert.deepEqual(workspace.snapshot(), { 'a.txt': 'A', 'b.txt': 'B' });
  });

  // Outside attack (2026-12-01): a multi-root workspace may hold a folder and a folder inside it, each with its own run
  // lane; their changes of one file were keyed by root, so they did not wait for each other and one could be lost.
  it('makes a change through a folder nested in another wait while a change of the same file through the outer one is asked', async () => {
    const { raw, workspace: outer } = confinedMemoryWorkspace();
    raw.file(`${memoryRoot}/sub/x.txt`, 'a b\n');
    // The same disk seen from a folder inside the root, in the letter case another window may name it in.
    const innerRaw = Object.create(raw, { rootPath: { value: `${memoryRoot}/sub` } }) as MemoryRawFs;
    const inner = createConfinedWorkspace(innerRaw, { root: `${memoryRoot.toUpperCase()}/sub`, clock: stillClock, changeLocks: memoryChangeLocks(raw) });
    const interaction = ScriptedInteraction.approvingAll();
    let answer: () => void = () => undefined;
    const asked = new Promise<void>((askedNow) => {
      interaction.requestApproval = () =>
        new Promise((resolve) => {
          answer = () => resolve({ approved: true });
          askedNow();
        });
    });
    const asking = editFileTool.run(makeToolContext({ workspace: outer, interaction }), { path: 'sub/x.txt', edits: [{ search: 'a', replace: 'A' }] }, neverAborted);
    await asked;
    let innerDone = false;
    const innerChange = editFileTool
      .run(makeToolContext({ workspace: inner, approvalPolicy: 'commandsOnly' }), { path: 'x.txt', edits: [{ search: 'b', replace: 'B' }] }, neverAborted)
      .finally(() => (innerDone = true));
    // Memory files answer in microtasks: a change not held by the lock is done within these turns.
    for (let turn = 0; turn < 10; turn++) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(innerDone, false, 'the inner folder changed the file while a change of it was being asked');
    assert.equal(raw.text(`${memoryRoot}/sub/x.txt`), 'a b\n');
    answer();
    await asking;
    await innerChange;
    assert.equal(raw.text(`${memoryRoot}/sub/x.txt`), 'A B\n');
  });

  it('gives up with nothing of its own written when another program writes the file before each of its writes', async () => {
    const memory = createMemoryWorkspace({ 'a.txt': 'v0' });
    let writes = 0;
    const racing: MemoryWorkspace = {
      ...memory,
      async writeText(file, text, signal, options) {
        await memory.writeText(file, `saved by the user ${++writes}`);
        return memory.writeText(file, text, signal, options);
      },
    };
    const checkpoints = createMemoryCheckpointStore();
    const ctx = makeToolContext({ workspace: racing, checkpoints, approvalPolicy: 'commandsOnly' });
    await assert.rejects(
      writeFileTool.run(ctx, { path: 'a.txt', content: 'mine' }, neverAborted),
      /a\.txt kept changing while this step was changing it \(3 times in a row/,
    );
    assert.equal(writes, 3);
    assert.equal(memory.snapshot()['a.txt'], 'saved by the user 3');
    assert.deepEqual((await checkpoints.list('run-1')).map((checkpoint) => checkpoint.state), ['abandoned', 'abandoned', 'abandoned']);
  });

  it('in a resumed run, does not make again a change of this step that landed before the crash (version = 1 stays 1.1)', async () => {
    const workspace = createMemoryWorkspace({ 'v.txt': 'version = 1.1\n' });
    const checkpoints = createMemoryCheckpointStore();
    const recorded = await checkpoints.record({
      runId: 'run-1',
      stepId: 'S1',
      path: 'v.txt',
      operation: 'edit',
      before: { exists: true, text: 'version = 1\n', sha256: sha256('version = 1\n') },
      afterSha256: sha256('version = 1.1\n'),
    });
    await checkpoints.settle(recorded, 'recovered');
    const interaction = new ScriptedInteraction();
    const result = await editFileTool.run(
      makeToolContext({ workspace, checkpoints, interaction }),
      { path: 'v.txt', edits: [{ search: 'version = 1', replace: 'version = 1.1' }] },
      neverAborted,
    );
    assert.deepEqual(result, { path: 'v.txt', operation: 'edited', changed: true, bytes: 14 });
    assert.equal(workspace.snapshot()['v.txt'], 'version = 1.1\n');
    assert.equal(interaction.requests.length, 0);
    assert.deepEqual((await checkpoints.list('run-1')).map((checkpoint) => checkpoint.state), ['applied']);
  });

  it('attack: in a resumed run, claims a deletion of this step that landed before the crash instead of failing on "Nothing to delete"', async () => {
    const workspace = createMemoryWorkspace({});
    const checkpoints = createMemoryCheckpointStore();
    const before = { exists: true as const, text: 'old\n', sha256: sha256('old\n') };
    const recorded = await checkpoints.record({ runId: 'run-1', stepId: 'S1', path: 'gone.txt', operation: 'delete', before, afterSha256: undefined });
    await checkpoints.settle(recorded, 'recovered');
    const interaction = new ScriptedInteraction();
    const result = await deleteFileTool.run(makeToolContext({ workspace, checkpoints, interaction }), { path: 'gone.txt' }, neverAborted);
    assert.deepEqual(result, { path: 'gone.txt', operation: 'deleted', changed: true, bytes: 0 });
    assert.equal(interaction.requests.length, 0);
    assert.deepEqual((await checkpoints.list('run-1')).map((checkpoint) => checkpoint.state), ['applied']);
    // Another step's deletion, or a file this step never deleted, is still a missing file.
    await assert.rejects(deleteFileTool.run(makeToolContext({ workspace, checkpoints, stepId: 'S2' }), { path: 'gone.txt' }, neverAborted), /Nothing to delete: gone\.txt/);
    await assert.rejects(deleteFileTool.run(makeToolContext({ workspace, checkpoints }), { path: 'other.txt' }, neverAborted), /Nothing to delete: other\.txt/);
  });

  it('in a resumed run, asks before changing a file a crash left as neither side of this step’s change, whatever the policy', async () => {
    const workspace = createMemoryWorkspace({ 'v.txt': 'someone else’s text\n' });
    const checkpoints = createMemoryCheckpointStore();
    const recorded = await checkpoints.record({
      runId: 'run-1',
      stepId: 'S1',
      path: 'v.txt',
      operation: 'write',
      before: { exists: true, text: 'v0\n', sha256: sha256('v0\n') },
      afterSha256: sha256('v1\n'),
    });
    await checkpoints.settle(recorded, 'uncertain');
    const interaction = new ScriptedInteraction({ approvals: [{ approved: false, reason: 'not over that' }] });
    const ctx = makeToolContext({ workspace, checkpoints, interaction, approvalPolicy: 'commandsOnly' });
    await assert.rejects(writeFileTool.run(ctx, { path: 'v.txt', content: 'v1\n' }, neverAborted), ApprovalRejectedError);
    assert.equal(interaction.approvals().length, 1);
    assert.equal(workspace.snapshot()['v.txt'], 'someone else’s text\n');
  });

  it('asks, whatever the policy, before a change outside the files its step declared, the question saying so; inside them it does not', async () => {
    const workspace = createMemoryWorkspace({ 'src/a.ts': 'a', 'docs/b.md': 'b' });
    const interaction = new ScriptedInteraction({ approvals: [{ approved: false, reason: 'not part of this step' }] });
    const ctx = makeToolContext({ workspace, interaction, approvalPolicy: 'commandsOnly', writeScope: ['src'] });
    await writeFileTool.run(ctx, { path: 'src/a.ts', content: 'A' }, neverAborted);
    await assert.rejects(writeFileTool.run(ctx, { path: 'docs/b.md', content: 'B' }, neverAborted), /not part of this step/);
    assert.deepEqual(
      interaction.approvals().map((request) => (request.kind === 'file' ? [request.proposal.path, request.outsideScope] : [])),
      [['docs/b.md', true]],
    );
    assert.deepEqual(workspace.snapshot(), { 'docs/b.md': 'b', 'src/a.ts': 'A' });
    // Asked inside its scope (under a policy that asks), the question does not say it is outside.
    const asking = new ScriptedInteraction({ approvals: [{ approved: true }] });
    await writeFileTool.run(makeToolContext({ workspace, interaction: asking, writeScope: ['src'] }), { path: 'src/a.ts', content: 'AA' }, neverAborted);
    assert.equal(asking.approvals().length, 1);
    assert.equal(asking.approvals().every((request) => request.kind === 'file' && !('outsideScope' in request)), true);
  });

  it('lets a step write the whole of a file it read and then edited itself: it has seen all of it', async () => {
    const workspace = createMemoryWorkspace({ 'a.txt': 'alpha\n' });
    const ctx = makeToolContext({ workspace, approvalPolicy: 'commandsOnly', seenVersions: new Map([['a.txt', sha256('alpha\n')]]) });
    await editFileTool.run(ctx, { path: 'a.txt', edits: [{ search: 'alpha', replace: 'ALPHA' }] }, neverAborted);
    assert.equal((await writeFileTool.run(ctx, { path: 'a.txt', content: 'ALPHA\nbeta\n' }, neverAborted)).operation, 'overwritten');
    assert.equal(workspace.snapshot()['a.txt'], 'ALPHA\nbeta\n');
  });

  it('refuses a blind whole-file write over changes by steps it does not depend on, naming each, and creates a file deleted meanwhile', async () => {
    const workspace = createMemoryWorkspace({ 'a.txt': 'theirs\n' });
    const unrelated = (steps: string[]) =>
      makeToolContext({ workspace, approvalPolicy: 'commandsOnly', seenVersions: new Map(), unrelatedChanges: () => steps.map((id) => ({ id, title: `Title of ${id}` })) });
    await assert.rejects(
      writeFileTool.run(unrelated(['C', 'D']), { path: 'a.txt', content: 'mine\n' }, neverAborted),
      (error: unknown) =>
        String(error).includes('a.txt was changed in this run by steps C ("Title of C"), D ("Title of D"), which this step does not depend on') &&
        String(error).endsWith(
          'To keep that change, make steps C, D depend on this step instead (their changes are then made on what this step writes). To write over it, make this step depend on steps C, D.',
        ) &&
        // The person is told what to change in the plan; a model that called the tool, how to write without dropping it.
        error instanceof WorkspaceError &&
        error.modelHint === 'Read it and write your change on what it holds now, or edit it with edit_file.',
    );
    await assert.rejects(writeFileTool.run(unrelated(['C']), { path: 'a.txt', content: 'mine\n' }, neverAborted), /by step C \("Title of C"\), which .*To keep that change, make step C depend on this step instead \(its change is then made on what this step writes\)\. To write over it, make this step depend on step C\.$/);
    // A long title is cut short.
    const long = makeToolContext({ workspace, approvalPolicy: 'commandsOnly', seenVersions: new Map(), unrelatedChanges: () => [{ id: 'L', title: 'x'.repeat(61) }] });
    await assert.rejects(writeFileTool.run(long, { path: 'a.txt', content: 'mine\n' }, neverAborted), new RegExp(`by step L \\("${'x'.repeat(59)}…"\\), which`));
    const sixty = makeToolContext({ workspace, approvalPolicy: 'commandsOnly', seenVersions: new Map(), unrelatedChanges: () => [{ id: 'S', title: 'y'.repeat(60) }] });
    await assert.rejects(writeFileTool.run(sixty, { path: 'a.txt', content: 'mine\n' }, neverAborted), new RegExp(`by step S \\("${'y'.repeat(60)}"\\), which`));
    assert.equal(workspace.snapshot()['a.txt'], 'theirs\n');
    // Nothing there to drop: a file another step deleted is written again, read before or not.
    await workspace.delete('a.txt');
    assert.equal((await writeFileTool.run(unrelated(['C']), { path: 'a.txt', content: 'mine\n' }, neverAborted)).operation, 'created');
    await workspace.delete('a.txt');
    const readBefore = makeToolContext({ workspace, approvalPolicy: 'commandsOnly', seenVersions: new Map([['a.txt', sha256('mine\n')]]) });
    assert.equal((await writeFileTool.run(readBefore, { path: 'a.txt', content: 'again\n' }, neverAborted)).operation, 'created');
  });

  it('refuses a whole-file write over what another program wrote since the step last saw the file, even after the step’s own write', async () => {
    const workspace = createMemoryWorkspace({ 'a.txt': 'v0' });
    const seenVersions = new Map<string, string>();
    const ctx = makeToolContext({ workspace, approvalPolicy: 'commandsOnly', seenVersions });
    await writeFileTool.run(ctx, { path: 'a.txt', content: 'v1' }, neverAborted);
    await workspace.writeText('a.txt', 'saved by the user');
    await assert.rejects(
      writeFileTool.run(ctx, { path: 'a.txt', content: 'v2' }, neverAborted),
      /a\.txt changed since this step read it .*nothing was written/,
    );
    assert.equal(workspace.snapshot()['a.txt'], 'saved by the user');
  });

  it('lets an edit, made on what the file holds now, through over a change made since the step saw the file, without marking that change seen, and forgets a file it deleted', async () => {
    const workspace = createMemoryWorkspace({ 'a.txt': 'alpha beta', 'b.txt': 'b' });
    const seenVersions = new Map<string, string>([
      ['a.txt', sha256('alpha')],
      ['b.txt', sha256('b')],
    ]);
    const ctx = makeToolContext({ workspace, approvalPolicy: 'commandsOnly', seenVersions });
    await editFileTool.run(ctx, { path: 'a.txt', edits: [{ search: 'beta', replace: 'BETA' }] }, neverAborted);
    await deleteFileTool.run(ctx, { path: 'b.txt' }, neverAborted);
    assert.deepEqual(workspace.snapshot(), { 'a.txt': 'alpha BETA' });
    // The edit told the step nothing of what changed since it saw the file (an outside attack: marked seen, a whole-file
    // write of the step then dropped another step's line).
    assert.deepEqual([...seenVersions], [['a.txt', sha256('alpha')]]);
    await assert.rejects(writeFileTool.run(ctx, { path: 'a.txt', content: 'ALPHA BETA' }, neverAborted), /a\.txt changed since this step read it .*nothing was written/);
    assert.deepEqual(workspace.snapshot(), { 'a.txt': 'alpha BETA' });
    // Created anew by the step, the file is one it has seen.
    assert.equal((await writeFileTool.run(ctx, { path: 'b.txt', content: 'new' }, neverAborted)).operation, 'created');
    assert.equal(seenVersions.get('b.txt'), sha256('new'));
  });

  it('never resolves an absolute path against the process’s folder when the workspace is not a folder path', async () => {
    const memory = createMemoryWorkspace();
    const remote: MemoryWorkspace = { ...memory, rootLabel: 'remote-workspace' };
    const ctx = makeToolContext({ workspace: remote, approvalPolicy: 'commandsOnly' });
    await assert.rejects(writeFileTool.run(ctx, { path: `${process.cwd()}/remote-workspace/a.txt`, content: 'x' }, neverAborted), PathRefusedError);
    assert.deepEqual(memory.snapshot(), {});
  });
});
