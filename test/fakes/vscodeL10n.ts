import Module from 'node:module';

/**
 * The parts of the `vscode` module that editor-free code in src/vscode uses at run time:
 * `l10n.t`, answering as VS Code does without a translation (the English message with `{0}`,
 * `{1}`… replaced by the arguments), and the values of `QuickPickItemKind`. Importing this
 * file first lets a unit test in Node load such a module; any other use of `vscode` there
 * fails loudly.
 */
export const fakeL10n = {
  t(message: string, ...args: (string | number | boolean)[]): string {
    return message.replace(/\{(\d+)\}/g, (whole, index: string) => {
      const value = args[Number(index)];
      return value === undefined ? whole : String(value);
    });
  },
};

/** `vscode.QuickPickItemKind`, whose values VS Code gives them, for modules that build QuickPick items. */
export const fakeQuickPickItemKind = { Separator: -1, Default: 0 };

const moduleWithLoad = Module as unknown as { _load: (request: string, parent: unknown, isMain: boolean) => unknown };
const load = moduleWithLoad._load;
moduleWithLoad._load = function (request, parent, isMain) {
  return request === 'vscode' ? { l10n: fakeL10n, QuickPickItemKind: fakeQuickPickItemKind } : load.call(this, request, parent, isMain);
};
