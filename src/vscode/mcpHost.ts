import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import type { McpConfig, McpServerConfig } from '../core/mcp/mcpConfig';
import { ServerLeases } from '../core/mcp/serverLeases';
import type { Tool } from '../core/tools/tool';
import type { McpServers } from '../node/mcpServers';
import { errorMessage } from '../shared/errorMessage';
import { loadRuntime } from './loadRuntime';
import type { RememberedToolCalls } from './rememberedToolCalls';
import { readSettings } from './settings';
import { McpStartProgress } from './mcpStartProgress';
import { showError, showInformation, showWarning, withProgress } from './notifications';
import { shownLine, withoutIcons } from './shownText';
import { shownLogChannel } from './channelLogger';

/** How long a changed mcp.json is left to settle before it is read for problems. */
const checkDelayMs = 300;

/**
 * The MCP servers of this window: the user's (`taskPlanner.mcp.servers`, a setting only the
 * user can set) and the workspace's (`.vscode/mcp.json` of each folder, its servers run in
 * that folder; the user's run in the first). Nothing starts
 * at activation: `ensureStarted` starts them once, with progress, when planning needs the
 * tool list. A workspace's server starts only in a trusted workspace and after the user
 * allowed it (its command line or URL named; remembered per workspace). A tool call asks
 * each time unless the user's `allowedTools` or an "Always allow in this workspace" answer
 * (`RememberedToolCalls`, forgotten from "MCP servers") allows it. Inputs are asked
 * once and kept in SecretStorage. A planning or run holds the servers it started with (`hold`) until it ends, so a
 * change of the configuration meanwhile applies from the next one and stops nothing it may call. The servers stop when
 * the window closes (`dispose`).
 */
export class McpHost implements vscode.Disposable {
  /** The started server sets: the current one, and those replaced that a planning or run still holds. */
  private readonly leases = new ServerLeases<McpServers>();
  private starting: Promise<void> | undefined;
  private readonly log = shownLogChannel(vscode.window.createOutputChannel('Task Planner MCP', { log: true }));
  /** Shown while a server connects, once every question about it was answered. */
  private readonly startProgress = new McpStartProgress((task) => void withProgress({ location: vscode.ProgressLocation.Notification }, task));

