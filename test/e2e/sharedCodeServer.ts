// One code-server for all the end-to-end suites of a mocha run, instead of one per suite: a server takes seconds to start
// and to stop on a loaded machine, and the suites run one after another. Suites that need the server started differently
// (workspace trust on, other extensions linked, another environment for the extension host) get one of their own, shared
// with any later suite that needs the same. What a window leaves behind is its own (see openDemoWorkbench).
import { closeSharedBrowser } from '../host/browser.cjs';
import { startCodeServer, type CodeServer } from '../host/codeServer.cjs';

/** What a server is started with, beyond the user settings (which each window sets anew: CodeServer.writeUserSettings). */
export interface SharedServerOptions {
  /** Keeps workspace trust on: a folder opens in Restricted Mode until trusted. */
  readonly workspaceTrust?: boolean;
  /** Extension folders linked into its extensions folder, Task Planner's first. */
  readonly linkExtensions: readonly string[];
  /** More environment variables for the server and its extension hosts. */
  readonly env?: Readonly<Record<string, string>>;
}

/** Started (or starting) servers by their options. */
const servers = new Map<string, Promise<CodeServer>>();

/**
 * The run's code-server started with `options`, starting it on first use. A server that failed to start is forgotten,
 * so the next suite tries again.
 */
export function sharedCodeServer(options: SharedServerOptions): Promise<CodeServer> {
  const key = JSON.stringify([options.workspaceTrust === true, options.linkExtensions, Object.entries(options.env ?? {}).sort()]);
  let server = servers.get(key);
  if (!server) {
    server = startCodeServer({ workspaceTrust: options.workspaceTrust === true, linkExtensions: [...options.linkExtensions], env: { ...options.env } });
    servers.set(key, server);
    server.catch(() => servers.delete(key));
  }
  return server;
}

/** Stops the shared servers and the shared chromium (a script's last step; a mocha run does it in its root hook below). */
export async function stopSharedHosts(): Promise<void> {
  const started = [...servers.values()];
  servers.clear();
  await Promise.all(started.map(async (server) => (await server.catch(() => undefined))?.stop()));
  await closeSharedBrowser();
}

// A root hook, registered when the first suite file imports this module: the servers outlive every suite. Outside mocha
// (test/e2e/readmeScreenshots.ts) there is none, and the script calls stopSharedHosts itself.
if (typeof after === 'function') after(stopSharedHosts);
