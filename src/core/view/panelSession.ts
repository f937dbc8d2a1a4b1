import { appendTail, type HostToWebviewMessage, type PanelEdit, type ShownPlan } from '../../shared/panelProtocol';
import type { BudgetLimits } from '../llm/budget';
import { configuredModels } from '../llm/modelRoles';
import { estimateRun, type EstimateOptions, type RunEstimate } from '../agent/estimateRun';
import { budgetFromEstimate } from '../agent/estimateText';
import type { PanelViewModel } from '../../shared/panelViewModel';
import type { RunEvent, RunState } from '../engine/runEvents';
import { critiquePlan, mergeCritique, type Critique, type CritiqueIssue } from '../plan/critiquePlan';
import { editPlan } from '../plan/editPlan';
import { toPlanEdit } from './panelEdit';
import { samePlan } from '../plan/samePlan';
import type { Diagnostic, Plan } from '../plan/planSchema';
import { validatePlan, type ValidatePlanOptions } from '../plan/validatePlan';
import type { CapabilityCatalogue } from '../capabilities/capabilityCatalogue';
import { toRegistry } from '../engine/resolveRunOptions';
import type { ApprovalSetting } from '../plan/stepApproval';
import type { Tool, ToolRegistry } from '../tools/tool';
import { buildPanelViewModel } from './buildPanelViewModel';
import type { RunSource, RunStepViewCache } from './runViewModel';
import { editNote, PlanVersions, regenerateNote } from './planVersions';

/** What the review estimates a run with: `EstimateOptions` without the tools, which the session has. */
export type EstimateSetup = Omit<EstimateOptions, 'tools'>;

/** What the run adds to its events: model usage, repairs and changed files. */
export type RunDetails = Pick<RunSource, 'usage' | 'replans' | 'changedFiles' | 'undoMessage' | 'undone'>;

type OutputChunk = Extract<HostToWebviewMessage, { type: 'output' }>;

/**
 * The plan panel's state on the host, free of any UI: the plan under review (edited only
 * through `editPlan`), its critique and diagnostics (computed once per version), the run
 * it shows, each step's output tail with the run's chunk counter, the
 * snapshot counter, and every version of the plan shown (any one can be brought back).
 * Run state comes folded from the runner (the same snapshots the other views show).
 * The VS Code panel posts what this returns.
 */
export class PanelSession {
  private plan: Plan | undefined;
  private previousPlan: Plan | undefined;
  private readonly versions = new PlanVersions();
  private analysis: { version: number; planId: string; critique: Critique; diagnostics: Diagnostic[]; estimate: RunEstimate | undefined } | undefined;
  private estimateSetup: EstimateSetup | undefined;
  private estimateSetupKey = '';
  /** An earlier version of the plan under review the user picked to look at (read only), until they go back to it or leave it. */
  private viewed: number | undefined;
  private regenerating = false;
  private regenerateBlocked: string | undefined;
  private run: RunState | undefined;
  private following = false;
  private details: RunDetails = {};
  private outputSeq = 0;
  private tails: Record<string, string> = {};
  private stepViews: RunStepViewCache = new WeakMap();
  private version = 0;
  private tools: ToolRegistry = toRegistry([]);
  private toolsKey = '';
  private approvalSetting: ApprovalSetting | undefined;
  private capabilities: CapabilityCatalogue | undefined;
  /** The model critique's findings, shown with the version they were made on (an edit makes them stale). */
  private modelFindings: { planId: string; version: number; issues: CritiqueIssue[] } | undefined;
  // The plan each review snapshot lately shown in the webview showed, by snapshot version: Start starts only the plan its snapshot showed.
  private readonly reviewedPlans = new Map<number, Plan>();
  // Snapshot versions whose Start was taken: a second Start from the same snapshot (a double click) starts nothing more.
  private readonly startsTaken = new Set<number>();

  /**
   * `session` names this panel host in its snapshots; `tools` are the tools runs get: plans
   * are validated against them exactly as a run validates them before it starts (argument
   * schemas included), so what the review accepts, Start accepts.
   */
  constructor(
    readonly session: string,
    tools: readonly Tool[],
  ) {
    this.setTools(tools);
  }

