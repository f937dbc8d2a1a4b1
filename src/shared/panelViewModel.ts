/**
 * The plan panel's view model: a small, complete picture of what the panel shows, built on
 * the host from the plan, its critique and diagnostics, and the run state. The host sends
 * it whole with an increasing `version` (a large run's updates as deltas of the version
 * before, `runDelta`); streamed step output travels separately as chunks (see
 * `panelProtocol.ts`), so a snapshot never carries a transcript.
 */

import type { UndoneExtent } from './runStatusLabels';
import type { StepProgress } from './stepProgress';
import type { FailurePolicy, RunStatus, StepApproval, StepKind, StepStatus } from './vocabulary';

/** Step kinds, as the engine names them. */
export type StepKindView = StepKind;

/** A failure policy, as the engine names it. */
export type FailurePolicyView = FailurePolicy;

/** A step's status in a run, as the engine names it. */
export type StepStatusView = StepStatus;

/** A run's status. */
export type RunStatusView = RunStatus;

/**
 * One argument of a tool step as the review shows it: a string as it is (no quotes or
 * escapes), any other value as JSON; `block` when the text spans lines (a file's content),
 * shown preformatted.
 */
export interface ArgumentView {
  name: string;
  text: string;
  block: boolean;
}

/**
 * One step as the review shows it; `args` is its arguments as YAML for editing (a text of
 * several lines written as it is; the form reads YAML or JSON), `arguments` the same for reading.
 */
export interface StepView {
  id: string;
  /** 0-based position in the plan. */
  index: number;
  title: string;
  kind: StepKindView;
  /** The tool or agent that does the work, or the kind for gates, reviews and questions. */
  runner: string;
  tool?: string;
  args?: string;
  /** The arguments, in the plan's order, for display. */
  arguments?: ArgumentView[];
  agent?: string;
  input?: string;
  /** The skills the step names (agent steps), as written in the plan, for editing. */
  skills?: string[];
  dependsOn: string[];
  onFailure: FailurePolicyView;
  maxAttempts: number;
  critical: boolean;
  verification?: string;
  /** The step's checks in plain words on one line, bounded and with control characters escaped. */
  checks?: string;
  /** The same checks as YAML, for editing; absent when the step has none. */
  checksText?: string;
  /** The project instructions and skills the step's agent will be given, on one line, bounded and with control characters escaped. */
  uses?: string;
  /** The files the step rests on (what the planner read that led to it), comma-separated, control characters escaped. */
  basedOn?: string;
  /** The files the step may change (its `writes`), on one line, bounded and with control characters escaped. */
  writes?: string;
  /** The same paths and globs as written in the plan, for editing; absent when the step declares none. */
  writePatterns?: string[];
  onVerificationFailure: FailurePolicyView;
  /** The step's condition: in words where the planner wrote a known shape, else its predicate (`code`). */
  when?: { text: string; code: boolean };
  skipped: boolean;
  /** A step the user skipped that this one waits on (directly or through others): the run skips this one too. */
  skippedWith?: string;
  /** What the step will do about approval under the approval policy and workspace trust the run will have. */
  approval: StepApproval;
  /** Validation problems of this step (errors and warnings). */
  problems: string[];
}

/** One finding of the critic: `name` in plain words for people, `check` the code for tools. */
export interface FindingView {
  check: string;
  name: string;
  /** A validation error: Start stays disabled while it stands. */
  blocking?: true;
  severity: 'critical' | 'warning' | 'info';
  stepId?: string;
  message: string;
  recommendation?: string;
}

/** What changed between two plan versions (after Regenerate), by step id. */
export interface PlanChangeView {
  fromVersion: number;
  toVersion: number;
  added: string[];
  removed: string[];
  /** Steps kept with the names of the fields that differ. */
  changed: { id: string; fields: string[] }[];
  objectiveChanged: boolean;
}

/** One version of the plan under review, for the version picker: "v3 · regenerated with "add tests"". */
export interface PlanVersionView {
  version: number;
  label: string;
}

