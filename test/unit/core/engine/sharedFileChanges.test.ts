import assert from 'node:assert/strict';
import { WorkspaceError } from '../../../../src/core/workspace/workspaceError';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runPlan } from '../../../../src/core/engine/runPlan';
import type { Step } from '../../../../src/core/plan/planSchema';
import type { ApprovalDecision } from '../../../../src/core/interactionPorts';
import type { WorkspaceFs } from '../../../../src/core/workspacePorts';
import { builtinTools } from '../../../../src/core/tools/builtinTools';
import { createMemoryCheckpointStore } from '../../../../src/core/tools/checkpointStore';
import { editFileTool } from '../../../../src/core/tools/editFileTool';
import { readFileTool } from '../../../../src/core/tools/readFileTool';
import { undoRun } from '../../../../src/core/tools/undoRun';
import { writeFileTool } from '../../../../src/core/tools/writeFileTool';
import { deleteFileTool } from '../../../../src/core/tools/deleteFileTool';
import { createNodeWorkspace } from '../../../../src/node/nodeWorkspace';
import { createMemoryWorkspace, type MemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { ManualClock } from '../../../fakes/manualClock';
import { ScriptedInteraction } from '../../../fakes/scriptedInteraction';
import { makeToolContext, neverAborted } from '../../../fakes/toolContext';
import { makePlan, makeStep } from '../../../support/randomPlans';

const edit = (id: string, search: string, replace: string, file = 'f.txt'): Step =>
  makeStep(id, { kind: 'tool', agent: undefined, input: undefined, critical: false, tool: 'edit_file', args: { path: file, edits: [{ search, replace }] } });

/** Every macrotask turn yields: the run's steps interleave at every await, as real I/O makes them. */
function slowed(workspace: WorkspaceFs): WorkspaceFs {
  const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
  return {
    ...workspace,
    rootLabel: workspace.rootLabel,
    readText: async (...args) => (await turn(), workspace.readText(...args)),
    ...(workspace.readBytes ? { readBytes: async (...args: Parameters<NonNullable<WorkspaceFs['readBytes']>>) => (await turn(), (workspace.readBytes as NonNullable<WorkspaceFs['readBytes']>)(...args)) } : {}),
    writeText: async (...args) => (await turn(), workspace.writeText(...args)),
    delete: async (...args) => (await turn(), workspace.delete(...args)),
    stat: async (...args) => (await turn(), workspace.stat(...args)),
  };
}

/** `memory`, where another program saves `saved` into the file just before our first write. */
function savedBeforeOurWrite(memory: MemoryWorkspace, saved: string): WorkspaceFs {
  let interfered = false;
  return {
    ...memory,
    async writeText(file, text, signal, options) {
      if (!interfered) {
        interfered = true;
        await memory.writeText(file, saved);
      }
      return memory.writeText(file, text, signal, options);
    },
  };
}

describe('changes of one file by parallel steps (issue 26)', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-shared-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('finding 1: two independent edit_file steps on one file both land (ALPHA beta GAMMA), in memory and on disk', async () => {
    fs.writeFileSync(path.join(dir, 'f.txt'), 'alpha\nbeta\ngamma\n');
    for (const workspace of [createMemoryWorkspace({ 'f.txt': 'alpha\nbeta\ngamma\n' }), createNodeWorkspace(dir)]) {
      const plan = makePlan([edit('A', 'alpha', 'ALPHA'), edit('B', 'gamma', 'GAMMA')]);
      const result = await runPlan(plan, { clock: new ManualClock(0, { autoAdvance: true }), workspace: slowed(workspace), tools: builtinTools(), approvalPolicy: 'commandsOnly', maxConcurrency: 4 }).result;
      assert.equal(result.status, 'completed');
      assert.equal(await workspace.readText('f.txt'), 'ALPHA\nbeta\nGAMMA\n');
    }
  });

  it('attack: an edit step and a write step that never read the file, in parallel: the write is refused, not both completed with the edit lost', async () => {
    fs.writeFileSync(path.join(dir, 'f.txt'), 'x=1\ny=1\n');
    const write = makeStep('W', { kind: 'tool', agent: undefined, input: undefined, critical: false, tool: 'write_file', args: { path: 'f.txt', content: 'y=1\nz=1\n' } });
    for (const workspace of [createMemoryWorkspace({ 'f.txt': 'x=1\ny=1\n' }), createNodeWorkspace(dir)]) {
      const plan = makePlan([edit('E', 'x=1', 'x=2'), write]);
      const result = await runPlan(plan, { clock: new ManualClock(0, { autoAdvance: true }), workspace: slowed(workspace), tools: builtinTools(), approvalPolicy: 'commandsOnly', maxConcurrency: 4 }).result;
      const text = await workspace.readText('f.txt');
      // Whichever takes the file's lock first: the edit then the write refused, or the write then the edit not finding its text.
      if (result.steps.E?.status === 'completed') {
        assert.notEqual(result.steps.W?.status, 'completed', `both completed, the file is ${JSON.stringify(text)}`);
        assert.match(result.steps.W?.error ?? '', /f\.txt was changed in this run by step E \("[^"]*"\), which this step does not depend on, and this step has not read it; nothing was written.*make this step depend on step E/);
        assert.equal(text, 'x=2\ny=1\n');
      } else {
        assert.equal(text, 'y=1\nz=1\n');
      }
    }
  });

  it('a write step that depends on the step that changed the file overwrites it, as its plan says', async () => {
    const workspace = createMemoryWorkspace({ 'f.txt': 'x=1\n' });
    const write = makeStep('W', { kind: 'tool', agent: undefined, input: undefined, dependsOn: ['E'], tool: 'write_file', args: { path: 'f.txt', content: 'rewritten\n' } });
    const result = await runPlan(makePlan([edit('E', 'x=1', 'x=2'), write]), { clock: new ManualClock(0, { autoAdvance: true }), workspace, tools: builtinTools(), approvalPolicy: 'commandsOnly' }).result;
    assert.equal(result.status, 'completed');
    assert.equal(workspace.snapshot()['f.txt'], 'rewritten\n');
  });

  it('two runs at once on one folder, each editing the same file, lose nothing', async () => {
    const workspace = createMemoryWorkspace({ 'f.txt': 'one two three four\n' });
    const common = { clock: new ManualClock(0, { autoAdvance: true }), workspace: slowed(workspace), tools: builtinTools(), approvalPolicy: 'commandsOnly' as const };
    const first = runPlan(makePlan([edit('A', 'one', 'ONE'), edit('B', 'two', 'TWO')]), { ...common, idSource: () => 'run-1' });
    const second = runPlan(makePlan([edit('C', 'three', 'THREE'), edit('D', 'four', 'FOUR')]), { ...common, idSource: () => 'run-2' });
    const results = await Promise.all([first.result, second.result]);
    assert.deepEqual(results.map((result) => result.status), ['completed', 'completed']);
    assert.equal(workspace.snapshot()['f.txt'], 'ONE TWO THREE FOUR\n');
  });

  it('six parallel edits of one file, each waiting on its own approval in a random order, all land and each is reported once', async () => {
    const workspace = createMemoryWorkspace({ 'f.txt': 'a b c d e f' });
    const letters = ['a', 'b', 'c', 'd', 'e', 'f'];
    const pending: ((decision: ApprovalDecision) => void)[] = [];
    const interaction = ScriptedInteraction.approvingAll();
    interaction.requestApproval = () => new Promise<ApprovalDecision>((resolve) => pending.push(resolve));
    const plan = makePlan(letters.map((letter) => edit(letter.toUpperCase(), letter, letter.toUpperCase())));
    const checkpoints = createMemoryCheckpointStore();
    const handle = runPlan(plan, { clock: new ManualClock(0, { autoAdvance: true }), workspace: slowed(workspace), tools: builtinTools(), interaction, checkpoints, maxConcurrency: 6 });
    // Answer whichever question is open, last asked first, until the run ends.
    let answered = 0;
    while (answered < letters.length) {
      await new Promise((resolve) => setImmediate(resolve));
      const next = pending.pop();
      if (next) {
        next({ approved: true });
        answered++;
      }
    }
    const result = await handle.result;
    assert.equal(result.status, 'completed');
    assert.equal(workspace.snapshot()['f.txt'], 'A B C D E F');
    assert.deepEqual(handle.state().changedFiles ?? [], ['f.txt']);
    assert.equal((await checkpoints.list(result.runId)).filter((checkpoint) => checkpoint.state === 'applied').length, 6);
    const undone = await undoRun(result.runId, { workspace, checkpoints });
    assert.equal(undone.refused.length, 0);
    assert.equal(workspace.snapshot()['f.txt'], 'a b c d e f');
  });

  it('another program writing the file between the read and the write is never overwritten: the edit is made again on its content', async () => {
    const memory = createMemoryWorkspace({ 'f.txt': 'alpha\nbeta\n' });
    const racing = savedBeforeOurWrite(memory, 'alpha\nbeta\nsaved by the user\n');
    const result = await editFileTool.run(makeToolContext({ workspace: racing, approvalPolicy: 'commandsOnly' }), { path: 'f.txt', edits: [{ search: 'alpha', replace: 'ALPHA' }] }, neverAborted);
    assert.equal(result.operation, 'edited');
    assert.equal(memory.snapshot()['f.txt'], 'ALPHA\nbeta\nsaved by the user\n');
  });

  it('a whole-file write computed before another program saved the file asks again, showing what it would now replace', async () => {
    const memory = createMemoryWorkspace({ 'f.txt': 'v0' });
    const racing = savedBeforeOurWrite(memory, 'the user saved this');
    const interaction = new ScriptedInteraction({ approvals: [{ approved: true }, { approved: false, reason: 'not over my work' }] });
    await assert.rejects(writeFileTool.run(makeToolContext({ workspace: racing, interaction }), { path: 'f.txt', content: 'v1' }, neverAborted), /not over my work/);
    assert.deepEqual(interaction.approvals().map((request) => (request.kind === 'file' ? request.proposal.currentText : '')), ['v0', 'the user saved this']);
    assert.equal(memory.snapshot()['f.txt'], 'the user saved this');
  });

  it('finding 2: a Latin-1 file is refused for editing, overwriting and deleting, its bytes untouched', async () => {
    const latin1 = Buffer.from('caf\xe9 cr\xe8me\nline2\n', 'latin1');
    fs.writeFileSync(path.join(dir, 'l1.txt'), latin1);
    const checkpoints = createMemoryCheckpointStore();
    const ctx = makeToolContext({ workspace: createNodeWorkspace(dir), checkpoints, interaction: new ScriptedInteraction() });
    const notUtf8 = /l1\.txt is not UTF-8 text .*refuse to change it/;
    await assert.rejects(editFileTool.run(ctx, { path: 'l1.txt', edits: [{ search: 'line2', replace: 'LINE2' }] }, neverAborted), notUtf8);
    await assert.rejects(writeFileTool.run(ctx, { path: 'l1.txt', content: 'new' }, neverAborted), notUtf8);
    await assert.rejects(deleteFileTool.run(ctx, { path: 'l1.txt' }, neverAborted), notUtf8);
    assert.deepEqual(fs.readFileSync(path.join(dir, 'l1.txt')), latin1);
    assert.deepEqual(await checkpoints.list('run-1'), []);
  });

  it('a UTF-8 file with a BOM and CRLF keeps every byte outside the edit, and Undo restores it byte for byte', async () => {
    const original = Buffer.from('\ufeffhead\r\nmiddle\r\n\u00e9 tail\r\n', 'utf8');
    fs.writeFileSync(path.join(dir, 'bom.txt'), original);
    const workspace = createNodeWorkspace(dir);
    const checkpoints = createMemoryCheckpointStore();
    const ctx = makeToolContext({ workspace, checkpoints, approvalPolicy: 'commandsOnly' });
    await editFileTool.run(ctx, { path: 'bom.txt', edits: [{ search: 'middle', replace: 'MIDDLE' }] }, neverAborted);
    assert.deepEqual(fs.readFileSync(path.join(dir, 'bom.txt')), Buffer.from('\ufeffhead\r\nMIDDLE\r\n\u00e9 tail\r\n', 'utf8'));
    await undoRun('run-1', { workspace, checkpoints });
    assert.deepEqual(fs.readFileSync(path.join(dir, 'bom.txt')), original);
  });

  it('finding 5: a change whose write failed is not reported as changed', async () => {
    const workspace = createMemoryWorkspace({ 'a.txt': 'a', 'b.txt': 'b' });
    workspace.failNextWrite('b.txt', new Error('the disk is full'));
    const plan = makePlan([edit('A', 'a', 'A', 'a.txt'), edit('B', 'b', 'B', 'b.txt')]);
    const handle = runPlan(plan, { clock: new ManualClock(0, { autoAdvance: true }), workspace, tools: builtinTools(), approvalPolicy: 'commandsOnly', checkpoints: createMemoryCheckpointStore() });
    const result = await handle.result;
    assert.notEqual(result.steps['B']?.status, 'completed');
    assert.deepEqual(handle.state().changedFiles ?? [], ['a.txt']);
    assert.deepEqual(workspace.snapshot(), { 'a.txt': 'A', 'b.txt': 'b' });
  });

  it('finding 5: after a critical step halts the run, the summary names only the changes that landed', async () => {
    const workspace = createMemoryWorkspace({ 'a.txt': 'a', 'b.txt': 'b' });
    const failing = makeStep('FAIL', { kind: 'tool', agent: undefined, input: undefined, critical: true, tool: 'edit_file', args: { path: 'a.txt', edits: [{ search: 'nothing like this', replace: 'x' }] } });
    const interaction = ScriptedInteraction.approvingAll();
    let release: () => void = () => undefined;
    // B's write waits for its approval until after the halt: it must not count as changed.
    interaction.requestApproval = (request) =>
      request.kind === 'file' && request.proposal.path === 'b.txt'
        ? new Promise((_resolve, reject) => {
            release = () => reject(new Error('gone'));
          })
        : Promise.resolve({ approved: true });
    const plan = makePlan([failing, edit('B', 'b', 'B', 'b.txt')]);
    const handle = runPlan(plan, { clock: new ManualClock(0, { autoAdvance: true }), workspace, tools: builtinTools(), interaction, checkpoints: createMemoryCheckpointStore() });
    const result = await handle.result;
    release();
    assert.equal(result.status, 'failed');
    assert.deepEqual(handle.state().changedFiles ?? [], []);
    assert.deepEqual(workspace.snapshot(), { 'a.txt': 'a', 'b.txt': 'b' });
  });
});

describe('a whole-file write made from an older read (issue 26)', () => {
  it('is refused when another step changed the file since this step read it, and goes through once read again', async () => {
    const workspace = createMemoryWorkspace({ 'notes.md': 'v0\n' });
    const agentCtx = makeToolContext({ workspace, approvalPolicy: 'commandsOnly', stepId: 'AGENT', seenVersions: new Map() });
    await readFileTool.run(agentCtx, { path: 'notes.md' }, neverAborted);
    // Another step appends a line meanwhile.
    await editFileTool.run(makeToolContext({ workspace, approvalPolicy: 'commandsOnly', stepId: 'OTHER' }), { path: 'notes.md', edits: [{ search: 'v0\n', replace: 'v0\nfrom OTHER\n' }] }, neverAborted);
    await assert.rejects(
      writeFileTool.run(agentCtx, { path: 'notes.md', content: 'v0\nmine\n' }, neverAborted),
      (error: unknown) =>
        /notes\.md changed since this step read it .*nothing was written\.$/.test(String(error)) &&
        error instanceof WorkspaceError &&
        error.modelHint === 'Read it again and write your change on what it holds now.',
    );
    assert.equal(workspace.snapshot()['notes.md'], 'v0\nfrom OTHER\n');
    await readFileTool.run(agentCtx, { path: 'notes.md' }, neverAborted);
    await writeFileTool.run(agentCtx, { path: 'notes.md', content: 'v0\nfrom OTHER\nmine\n' }, neverAborted);
    // Its own change is what it saw last: writing again needs no new read.
    await writeFileTool.run(agentCtx, { path: 'notes.md', content: 'v0\nfrom OTHER\nmine, twice\n' }, neverAborted);
    assert.equal(workspace.snapshot()['notes.md'], 'v0\nfrom OTHER\nmine, twice\n');
  });

  it('attack: is refused when another program saved the file between the check and the write, not written again over it', async () => {
    const memory = createMemoryWorkspace({ 'a.txt': 'v0\n' });
    const racing = savedBeforeOurWrite(memory, 'v0\nuser line\n');
    const ctx = makeToolContext({ workspace: racing, approvalPolicy: 'commandsOnly', seenVersions: new Map() });
    await readFileTool.run(ctx, { path: 'a.txt' }, neverAborted);
    // The compare-and-swap write fails; the write computed again used to go through over the user's line.
    await assert.rejects(writeFileTool.run(ctx, { path: 'a.txt', content: 'v1\n' }, neverAborted), /a\.txt changed since this step read it .*nothing was written/);
    assert.equal(memory.snapshot()['a.txt'], 'v0\nuser line\n');
  });

  it('attack: is refused when the file changed while its question was open, not asked again over the change', async () => {
    const memory = createMemoryWorkspace({ 'a.txt': 'v0\n' });
    const ctx = makeToolContext({
      workspace: memory,
      seenVersions: new Map(),
      interaction: {
        requestApproval: async () => {
          await memory.writeText('a.txt', 'v0\nsaved while asked\n');
          return { approved: true };
        },
        askClarification: async () => 'defer',
        requestReview: async () => 'defer',
        requestManualStep: async () => 'defer',
      },
    });
    await readFileTool.run(ctx, { path: 'a.txt' }, neverAborted);
    await assert.rejects(writeFileTool.run(ctx, { path: 'a.txt', content: 'v1\n' }, neverAborted), /a\.txt changed since this step read it .*nothing was written/);
    assert.equal(memory.snapshot()['a.txt'], 'v0\nsaved while asked\n');
  });
});