  /**
   * The tools runs get now (MCP servers and other extensions add and remove theirs): looked
   * up by name from here on, so a review of n steps reads the tool offer once, not n times.
   * A change of a tool's name or effects analyses the plan again.
   */
  setTools(tools: readonly Tool[]): void {
    this.tools = toRegistry(tools);
    const key = tools.map((tool) => `${tool.name}:${tool.effects}`).join(' ');
    if (key === this.toolsKey) return;
    this.toolsKey = key;
    this.analysis = undefined;
  }

  /** The plan under review, or the one the current run executes. */
  currentPlan(): Plan | undefined {
    return this.run?.plan ?? this.plan;
  }

  /** The current run's id, while there is one. */
  runId(): string | undefined {
    return this.run?.runId;
  }

  /** True while a run is going (not finished). */
  isRunning(): boolean {
    return this.run !== undefined && (this.run.status === 'running' || this.run.status === 'waiting');
  }

  /**
   * Why an action the webview made on `shown`, the plan it showed for review, must not act now: the panel shows a run,
   * another plan, or another version of it (edited, regenerated, brought back) since; `undefined` when `shown` is the
   * plan under review. `scope` `review`: any version of that plan will do (Cancel ends the review, whichever version
   * it shows). The reason is said to the user as is.
   */
  reviewMoved(shown: ShownPlan, scope: 'version' | 'review' = 'version'): string | undefined {
    const plan = this.plan;
    if (!plan || this.run) return 'The panel shows a run now, not the plan you acted on; nothing was changed.';
    if (plan.id !== shown.id) return 'The panel shows another plan now; nothing was changed. Look it over, then try again.';
    if (scope === 'version' && plan.version !== shown.version) {
      return `The plan is at version ${plan.version} now, not version ${shown.version} you acted on; nothing was changed. Look it over, then try again.`;
    }
    return undefined;
  }

  /**
   * Why an action the webview made on the run `runId` it showed must not act now: the panel shows another run or a
   * plan under review since; `undefined` when it still shows that run. The reason is said to the user as is.
   */
  runMoved(runId: string): string | undefined {
    if (this.run?.runId === runId) return undefined;
    return this.run
      ? 'The panel shows another run now, not the one you acted on; nothing was done.'
      : 'The panel shows a plan under review now, not the run you acted on; nothing was done.';
  }

  /**
   * The webview got review snapshot `version`: a Start from it starts the plan it showed, if that is still under review.
   * A snapshot that showed an earlier version read only (`viewVersion`) showed other steps than Start would run: a
   * Start from it (its button is off there; a stale or hostile page sends one anyway) starts nothing.
   */
  reviewShown(version: number): void {
    const plan = this.plan;
    if (!plan || this.run || this.viewed !== undefined) return;
    this.reviewedPlans.set(version, plan);
    // Start comes from one of the last snapshots the webview got; older ones only cost memory.
    for (const old of this.reviewedPlans.keys()) {
      if (this.reviewedPlans.size <= reviewedPlansKept) break;
      this.reviewedPlans.delete(old);
    }
  }

  /**
   * The plan the review snapshot `version` showed when it is still the plan under review, else `undefined`: an edit,
   * Regenerate, an earlier version brought back or another plan shown since makes every earlier snapshot's plan stale.
   */
  reviewedPlan(version: number): Plan | undefined {
    const shown = this.reviewedPlans.get(version);
    return shown !== undefined && this.isReviewing() && shown === this.plan ? shown : undefined;
  }

  /**
   * Start pressed on review snapshot `version`: the plan to start, once. Every snapshot that showed that plan is
   * used up with it, so a second Start (a double click, the same click sent twice) starts no second run: `pressed`;
   * a later snapshot (one the panel posts after a start that did not go through) may start it again. `changed`: the
   * snapshot's plan is no longer the one under review.
   */
  takeStart(version: number): { ok: true; plan: Plan } | { ok: false; reason: 'changed' | 'pressed' } {
    if (this.startsTaken.has(version)) return { ok: false, reason: 'pressed' };
    const plan = this.reviewedPlan(version);
    if (!plan) return { ok: false, reason: 'changed' };
    for (const [shown, reviewed] of this.reviewedPlans) {
      if (reviewed !== plan) continue;
      this.reviewedPlans.delete(shown);
      this.startsTaken.add(shown);
    }
    for (const old of this.startsTaken) {
      if (this.startsTaken.size <= reviewedPlansKept) break;
      this.startsTaken.delete(old);
    }
    return { ok: true, plan };
  }

