import assert from 'node:assert/strict';
import '../../fakes/vscodeL10n';
import { pythonExtensionId, selectedPythonEnvironment } from '../../../src/vscode/pythonEnvironment';

const fileUri = (fsPath: string) => ({ scheme: 'file', fsPath });

/** VS Code's extensions as the function reads them, with the Python extension's API answering `resolved` (or throwing it). */
function extensionsWith(resolved: unknown, options: { active?: boolean; installed?: boolean } = {}) {
  const asked: unknown[] = [];
  const api = {
    environments: {
      getActiveEnvironmentPath: (resource: unknown) => {
        asked.push(resource);
        return { id: 'env', path: '/envs/proj/bin/python' };
      },
      resolveEnvironment: async () => {
        if (resolved instanceof Error) throw resolved;
        return resolved;
      },
    },
  };
  const extension = { isActive: options.active ?? true, exports: options.active === false ? undefined : api, activate: async () => api };
  return {
    asked,
    getExtension: (id: string) => (id === pythonExtensionId && options.installed !== false ? extension : undefined) as never,
  };
}

describe('selectedPythonEnvironment', () => {
  const folder = fileUri('/ws') as never;

  it("is the Python extension's active environment for the folder: its prefix and the folder of its python", async () => {
    const extensions = extensionsWith({
      executable: { uri: fileUri('/envs/proj/bin/python') },
      environment: { type: 'VirtualEnvironment', folderUri: fileUri('/envs/proj') },
    });
    assert.deepEqual(await selectedPythonEnvironment(folder, extensions), { prefix: '/envs/proj', bin: '/envs/proj/bin' });
    assert.deepEqual(extensions.asked, [folder]);
    const inactive = extensionsWith(
      { executable: { uri: fileUri('/envs/proj/bin/python') }, environment: { type: 'VirtualEnvironment', folderUri: fileUri('/envs/proj') } },
      { active: false },
    );
    assert.deepEqual(await selectedPythonEnvironment(folder, inactive), { prefix: '/envs/proj', bin: '/envs/proj/bin' }, 'it starts the extension');
  });

  it('marks a conda environment', async () => {
    const conda = extensionsWith({
      executable: { uri: fileUri('/conda/envs/x/bin/python') },
      environment: { type: 'Conda', folderUri: fileUri('/conda/envs/x') },
    });
    assert.deepEqual(await selectedPythonEnvironment(folder, conda), { prefix: '/conda/envs/x', bin: '/conda/envs/x/bin', conda: true });
  });

  it('is nothing for a global interpreter, a remote or relative path, a failing API, or without the extension', async () => {
    const global = extensionsWith({ executable: { uri: fileUri('/usr/bin/python3') }, environment: undefined });
    assert.equal(await selectedPythonEnvironment(folder, global), undefined, '/usr/bin first on PATH would change every other program');
    const remote = extensionsWith({ executable: { uri: { scheme: 'vscode-remote', fsPath: '/e/bin/python' } }, environment: { folderUri: fileUri('/e') } });
    assert.equal(await selectedPythonEnvironment(folder, remote), undefined);
    const relative = extensionsWith({ executable: { uri: fileUri('env/bin/python') }, environment: { folderUri: fileUri('env') } });
    assert.equal(await selectedPythonEnvironment(folder, relative), undefined);
    assert.equal(await selectedPythonEnvironment(folder, extensionsWith(new Error('boom'))), undefined);
    assert.equal(await selectedPythonEnvironment(folder, extensionsWith(undefined, { installed: false })), undefined);
  });
});
