import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { deleteFileTool } from '../../../../src/core/tools/deleteFileTool';
import { writeFileTool } from '../../../../src/core/tools/writeFileTool';
import { PathRefusedError } from '../../../../src/core/workspace/resolveInRoot';
import { createNodeWorkspace } from '../../../../src/node/nodeWorkspace';
import { ScriptedInteraction } from '../../../fakes/scriptedInteraction';
import { makeToolContext, neverAborted } from '../../../fakes/toolContext';

describe('changeFile through symbolic links on disk', () => {
  let root: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-change-links-'));
    fs.mkdirSync(path.join(root, '.git/hooks'), { recursive: true });
    fs.mkdirSync(path.join(root, 'src'));
    fs.writeFileSync(path.join(root, 'src/a.ts'), 'old\n');
    fs.symlinkSync('.git', path.join(root, 'docs'));
    fs.symlinkSync('src', path.join(root, 'alias'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('refuses a write that leads into .git through a link, before asking and without writing', async () => {
    const interaction = new ScriptedInteraction({ approvals: [{ approved: true }, { approved: true }] });
    const ctx = makeToolContext({ workspace: createNodeWorkspace(root), interaction });
    for (const target of ['docs/hooks/pre-commit', 'docs/config']) {
      await assert.rejects(
        writeFileTool.run(ctx, { path: target, content: '#!/bin/sh\necho pwned\n' }, neverAborted),
        (error: unknown) => error instanceof PathRefusedError && error.message.includes(`.git/${target.slice(5)}`),
      );
    }
    assert.equal(interaction.approvals().length, 0);
    assert.deepEqual(fs.readdirSync(path.join(root, '.git/hooks')), []);
    assert.deepEqual(fs.readdirSync(path.join(root, '.git')), ['hooks']);
  });

  it('refuses a write or deletion that leads into .task-planner through a link under commandsOnly, without asking', async () => {
    fs.mkdirSync(path.join(root, '.task-planner/runs'), { recursive: true });
    fs.writeFileSync(path.join(root, '.task-planner/runs/r1.jsonl'), 'journal\n');
    fs.symlinkSync('.task-planner/runs', path.join(root, 'notes'));
    const interaction = new ScriptedInteraction();
    const ctx = makeToolContext({ workspace: createNodeWorkspace(root), interaction, approvalPolicy: 'commandsOnly' });
    const intoOwnData = (error: unknown): boolean => error instanceof PathRefusedError && error.message.includes('inside .task-planner');
    await assert.rejects(writeFileTool.run(ctx, { path: 'notes/r1.jsonl', content: 'forged\n' }, neverAborted), intoOwnData);
    await assert.rejects(writeFileTool.run(ctx, { path: '.task-planner/runs/r1.jsonl', content: 'forged\n' }, neverAborted), intoOwnData);
    await assert.rejects(deleteFileTool.run(ctx, { path: 'notes/r1.jsonl' }, neverAborted), intoOwnData);
    assert.equal(interaction.requests.length, 0);
    assert.deepEqual(fs.readdirSync(path.join(root, '.task-planner/runs')), ['r1.jsonl']);
    assert.equal(fs.readFileSync(path.join(root, '.task-planner/runs/r1.jsonl'), 'utf8'), 'journal\n');
  });

  it('shows the location a link leads to in the approval', async () => {
    const interaction = new ScriptedInteraction({ approvals: [{ approved: true }, { approved: true }] });
    const ctx = makeToolContext({ workspace: createNodeWorkspace(root), interaction });
    await writeFileTool.run(ctx, { path: 'alias/a.ts', content: 'new\n' }, neverAborted);
    await writeFileTool.run(ctx, { path: 'src/b.ts', content: 'b\n' }, neverAborted);
    const [throughLink, direct] = interaction.approvals();
    assert.ok(throughLink?.kind === 'file' && direct?.kind === 'file');
    assert.equal(throughLink.proposal.path, 'alias/a.ts');
    assert.equal(throughLink.proposal.resolvedPath, 'src/a.ts');
    assert.equal(direct.proposal.resolvedPath, undefined);
    assert.equal(fs.readFileSync(path.join(root, 'src/a.ts'), 'utf8'), 'new\n');
  });
});