  /** Reviews `plan` (leaving any run); a plan with another id starts a new version history. */
  setPlan(plan: Plan, modelFindings: readonly CritiqueIssue[] = []): void {
    this.review(plan, undefined);
    this.versions.record(plan);
    this.modelFindings = modelFindings.length === 0 ? undefined : { planId: plan.id, version: plan.version, issues: [...modelFindings] };
  }

  /**
   * Reviews `next`, the planner's new version made with `feedback`, showing what changed from
   * the plan it replaces. It is numbered after every version kept (the planner numbers from
   * the plan it was given, which an edit may have passed meanwhile). Returns the plan shown.
   */
  setRegenerated(next: Plan, feedback: string): Plan {
    const previous = this.plan;
    const plan = previous ? { ...next, version: this.versions.nextVersion(previous) } : next;
    this.review(plan, previous);
    this.versions.record(plan, regenerateNote(feedback));
    return plan;
  }

  /**
   * Brings back `version` of the plan under review as its next version (so the one shown
   * stays in the list too): the plan now shown, or why not.
   */
  restoreVersion(version: number): { ok: true; plan: Plan } | { ok: false; error: string } {
    const current = this.plan;
    if (!current || this.run) return { ok: false, error: 'Only a plan under review can go back to an earlier version; plan again to change it.' };
    if (this.regenerating) return { ok: false, error: 'Wait until Regenerate is done, then pick the version.' };
    if (version === current.version) return { ok: false, error: `Version ${version} is the one shown.` };
    const kept = this.versions.get(version);
    if (!kept) {
      return this.noSuchVersion(version);
    }
    const plan = { ...kept, version: this.versions.nextVersion(current) };
    this.review(plan, current);
    this.versions.record(plan, `back to v${version}`);
    return { ok: true, plan };
  }

  private noSuchVersion(version: number): { ok: false; error: string } {
    const known = this.versions.list().map((entry) => entry.version);
    return { ok: false, error: `There is no version ${version} of this plan: pick one of ${known.join(', ')}.` };
  }

  /**
   * Shows `version` of the plan under review, read only, beside the plan itself (which Start, edits and Regenerate act
   * on); `undefined` or the newest version shows the plan alone again. Any change of the plan ends it too.
   */
  viewVersion(version: number | undefined): { ok: true } | { ok: false; error: string } {
    const current = this.plan;
    if (!current || this.run) return { ok: false, error: 'Only the versions of a plan under review can be looked at; plan again to change it.' };
    if (version === undefined || version === current.version) {
      this.viewed = undefined;
      return { ok: true };
    }
    if (!this.versions.get(version)) {
      return this.noSuchVersion(version);
    }
    this.viewed = version;
    return { ok: true };
  }

  private review(plan: Plan, previous: Plan | undefined): void {
    this.viewed = undefined;
    this.plan = plan;
    this.previousPlan = previous;
    this.regenerating = false;
    this.run = undefined;
    this.following = false;
    this.details = {};
  }

  /** Marks the plan as being regenerated (Start, edits and going back to a version are refused meanwhile). */
  setRegenerating(regenerating: boolean): void {
    this.regenerating = regenerating;
  }

  /** True while Regenerate is under way for the plan under review. */
  isRegenerating(): boolean {
    return this.regenerating;
  }

  /**
   * Whether the plan Regenerate makes from `basis` may be shown now: the review still waits for it, on that very plan.
   * Another plan shown for review or a run followed meanwhile is not replaced by it.
   */
  awaitsRegenerated(basis: Plan): boolean {
    return this.regenerating && this.run === undefined && this.plan === basis;
  }

  /** The approval policy and workspace trust a run would have now: the review marks each step by what it will do. */
  setApprovalSetting(setting: ApprovalSetting): void {
    // The critic flags what Restricted Mode refuses: a change of trust analyses the plan again.
    if (setting.trusted !== this.approvalSetting?.trusted) this.analysis = undefined;
    this.approvalSetting = setting;
  }

  /**
   * The workspace's instructions and skills as last read: the review shows what each step
   * uses, and checks the skills steps name against it (a new catalogue analyses the plan again).
   */
  setCapabilities(catalogue: CapabilityCatalogue | undefined): void {
    if (catalogue === this.capabilities) return;
    this.capabilities = catalogue;
    this.analysis = undefined;
  }

