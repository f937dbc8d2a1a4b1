import type { RunEstimate } from '../agent/estimateRun';
import { budgetFromEstimate, estimateLines, shownTokens } from '../agent/estimateText';
import { shownUsd } from '../../shared/shownUsd';
import type {
  BasisView,
  PanelBody,
  PlanVersionView,
  ReviewView,
  StepView,
} from '../../shared/panelViewModel';
import { critiqueVerdict, type Critique } from '../plan/critiquePlan';
import { describeChecks } from '../plan/describeCheck';
import { emptyCatalogue, type CapabilityCatalogue } from '../capabilities/capabilityCatalogue';
import { stepCapabilities } from '../capabilities/stepCapabilities';
import { visibleControls } from '../../shared/visibleCharacters';
import { oneLine } from '../text/oneLine';
import type { Diagnostic, Plan, PlanBasis, Step } from '../plan/planSchema';
import { performedBy } from '../plan/stepKindTraits';
import { conditionText } from './conditionText';
import { stepApproval, type ApprovalSetting, type StepApproval } from '../plan/stepApproval';
import type { ToolRegistry } from '../tools/tool';
import { diffPlans } from './planDiff';
import { stepRunnerLabel } from './stepRunnerLabel';
import { stepKinds } from '../../shared/vocabulary';
import { runView, type RunSource } from './runViewModel';
import { argumentsTemplate, argumentsText, argumentViews } from './argumentsText';
import { toolParameters } from '../tools/toolParameters';

/** The plan under review, with what the critic and the validator said about it. */
export interface ReviewSource {
  plan: Plan;
  critique: Critique;
  diagnostics: readonly Diagnostic[];
  /** The version Regenerate replaced, to show what changed. */
  previousPlan?: Plan;
  regenerating?: boolean;
  /**
   * Why Regenerate is not offered; set exactly when no language model is available, so it
   * also decides whether steps that need a model block Start.
   */
  regenerateBlockedReason?: string;
  /**
   * The tools runs get: the edit form offers their names; a registry also says what each
   * does (whether a step asks for approval), else the built-in tool of that name does.
   */
  tools?: readonly string[] | ToolRegistry;
  /** The versions of this plan shown so far, newest first. */
  versions?: readonly PlanVersionView[];
  /** The approval policy and workspace trust a run would have now; default: `writesAndCommands`, trusted. */
  approvalSetting?: ApprovalSetting;
  /** The workspace's instructions and skills: each agent step shows which it will use. */
  capabilities?: CapabilityCatalogue;
  /** What running the plan is expected to take (`estimateRun`), when a model is set up. */
  estimate?: RunEstimate;
  /** An earlier version the user picked to look at, shown read only beside the plan (`PanelSession.viewVersion`). */
  viewed?: { version: number; plan: Plan };
}

/**
 * The panel's view model (without its version, which the host stamps): a run when one is
 * given, else the review of the plan, else empty. Pure and linear in the number of steps.
 */
export function buildPanelViewModel(review: ReviewSource | undefined, run?: RunSource): PanelBody {
  if (run?.state.plan) return { mode: 'run', run: runView(run, run.state.plan) };
  if (review) return { mode: 'review', review: reviewView(review) };
  return { mode: 'empty' };
}

