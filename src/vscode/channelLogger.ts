import type * as vscode from 'vscode';
import type { Logger } from '../core/servicePorts';
import { capText, textCaps } from '../core/text/capText';
import { visibleControls } from '../shared/visibleCharacters';

/** The core's `Logger` writing to an output channel at the same levels; structured data is left out of the channel. */
export function channelLogger(log: vscode.LogOutputChannel): Logger {
  return {
    debug: (message) => log.debug(message),
    info: (message) => log.info(message),
    warn: (message) => log.warn(message),
    error: (message) => log.error(message),
  };
}

/**
 * `message` as one entry of the output channel: at most `textCaps.message` characters (the cut said), every control,
 * direction control and invisible character as its visible `\uXXXX` (ESC among them: no colour, link or clipboard
 * sequence), and each of its further lines indented, so a model's, a file's or a tool's text quoted in it can never
 * print a line that reads as the channel's own (`2026-01-01 10:00:00.000 [info] …`).
 */
export function shownLogText(message: string): string {
  return visibleControls(capText(message, textCaps.message)).replace(/\n/g, '\n    ');
}

const writers = new Set(['trace', 'debug', 'info', 'warn', 'error', 'append', 'appendLine']);

/**
 * `channel` with every message it is given passed through `shownLogText` first (an `Error` by its stack or message):
 * the one door to the output channels, since their messages quote plans, models, files, commands and MCP servers.
 */
export function shownLogChannel(channel: vscode.LogOutputChannel): vscode.LogOutputChannel {
  return new Proxy(channel, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property);
      if (typeof property !== 'string' || typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      if (!writers.has(property)) return method.bind(target);
      return (message: unknown, ...args: unknown[]) =>
        method.call(target, shownLogText(message instanceof Error ? (message.stack ?? message.message) : String(message)), ...args);
    },
  });
}