  /**
   * The model setup a run would have now (its default model, each role's, limits), or
   * `undefined` without a model: the review shows the run's estimate and checks the models
   * steps name against it (a change analyses the plan again).
   */
  setEstimateSetup(setup: EstimateSetup | undefined): void {
    const key = JSON.stringify(setup ?? null);
    if (key === this.estimateSetupKey) return;
    this.estimateSetupKey = key;
    this.estimateSetup = setup;
    this.analysis = undefined;
  }

  /** The budget "Stop at" sets from the estimate of the plan under review, or `undefined` when there is none. */
  estimateBudget(): BudgetLimits | undefined {
    const source = this.reviewSource();
    return source?.estimate ? budgetFromEstimate(source.estimate) : undefined;
  }

  /** Why Regenerate cannot run now (no model to take the feedback), or `undefined` when it can. */
  setRegenerateBlocked(reason: string | undefined): void {
    this.regenerateBlocked = reason;
  }

  /** Why Regenerate is refused now, or `undefined` when the plan may be regenerated. */
  regenerateBlockedReason(): string | undefined {
    if (!this.isReviewing()) return 'Only a plan under review can be regenerated.';
    return this.regenerateBlocked;
  }

  /** Applies a webview edit through `editPlan`: the new plan, or the reason it was refused. */
  applyEdit(edit: PanelEdit): { ok: true; plan: Plan } | { ok: false; error: string } {
    if (!this.plan) return { ok: false, error: 'There is no plan to edit.' };
    if (this.run) return { ok: false, error: 'The plan cannot be edited while it runs or after it ran; plan again to change it.' };
    // The regenerated plan is made from the plan as it was: an edit meanwhile would be replaced without a word.
    if (this.regenerating) return { ok: false, error: 'Wait until Regenerate is done, then edit the plan it shows.' };
    const previous = this.plan;
    const result = editPlan(previous, toPlanEdit(edit), this.validationOptions());
    if (!result.ok) return result;
    // A Save that changed nothing is no version of its own (a newcomer's trial saw "v2 · edited S6" after one).
    if (samePlan(previous, result.plan)) return { ok: true, plan: previous };
    this.viewed = undefined;
    this.plan = result.plan;
    this.previousPlan = undefined;
    this.versions.record(result.plan, editNote(edit, { before: previous, after: result.plan }));
    return result;
  }

  /** What plans are checked against: the tools runs get, and the skills of the catalogue once it was read. */
  private validationOptions(): ValidatePlanOptions {
    const setup = this.estimateSetup;
    return {
      tools: this.tools,
      ...(this.capabilities ? { skills: this.capabilities.skills.map((skill) => skill.name) } : {}),
      ...(setup ? { models: configuredModels(setup.model, setup.models ?? {}) } : {}),
    };
  }

  /** True while a plan is under review (no run attached). */
  isReviewing(): boolean {
    return this.plan !== undefined && this.run === undefined;
  }

  /** True while the panel follows a run's execution: each of its states reaches `updateRun`. */
  isFollowingRun(): boolean {
    return this.following;
  }

  /**
   * Shows the run whose state is `state` (a snapshot folded by the runner, never folded
   * again here); `live`: the panel follows its execution, whose next states come through
   * `updateRun` until `endRun`. Output and run details start empty.
   */
  showRun(state: RunState, live: boolean): void {
    this.viewed = undefined;
    this.run = state;
    this.following = live;
    // A Regenerate under way no longer has a review to show its plan in.
    this.regenerating = false;
    this.details = {};
    this.outputSeq = 0;
    this.tails = {};
    this.stepViews = new WeakMap();
  }

  /**
   * The followed execution's state after `event` (ignored when the panel follows none).
   * Returns the output chunk to post for `step_output` events (and a line that names a step's next attempt, once it has
   * output), numbered from 1 per execution.
   */
  updateRun(event: RunEvent, state: RunState): OutputChunk | undefined {
    if (!this.following) return undefined;
    this.run = state;
    const text = this.addOutput(event);
    if (text === undefined || !('stepId' in event)) return undefined;
    return { type: 'output', runId: state.runId, seq: this.outputSeq, stepId: event.stepId, text };
  }

