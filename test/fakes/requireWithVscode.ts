import Module from 'node:module';
import { resolve, sep } from 'node:path';
import { fakeL10n, fakeQuickPickItemKind } from './vscodeL10n';

const moduleWithLoad = Module as unknown as { _load: (request: string, parent: unknown, isMain: boolean) => unknown };
const editorCode = resolve(__dirname, '..', '..', 'src', 'vscode') + sep;

/**
 * Loads the module at `path` (absolute, or `require.resolve`d by the caller) with `vscode` answering `api` (over the l10n
 * fake's `l10n` and `QuickPickItemKind`). The editor code under src/vscode is loaded afresh, so a module another test
 * file of the same mocha worker loaded with the bare l10n fake does not keep that one; the loader is put back at once,
 * and what was loaded keeps `api`, which it reads at call time.
 */
export function requireWithVscode<T>(path: string, api: Readonly<Record<string, unknown>>): T {
  for (const cached of Object.keys(require.cache)) if (cached.startsWith(editorCode)) delete require.cache[cached];
  const load = moduleWithLoad._load;
  const vscode = { l10n: fakeL10n, QuickPickItemKind: fakeQuickPickItemKind, ...api };
  moduleWithLoad._load = function (request, parent, isMain) {
    return request === 'vscode' ? vscode : load.call(this, request, parent, isMain);
  };
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded while the fake `vscode` above is in place
    return require(path) as T;
  } finally {
    moduleWithLoad._load = load;
  }
}
