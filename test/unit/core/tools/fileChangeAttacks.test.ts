import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ApprovalDecision, ApprovalRequest } from '../../../../src/core/interactionPorts';
import { createMemoryCheckpointStore } from '../../../../src/core/tools/checkpointStore';
import { deleteFileTool } from '../../../../src/core/tools/deleteFileTool';
import { editFileTool } from '../../../../src/core/tools/editFileTool';
import { writeFileTool } from '../../../../src/core/tools/writeFileTool';
import { createNodeWorkspace } from '../../../../src/node/nodeWorkspace';
import { ScriptedInteraction } from '../../../fakes/scriptedInteraction';
import { makeToolContext, neverAborted } from '../../../fakes/toolContext';
import { temporaryDirectory } from '../../../support/temporaryDirectory';

// A racing user or process changes the file on disk while its change's question is open: each approval below does so
// before it answers yes. Whatever is put there, the change lands only on the file and the version the user saw, inside the
// workspace, or nothing is written.
describe('file changes raced while their question is open (attacks)', () => {
  const workspaceDir = temporaryDirectory('tp-change-attack-');
  const outsideDir = temporaryDirectory('tp-change-outside-');
  const inside = (name: string): string => path.join(workspaceDir.path, name);
  const outside = (name: string): string => path.join(outsideDir.path, name);
  const read = (at: string): string => fs.readFileSync(at, 'utf8');

  /** Approves each question after `race` (once, at the first), recording what each showed. */
  function approvingAfter(race: () => void, answers: ApprovalDecision[] = []): ScriptedInteraction {
    let raced = false;
    const answer = (): ApprovalDecision => {
      if (!raced) {
        raced = true;
        race();
      }
      return answers.shift() ?? { approved: true };
    };
    return new ScriptedInteraction({ approvals: [answer, answer, answer, answer] });
  }
  const shown = (interaction: ScriptedInteraction): (string | undefined)[] =>
    interaction.approvals().map((request: ApprovalRequest) => (request.kind === 'file' ? request.proposal.currentText : 'not a file'));

  it('attack: a file replaced by a directory while its write is asked about is not written, and the directory stays', async () => {
    fs.writeFileSync(inside('a.txt'), 'v1\n');
    const checkpoints = createMemoryCheckpointStore();
    const interaction = approvingAfter(() => {
      fs.rmSync(inside('a.txt'));
      fs.mkdirSync(inside('a.txt'));
      fs.writeFileSync(inside('a.txt/keep.txt'), 'mine\n');
    });
    const ctx = makeToolContext({ workspace: createNodeWorkspace(workspaceDir.path), interaction, checkpoints });
    await assert.rejects(writeFileTool.run(ctx, { path: 'a.txt', content: 'v2\n' }, neverAborted));
    assert.equal(read(inside('a.txt/keep.txt')), 'mine\n');
    assert.ok((await checkpoints.list('run-1')).every((checkpoint) => checkpoint.state !== 'applied'));
  });

  it('attack: a file swapped for a link out of the workspace to a file of the same bytes is not written, nor is the file out there', async () => {
    fs.writeFileSync(inside('a.txt'), 'same\n');
    fs.writeFileSync(outside('target.txt'), 'same\n');
    const interaction = approvingAfter(() => {
      fs.rmSync(inside('a.txt'));
      fs.symlinkSync(outside('target.txt'), inside('a.txt'));
    });
    const ctx = makeToolContext({ workspace: createNodeWorkspace(workspaceDir.path), interaction });
    await assert.rejects(writeFileTool.run(ctx, { path: 'a.txt', content: 'written\n' }, neverAborted));
    assert.equal(read(outside('target.txt')), 'same\n');
    assert.equal(fs.lstatSync(inside('a.txt')).isSymbolicLink(), true);
  });

  it('attack: the file’s folder swapped for a link to a folder out of the workspace holding the same file is not written there', async () => {
    fs.mkdirSync(inside('sub'));
    fs.writeFileSync(inside('sub/a.txt'), 'same\n');
    fs.mkdirSync(outside('sub'));
    fs.writeFileSync(outside('sub/a.txt'), 'same\n');
    const interaction = approvingAfter(() => {
      fs.renameSync(inside('sub'), inside('sub.old'));
      fs.symlinkSync(outside('sub'), inside('sub'));
    });
    const ctx = makeToolContext({ workspace: createNodeWorkspace(workspaceDir.path), interaction });
    await assert.rejects(editFileTool.run(ctx, { path: 'sub/a.txt', edits: [{ search: 'same', replace: 'edited' }] }, neverAborted));
    assert.equal(read(outside('sub/a.txt')), 'same\n');
    assert.equal(read(inside('sub.old/a.txt')), 'same\n');
  });

  it('attack: a file replaced by a hard link to a file out of the workspace with the same bytes leaves the file out there as it was', async () => {
    fs.writeFileSync(inside('a.txt'), 'same\n');
    fs.writeFileSync(outside('target.txt'), 'same\n');
    const interaction = approvingAfter(() => {
      fs.rmSync(inside('a.txt'));
      fs.linkSync(outside('target.txt'), inside('a.txt'));
    });
    const ctx = makeToolContext({ workspace: createNodeWorkspace(workspaceDir.path), interaction });
    await assert.rejects(writeFileTool.run(ctx, { path: 'a.txt', content: 'written\n' }, neverAborted), /a\.txt is a hard link/);
    assert.equal(read(outside('target.txt')), 'same\n');
  });

  it('attack: a file renamed while its edit is asked about is edited under neither name', async () => {
    fs.writeFileSync(inside('a.txt'), 'version = 1\n');
    const interaction = approvingAfter(() => fs.renameSync(inside('a.txt'), inside('b.txt')));
    const ctx = makeToolContext({ workspace: createNodeWorkspace(workspaceDir.path), interaction });
    await assert.rejects(editFileTool.run(ctx, { path: 'a.txt', edits: [{ search: 'version = 1', replace: 'version = 2' }] }, neverAborted), /does not exist/);
    assert.equal(fs.existsSync(inside('a.txt')), false);
    assert.equal(read(inside('b.txt')), 'version = 1\n');
  });

  it('attack: a file renamed and a link to its new name put in its place is not written through the link', async () => {
    fs.writeFileSync(inside('a.txt'), 'same\n');
    const interaction = approvingAfter(() => {
      fs.renameSync(inside('a.txt'), inside('b.txt'));
      fs.symlinkSync('b.txt', inside('a.txt'));
    });
    const ctx = makeToolContext({ workspace: createNodeWorkspace(workspaceDir.path), interaction });
    await assert.rejects(writeFileTool.run(ctx, { path: 'a.txt', content: 'written\n' }, neverAborted), /now leads to b\.txt/);
    assert.equal(read(inside('b.txt')), 'same\n');
  });

  it('attack: a file deleted while its write is asked about is asked about again as a new file, then written as shown', async () => {
    fs.writeFileSync(inside('a.txt'), 'one\r\ntwo\r\n');
    const interaction = approvingAfter(() => fs.rmSync(inside('a.txt')));
    const ctx = makeToolContext({ workspace: createNodeWorkspace(workspaceDir.path), interaction });
    await writeFileTool.run(ctx, { path: 'a.txt', content: 'uno\ndos\n' }, neverAborted);
    assert.deepEqual(shown(interaction), ['one\r\ntwo\r\n', undefined]);
    const last = interaction.approvals().at(-1);
    assert.ok(last?.kind === 'file');
    assert.equal(read(inside('a.txt')), last.proposal.proposedText);
  });

  it('attack: a file changed while its deletion is asked about is asked about again, and kept when that is refused', async () => {
    fs.writeFileSync(inside('a.txt'), 'old\n');
    const interaction = approvingAfter(() => fs.writeFileSync(inside('a.txt'), 'the user’s new work\n'), [{ approved: true }, { approved: false, reason: 'keep it' }]);
    const ctx = makeToolContext({ workspace: createNodeWorkspace(workspaceDir.path), interaction });
    await assert.rejects(deleteFileTool.run(ctx, { path: 'a.txt' }, neverAborted), /keep it/);
    assert.deepEqual(shown(interaction), ['old\n', 'the user’s new work\n']);
    assert.equal(read(inside('a.txt')), 'the user’s new work\n');
  });

  it('attack: a file replaced by an empty directory while its deletion is asked about leaves the directory', async () => {
    fs.writeFileSync(inside('a.txt'), 'old\n');
    const interaction = approvingAfter(() => {
      fs.rmSync(inside('a.txt'));
      fs.mkdirSync(inside('a.txt'));
    });
    const ctx = makeToolContext({ workspace: createNodeWorkspace(workspaceDir.path), interaction });
    await assert.rejects(deleteFileTool.run(ctx, { path: 'a.txt' }, neverAborted));
    assert.equal(fs.statSync(inside('a.txt')).isDirectory(), true);
  });

  it('attack: a file emptied while its edit is asked about is not written over with the edit of what it held', async () => {
    fs.writeFileSync(inside('a.txt'), 'keep\nchange\n');
    const interaction = approvingAfter(() => fs.writeFileSync(inside('a.txt'), ''));
    const ctx = makeToolContext({ workspace: createNodeWorkspace(workspaceDir.path), interaction });
    await assert.rejects(editFileTool.run(ctx, { path: 'a.txt', edits: [{ search: 'change', replace: 'changed' }] }, neverAborted), /not found/);
    assert.equal(read(inside('a.txt')), '');
  });
});
