import { emptyCatalogue, type CapabilityCatalogue } from '../capabilities/capabilityCatalogue';
import type { BudgetTracker } from '../llm/budget';
import type { CommandAllowList, CommandRunner } from '../commandPorts';
import type { Diagnostics } from '../editorPorts';
import type { Interaction } from '../interactionPorts';
import type { AnswerSeal, CheckpointStore, RunStore } from '../runStorePorts';
import type { Clock, LlmClient, Logger } from '../servicePorts';
import type { WorkspaceFs } from '../workspacePorts';
import type { ToolRegistry } from '../tools/tool';
import type { StepEpilogue, StepRunner } from './stepHooks';
import { processAnswerSeal } from './answerSeals';
import { evaluatePredicate, type PredicateEvaluator } from '../predicate/evaluatePredicate';
import { deferAllInteraction } from './stepInteraction';

/**
 * The ports a run works through (docs/architecture.md §11): every one named. A host (the
 * editor, the command line, the library's `runPlan`) and the test kit give each, with the null
 * object below for one it lacks. The few that may be `undefined` are those whose absence is
 * itself what the run reports: no model (`noModelHint`), no journal (not resumable), no editor
 * diagnostics, no undo.
 */
export interface RunEnvironment {
  /** Tools `tool` steps (and agents) may call. */
  tools: ToolRegistry;
  /** Runs `agent` and `synthesis_gate` steps; takes priority over `llm`. Without either, such steps fail with `noModelHint`. */
  stepRunner: StepRunner | undefined;
  /** The model that runs `agent` and `synthesis_gate` steps when there is no `stepRunner` (and designs repair plans). */
  llm: LlmClient | undefined;
  /**
   * Counts every call of `llm` against the run's limits (docs/architecture.md §5). When a limit is
   * reached, the step about to call the model pauses with a `budget` request and the run ends
   * `waiting`; `budget.raise(...)` and `resumeRun` continue it. `undefined`: not counted.
   */
  budget: BudgetTracker | undefined;
  /** The user; `deferAllInteraction` defers every request (the run ends `waiting`). */
  interaction: Interaction;
  /**
   * Time and waiting (retry backoff, durations, run ids). The core has no timers of its
   * own: hosts give `timerClock` (src/node), whose entry point `dist/core.js` defaults it.
   */
  clock: Clock;
  /** Where events are journaled; `undefined`: the run cannot be resumed. */
  store: RunStore | undefined;
  /** The workspace tools act on; `missingWorkspace` refuses every file operation with what to do. */
  workspace: WorkspaceFs;
  /** The workspace's instructions and skills (`readCapabilities`); agent steps get theirs in their prompt. */
  capabilities: CapabilityCatalogue;
  /** Runs `run_command`'s processes and the `command` checks; `undefined`: such tools fail as unavailable. */
  commandRunner: CommandRunner | undefined;
  /** The user's command allow rules: a command (or check command) one of them allows runs without asking. */
  allowedCommands: CommandAllowList;
  /** The editor's error diagnostics, for `no_new_diagnostics` checks; `undefined`: such checks fail as not available. */
  diagnostics: Diagnostics | undefined;
  /** Where file tools checkpoint previous content, so the run can be undone; `undefined`: no undo. */
  checkpoints: CheckpointStore | undefined;
  /** What the host does as each step completes (see `StepEpilogue`). */
  stepEpilogue: StepEpilogue;
  logger: Logger;
  /**
   * Seals the answers a resume journals; a resume takes back from the journal only answers sealed by this user
   * (`trustedAnswers`). Hosts give the user's (`createUserAnswerSeal`, src/node); `processAnswerSeal` trusts no other process.
   */
  answerSeal: AnswerSeal;
  /**
   * Evaluates `verification` and `when` predicates. `evaluatePredicate` runs them on the caller's thread, where a
   * native operation of QuickJS can outlast the time limit by hours; hosts give `createPredicateThreads` (src/node),
   * which ends a predicate's thread at its limit.
   */
  predicates: PredicateEvaluator;
}

/** A registry without tools. */
export const noTools: ToolRegistry = { names: () => [], get: () => undefined };

/** No allow rules: every command asks. */
export const noAllowRules: CommandAllowList = { rules: () => [] };

/** Nothing to do as a step completes: the step completes in the same turn. */
export const noStepEpilogue: StepEpilogue = () => undefined;

/** A logger that takes every level and says nothing. */
export const silentLogger: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

const refuse = (): Promise<never> =>
  Promise.reject(
    new Error(
      'This run has no workspace folder, so tools cannot reach files: open a folder (or give the command line --workspace DIR), then run the plan again.',
    ),
  );

/** The workspace of a run without a folder: every file operation is refused, saying what to do. */
export const missingWorkspace: WorkspaceFs = {
  rootLabel: '(no workspace)',
  readText: refuse,
  writeText: refuse,
  delete: refuse,
  createDirectory: refuse,
  list: refuse,
  stat: refuse,
};

/**
 * The environment of a run on `clock` with nothing else: no tools, no model, no user (every
 * request deferred), no journal, no workspace. Hosts and tests spread what they have over it.
 */
export function bareEnvironment(clock: Clock): RunEnvironment {
  return {
    tools: noTools,
    stepRunner: undefined,
    llm: undefined,
    budget: undefined,
    interaction: deferAllInteraction,
    clock,
    store: undefined,
    workspace: missingWorkspace,
    capabilities: emptyCatalogue,
    commandRunner: undefined,
    allowedCommands: noAllowRules,
    diagnostics: undefined,
    checkpoints: undefined,
    stepEpilogue: noStepEpilogue,
    logger: silentLogger,
    answerSeal: processAnswerSeal(),
    predicates: evaluatePredicate,
  };
}
