import * as vscode from 'vscode';
import type { Tool } from '../core/tools/tool';
import { errorMessage } from '../shared/errorMessage';
import { loadRuntime } from './loadRuntime';

/** Most characters of a contributed tool's result handed to the step; most of its description shown to models. */
export const contributedToolLimits = { maxResultChars: 100_000, maxDescriptionChars: 2_000 } as const;

/** The prefix of every contributed tool's name in the registry. */
export const contributedToolPrefix = 'vscode__';

/** The tools other extensions contribute, kept current. */
export interface ContributedTools extends vscode.Disposable {
  /** The current tools the user chose, most relevant first (made on first call after each change of `vscode.lm.tools` or of the choice). */
  tools(): Tool[];
}

/**
 * The language-model tools other extensions contribute (`vscode.lm.tools`: Copilot's,
 * other extensions', MCP servers configured in VS Code), as registry tools named
 * `vscode__<name>` (see `prefixedToolNames`), effect `external`, their input checked
 * against their own JSON Schema. Only those `chosen()` names or patterns choose
 * (`taskPlanner.tools.extensionTools`), most relevant first, and never one
 * `deniedToolPatterns` refuses (VS Code's internal and chat-control tools, our own
 * `planning_*` tools): see `chooseExtensionTools`. Each call asks
 * the user first (VS Code shows its own confirmation only inside a chat session, and
 * `invokeTool` from a run has none), then runs through `vscode.lm.invokeTool`, cancelled
 * with the step; the result's text, JSON and text data parts become bounded text with
 * controls escaped. Follows changes of `vscode.lm.tools` (read at each `tools()` call).
 */
export function watchContributedTools(log: vscode.LogOutputChannel, chosen: () => readonly string[]): ContributedTools {
  if (typeof vscode.lm?.invokeTool !== 'function') return { tools: () => [], dispose: () => undefined };
  // The stable API has no event for a change of `vscode.lm.tools`; reading it is cheap, so each call compares.
  let made: { key: string; tools: Tool[] } | undefined;
  return {
    tools() {
      const patterns = chosen();
      // Nothing chosen (the default): nothing to make, and the runtime is not loaded for it.
      if (patterns.length === 0) return [];
      const key = JSON.stringify([patterns, vscode.lm.tools.map((tool) => [tool.name, tool.description, tool.inputSchema])]);
      if (made?.key !== key) made = { key, tools: makeTools(log, loadRuntime().chooseExtensionTools(vscode.lm.tools, patterns)) };
      return made.tools;
    },
    dispose: () => undefined,
  };
}

function makeTools(log: vscode.LogOutputChannel, offered: readonly vscode.LanguageModelToolInformation[]): Tool[] {
  const names = loadRuntime().prefixedToolNames(
    contributedToolPrefix,
    offered.map((tool) => tool.name),
  );
  return offered.map((info) => {
    const name = names.get(info.name) ?? contributedToolPrefix;
    const runtime = loadRuntime();
    const input = runtime.jsonSchemaInput(isObject(info.inputSchema) ? info.inputSchema : { type: 'object' });
    if (input.unusable !== undefined) {
      log.info(`The input schema of ${info.name} cannot be used to check its arguments (${input.unusable}); the tool checks them itself.`);
    }
    const tool: Tool<Record<string, unknown>, { text: string }> = {
      name,
      description: runtime.capText(`${info.description} (A tool of another VS Code extension, "${info.name}".)`, contributedToolLimits.maxDescriptionChars),
      inputSchema: input.inputSchema,
      parameters: input.parameters,
      effects: 'external',
      async run(ctx, args, signal) {
        const source = vscode.l10n.t('VS Code tool "{0}" of another extension', info.name);
        await runtime.requireToolCallApproval(
          ctx,
          { tool: name, source, input: args },
          vscode.l10n.t('calling {0}', name),
          signal,
        );
        const cancel = new vscode.CancellationTokenSource();
        const stop = (): void => cancel.cancel();
        signal.addEventListener('abort', stop, { once: true });
        try {
          const result = await vscode.lm.invokeTool(info.name, { input: args, toolInvocationToken: undefined }, cancel.token);
          signal.throwIfAborted();
          return { text: runtime.visibleControls(runtime.capText(resultText(result), contributedToolLimits.maxResultChars)) };
        } catch (error) {
          if (signal.aborted) throw signal.reason;
          throw new Error(vscode.l10n.t('The VS Code tool "{0}" failed: {1}', info.name, errorMessage(error)), { cause: error });
        } finally {
          signal.removeEventListener('abort', stop);
          cancel.dispose();
        }
      },
      resultText: (output) => (isObject(output) && typeof output.text === 'string' ? output.text : (JSON.stringify(output) ?? '')),
    };
    return tool;
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function resultText(result: vscode.LanguageModelToolResult): string {
  return result.content
    .map((part) => {
      if (part instanceof vscode.LanguageModelTextPart) return part.value;
      if (part instanceof vscode.LanguageModelPromptTsxPart) return JSON.stringify(part.value) ?? '';
      // LanguageModelDataPart (newer than the API version this extension declares), recognised by its shape.
      if (isObject(part) && typeof part.mimeType === 'string' && part.data instanceof Uint8Array) {
        const type = part.mimeType.toLowerCase();
        return type.startsWith('text/') || type.includes('json')
          ? new TextDecoder().decode(part.data)
          : `[${part.mimeType} data, ${part.data.byteLength} bytes]`;
      }
      return '';
    })
    .join('\n');
}