function reviewView(source: ReviewSource): ReviewView {
  const { plan, critique, diagnostics } = source;
  const { tools } = source;
  const registry = isRegistry(tools) ? tools : undefined;
  const approvalSetting = source.approvalSetting ?? defaultApprovalSetting;
  const problems = new Map<string, string[]>();
  const planProblems: string[] = [];
  for (const diagnostic of diagnostics) {
    const text = `${diagnostic.severity === 'error' ? 'Error' : 'Warning'}: ${diagnostic.message}`;
    if (diagnostic.stepId === undefined) planProblems.push(text);
    else problems.set(diagnostic.stepId, [...(problems.get(diagnostic.stepId) ?? []), text]);
  }
  const errors = diagnostics.filter((diagnostic) => diagnostic.severity === 'error');
  const skippedWith = skippedThrough(plan);
  // A step that waits on a skipped one is skipped with it: it runs no more than the skipped one.
  const runnable = plan.steps.filter((step) => !step.skipped && !skippedWith.has(step.id));
  const modelNeeded = source.regenerateBlockedReason === undefined ? undefined : modelNeededBy(runnable);
  const startBlockedReason =
    errors.length > 0
      ? `Fix ${errors.length === 1 ? 'the error' : `the ${errors.length} errors`} first: ${errors[0]!.message}`
      : runnable.length === 0
        ? 'Every step is skipped, or waits on a skipped one: unskip at least one.'
        : modelNeeded
          ? modelNeeded.message
          : source.regenerating
            ? 'The plan is being regenerated.'
            : undefined;
  return {
    planId: plan.id,
    planVersion: plan.version,
    objective: plan.objective,
    score: critique.score,
    summary: critiqueVerdict(critique),
    findings: critique.issues.map((issue) => ({ ...issue })),
    recommendations: [...critique.recommendations],
    planProblems,
    steps: reviewStepViews(plan, problems, registry, approvalSetting, source.capabilities),
    ...(startBlockedReason === undefined ? {} : { startBlockedReason }),
    ...(modelNeeded ? { modelNeeded } : {}),
    ...manualSummaryOf(runnable, source.regenerateBlockedReason !== undefined, (step) => stepApproval(step, plan, registry, approvalSetting)),
    ...(source.regenerateBlockedReason === undefined ? {} : { kindsNeedingModel: stepKinds.filter((kind) => performedBy(kind, 'model')) }),
    ...(source.estimate ? { estimate: estimateView(source.estimate) } : {}),
    ...(source.previousPlan ? { changes: diffPlans(source.previousPlan, plan) } : {}),
    regenerating: source.regenerating === true,
    ...(source.regenerateBlockedReason === undefined ? {} : { regenerateBlockedReason: source.regenerateBlockedReason }),
    tools: isRegistry(tools) ? tools.names() : [...(tools ?? [])],
    ...(isRegistry(tools) ? { toolTemplates: toolTemplates(tools), toolParameters: toolParameterNames(tools) } : {}),
    ...(source.capabilities ? { skills: [...new Set(source.capabilities.skills.map((skill) => skill.name))].sort() } : {}),
    contextTags: [...(plan.contextTags ?? [])],
    ...(source.capabilities ? { skillTags: [...new Set(source.capabilities.skills.flatMap((skill) => skill.tags))].sort() } : {}),
    versions: source.versions ? source.versions.map((version) => ({ ...version })) : [{ version: plan.version, label: `v${plan.version}` }],
    ...(plan.basis ? { basis: basisView(plan.basis) } : {}),
    // An earlier version as it was then, read only: its steps shown as the plan's are ("Based on" and "Uses" too).
    ...(source.viewed
      ? { viewing: { version: source.viewed.version, steps: reviewStepViews(source.viewed.plan, new Map(), registry, approvalSetting, source.capabilities) } }
      : {}),
  };
}

/** The steps of `plan` as the review shows them, each with its `problems`, what it skips with, uses and is based on. */
function reviewStepViews(
  plan: Plan,
  problems: ReadonlyMap<string, string[]>,
  registry: ToolRegistry | undefined,
  setting: ApprovalSetting,
  capabilities: CapabilityCatalogue | undefined,
): StepView[] {
  const skippedWith = skippedThrough(plan);
  return plan.steps.map((step, index) => ({
    ...stepView(step, index, problems.get(step.id) ?? [], stepApproval(step, plan, registry, setting)),
    ...(skippedWith.has(step.id) ? { skippedWith: skippedWith.get(step.id) } : {}),
    ...usesView(step, plan, capabilities),
    ...(step.basedOn?.length ? { basedOn: visibleControls(oneLine(step.basedOn.join(', '), usesLength)) } : {}),
  }));
}

/** The plan's basis for the review: "Read 7 files, 3 searches", then each entry on one line, controls escaped. */
function basisView(basis: PlanBasis): BasisView {
  const shown = (text: string): string => visibleControls(oneLine(text, usesLength));
  const files = basis.files.length;
  const searches = basis.searches.length;
  return {
    summary: basisSummary(files, searches),
    files: basis.files.map(shown),
    searches: basis.searches.map(shown),
    answers: basis.answers.map((answer) => ({ question: shown(answer.question), answer: shown(answer.answer) })),
  };
}

/** "Read 2 files, 1 search": what was not done is not said ("0 searches" read as noise); "Your answers" when only those. */
function basisSummary(files: number, searches: number): string {
  const read = files > 0 ? [`Read ${files} file${files === 1 ? '' : 's'}`] : [];
  const searched = searches > 0 ? [`${searches} search${searches === 1 ? '' : 'es'}`] : [];
  return [...read, ...searched].join(', ') || 'Your answers';
}