  private readonly subscriptions: vscode.Disposable[];
  /** One watcher of `.vscode/mcp.json` per workspace folder, made again when the folders change. */
  private watchers: vscode.Disposable[] = [];
  /** Counts the resets: a start that read the configuration before the latest reset is stale. */
  private generation = 0;
  /** What the folders' mcp.json files were (`filesStamp`) when the servers were last started. */
  private startedStamp: string | undefined;
  private checkTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    /** The names MCP tools must not take: the built-in tools'. */
    private readonly reserved: () => ReadonlySet<string>,
    /** The tool calls the user chose to always allow in this workspace. */
    private readonly remembered: RememberedToolCalls,
  ) {
    // A changed configuration or newly granted trust applies from the next planning or run: the servers are stopped and started again then.
    this.subscriptions = [
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('taskPlanner.mcp')) void this.reset();
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => void this.reset()),
      vscode.workspace.onDidChangeWorkspaceFolders(() => {
        this.watchFolders();
        void this.reset();
      }),
    ];
    this.watchFolders();
  }

  /**
   * The tools of the started servers (after a change of the configuration, until they start again: those a planning or
   * run still holds); empty before `ensureStarted`.
   */
  tools(): Tool[] {
    return this.leases.offered()?.tools() ?? [];
  }

  /**
   * Starts the servers (as `ensureStarted`) and holds them for one planning or run until the hold is disposed: a change of
   * mcp.json, the settings or the folders meanwhile applies from the next planning or run, and stops none of the servers
   * this one may call (they stop once it ends). Never rejects.
   */
  async hold(): Promise<vscode.Disposable> {
    await this.ensureStarted();
    const lease = this.leases.lease();
    // A reset between the start and the lease (another command's) left nothing current: what the files hold now starts, held too.
    await this.ensureStarted();
    return {
      dispose: () => void lease.release().catch((error: unknown) => this.log.error(`MCP servers were not stopped: ${errorMessage(error)}`)),
    };
  }

  /**
   * Starts the configured servers once (later calls wait for the same start); never rejects: failures are shown in "MCP
   * servers" and the log. When mcp.json or the settings change during the start (the servers are reset), it starts what
   * they hold now, up to three times, so the caller never goes on with servers stopped under it.
   */
  async ensureStarted(): Promise<void> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const generation = this.generation;
      this.starting ??= this.start().catch((error: unknown) => this.log.error(`MCP servers were not started: ${errorMessage(error)}`));
      await this.starting;
      if (generation === this.generation) return;
    }
  }

  /**
   * "Task Planner: MCP servers": each server with its state and tools; Restart and Show output. A folder's mcp.json
   * changed since the servers started is read again first, even when its watcher has not said so yet (a file written
   * by another program is seen late, or not at all, on some file systems).
   */
  async showServers(): Promise<void> {
    if (this.starting !== undefined && (await this.filesStamp()) !== this.startedStamp) await this.reset();
    await this.ensureStarted();
    const servers = this.leases.current();
    if (!servers || servers.list().length === 0) {
      void showInformation(
        vscode.l10n.t('No MCP servers are configured. Add them to .vscode/mcp.json or to the setting taskPlanner.mcp.servers.'),
      );
      return;
    }
    const picked = await vscode.window.showQuickPick(
      servers.list().map(({ config, state }) => ({
        label: shownName(config.name),
        description: `${state.state} · ${shownName(config.source.label)}`,
        detail:
          state.state === 'running'
            ? vscode.l10n.t('{0} tools: {1}', state.tools.length, state.tools.slice(0, 20).map((name) => shownName(name)).join(', '))
            : 'reason' in state
              ? shownName(state.reason, 500)
              : shownName(config.source.label),
        config,
      })),
      { title: vscode.l10n.t('MCP servers'), placeHolder: vscode.l10n.t('Pick a server to restart it, show its output or make its tools ask again') },
    );
    if (!picked) return;
    const restart = vscode.l10n.t('Restart');
    const output = vscode.l10n.t('Show output');
    const prefix = loadRuntime().rememberedCallPrefix(picked.config);
    const allowed = this.remembered.list().filter((call) => call.key.startsWith(prefix)).length;
    const askAgain =
      allowed === 1
        ? vscode.l10n.t('Ask before every call again (1 tool always allowed here)')
        : vscode.l10n.t('Ask before every call again ({0} tools always allowed here)', allowed);
    const action = await vscode.window.showQuickPick([restart, output, ...(allowed > 0 ? [askAgain] : [])], { title: picked.label });
    if (action === output) this.log.show(true);
    if (action === askAgain) {
      const forgotten = await this.remembered.forget(prefix);
      void showInformation(
        forgotten === 1
          ? vscode.l10n.t('Task Planner: every call of the tool of "{0}" asks again.', picked.label)
          : vscode.l10n.t('Task Planner: every call of the {0} tools of "{1}" asks again.', forgotten, picked.label),
      );
    }
    if (action === restart) {
      await servers.restart(picked.config.name, new AbortController().signal);
      const state = servers.list().find(({ config }) => config.name === picked.config.name)?.state;
      if (state?.state === 'running') {
        void showInformation(vscode.l10n.t('Task Planner: the MCP server "{0}" runs, with {1} tools.', picked.label, state.tools.length));
      } else if (state?.state === 'failed') {
        // One not allowed was told so as the question was answered (`tellNotStarted`).
        const failed = vscode.l10n.t('Task Planner: the MCP server "{0}" did not start: {1}', picked.label, shownName(state.reason, 500));
        if ((await showWarning(failed, output)) === output) this.log.show(true);
      }
    }
  }

  dispose(): void {
    for (const subscription of [...this.subscriptions, ...this.watchers]) subscription.dispose();
    clearTimeout(this.checkTimer);
    // The log last: a server stopping may still write to it.
    const closeLog = (): void => this.log.dispose();
    void this.leases.stopAll().then(closeLog, closeLog);
  }

  /**
   * Watches each folder's `.vscode/mcp.json`, however it changes (saved here, written by a terminal, a checkout, another
   * program): the servers are stopped and started again at the next planning or run, so the servers and tools
   * follow the file without a reload. Starting again asks again for any server not allowed before as it is now (a
   * changed command line, environment or folder is a new question); nothing starts because the file changed.
   */
  private watchFolders(): void {
    for (const watcher of this.watchers) watcher.dispose();
    this.watchers = (vscode.workspace.workspaceFolders ?? []).map((folder) => {
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, '.vscode/mcp.json'));
      const changed = (): void => this.fileChanged();
      return vscode.Disposable.from(watcher, watcher.onDidCreate(changed), watcher.onDidChange(changed), watcher.onDidDelete(changed));
    });
  }

  /** A folder's mcp.json changed: the servers are reset, and the file is read (not started) so a broken one is said now, not at the next planning. */
  private fileChanged(): void {
    void this.reset();
    // One check for a burst of events (a create and a change; an editor's save in several writes).
    clearTimeout(this.checkTimer);
    this.checkTimer = setTimeout(() => void this.readConfig(), checkDelayMs);
  }

  /** The configuration changed: the servers start again at the next planning or run (those held stop when released). */
  private async reset(): Promise<void> {
    this.generation += 1;
    this.starting = undefined;
    await this.leases.retire();
  }

  private async start(): Promise<void> {
    const generation = this.generation;
    this.startedStamp = await this.filesStamp();
    const config = await this.readConfig();
    // The file changed while it was read: the start of what it holds now replaces this one.
    if (generation !== this.generation) return this.ensureStarted();
    for (const warning of config.warnings) this.log.warn(warning);
    // A server left out (a name defined twice, say in two folders) would otherwise only be missed when a plan needs it.
    if (config.warnings.length > 0) void this.showConfigWarnings(config.warnings);
    if (config.servers.length === 0) return;
    // The user's value only (application-scoped): `WorkspaceConfiguration.get` would take a workspace's too, were VS Code to pass it on.
    const timeoutMs = readSettings().mcpTimeoutMs;
    const servers = new (loadRuntime().McpServers)({
      config,
      reserved: this.reserved(),
      baseEnv: process.env,
      startTimeoutMs: timeoutMs,
      callTimeoutMs: timeoutMs,
      mayStart: (server) => this.mayStart(server),
      inputValue: async (input, server) => {
        // Kept per input of each source, a workspace's also per server and address: a workspace's input of the same id as one of
        // the user's is asked anew, and so is one whose server now goes elsewhere.
        const key = `taskPlanner.mcp.input.${loadRuntime().mcpInputValueKey(input, server)}`;
        const stored = await this.context.secrets.get(key);
        if (stored !== undefined) return stored;
        const value = await vscode.window.showInputBox({
          title:
            input.source.origin === 'user'
              ? vscode.l10n.t('MCP input "{0}"', input.id)
              : vscode.l10n.t('MCP input "{0}" asked by {1} for the server "{2}"', input.id, input.source.label, shownName(server.name)),
          prompt: input.description,
          password: input.password,
          ignoreFocusOut: true,
        });
        if (value !== undefined) await this.context.secrets.store(key, value);
        return value;
      },
      // What a server writes to stderr, as text: its escape sequences and direction controls shown, not acted on.
      log: (server, text) => this.log.info(`[${shownName(server)}] ${loadRuntime().visibleControls(text.trimEnd())}`),
      remembered: this.remembered,
      connecting: (server, connected) => this.startProgress.add(shownName(server.name), connected),
    });
    await this.leases.adopt(servers);
    await servers.start(new AbortController().signal);
    for (const { config: server, state } of servers.list()) {
      if (state.state === 'failed' || state.state === 'not allowed') this.log.warn(`MCP server "${shownName(server.name)}" was not started: ${state.reason}`);
    }
  }

  /**
   * Each folder's `.vscode/mcp.json` as its size and time of change say (its metadata only: what it holds is read
   * through the folder's confinement by `readConfig`), `none` for a folder without one.
   */
  private async filesStamp(): Promise<string> {
    const stamps = await Promise.all(
      (vscode.workspace.workspaceFolders ?? []).map((folder) =>
        vscode.workspace.fs.stat(vscode.Uri.joinPath(folder.uri, '.vscode', 'mcp.json')).then(
          (stat) => `${stat.size}:${stat.mtime}`,
          () => 'none',
        ),
      ),
    );
    return stamps.join('|');
  }

  /**
   * The user's setting (its user-level value only) and each folder's `.vscode/mcp.json`,
   * merged in that order: the user's first, then the folders' in the window's order (a name
   * defined twice keeps its first definition, with a warning in the log). A folder's file is
   * read through the folder's confinement (`readFolderConfig`): a regular file inside it of
   * at most `maxMcpConfigBytes`, never through a link out of it; one that is not is reported
   * and its servers are not offered.
   */
  private async readConfig(): Promise<McpConfig> {
    const runtime = loadRuntime();
    const configs: McpConfig[] = [];
    const folders = vscode.workspace.workspaceFolders ?? [];
    const setting = vscode.workspace.getConfiguration('taskPlanner').inspect<unknown>('mcp.servers')?.globalValue;
    if (setting !== undefined) {
      const label = vscode.l10n.t('the setting {0}', 'taskPlanner.mcp.servers');
      try {
        configs.push(runtime.parseMcpConfig(setting, { label, origin: 'user', folder: folders[0]?.uri.fsPath ?? process.cwd() }));
      } catch (error) {
        this.reportConfigError(error);
      }
    }
    const allowHardLinks = readSettings().allowHardLinks;
    for (const folder of folders) {
      if (folder.uri.scheme !== 'file') continue;
      const file = vscode.Uri.joinPath(folder.uri, '.vscode', 'mcp.json');
      const label = vscode.workspace.asRelativePath(file, true);
      let text: string | undefined;
      try {
        text = await runtime.readFolderConfig(folder.uri.fsPath, '.vscode/mcp.json', { label, maxBytes: runtime.maxMcpConfigBytes, allowHardLinks });
      } catch (error) {
        this.reportConfigError(error);
        continue;
      }
      if (text === undefined) continue;
      try {
        configs.push(runtime.parseMcpConfigText(text, { label, origin: 'workspace', folder: folder.uri.fsPath }));
      } catch (error) {
        this.reportConfigError(error);
      }
    }
    return runtime.mergeMcpConfigs(configs);
  }

  private async showConfigWarnings(warnings: readonly string[]): Promise<void> {
    const output = vscode.l10n.t('Show output');
    const first = shownName(warnings[0] ?? '', 600);
    const more = warnings.length - 1;
    const text = more === 0 ? vscode.l10n.t('Task Planner: {0}', first) : vscode.l10n.t('Task Planner: {0} ({1} more in the output)', first, more);
    if ((await showWarning(text, output)) === output) this.log.show(true);
  }

  /** Says that the server `name` was not started as the user asked, and how to be asked again. */
  private async tellNotStarted(name: string): Promise<void> {
    const servers = vscode.l10n.t('MCP servers');
    const chosen = await showInformation(
      vscode.l10n.t(
        'Task Planner: the MCP server "{0}" was not started, so a plan cannot use its tools. To be asked again, run "Task Planner: MCP servers", pick it and choose Restart.',
        shownName(name),
      ),
      servers,
    );
    if (chosen === servers) await vscode.commands.executeCommand('taskPlanner.mcpServers');
  }

  private reportConfigError(error: unknown): void {
    this.log.error(errorMessage(error));
    void showError(errorMessage(error));
  }

  private async mayStart(server: McpServerConfig): Promise<true | string> {
    const runtime = loadRuntime();
    const target = runtime.mcpServerTarget(server);
    // Remembered with everything that decides what runs, so a changed command, environment or folder asks again.
    // Hashed: the launch key holds whole argument lists and environments, of any size.
    const key = `taskPlanner.mcp.allowedServer.${createHash('sha256').update(runtime.mcpServerLaunchKey(server)).digest('hex')}`;
    const decision = runtime.mcpStartDecision(server, {
      trusted: vscode.workspace.isTrusted,
      allowedBefore: this.context.workspaceState.get<boolean>(key) === true,
    });
    if (decision === 'start') return true;
    if (decision !== 'ask') return decision.refused;
    const [refuse, allow] = [vscode.l10n.t('Do not start'), vscode.l10n.t('Allow')];
    // The safe choice first: the dialog focuses its first button, and it opens by itself when a plan needs the server.
    const answer = await showWarning(
      vscode.l10n.t('Start the MCP server "{0}" of this workspace?', shownName(server.name)),
      {
        modal: true,
        // A program runs as the user; an address is sent the calls and the headers shown: each question says which.
        detail:
          server.type === 'http'
            ? vscode.l10n.t(
                'It is defined in {0} and connects to: {1}\nWhat the tool calls send, and these headers (an input in them filled in with what you type), go to that address. Allow it for this workspace (asked again if any of this changes)?',
                shownName(server.source.label),
                target,
              )
            : vscode.l10n.t(
                'It is defined in {0} and runs: {1}\nIt can do anything your account can. Allow it for this workspace (asked again if any of this changes)?',
                shownName(server.source.label),
                target,
              ),
      },
      refuse,
      allow,
    );
    if (answer !== allow) {
      // The way back, said once now: a plan that names the server's tools then says they are missing.
      void this.tellNotStarted(server.name);
      return vscode.l10n.t('you did not allow it');
    }
    await this.context.workspaceState.update(key, true);
    return true;
  }
}

/**
 * A name from a configuration, a folder or a server (server, tool, file), as the editor
 * shows it: control and direction characters escaped, so a hostile name cannot reorder or
 * hide the text around it, and at most `max` characters.
 */
function shownName(name: string, max = 100): string {
  // A QuickPick draws `$(name)` as an icon: a server's or tool's name could pass for one of the editor's own signs.
  return withoutIcons(shownLine(name, max));
}
