import type * as vscode from 'vscode';
import type { Logger } from '../core/servicePorts';

/** The core's `Logger` writing to an output channel at the same levels; structured data is left out of the channel. */
export function channelLogger(log: vscode.LogOutputChannel): Logger {
  return {
    debug: (message) => log.debug(message),
    info: (message) => log.info(message),
    warn: (message) => log.warn(message),
    error: (message) => log.error(message),
  };
}
