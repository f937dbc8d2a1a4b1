import * as vscode from 'vscode';
import type { HostEnvironment } from '../core/engine/hostRunOptions';
import type { RunPolicy } from '../core/engine/runPolicy';
import type { BudgetLimits } from '../core/llm/budget';
import type { RunOptions } from '../core/engine/runOptions';
import type { LlmClient } from '../core/servicePorts';
import type { Plan } from '../core/plan/planSchema';
import type { CapabilityCatalogue } from '../core/capabilities/capabilityCatalogue';
import type { FolderLanes, Lane } from './folderLanes';
import type { RunControllerDeps } from './runControllerDeps';
import type { RunSetup } from './runSetup';
import { loadRuntime } from './loadRuntime';
import { askCheckCommandsModal } from './runStartDialogs';
import { selectedPythonEnvironment } from './pythonEnvironment';
import { checkCommandsAtStart } from './checkCommandsAtStart';
import { channelLogger } from './channelLogger';
import { folderConfinement, shownFolderName } from './workspaceFolders';

/** What `prepareRun` reads from the controller. */
export interface RunPreparationContext {
  deps: RunControllerDeps;
  lanes: FolderLanes;
  /** The folder's skills and instructions, read again now. */
  capabilities(folder: vscode.WorkspaceFolder | undefined): Promise<CapabilityCatalogue>;
  /** The limits the panel's estimate set for the next run, taken by this one. */
  takeNextRunLimits(): BudgetLimits;
}

/** A run of one folder, ready for its first event: the user's questions before it answered. */
export interface PreparedRun {
  /** The engine's options (the caller adds its abort signal). */
  options: RunOptions;
  /** Where the run's trace goes when it ends (the user's settings), if anywhere. */
  trace: RunSetup['trace'];
  /** Lets go of what the run held (its MCP servers): once it has ended. Again: nothing. */
  release(): void;
}

/**
 * Everything a run of `lane`'s folder starts with: its MCP servers held until `release`, the settings, its
 * checkpoints and workspace, a command runner with the folder's environment (a trusted workspace's only), the answer
 * to whether the plan's check commands may run, the tools (confined to the folder in a window of several), the
 * folder's skills and instructions. `completed`: results of steps already done, whose checks are not asked about;
 * `llm`: a model that does every role instead of the configured ones (the chat's pick). Rejects with what the user
 * declined or what failed, holding nothing.
 */
export async function prepareRun(
  context: RunPreparationContext,
  lane: Lane,
  plan: Plan | undefined,
  completed: Record<string, unknown> | undefined,
  llm: LlmClient | undefined,
): Promise<PreparedRun> {
  const { deps, lanes } = context;
  const held = await deps.holdTools();
  try {
    const setup = await deps.setup();
    const checkpoints = await lanes.checkpointsOf(lane);
    const workspace = lanes.workspaceOf(lane);
    const runtime = loadRuntime();
    const folder = lane.folder;
    // The workspace's environment (its virtual environment, node_modules/.bin) only in a trusted workspace, as its terminals.
    const commandRunner = runtime.createNodeCommandRunner(
      folder?.uri.fsPath ?? workspace.rootLabel,
      vscode.workspace.isTrusted ? { projectEnvironment: { selectedPython: () => selectedPythonEnvironment(folder?.uri) } } : {},
    );
    const checkCommands = await checkCommandsAtStart(plan, completed, commandRunner, deps.commandRules, deps.confirmCheckCommands ?? askCheckCommandsModal);
    const tools = shownFolderName(folder) === undefined ? deps.tools() : runtime.toolsNamingConfinement(deps.tools(), folderConfinement(folder!));
    const environment = {
      tools: runtime.toRegistry(tools),
      stepRunner: undefined,
      llm: llm ?? setup.llm,
      budget: runtime.createBudgetTracker({ ...setup.budget, ...context.takeNextRunLimits() }),
      // The lane's snapshot names the run asking (a repair run's own id once it started).
      interaction: deps.interactionFor?.(() => lane.state?.runId) ?? deps.interaction ?? runtime.deferAllInteraction,
      clock: runtime.timerClock,
      store: lanes.storeOf(lane),
      workspace,
      capabilities: await context.capabilities(folder),
      commandRunner,
      allowedCommands: deps.commandRules ?? runtime.noAllowRules,
      diagnostics: folder ? runtime.createVscodeDiagnostics(folder.uri) : undefined,
      checkpoints,
      // A step imported from a task file with ticking chosen ticks its checkbox as it completes (resumed runs too); others are left alone.
      stepEpilogue: runtime.tickSourceCheckbox,
      logger: channelLogger(deps.log),
      // The user's key, one for every window and the command line: a window reloaded takes back the answers given before.
      answerSeal: runtime.createUserAnswerSeal(),
      // Each predicate on a thread ended at its time limit: one QuickJS does not stop would otherwise hold the extension host.
      predicates: runtime.sharedPredicateThreads(),
    } satisfies HostEnvironment;
    const policy = {
      ...setup.policy,
      // A model handed in (the chat's picked model) is used for every role.
      models: llm ? {} : setup.policy.models,
      noModelHint: vscode.l10n.t("Run 'Task Planner: Set up a model', or change the step to one you do yourself."),
    } satisfies RunPolicy;
    let released = false;
    return {
      options: { ...runtime.hostRunOptions(environment, policy), checkCommands },
      trace: setup.trace,
      release: () => {
        if (released) return;
        released = true;
        held.dispose();
      },
    };
  } catch (error) {
    held.dispose();
    throw error;
  }
}
