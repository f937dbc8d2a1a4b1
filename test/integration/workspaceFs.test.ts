// The WorkspaceFs contract (test/unit/conformance) run against the VS Code implementation inside the real host.
import assert from 'node:assert/strict';
import { linkSync, mkdtempSync, readdirSync, readFileSync, rmSync, mkdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { PathRefusedError } from '../../src/core/workspace/resolveInRoot';
import { WorkspaceError } from '../../src/core/workspace/workspaceError';
import { createVscodeWorkspaceFs } from '../../src/vscode/vscodeWorkspaceFs';
import { describeWorkspaceFsConformance } from '../unit/conformance/workspaceFsConformance';

const base = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';

describeWorkspaceFsConformance('vscode.workspace.fs in the extension host', async (files) => {
  const root = mkdtempSync(join(base, '.conformance-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return { workspace: createVscodeWorkspaceFs(vscode.Uri.file(root)), dispose: async () => rmSync(root, { recursive: true, force: true }) };
});

describe('vscode.workspace.fs workspace: links into .git, hard links, temporary files', () => {
  let root: string;
  let outside: string;
  beforeEach(() => {
    root = mkdtempSync(join(base, '.links-'));
    outside = mkdtempSync(join(tmpdir(), 'tp-outside-'));
    mkdirSync(join(root, '.git/hooks'), { recursive: true });
    writeFileSync(join(root, '.git/config'), '[core]\n');
    symlinkSync('.git', join(root, 'docs'));
    writeFileSync(join(outside, 'secret.txt'), 'SECRET');
    linkSync(join(outside, 'secret.txt'), join(root, 'hardlink.txt'));
  });
  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  it('refuses changes that lead into .git through a link', async () => {
    const workspace = createVscodeWorkspaceFs(vscode.Uri.file(root));
    await assert.rejects(workspace.writeText('docs/hooks/pre-commit', 'echo pwned'), (error: unknown) => error instanceof PathRefusedError && /\.git\/hooks\/pre-commit/.test(error.message));
    await assert.rejects(workspace.delete('docs/config'), PathRefusedError);
    await assert.rejects(workspace.createDirectory('docs/new'), PathRefusedError);
    assert.deepEqual(readdirSync(join(root, '.git')).sort(), ['config', 'hooks']);
    assert.deepEqual(readdirSync(join(root, '.git/hooks')), []);
    assert.equal(await workspace.locate?.('docs/hooks/pre-commit'), '.git/hooks/pre-commit');
  });

  it('refuses a hard-linked file unless allowed', async () => {
    const isHardLink = (error: unknown): boolean => error instanceof WorkspaceError && error.code === 'hard_link';
    await assert.rejects(createVscodeWorkspaceFs(vscode.Uri.file(root)).readText('hardlink.txt'), isHardLink);
    await assert.rejects(createVscodeWorkspaceFs(vscode.Uri.file(root)).writeText('hardlink.txt', 'changed'), isHardLink);
    assert.equal(await createVscodeWorkspaceFs(vscode.Uri.file(root), { allowHardLinks: true }).readText('hardlink.txt'), 'SECRET');
  });

  it('writes its temporary files where git does not show them, and removes stale ones', async () => {
    const workspace = createVscodeWorkspaceFs(vscode.Uri.file(root));
    await workspace.writeText('a.txt', 'a');
    const folder = join(root, '.task-planner/tmp');
    assert.deepEqual(readdirSync(folder), ['.gitignore']);
    const stale = join(folder, 'write-00112233445566aa');
    writeFileSync(stale, 'left by a crash');
    utimesSync(stale, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
    await createVscodeWorkspaceFs(vscode.Uri.file(root)).writeText('b.txt', 'b');
    assert.deepEqual(readdirSync(folder), ['.gitignore']);
    assert.equal(readFileSync(join(root, 'b.txt'), 'utf8'), 'b');
  });
});
