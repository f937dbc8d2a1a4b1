import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { editFileTool } from '../../../../src/core/tools/editFileTool';
import { writeFileTool } from '../../../../src/core/tools/writeFileTool';
import { isWorkspaceError } from '../../../../src/core/workspace/workspaceError';
import type { WorkspaceFs } from '../../../../src/core/workspacePorts';
import { createNodeWorkspace } from '../../../../src/node/nodeWorkspace';
import { ScriptedInteraction } from '../../../fakes/scriptedInteraction';
import { makeToolContext, neverAborted } from '../../../fakes/toolContext';

// An outside attack: a committed `notes.txt -> data.txt` passes every check of a change (where it leads: not withheld,
// not protected; its lock is data.txt's), and a racing local process points it at `.env` before the change reads or
// writes. The race is won here every time, at each point it can be run: right after the check, and between the read and
// the write. The change must stay on the file it was checked for: nothing of `.env` shown, nothing written into it.
describe('a change through a link retargeted after its checks', () => {
  let root: string;
  const secret = 'DB_PASSWORD=hunter2\n';
  const data = 'DB_PASSWORD=changeme\n';
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-retargeted-change-'));
    fs.writeFileSync(path.join(root, '.env'), secret);
    // The edit's search text is in both files: an edit computed on .env would apply.
    fs.writeFileSync(path.join(root, 'data.txt'), data);
    fs.writeFileSync(path.join(root, 'other.txt'), 'other data\n');
    fs.symlinkSync('data.txt', path.join(root, 'notes.txt'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  const relink = (target: string) => (): void => {
    fs.rmSync(path.join(root, 'notes.txt'));
    fs.symlinkSync(target, path.join(root, 'notes.txt'));
  };
  /** The node workspace, where `change` is made once: right after `notes.txt` is first located, or before the first write. */
  function racing(when: 'afterCheck' | 'beforeWrite', change: () => void): WorkspaceFs {
    const node = createNodeWorkspace(root);
    const locate = node.locate?.bind(node) ?? assert.fail('the node workspace locates paths');
    let raced = false;
    const race = (): void => {
      if (raced) return;
      raced = true;
      change();
    };
    return {
      ...node,
      locate: async (input, signal) => {
        const at = await locate(input, signal);
        if (when === 'afterCheck' && input === 'notes.txt') race();
        return at;
      },
      writeText: async (input, text, signal, options) => {
        if (when === 'beforeWrite') race();
        return node.writeText(input, text, signal, options);
      },
    };
  }
  const read = (file: string): string => fs.readFileSync(path.join(root, file), 'utf8');

  const changes = [
    { tool: 'write_file', run: (workspace: WorkspaceFs, interaction: ScriptedInteraction) =>
      writeFileTool.run(makeToolContext({ workspace, interaction }), { path: 'notes.txt', content: 'API_URL=https://evil.example\n' }, neverAborted) },
    { tool: 'edit_file', run: (workspace: WorkspaceFs, interaction: ScriptedInteraction) =>
      editFileTool.run(makeToolContext({ workspace, interaction }), { path: 'notes.txt', edits: [{ search: 'DB_PASSWORD', replace: 'DB_PASS' }] }, neverAborted) },
  ];

  for (const { tool, run } of changes) {
    for (const when of ['afterCheck', 'beforeWrite'] as const) {
      it(`${tool}: retargeted at .env ${when === 'afterCheck' ? 'right after the check' : 'between the read and the write'}: refused, .env untouched and unshown`, async () => {
        const interaction = ScriptedInteraction.approvingAll();
        await assert.rejects(run(racing(when, relink('.env')), interaction), (error: unknown) => {
          assert.ok(isWorkspaceError(error, 'changed'), String(error));
          assert.doesNotMatch(String(error), /hunter2/);
          return true;
        });
        assert.equal(read('.env'), secret);
        assert.equal(read('data.txt'), data);
        assert.doesNotMatch(JSON.stringify(interaction.requests), /hunter2/, 'no question showed what .env holds');
      });
    }
  }

  it('write_file: retargeted at another file between the read and the write: refused, that file untouched (its lock was not held)', async () => {
    await assert.rejects(
      writeFileTool.run(makeToolContext({ workspace: racing('beforeWrite', relink('other.txt')) }), { path: 'notes.txt', content: 'new\n' }, neverAborted),
      (error: unknown) => {
        assert.ok(isWorkspaceError(error, 'changed'), String(error));
        assert.match(String(error), /notes\.txt now leads to other\.txt, not to data\.txt as when this change was checked .*nothing was written/);
        return true;
      },
    );
    assert.equal(read('other.txt'), 'other data\n');
    assert.equal(read('data.txt'), data);
  });

  it('a new file that becomes a link to .env after the check is not written through', async () => {
    const workspace = racing('afterCheck', () => undefined);
    const locate = workspace.locate?.bind(workspace) ?? assert.fail('locates');
    const planted: WorkspaceFs = {
      ...workspace,
      locate: async (input, signal) => {
        const at = await locate(input, signal);
        if (input === 'fresh.txt' && !fs.existsSync(path.join(root, 'fresh.txt'))) fs.symlinkSync('.env', path.join(root, 'fresh.txt'));
        return at;
      },
    };
    await assert.rejects(writeFileTool.run(makeToolContext({ workspace: planted }), { path: 'fresh.txt', content: 'x\n' }, neverAborted), (error: unknown) =>
      isWorkspaceError(error, 'changed'),
    );
    assert.equal(read('.env'), secret);
  });

  it('a link that still leads where it was checked is written through (the control)', async () => {
    for (const { run } of changes.slice(0, 1)) await run(racing('beforeWrite', () => undefined), ScriptedInteraction.approvingAll());
    assert.equal(read('data.txt'), 'API_URL=https://evil.example\n');
    assert.equal(fs.readlinkSync(path.join(root, 'notes.txt')), 'data.txt');
  });
});
