import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runPlan } from '../../../../src/core/engine/runPlan';
import type { Step } from '../../../../src/core/plan/planSchema';
import type { TargetCheck, WorkspaceFs } from '../../../../src/core/workspacePorts';
import { builtinTools } from '../../../../src/core/tools/builtinTools';
import { createNodeWorkspace } from '../../../../src/node/nodeWorkspace';
import { foldedPath } from '../../../../src/core/workspace/changeKey';
import { createMemoryWorkspace, type MemoryWorkspace } from '../../../fakes/memoryWorkspace';
import { ManualClock } from '../../../fakes/manualClock';
import { makePlan, makeStep } from '../../../support/randomPlans';

const edit = (id: string, file: string, search: string, replace: string): Step =>
  makeStep(id, { kind: 'tool', agent: undefined, input: undefined, critical: false, tool: 'edit_file', args: { path: file, edits: [{ search, replace }] } });
const write = (id: string, file: string, content: string): Step =>
  makeStep(id, { kind: 'tool', agent: undefined, input: undefined, critical: false, tool: 'write_file', args: { path: file, content } });

/** The edit's change is let through first: the write step finds where `writePath` leads only once another change was written. */
function editFirst(workspace: WorkspaceFs, writePath: string): WorkspaceFs {
  let written: () => void = () => undefined;
  const firstWrite = new Promise<void>((resolve) => (written = resolve));
  return {
    ...workspace,
    rootLabel: workspace.rootLabel,
    writeText: async (...args) => {
      await workspace.writeText(...args);
      written();
    },
    locate: async (file, signal) => {
      if (file === writePath) await firstWrite;
      return (workspace.locate as NonNullable<WorkspaceFs['locate']>)(file, signal);
    },
  };
}

/** `memory` as a case-insensitive disk (APFS, NTFS) sees it: a path names the file whose name folds to the same text. */
function caseFolding(memory: MemoryWorkspace): WorkspaceFs {
  const onDisk = (file: string): string => Object.keys(memory.snapshot()).find((name) => foldedPath(name) === foldedPath(file)) ?? file;
  // A walk of the disk names the place as it was asked for, in its letter case.
  const asAsked = <T extends { refuseTarget?: TargetCheck }>(file: string, options: T | undefined): T | undefined => {
    const judge = options?.refuseTarget;
    return judge === undefined ? options : Object.assign({}, options, { refuseTarget: () => judge(file, file) });
  };
  return {
    ...memory,
    rootLabel: memory.rootLabel,
    readText: (file, signal, options) => memory.readText(onDisk(file), signal, asAsked(file, options)),
    readBytes: (file, signal, options) => memory.readBytes(onDisk(file), signal, asAsked(file, options)),
    writeText: (file, text, signal, options) => memory.writeText(onDisk(file), text, signal, asAsked(file, options)),
    delete: (file, signal, options) => memory.delete(onDisk(file), signal, asAsked(file, options)),
    stat: (file, signal) => memory.stat(onDisk(file), signal),
  };
}

const run = (plan: ReturnType<typeof makePlan>, workspace: WorkspaceFs) =>
  runPlan(plan, { clock: new ManualClock(0, { autoAdvance: true }), workspace, tools: builtinTools(), approvalPolicy: 'commandsOnly', maxConcurrency: 4 }).result;

// Outside attack (2026-12-07): a blind whole-file write is refused over a change of the same file by a step it does not
// depend on, but the change was looked up by the path as each step named it: a step writing the file through a link
// inside the workspace (`alias.md -> notes.md`) dropped a parallel edit of `notes.md`, both steps completed.
describe('parallel changes of one file under two names (attack)', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-alias-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('refuses a blind write through a link over a parallel edit of the file it leads to', async () => {
    fs.writeFileSync(path.join(dir, 'notes.md'), 'x=1\ny=1\n');
    fs.symlinkSync('notes.md', path.join(dir, 'alias.md'));
    const workspace = editFirst(createNodeWorkspace(dir), 'alias.md');
    const result = await run(makePlan([edit('E', 'notes.md', 'x=1', 'x=2'), write('W', 'alias.md', 'y=1\nz=1\n')]), workspace);
    const text = fs.readFileSync(path.join(dir, 'notes.md'), 'utf8');
    assert.equal(result.steps.E?.status, 'completed');
    assert.notEqual(result.steps.W?.status, 'completed', `both completed, the file is ${JSON.stringify(text)}`);
    assert.match(result.steps.W?.error ?? '', /was changed in this run by step E/);
    assert.equal(text, 'x=2\ny=1\n');
  });

  it('refuses a blind write of a file over a parallel edit made through a link to it', async () => {
    fs.writeFileSync(path.join(dir, 'notes.md'), 'x=1\ny=1\n');
    fs.symlinkSync('notes.md', path.join(dir, 'alias.md'));
    const workspace = editFirst(createNodeWorkspace(dir), 'notes.md');
    const result = await run(makePlan([edit('E', 'alias.md', 'x=1', 'x=2'), write('W', 'notes.md', 'y=1\nz=1\n')]), workspace);
    const text = fs.readFileSync(path.join(dir, 'notes.md'), 'utf8');
    assert.equal(result.steps.E?.status, 'completed');
    assert.notEqual(result.steps.W?.status, 'completed', `both completed, the file is ${JSON.stringify(text)}`);
    assert.equal(text, 'x=2\ny=1\n');
  });

  it('refuses a blind write of readme.md over a parallel edit of README.md on a case-insensitive disk', async () => {
    const memory = createMemoryWorkspace({ 'README.md': 'x=1\ny=1\n' });
    const result = await run(makePlan([edit('E', 'README.md', 'x=1', 'x=2'), write('W', 'readme.md', 'y=1\nz=1\n')]), caseFolding(memory));
    assert.equal(result.steps.E?.status, 'completed');
    assert.notEqual(result.steps.W?.status, 'completed', `both completed, the file is ${JSON.stringify(memory.snapshot())}`);
    assert.deepEqual(memory.snapshot(), { 'README.md': 'x=2\ny=1\n' });
  });
});