/** The steps no one can run without a model, and the notice that says so; `undefined` when there are none. */
function modelNeededBy(steps: readonly Step[]): { message: string; stepIds: string[] } | undefined {
  const needing = steps.filter((step) => performedBy(step.kind, 'model'));
  if (needing.length === 0) return undefined;
  const ids = needing.map((step) => step.id);
  const which = needing.length === 1 ? `Step ${ids[0]} needs` : `${needing.length} steps (${ids.join(', ')}) need`;
  const them = needing.length === 1 ? 'it' : 'them';
  return { message: `${which} a language model and none is set up. Do ${them} yourself, or set up a model.`, stepIds: ids };
}

/**
 * "3 steps are yours to do, 1 question is yours to answer; 2 run by themselves, 1 after you approve it." (skipped steps
 * left out), and "Set up a model to let agents do your steps." when `noModel`: a question asks you, so it never counts as
 * running by itself, nor does a step that `asks` for approval before it acts, nor one that `mayAsk` ("1 may ask you to
 * approve a change"). A plan with nothing of yours but approvals says so too ("2 steps run after you approve them."); one
 * that asks nothing of you for sure (at most steps that may ask) says nothing.
 */
function manualSummaryOf(steps: readonly Step[], noModel: boolean, approval: (step: Step) => StepApproval): { manualSummary?: string } {
  const manual = steps.filter((step) => step.kind === 'manual').length;
  const questions = steps.filter((step) => step.kind === 'clarification').length;
  // Without a model, an agent's step does not run by itself: it waits for a model (a newcomer read "1 runs by itself"
  // beside the notice that it cannot run).
  const needModel = noModel ? steps.filter((step) => performedBy(step.kind, 'model')).length : 0;
  const running = steps.filter((step) => step.kind !== 'manual' && step.kind !== 'clarification' && !(noModel && performedBy(step.kind, 'model')));
  const approved = running.filter((step) => approval(step) === 'asks').length;
  // An agent's step that may change files asks before each change: not "by itself" either (a trial read "4 steps run by
  // themselves" over four steps marked "may ask approval", each of which then asked).
  const mayAsk = running.filter((step) => approval(step) === 'mayAsk').length;
  const others = running.length - approved - mayAsk;
  // Steps that only may ask are no reason for a sentence: each shows its "may ask approval" mark.
  if (manual === 0 && questions === 0 && approved === 0) return {};
  const yours = [
    ...(manual === 0 ? [] : [manual === 1 ? '1 step is yours to do' : `${manual} steps are yours to do`]),
    ...(questions === 0 ? [] : [questions === 1 ? '1 question is yours to answer' : `${questions} questions are yours to answer`]),
  ].join(', ');
  // The first count of a clause names what it counts ("1 step runs by itself"), the ones after it need not ("1 step is
  // yours to do; 1 runs after you approve it" read as a slip: a trial).
  const step = (count: number, first: boolean): string => (first ? `${count} step${count === 1 ? '' : 's'}` : `${count}`);
  // A command that asks first does not run by itself (an editor trial read "runs by itself" and was then asked).
  const byThemselves = others === 0 ? [] : [`${step(others, true)} ${others === 1 ? 'runs by itself' : 'run by themselves'}`];
  const verb = others > 0 ? '' : approved === 1 ? ' runs' : ' run';
  const afterYou = approved === 0 ? [] : [`${step(approved, others === 0)}${verb} after you approve ${approved === 1 ? 'it' : 'them'}`];
  const asking = mayAsk === 0 ? [] : [`${step(mayAsk, others === 0 && approved === 0)} may ask you to approve a change`];
  const ran = [...byThemselves, ...afterYou, ...asking].join(', ');
  const waiting = needModel === 0 ? '' : needModel === 1 ? '1 needs a model' : `${needModel} need a model`;
  const sentence = [yours, ran, waiting].filter((part) => part !== '').join('; ');
  // "Them" named the steps of yours, and read as the approved ones too (an editor trial).
  return { manualSummary: `${sentence}.${noModel && manual > 0 ? ' Set up a model to let agents do your steps.' : ''}` };
}

const defaultApprovalSetting: ApprovalSetting = { policy: 'writesAndCommands', trusted: true };

/**
 * The steps the run will skip because they wait, directly or through others, on a step the user skipped, each with
 * that skipped step (the first of its dependencies that leads to one). Steps are in an order where dependencies come first.
 */
