import * as vscode from 'vscode';
import type { CodeLocation, CodeNavigation, CodePosition, CodeSymbol } from '../core/editorPorts';
import { workspaceRelative } from './workspaceRelative';

/**
 * The `CodeNavigation` port over VS Code's language-feature commands
 * (`vscode.executeWorkspaceSymbolProvider`, `vscode.executeReferenceProvider`,
 * `vscode.executeDefinitionProvider`) for the workspace folder `root` gives at each call.
 * A result outside the folder is given as `{ outside }` (its package only); symbols outside
 * it are left out. A symbol's name is without the "()" TypeScript adds to functions, and its
 * column is that of its name in its declaration's first line.
 */
export function createVscodeCodeNavigation(root: () => vscode.Uri | undefined): CodeNavigation {
  const folder = (): vscode.Uri => {
    const uri = root();
    if (!uri) throw new Error(vscode.l10n.t('Open a folder first: the language features work on the open workspace folder.'));
    return uri;
  };
  return {
    async symbols(query, limit, signal) {
      const base = folder();
      const found = (await vscode.commands.executeCommand<vscode.SymbolInformation[] | undefined>('vscode.executeWorkspaceSymbolProvider', query)) ?? [];
      signal.throwIfAborted();
      const lines = new LineReader();
      const symbols: CodeSymbol[] = [];
      for (const symbol of found) {
        if (symbols.length >= limit) break;
        const place = workspaceRelative(base, symbol.location.uri);
        if (!('path' in place)) continue;
        const start = symbol.location.range.start;
        const text = await lines.line(symbol.location.uri, start.line);
        // TypeScript names a function "name()": the name alone is what a caller looks for and what the line shows.
        const name = symbol.name.replace(/^([^(]*)\(.*\)$/, '$1') || symbol.name;
        const at = text.indexOf(name, start.character);
        symbols.push({
          name,
          kind: vscode.SymbolKind[symbol.kind].toLowerCase(),
          ...(symbol.containerName ? { container: symbol.containerName } : {}),
          path: place.path,
          line: start.line + 1,
          column: (at >= 0 ? at : start.character) + 1,
          text: text.trim(),
        });
      }
      return symbols;
    },
    async references(at, limit, signal) {
      const base = folder();
      const found =
        (await vscode.commands.executeCommand<vscode.Location[] | undefined>('vscode.executeReferenceProvider', uriOf(base, at), positionOf(at))) ?? [];
      signal.throwIfAborted();
      return { locations: await locationsOf(base, found.slice(0, limit)), total: found.length };
    },
    async definitions(at, signal) {
      const base = folder();
      const found =
        (await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[] | undefined>(
          'vscode.executeDefinitionProvider',
          uriOf(base, at),
          positionOf(at),
        )) ?? [];
      signal.throwIfAborted();
      return locationsOf(
        base,
        found.map((entry) => ('targetUri' in entry ? new vscode.Location(entry.targetUri, entry.targetSelectionRange ?? entry.targetRange) : entry)),
      );
    },
  };
}

function uriOf(base: vscode.Uri, at: CodePosition): vscode.Uri {
  return vscode.Uri.joinPath(base, at.path);
}

function positionOf(at: CodePosition): vscode.Position {
  return new vscode.Position(at.line - 1, at.column - 1);
}

async function locationsOf(base: vscode.Uri, found: readonly vscode.Location[]): Promise<CodeLocation[]> {
  const lines = new LineReader();
  const locations: CodeLocation[] = [];
  const outside = new Set<string>();
  for (const location of found) {
    const place = workspaceRelative(base, location.uri);
    if ('outside' in place) {
      // One entry per package: the places inside it are not shown.
      if (!outside.has(place.outside)) locations.push(place);
      outside.add(place.outside);
      continue;
    }
    const start = location.range.start;
    locations.push({ path: place.path, line: start.line + 1, column: start.character + 1, text: (await lines.line(location.uri, start.line)).trim() });
  }
  return locations;
}

/** Lines of documents, each document opened once. */
class LineReader {
  private readonly documents = new Map<string, Promise<vscode.TextDocument | undefined>>();

  async line(uri: vscode.Uri, line: number): Promise<string> {
    const key = uri.toString();
    let document = this.documents.get(key);
    if (!document) {
      document = Promise.resolve(vscode.workspace.openTextDocument(uri)).then(
        (opened) => opened,
        () => undefined,
      );
      this.documents.set(key, document);
    }
    const opened = await document;
    return opened && line < opened.lineCount ? opened.lineAt(line).text : '';
  }
}