  /**
   * The output of the stored run `runId` the panel shows (not one it follows), from its journals' `step_started` and
   * `step_output` events in order: read again (after a reload), a failed step said "No output" while its output was
   * journaled (a trial). Returns the resync to post; `undefined` when the panel shows another run or follows one.
   */
  storedOutput(runId: string, events: readonly RunEvent[]): ReturnType<PanelSession['outputResync']> {
    if (this.following || this.run?.runId !== runId) return undefined;
    this.outputSeq = 0;
    this.tails = {};
    for (const event of events) this.addOutput(event);
    return this.outputResync();
  }

  /** Adds what `event` shows in its step's output, and returns it: its text, or the line a next attempt goes on under. */
  private addOutput(event: RunEvent): string | undefined {
    // A step's next attempt goes on under a line that says so: its output ran on from the last one's (a trial).
    const text =
      event.type === 'step_output'
        ? event.text
        : event.type === 'step_started' && event.attempt > 1 && this.tails[event.stepId]
          ? `\n── attempt ${event.attempt} ──\n`
          : undefined;
    if (text === undefined || !('stepId' in event)) return undefined;
    this.outputSeq += 1;
    this.tails[event.stepId] = appendTail(this.tails[event.stepId] ?? '', text);
    return text;
  }

  /** The followed execution ended: the panel keeps showing its last state. */
  endRun(): void {
    this.following = false;
  }

  /** Merges what the runner knows beyond the events (usage, repairs, changed files, undo). */
  setRunDetails(details: RunDetails): void {
    this.details = { ...this.details, ...details };
  }

  /** Every step's output tail, for a webview that missed chunks or just loaded. */
  outputResync(): Extract<HostToWebviewMessage, { type: 'outputResync' }> | undefined {
    if (!this.run) return undefined;
    return { type: 'outputResync', runId: this.run.runId, seq: this.outputSeq, tails: { ...this.tails } };
  }

  /** Why Start is refused now, or `undefined` when the plan may start. */
  startBlockedReason(): string | undefined {
    const model = buildPanelViewModel(this.reviewSource());
    if (model.mode !== 'review') return 'There is no plan to start.';
    if (this.isRunning()) return 'The plan is already running.';
    return model.review.startBlockedReason;
  }

  /**
   * The next complete snapshot (its version one more than the last one taken), at time `now`.
   * A run's steps whose state did not change since the last snapshot keep their row object.
   */
  snapshot(now: number): PanelViewModel {
    this.version += 1;
    const body = buildPanelViewModel(this.reviewSource(), this.run?.plan ? { state: this.run, now, ...this.details, stepViews: this.stepViews } : undefined);
    return { ...body, session: this.session, version: this.version };
  }

  /** The earlier version looked at, for the review (`viewVersion`). */
  private viewedSource(): { viewed?: { version: number; plan: Plan } } {
    const plan = this.viewed === undefined ? undefined : this.versions.get(this.viewed);
    return plan ? { viewed: { version: plan.version, plan } } : {};
  }

  private reviewSource(): Parameters<typeof buildPanelViewModel>[0] {
    const plan = this.plan;
    if (!plan) return undefined;
    if (this.analysis?.version !== plan.version || this.analysis.planId !== plan.id) {
      this.analysis = {
        version: plan.version,
        planId: plan.id,
        critique: critiquePlan(plan, { tools: this.tools, ...(this.approvalSetting ? { trusted: this.approvalSetting.trusted } : {}) }),
        diagnostics: validatePlan(plan, this.validationOptions()),
        estimate: this.estimateSetup ? estimateRun(plan, { ...this.estimateSetup, tools: this.tools }) : undefined,
      };
    }
    const { diagnostics, estimate } = this.analysis;
    const model = this.modelFindings;
    const critique = model?.planId === plan.id && model.version === plan.version ? mergeCritique(this.analysis.critique, model.issues) : this.analysis.critique;
    return {
      plan,
      critique,
      ...(this.approvalSetting ? { approvalSetting: this.approvalSetting } : {}),
      diagnostics,
      regenerating: this.regenerating,
      ...(this.regenerateBlocked === undefined ? {} : { regenerateBlockedReason: this.regenerateBlocked }),
      tools: this.tools,
      ...(this.capabilities ? { capabilities: this.capabilities } : {}),
      versions: this.versions.list(),
      ...this.viewedSource(),
      ...(estimate ? { estimate } : {}),
      ...(this.previousPlan ? { previousPlan: this.previousPlan } : {}),
    };
  }
}

/** How many review snapshots' plans a session remembers for Start. */
const reviewedPlansKept = 32;
