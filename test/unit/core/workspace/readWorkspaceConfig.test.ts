import assert from 'node:assert/strict';
import type { WorkspaceFs } from '../../../../src/core/workspacePorts';
import { readWorkspaceConfig, WorkspaceConfigError, type WorkspaceConfigProblem } from '../../../../src/core/workspace/readWorkspaceConfig';
import { PathRefusedError } from '../../../../src/core/workspace/resolveInRoot';
import { WorkspaceError } from '../../../../src/core/workspace/workspaceError';
import { confinedMemoryWorkspace } from '../../../fakes/memoryRawFs';

const read = { label: 'The MCP configuration .vscode/mcp.json', maxBytes: 100 };
const refused = (problem: WorkspaceConfigProblem, message: RegExp) => (error: unknown): boolean =>
  error instanceof WorkspaceConfigError && error.problem === problem && message.test(error.message);

describe('readWorkspaceConfig', () => {
  it('reads a regular file inside the workspace, also through a link inside it; nothing there is undefined', async () => {
    const { raw, workspace } = confinedMemoryWorkspace();
    raw.file('/ws/real/mcp.json', '{"servers":{}}');
    raw.put('/ws/.vscode', { kind: 'link', target: '/ws/real' });
    assert.equal(await readWorkspaceConfig(workspace, '.vscode/mcp.json', read), '{"servers":{}}');
    assert.equal(await readWorkspaceConfig(workspace, 'missing/mcp.json', read), undefined);
    assert.equal(await readWorkspaceConfig(workspace, 'real/none.json', read), undefined);
  });

  it('refuses the file, or a folder on its way, leading outside through a link, naming the file', async () => {
    const { raw, workspace } = confinedMemoryWorkspace();
    raw.file('/outside/mcp.json', '{"servers":{"evil":{"command":"evil"}}}');
    raw.put('/ws/.vscode/mcp.json', { kind: 'link', target: '/outside/mcp.json' });
    raw.put('/ws/sub', { kind: 'link', target: '/outside' });
    raw.put('/ws/zero.json', { kind: 'link', target: '/dev/zero' });
    const outside = refused('outside', /^The MCP configuration \.vscode\/mcp\.json leads outside the workspace \/ws through a symbolic link, so it was not read/);
    await assert.rejects(readWorkspaceConfig(workspace, '.vscode/mcp.json', read), outside);
    await assert.rejects(readWorkspaceConfig(workspace, 'sub/mcp.json', read), outside);
    await assert.rejects(readWorkspaceConfig(workspace, 'zero.json', read), outside);
  });

  it('refuses a device, pipe, socket or folder, and a file over the limit, before reading it', async () => {
    const { raw, workspace } = confinedMemoryWorkspace();
    raw.put('/ws/pipe.json', { kind: 'other' });
    raw.file('/ws/folder/x', 'x');
    raw.file('/ws/big.json', 'x'.repeat(101));
    raw.file('/ws/fits.json', 'x'.repeat(100));
    const notFile = refused('not_file', /^The MCP configuration \.vscode\/mcp\.json is not a regular file \(it is a folder, a device, a named pipe or a socket\)/);
    await assert.rejects(readWorkspaceConfig(workspace, 'pipe.json', read), notFile);
    await assert.rejects(readWorkspaceConfig(workspace, 'folder', read), notFile);
    await assert.rejects(
      readWorkspaceConfig(workspace, 'big.json', read),
      refused('too_large', /^The MCP configuration \.vscode\/mcp\.json is larger than 100 bytes, the most read of such a file, so it was not read\. Make it smaller\.$/),
    );
    assert.equal(await readWorkspaceConfig(workspace, 'fits.json', read), 'x'.repeat(100));
  });

  it('names the file for any other failure (a hard link, a permission), and lets a cancellation through', async () => {
    const { raw, workspace } = confinedMemoryWorkspace();
    raw.file('/ws/hard.json', '{}', { links: 2 });
    await assert.rejects(readWorkspaceConfig(workspace, 'hard.json', read), refused('unreadable', /^The MCP configuration \.vscode\/mcp\.json cannot be read: hard\.json is a hard link/));
    const failing = (error: unknown): WorkspaceFs => ({ ...workspace, readText: () => Promise.reject(error) });
    const denied = new WorkspaceError('no_permission', 'x', 'x cannot be read: permission denied.');
    await assert.rejects(readWorkspaceConfig(failing(denied), 'x', read), refused('unreadable', /cannot be read: x cannot be read: permission denied\.$/));
    const controller = new AbortController();
    controller.abort(new Error('cancelled'));
    await assert.rejects(readWorkspaceConfig(failing(denied), 'x', { ...read, signal: controller.signal }), /^Error: cancelled$/);
  });
  it('names its error and keeps the failure that refused the file as its cause, for every refusal', async () => {
    const { raw, workspace } = confinedMemoryWorkspace();
    raw.put('/ws/out.json', { kind: 'link', target: '/outside/mcp.json' });
    raw.put('/ws/pipe.json', { kind: 'other' });
    raw.file('/ws/big.json', 'x'.repeat(101));
    const denied = new WorkspaceError('no_permission', 'x', 'x cannot be read: permission denied.');
    const failing: WorkspaceFs = { ...workspace, readText: () => Promise.reject(denied) };
    const causes = async (run: Promise<unknown>, problem: WorkspaceConfigProblem, cause: (error: unknown) => boolean): Promise<void> => {
      await assert.rejects(run, (error: unknown) => {
        assert.ok(error instanceof WorkspaceConfigError);
        assert.equal(error.name, 'WorkspaceConfigError');
        assert.equal(error.problem, problem);
        assert.ok(cause(error.cause), `${problem}: unexpected cause ${String(error.cause)}`);
        return true;
      });
    };
    await causes(readWorkspaceConfig(workspace, 'out.json', read), 'outside', (cause) => cause instanceof PathRefusedError);
    const workspaceError = (code: string) => (cause: unknown): boolean => cause instanceof WorkspaceError && cause.code === code;
    await causes(readWorkspaceConfig(workspace, 'pipe.json', read), 'not_file', workspaceError('not_regular'));
    await causes(readWorkspaceConfig(workspace, 'big.json', read), 'too_large', workspaceError('too_large'));
    await causes(readWorkspaceConfig(failing, 'x', read), 'unreadable', (cause) => cause === denied);
  });
});