function skippedThrough(plan: Pick<Plan, 'steps'>): Map<string, string> {
  const skipped = new Set(plan.steps.filter((step) => step.skipped === true).map((step) => step.id));
  const through = new Map<string, string>();
  for (const step of plan.steps) {
    if (skipped.has(step.id)) continue;
    const dependency = step.dependsOn.find((id) => skipped.has(id) || through.has(id));
    if (dependency !== undefined) through.set(step.id, through.get(dependency) ?? dependency);
  }
  return through;
}

function stepView(step: Step, index: number, problems: string[], approval: StepApproval): StepView {
  return {
    id: step.id,
    index,
    title: step.title,
    kind: step.kind,
    runner: stepRunnerLabel(step),
    ...(step.tool === undefined ? {} : { tool: step.tool }),
    ...(step.args === undefined ? {} : { args: argumentsText(step.args), arguments: argumentViews(step.args) }),
    ...(step.agent === undefined && step.kind !== 'agent' ? {} : { agent: step.agent ?? 'default' }),
    ...(step.input === undefined ? {} : { input: step.input }),
    ...(step.skills === undefined ? {} : { skills: [...step.skills] }),
    dependsOn: [...step.dependsOn],
    onFailure: step.onFailure,
    maxAttempts: step.maxAttempts,
    critical: step.critical,
    ...(step.verification === undefined ? {} : { verification: step.verification }),
    ...checksView(step),
    ...(step.writes === undefined
      ? {}
      : { writes: visibleControls(oneLine(step.writes.length === 0 ? 'no file' : step.writes.join(', '), usesLength)), writePatterns: [...step.writes] }),
    onVerificationFailure: step.onVerificationFailure,
    ...(step.when === undefined ? {} : { when: conditionText(step.when) }),
    skipped: step.skipped === true,
    approval,
    problems,
  };
}

/** The longest "uses" line of a step, in characters. */
const usesLength = 500;

/** What the step's agent will be given of the catalogue, on one bounded line with controls escaped; nothing when it gets nothing. */
function usesView(step: Step, plan: Plan, catalogue: CapabilityCatalogue | undefined): { uses?: string } {
  const uses = stepCapabilities(step, plan, catalogue ?? emptyCatalogue);
  const parts = [
    ...(uses.instructions.length > 0 ? [`Instructions: ${uses.instructions.map((instruction) => instruction.path).join(', ')}`] : []),
    ...(uses.skills.length > 0 ? [`Skills: ${uses.skills.map((skill) => skill.name).join(', ')}`] : []),
    ...(catalogue !== undefined && uses.unknownSkills.length > 0 ? [`Missing skills: ${uses.unknownSkills.join(', ')}`] : []),
  ];
  return parts.length === 0 ? {} : { uses: visibleControls(oneLine(parts.join(' · '), usesLength)) };
}

function checksView(step: Step): { checks?: string; checksText?: string } {
  const checks = describeChecks(step.checks);
  return checks === undefined ? {} : { checks, checksText: argumentsText(step.checks) };
}

/** Each tool's required arguments as a template (YAML), by name; only a registry knows its tools' parameters. */
function toolTemplates(registry: ToolRegistry): Record<string, string> {
  const templates: Record<string, string> = {};
  for (const name of registry.names()) {
    const tool = registry.get(name);
    if (tool) templates[name] = argumentsTemplate(toolParameters(tool));
  }
  return templates;
}

/** By tool name, the names of the arguments its JSON Schema describes. */
function toolParameterNames(registry: ToolRegistry): Record<string, string[]> {
  const names: Record<string, string[]> = {};
  for (const name of registry.names()) {
    const tool = registry.get(name);
    const properties = tool ? toolParameters(tool).properties : undefined;
    if (typeof properties === 'object' && properties !== null) names[name] = Object.keys(properties);
  }
  return names;
}

function isRegistry(tools: ReviewSource['tools']): tools is ToolRegistry {
  return tools !== undefined && !Array.isArray(tools);
}

/** The estimate's lines and the budget Start can set from it. */
function estimateView(estimate: RunEstimate): NonNullable<ReviewView['estimate']> {
  const budget = budgetFromEstimate(estimate);
  const stopAt =
    budget?.maxCostUsd !== undefined ? shownUsd(budget.maxCostUsd) : budget?.maxTokens !== undefined ? `${shownTokens(budget.maxTokens)} tokens` : undefined;
  return { lines: estimateLines(estimate), ...(stopAt === undefined ? {} : { stopAt }) };
}