/** The plan under review, before it runs. */
export interface ReviewView {
  planId: string;
  planVersion: number;
  objective: string;
  score: number;
  summary: string;
  findings: FindingView[];
  recommendations: string[];
  /** Plan-level validation errors (not tied to a step). */
  planProblems: string[];
  steps: StepView[];
  /** Errors make the plan unrunnable: Start is disabled with this reason. */
  startBlockedReason?: string;
  /**
   * Set when no model is available and steps need one (agents, synthesis gates): the
   * blocking notice, and the steps "Do them myself" hands to the user. Start stays disabled.
   */
  modelNeeded?: { message: string; stepIds: string[] };
  /** Set when no model is set up: the step kinds a model does, which the edit form's Kind choice says need one. */
  kindsNeedingModel?: StepKind[];
  /** Set when some steps are yours to do: how many, how many run by themselves, and how to hand them to agents. */
  manualSummary?: string;
  /**
   * What running the plan is expected to take (requests, tokens, cost, time; in all, then per
   * kind of work), when a model is set up; `stopAt` is the budget Start can set from it
   * ("$0.40", or tokens when the cost is unknown).
   */
  estimate?: { lines: string[]; stopAt?: string };
  /** Set after Regenerate: what the new version changed. */
  changes?: PlanChangeView;
  /** Set while the planner is regenerating the plan. */
  regenerating: boolean;
  /** Why Regenerate is not offered now (no model to take the feedback); the button is disabled with it. */
  regenerateBlockedReason?: string;
  /** Tool names the edit form offers. */
  tools: string[];
  /** By tool name, the arguments it requires as a template to fill in (YAML), which the edit form starts a new tool step with. */
  toolTemplates?: Record<string, string>;
  /** By tool name, the names of every argument it takes: choosing another tool in the edit form keeps the typed ones it takes too. */
  toolParameters?: Record<string, string[]>;
  /**
   * The names of the workspace's skills, sorted, once they were read: the edit form names
   * them and refuses others; `undefined` before the first reading (nothing is refused).
   */
  skills?: string[];
  /** The plan's topics (`contextTags`): every agent step also gets the skills tagged with one of them. */
  contextTags: string[];
  /** The tags of the workspace's skills, sorted, once they were read (the topics that add skills); `undefined` before. */
  skillTags?: string[];
  /** Every version of this plan the panel has shown, newest first; any one can be brought back. */
  versions: PlanVersionView[];
  /** What the planner read and was told before writing the plan; absent when it read nothing. */
  basis?: BasisView;
  /**
   * An earlier version the user picked in the version list, shown read only in place of the steps until they go back
   * to it or return to the newest; Start, edits and Regenerate act on the plan under review (`planVersion`) alone.
   */
  viewing?: { version: number; steps: StepView[] };
}

/** What a plan is based on, as the review shows it: every text one line with control characters escaped. */
export interface BasisView {
  /** "Read 7 files, 3 searches". */
  summary: string;
  /** Workspace-relative paths, each a link that opens the file. */
  files: string[];
  searches: string[];
  answers: { question: string; answer: string }[];
}

/** A pending approval, clarification or review of a running step. */
export interface PendingView {
  stepId: string;
  kind: string;
  prompt: string;
}

/** One step of a run. Times are milliseconds since the run started. */
export interface RunStepView {
  id: string;
  title: string;
  kind: StepKindView;
  runner: string;
  status: StepStatusView;
  /** The words for a state its status alone does not tell ("not needed", "failed (did not stop the run)"). */
  statusLabel?: string;
  attempts: number;
  maxAttempts: number;
  startMs?: number;
  endMs?: number;
  durationMs?: number;
  error?: string;
  diagnosis?: string;
  reason?: string;
  /** A short preview of the result of a completed step. */
  resultPreview?: string;
  /** Where a started step stands ("turn 3 of 12: write_file"), while it runs or waits. */
  progress?: string;
  /** What you said when you rejected the step's change (Reject with feedback…), while the step goes on revising it. */
  feedback?: string;
  /** How far that says the step's work is, 0–100 (`ProgressPercent`); absent: not known. */
  percent?: number;
  /** How many files the step changed, as the journal says; absent when none, or when Undo took them back. */
  changedFiles?: number;
  /** Undo took back every change the step made to files. */
  changesUndone?: true;
}

/** A step a repair replaced, as it ended in `planVersion`. */
export interface ReplacedStepView extends RunStepView {
  planVersion: number;
}

/** One bar of the timeline: a step's latest attempt on a lane (lanes show parallelism). */
export interface TimelineBar {
  stepId: string;
  title: string;
  status: StepStatusView;
  /** The status in words where it says more than the status's own word, as `RunStepView.statusLabel`. */
  statusLabel?: string;
  lane: number;
  /** Milliseconds since the run started. */
  startMs: number;
  /** Milliseconds since the run started: the step's end, or the snapshot's time while it goes on (`ongoing`). */
  endMs: number;
  /** The step had not ended at the snapshot (it runs or waits on you): the panel draws its bar on to the present. */
  ongoing: boolean;
}

