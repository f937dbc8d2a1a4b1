import { z } from 'zod';
import { visibleControls } from '../../shared/visibleCharacters';
import type { CodeLocation, CodeNavigation, CodePosition, CodeSymbol } from '../editorPorts';
import { oneLine } from '../text/oneLine';
import { holdsPrivateKey } from '../workspace/credentialFiles';
import { workspacePath } from './fileChange';
import { refuseWithheldRead, withheldReason } from './withheldFiles';
import type { Tool, ToolContext } from './tool';

/** Most results one call returns (and the default); most characters of a line's text or a name. */
export const codeNavigationLimits = { maxResults: 500, defaultResults: 50, maxTextChars: 300 } as const;

const maxResults = z
  .int()
  .min(1)
  .max(codeNavigationLimits.maxResults)
  .optional()
  .describe(`Most results to return (default ${codeNavigationLimits.defaultResults}).`);

const symbolsInput = z.strictObject({
  query: z.string().trim().min(1).max(200).describe('The name or part of the name of a function, class, variable…'),
  maxResults,
});

const positionFields = {
  path: z.string().min(1).optional().describe('Workspace-relative file of the symbol (with line and column).'),
  line: z.int().min(1).optional().describe('1-based line of the symbol in path.'),
  column: z.int().min(1).optional().describe('1-based column of a character of the symbol in path.'),
  symbol: z.string().trim().min(1).max(200).optional().describe("The symbol's name, instead of path, line and column."),
};

const onePosition = {
  check: (input: { path?: string | undefined; line?: number | undefined; column?: number | undefined; symbol?: string | undefined }): boolean =>
    (input.symbol !== undefined) !== (input.path !== undefined && input.line !== undefined && input.column !== undefined),
  message: 'Give either "symbol", or "path", "line" and "column" together.',
};

const positionInput = z.strictObject(positionFields).refine(onePosition.check, { message: onePosition.message });
const referencesInput = z.strictObject({ ...positionFields, maxResults }).refine(onePosition.check, { message: onePosition.message });

type PositionInput = z.infer<typeof positionInput>;

/**
 * `find_symbols`, `find_references` and `go_to_definition` over the editor's language
 * features, each effect `read`. A position is a file, line and column, or a symbol's name
 * (its best match among the workspace symbols: the same name first). Results are
 * workspace-relative paths with 1-based line and column and the line's text, bounded in
 * count and length, every control escaped; a place outside the workspace is named only by
 * its package (`{ outside }`).
 */
export function createCodeNavigationTools(navigation: CodeNavigation): Tool[] {
  const findSymbols: Tool<z.infer<typeof symbolsInput>, { symbols: CodeSymbol[] }> = {
    name: 'find_symbols',
    description:
      "Find functions, classes, methods, variables and types of the workspace by name (the editor's workspace symbol search): name, kind, container, path, line, column and the line's text.",
    inputSchema: symbolsInput,
    effects: 'read',
    async run(ctx, input, signal) {
      const symbols = await navigation.symbols(input.query, input.maxResults ?? codeNavigationLimits.defaultResults, signal);
      return { symbols: symbols.filter((symbol) => !kept(ctx, symbol.path)).map(safeSymbol) };
    },
  };
  const findReferences: Tool<z.infer<typeof referencesInput>, { locations: CodeLocation[]; total: number }> = {
    name: 'find_references',
    description:
      "Find where a symbol is used in the workspace (the editor's Find All References), given its file, line and column (1-based) or its name: path, line, column and the line's text of each use.",
    inputSchema: referencesInput,
    effects: 'read',
    async run(ctx, input, signal) {
      const at = await positionOf(ctx, navigation, input, signal);
      const found = await navigation.references(at, input.maxResults ?? codeNavigationLimits.defaultResults, signal);
      return { locations: found.locations.filter((location) => !('path' in location && kept(ctx, location.path))).map(safeLocation), total: found.total };
    },
  };
  const goToDefinition: Tool<PositionInput, { locations: CodeLocation[] }> = {
    name: 'go_to_definition',
    description:
      "Find where a symbol is defined (the editor's Go to Definition), given where it is used (file, line and column, 1-based) or its name. A definition outside the workspace (a library) is named by its package only.",
    inputSchema: positionInput,
    effects: 'read',
    async run(ctx, input, signal) {
      const at = await positionOf(ctx, navigation, input, signal);
      const locations = await navigation.definitions(at, signal);
      return { locations: locations.filter((location) => !('path' in location && kept(ctx, location.path))).map(safeLocation) };
    },
  };
  return [findSymbols, findReferences, goToDefinition] as Tool[];
}

async function positionOf(ctx: ToolContext, navigation: CodeNavigation, input: PositionInput, signal: AbortSignal): Promise<CodePosition> {
  if (input.symbol === undefined) {
    const path = workspacePath(ctx, input.path ?? '');
    // The line's text of each place comes back: a file kept from the model is not looked into.
    await refuseWithheldRead(ctx, path, input.path ?? '', signal);
    return { path, line: input.line ?? 1, column: input.column ?? 1 };
  }
  const name = input.symbol;
  const candidates = await navigation.symbols(name, codeNavigationLimits.defaultResults, signal);
  const best =
    candidates.find((symbol) => symbol.name === name) ?? candidates.find((symbol) => symbol.name.toLowerCase() === name.toLowerCase()) ?? candidates[0];
  if (!best)
    {throw new Error(
      `No symbol named "${visibleControls(oneLine(name, 200))}" in the workspace; use find_symbols to look for it, or give path, line and column.`,
    );}
  return { path: best.path, line: best.line, column: best.column };
}

/** Whether a place in `path` is left out: a file kept from the model (`withheldReason`); tells `ctx.withheld`. */
function kept(ctx: ToolContext, path: string): boolean {
  if (withheldReason(path) === undefined) return false;
  ctx.withheld?.(path);
  return true;
}

function safeText(text: string): string {
  // A key written into a source file (`const KEY = "-----BEGIN PRIVATE KEY-----…"`) is not given with its line.
  if (holdsPrivateKey(text)) return '(a line holding a private key, kept from the model)';
  return oneLine(visibleControls(text), codeNavigationLimits.maxTextChars);
}

function safeLocation(location: CodeLocation): CodeLocation {
  return 'outside' in location
    ? { outside: safeText(location.outside) }
    : { path: visibleControls(location.path), line: location.line, column: location.column, text: safeText(location.text) };
}

function safeSymbol(symbol: CodeSymbol): CodeSymbol {
  return {
    name: safeText(symbol.name),
    kind: safeText(symbol.kind),
    ...(symbol.container === undefined ? {} : { container: safeText(symbol.container) }),
    path: visibleControls(symbol.path),
    line: symbol.line,
    column: symbol.column,
    text: safeText(symbol.text),
  };
}
