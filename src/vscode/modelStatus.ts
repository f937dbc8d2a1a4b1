import * as vscode from 'vscode';
import { feedbackNeedsModel } from '../core/planner/feedbackNeedsModel';
import { selectProvider, type ProviderChoice } from '../core/llm/selectProvider';
import type { ApiKeyStore } from './apiKeyStore';
import { readSettings } from './settings';
import { vscodeChatModelAvailable } from './vscodeLmClient';
import { showInformation } from './notifications';

/** The context key the Plan view's empty state reads: `vscode`, `openai` or `heuristic`. */
const plannerContextKey = 'taskPlanner.planner';
/** Remembered once the first-run notification was shown. */
const welcomedKey = 'taskPlanner.modelNoticeShown';

/** What the user can do when a step or Regenerate needs a model and none is set up. */
export const setUpModelHint = (): string => vscode.l10n.t('run "Task Planner: Set up a model", or edit the steps yourself.');

/** Why Regenerate is refused without a model: the heuristic planner cannot take feedback into account. */
export const regenerateNeedsModel = (): string => feedbackNeedsModel(setUpModelHint());

/** Which planner is active, in words a newcomer understands. */
export function describePlanner(choice: ProviderChoice, settings: { baseUrl: string; model: string }): string {
  const descriptions: Record<ProviderChoice, string> = {
    vscode: vscode.l10n.t('a VS Code chat model'),
    openai: vscode.l10n.t('{0} at {1}', settings.model, settings.baseUrl),
    heuristic: vscode.l10n.t('the heuristic planner (no model): steps that need a model are yours to do'),
  };
  return descriptions[choice];
}

/**
 * Keeps the `taskPlanner.planner` context key (the Plan view's empty state says which
 * planner is active) up to date with the settings, the stored key and VS Code's chat
 * models, and shows once per installation (remembered in `globalState`) a notification
 * saying which planner is active with "Set up a model". Never loads the runtime.
 */
export class ModelStatus implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<ProviderChoice>();
  private readonly subscriptions: vscode.Disposable[] = [this.changed];
  private refreshing: Promise<ProviderChoice> | undefined;
  private choice: ProviderChoice | undefined;
  /** Fires when a refresh finds another active planner than the last one (a model set up or removed), never on the first. */
  readonly onDidChange: vscode.Event<ProviderChoice> = this.changed.event;

  constructor(
    private readonly keys: ApiKeyStore,
    private readonly globalState: vscode.Memento,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.subscriptions.push(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('taskPlanner.llm')) void this.refresh();
      }),
    );
    if (typeof vscode.lm?.onDidChangeChatModels === 'function') this.subscriptions.push(vscode.lm.onDidChangeChatModels(() => void this.refresh()));
  }

  /** Works out the active planner and sets the context key; resolves to it. */
  refresh(): Promise<ProviderChoice> {
    const settings = readSettings();
    const refreshing = (async () => {
      const hasKey = await this.keys.has();
      const vscodeLmAvailable =
        settings.provider === 'auto' || settings.provider === 'vscode' ? await vscodeChatModelAvailable(settings.vscodeModelFamily || undefined) : false;
      const chosen = selectProvider({ setting: settings.provider, vscodeLmAvailable, ...(hasKey ? { apiKey: 'stored' } : {}), baseURL: settings.baseUrl });
      // An explicit "vscode" with no chat model plans with nothing: the empty state says so.
      const choice: ProviderChoice = chosen === 'vscode' && !vscodeLmAvailable ? 'heuristic' : chosen;
      const before = this.choice;
      this.choice = choice;
      await vscode.commands.executeCommand('setContext', plannerContextKey, choice);
      if (before !== undefined && before !== choice) this.changed.fire(choice);
      return choice;
    })();
    this.refreshing = refreshing;
    return refreshing;
  }

  /** The active planner as last worked out (`undefined` before the first refresh ends). */
  current(): ProviderChoice | undefined {
    return this.choice;
  }

  /** The first-run notification, once per installation: which planner is active and the three ways to set one up. */
  async welcomeOnce(): Promise<void> {
    if (this.globalState.get<boolean>(welcomedKey)) return;
    await this.globalState.update(welcomedKey, true);
    const choice = await (this.refreshing ?? this.refresh());
    const settings = readSettings();
    const active = vscode.l10n.t('Task Planner plans with {0}.', describePlanner(choice, settings));
    this.log.info(`First run: ${active}`);
    const picked = await showInformation(
      choice === 'heuristic'
        ? vscode.l10n.t('{0} Set up a VS Code chat model (Copilot…), a local server (Ollama, LM Studio…) or a hosted one.', active)
        : vscode.l10n.t('{0}', active),
      vscode.l10n.t('Set up a model'),
    );
    if (picked) await vscode.commands.executeCommand('taskPlanner.setUpModel');
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
  }
}
