import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createConfinedWorkspace } from '../../../src/core/workspace/confinedWorkspace';
import { memoryChangeLocks } from '../../fakes/memoryChangeLocks';
import { MemoryRawFs, stillClock } from '../../fakes/memoryRawFs';
import { requireWithVscode } from '../../fakes/requireWithVscode';
import type * as VscodeWorkspaceFsModule from '../../../src/vscode/vscodeWorkspaceFs';

// VS Code's file service as it writes on a local disk: a new file with the default permission bits, never synced.
const { createVscodeDirectoryFs } = requireWithVscode<typeof VscodeWorkspaceFsModule>(require.resolve('../../../src/vscode/vscodeWorkspaceFs'), {
  Uri: { file: (fsPath: string) => ({ scheme: 'file', fsPath, toString: () => `file://${fsPath}` }) },
  workspace: {
    fs: {
      writeFile: async (uri: { fsPath: string }, bytes: Uint8Array) => fs.writeFileSync(uri.fsPath, bytes),
      createDirectory: async (uri: { fsPath: string }) => fs.mkdirSync(uri.fsPath),
      delete: async (uri: { fsPath: string }) => fs.rmSync(uri.fsPath),
    },
  },
});

// Outside attack (2026-12-07): in the editor every change is written to a new file and renamed over the old one, but the
// new file got the file service's default bits: an edit of an executable script left it not executable
// (`./deploy.sh`: permission denied, and `git diff` showing `old mode 100755 / new mode 100644`), and Undo of a deleted
// script brought it back without them.
describe('the editor workspace keeps a file\'s permission bits across a change (attack)', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tp-vsfs-')));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const workspace = () => createConfinedWorkspace(createVscodeDirectoryFs(dir), { root: dir, clock: stillClock, changeLocks: memoryChangeLocks(new MemoryRawFs('/')) });

  it('an edited executable script stays executable, and a file brought back gets the bits it is given', async () => {
    fs.writeFileSync(path.join(dir, 'deploy.sh'), '#!/bin/sh\necho old\n', { mode: 0o750 });
    fs.chmodSync(path.join(dir, 'deploy.sh'), 0o750);
    const files = workspace();
    await files.writeText('deploy.sh', '#!/bin/sh\necho new\n');
    assert.equal(fs.readFileSync(path.join(dir, 'deploy.sh'), 'utf8'), '#!/bin/sh\necho new\n');
    assert.equal(fs.statSync(path.join(dir, 'deploy.sh')).mode & 0o777, 0o750);
    await files.writeText('tools/run.sh', '#!/bin/sh\n', undefined, { mode: 0o755 });
    assert.equal(fs.statSync(path.join(dir, 'tools/run.sh')).mode & 0o777, 0o755);
    assert.deepEqual(fs.readdirSync(path.join(dir, '.task-planner/tmp')), ['.gitignore']);
  });
});