/** The timeline (Gantt chart) of a run. */
export interface TimelineView {
  /** Length of the time axis, in milliseconds (at least 1). */
  spanMs: number;
  lanes: number;
  bars: TimelineBar[];
}

/** A repair of the plan during the run, with the failed attempts it was given. */
export interface ReplanView {
  replan: number;
  reason: string;
  stepIds: string[];
  keptStepIds: string[];
  newStepIds: string[];
  planVersion: number;
  trials: { stepId: string; attempt: number; approach: string; error: string; diagnosis?: string }[];
}

/** Token use and cost of the run's model calls so far. */
export interface UsageView {
  requests: number;
  totalTokens: number;
  /** Prompt tokens the providers read from their caches (part of `totalTokens`). */
  cachedTokens: number;
  costUsd: number;
  /** USD the cached tokens saved against the uncached input price. */
  savedUsd: number;
  /** Calls of models without a known price: the cost undercounts. */
  unpricedRequests: number;
}

/** The end of a run. */
export interface RunSummaryView {
  status: Exclude<RunStatusView, 'running'>;
  reason?: string;
  durationMs: number;
  /** Workspace-relative paths the run wrote, edited or deleted, and Undo has not put back. */
  changedFiles: string[];
  /** Workspace-relative paths the run changed and Undo put back. */
  undoneFiles: string[];
  /** "Kept from the model: .env (a credentials file)": the files tools did not read for the model (the core's `runSummary`). */
  keptFromModel?: string;
  /** Whether a step started a command: what it changed is not among `changedFiles`, and Undo run does not take it back. */
  ranCommands: boolean;
  /** Whether a step you did yourself (a manual step) was marked done: what you changed is not among `changedFiles` either. */
  doneByYou: boolean;
  canUndo: boolean;
  /** The run stopped before its end (a reload, a cancel) and can go on from where it stopped: the panel offers Resume. */
  canResume: boolean;
  /** Set once "Undo run" ran: what it did. */
  undoMessage?: string;
  /**
   * What the notification's and the command line's headline says beyond what the panel shows apart (the status, counts,
   * duration and model use in its header; the changed files below): "1 repair plan; resumed once.". Absent when nothing.
   */
  notes?: string;
  /** What each step produced, or why it failed or was skipped: one bounded line per step, the plan's first steps. */
  /** `earlier`: a step completed after a failed attempt says why that attempt failed. */
  /** `checks`: how its checks and verification ended, each passed or failed with the check (see the core's `runSummary`). */
  stepLines: { id: string; title: string; status: StepStatusView; line: string; earlier?: string; checks?: string }[];
  /** Steps left out of `stepLines`. */
  moreSteps: number;
  /** Failed steps with their error and diagnosis (bounded), the first ones. */
  failures: { stepId: string; title: string; error: string; diagnosis?: string }[];
  /** Failed steps left out of `failures`. */
  moreFailures: number;
}

/** A run, live or finished. */
export interface RunView {
  runId: string;
  status: RunStatusView;
  objective: string;
  planVersion: number;
  /** Milliseconds from the run's start to its end, or to the snapshot for a live run. */
  elapsedMs: number;
  /** Completed steps are done; failed and skipped ones are counted apart. */
  progress: StepProgress;
  /** What the run does while no step runs: "asking the model for a repair plan for S5" (a trial read the failed step as theirs to fix). */
  activity?: string;
  steps: RunStepView[];
  /** Steps a repair plan replaced (the failed one, those it dropped), as they ended in the plan version named; absent when none. */
  replacedSteps?: ReplacedStepView[];
  /** The step whose streamed output the panel shows (the latest one started). */
  focusStepId?: string;
  pending: PendingView[];
  timeline: TimelineView;
  usage?: UsageView;
  replans: ReplanView[];
  warnings: string[];
  summary?: RunSummaryView;
  /** What Undo took back of the run's changes (the header says it after the status); absent when nothing. */
  undone?: UndoneExtent;
}

/** The whole panel: a review, a run, or nothing yet. */
export type PanelBody = { mode: 'empty' } | { mode: 'review'; review: ReviewView } | { mode: 'run'; run: RunView };

/**
 * A complete, versioned snapshot of the panel. `session` identifies the host panel that
 * numbered it; within a session `version` increases by one per snapshot sent.
 */
export type PanelViewModel = PanelBody & { session: string; version: number };
