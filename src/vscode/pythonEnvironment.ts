import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SelectedPythonEnvironment } from '../node/projectEnvironment';

/** The Python extension, whose API says which environment the user selected. */
export const pythonExtensionId = 'ms-python.python';

/** How long the Python extension may take to start before commands run without its environment, in ms. */
const activationWaitMs = 5000;

/**
 * The Python environment the Python extension (`ms-python.python`) selected for `folder`,
 * as VS Code's terminals activate it (`extensions`: VS Code's): its folder and the folder of its `python`, or
 * `undefined` when the extension is not installed, does not start within 5 s, exposes no
 * environments API, or selected a global interpreter (no environment: putting its folder,
 * such as `/usr/bin`, first on PATH would change every other program). Never throws.
 */
export async function selectedPythonEnvironment(
  folder: vscode.Uri | undefined,
  extensions: Pick<typeof vscode.extensions, 'getExtension'> = vscode.extensions,
): Promise<SelectedPythonEnvironment | undefined> {
  const extension = extensions.getExtension(pythonExtensionId);
  if (extension === undefined) return undefined;
  try {
    const exports: unknown = extension.isActive ? extension.exports : await withinTime(Promise.resolve(extension.activate()), activationWaitMs);
    const environments = field(exports, 'environments');
    const active = call(environments, 'getActiveEnvironmentPath', folder);
    if (active === undefined) return undefined;
    const resolved: unknown = await withinTime(Promise.resolve(call(environments, 'resolveEnvironment', active)), activationWaitMs);
    const executable = uriPath(field(field(resolved, 'executable'), 'uri'));
    const environment = field(resolved, 'environment');
    const prefix = uriPath(field(environment, 'folderUri'));
    if (executable === undefined || prefix === undefined || !path.isAbsolute(executable) || !path.isAbsolute(prefix)) return undefined;
    return { prefix, bin: path.dirname(executable), ...(field(environment, 'type') === 'Conda' ? { conda: true } : {}) };
  } catch {
    return undefined;
  }
}

// The extension's API objects may keep their values behind getters and methods on prototypes: read through the object.
function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}

function call(owner: unknown, name: string, ...args: unknown[]): unknown {
  const method = field(owner, name);
  return typeof method === 'function' ? (method as (...args: unknown[]) => unknown).apply(owner, args) : undefined;
}

/** The file path of a `vscode.Uri` (of whichever extension made it), or `undefined` for anything else. */
function uriPath(value: unknown): string | undefined {
  const fsPath = field(value, 'fsPath');
  return field(value, 'scheme') === 'file' && typeof fsPath === 'string' ? fsPath : undefined;
}

async function withinTime<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
