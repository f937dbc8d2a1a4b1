import { effectTraits } from '../tools/effectTraits';
import type { ToolRegistry } from '../tools/tool';
import { toolEffectOf } from '../tools/toolEffectOf';
import { planLevels } from './planLevels';
import type { DiagnosticCode, Plan, Step } from './planSchema';
import { performedBy } from './stepKindTraits';
import { validatePlan } from './validatePlan';
import { verificationFindings, type VerificationFinding } from './verificationFindings';

/** The critic's own checks; validation errors appear under their `validatePlan` code. */
export type CritiqueCheck =
  | 'parallel_explosion'
  | 'missing_gate'
  | 'optimism_bias'
  | 'disconnected_flow'
  | 'orphan_step'
  | 'destructive_without_approval'
  | VerificationFinding['check']
  | 'llm_review';

/** One finding of the static critic: `check` is the stable code for tools, `name` says it in plain words. */
export interface CritiqueIssue {
  check: string;
  name: string;
  severity: 'critical' | 'warning' | 'info';
  stepId?: string;
  message: string;
  recommendation?: string;
  /** Set on validation errors: the run refuses the plan while one stands. */
  blocking?: true;
}

/** The critic's verdict: a score from 1 to 10, every finding, and what to do about them. */
export interface Critique {
  score: number;
  issues: CritiqueIssue[];
  summary: string;
  recommendations: string[];
}

/**
 * What the critic checks tool steps against: the same tools the run gets (names, or a
 * registry with schemas). What a tool does comes from the registry's declared effects, or
 * without one from the built-in tool of that name.
 */
export interface CritiquePlanOptions {
  tools?: readonly string[] | ToolRegistry;
}

/** Largest number of steps a level may hold before the plan counts as a parallel explosion. */
export const maxParallelSteps = 10;
/** A level this wide wants a synthesis gate somewhere after it. */
export const gateWorthyLevelSize = 3;
/** The best score of a plan with a validation error: it cannot start as it is. */
export const maxScoreWithErrors = 3;

const checkNames: Readonly<Record<CritiqueCheck | DiagnosticCode, string>> = {
  empty_plan: 'No steps',
  duplicate_id: 'Step id used twice',
  missing_dependency: 'Waits for a step that does not exist',
  cycle: 'Steps wait for each other',
  self_dependency: 'Step waits for itself',
  unknown_tool: 'Unknown tool',
  invalid_args: 'Wrong tool arguments',
  missing_agent: 'Unknown agent',
  invalid_predicate: 'Broken condition',
  invalid_step: 'Incomplete step',
  invalid_output_schema: 'Unusable output schema',
  unknown_skill: 'Unknown skill',
  parallel_explosion: 'Too many steps at once',
  missing_gate: 'Parallel results never combined',
  optimism_bias: 'No second try for a step that can fail',
  disconnected_flow: 'Dependency result not used',
  orphan_step: 'Result never used',
  destructive_without_approval: 'Change without approval',
  unverified_change: 'Changes never checked',
  impossible_check: 'Check that cannot pass',
  check_without_retry: 'Failed check never retried',
  llm_review: 'Model review',
};

/** The plain-words name of a check code (the code itself, spaced, when unknown). */
export function checkName(check: string): string {
  return Object.hasOwn(checkNames, check) ? checkNames[check as CritiqueCheck] : check.replace(/_/g, ' ');
}

const flakyText = /\b(network|search\w*|fetch\w*|api|apis|https?|curl|wget|download\w*|web|external|request\w*)\b/i;
const flakyToolNames = /^(?:run_command|fetch_url|mcp__.*|vscode__.*)$/;
const readOnlyToolNames = new Set(['read_file', 'list_files', 'search_text', 'get_diagnostics', 'find_symbols', 'find_references', 'go_to_definition']);

/**
 * Reviews a plan statically (docs/architecture.md §3). Every `validatePlan` error (against `options.tools`,
 * as the run checks it) is a critical finding under its code and caps the score at
 * `maxScoreWithErrors`; then the critic's own checks. Score max(1, round(10 − 3·critical −
 * warning − 0.5·info)), rounding half away from zero. A dependency of a tool, manual,
 * review or question step, or on a step that changes files or runs a command, orders the
 * work and need not be referenced. Then how the plan verifies its work
 * (`verificationFindings`: a change nothing checks, a check that cannot pass), as warnings. Pure and linear in steps + edges (plus the validation).
 */
export function critiquePlan(plan: Plan, options: CritiquePlanOptions = {}): Critique {
  const issues: CritiqueIssue[] = validatePlan(plan, options.tools === undefined ? {} : { tools: options.tools })
    .filter((diagnostic) => diagnostic.severity === 'error')
    .map((diagnostic): CritiqueIssue => ({
      ...issue(diagnostic.code, 'critical', diagnostic.stepId, diagnostic.message, 'Fix every error before starting: the run refuses a plan that has one.'),
      blocking: true,
    }));
  const blocked = issues.length > 0;
  const ids = new Set(plan.steps.map((step) => step.id));
  const byId = new Map(plan.steps.map((step) => [step.id, step]));
  const levels = planLevels(plan);

  if (levels.ok) {
    levels.levels.forEach((level, index) => {
      if (level.length > maxParallelSteps) {
        issues.push(
          issue(
            'parallel_explosion',
            'critical',
            level[0],
            `Level ${index} runs ${level.length} steps in parallel (more than ${maxParallelSteps}).`,
            `Group parallel work so no level has more than ${maxParallelSteps} steps.`,
          ),
        );
      }
    });
    const lastGateLevel = levels.levels.findLastIndex((level) => level.some((id) => byId.get(id)?.kind === 'synthesis_gate'));
    levels.levels.forEach((level, index) => {
      if (level.length >= gateWorthyLevelSize && lastGateLevel <= index) {
        issues.push(
          issue(
            'missing_gate',
            'warning',
            level[0],
            `Level ${index} has ${level.length} parallel steps and no synthesis gate after it to combine their results.`,
            'Add a synthesis_gate step after wide parallel levels to condense their results.',
          ),
        );
      }
    });
    const dependedOn = new Set(plan.steps.flatMap((step) => step.dependsOn));
    const lastLevel = new Set(levels.levels[levels.levels.length - 1] ?? []);
    for (const step of plan.steps) {
      if (!lastLevel.has(step.id) && !dependedOn.has(step.id)) {
        issues.push(
          issue(
            'orphan_step',
            'info',
            step.id,
            `Nothing uses the result of step "${step.id}" and it is not part of the final level.`,
            'Make a later step depend on it, or remove it.',
          ),
        );
      }
    }
  }

  const registry = options.tools !== undefined && !Array.isArray(options.tools) ? (options.tools as ToolRegistry) : undefined;
  for (const step of plan.steps) {
    issues.push(...stepChecks(step, ids, byId, registry));
  }
  for (const found of verificationFindings(plan, options.tools)) issues.push(issue(found.check, 'warning', found.stepId, found.message, found.recommendation));
  return critiqueFromIssues(issues, blocked);
}

/**
 * Adds findings from elsewhere (an LLM review) to a critique: duplicates (same check, step
 * and message) are dropped, and score, summary and recommendations are recomputed (still
 * capped while a validation error stands).
 */
export function mergeCritique(critique: Critique, extra: readonly CritiqueIssue[]): Critique {
  const merged = new Map(critique.issues.map((issue) => [issueKey(issue), issue]));
  for (const issue of extra) if (!merged.has(issueKey(issue))) merged.set(issueKey(issue), issue);
  return critiqueFromIssues([...merged.values()], critique.issues.some((found) => found.blocking === true));
}

function issueKey(issue: CritiqueIssue): string {
  return `${issue.check}|${issue.stepId ?? ''}|${issue.message}`;
}

function issue(
  check: CritiqueCheck | DiagnosticCode,
  severity: CritiqueIssue['severity'],
  stepId: string | undefined,
  message: string,
  recommendation?: string,
): CritiqueIssue {
  return {
    check,
    name: checkNames[check],
    severity,
    ...(stepId === undefined ? {} : { stepId }),
    message,
    ...(recommendation === undefined ? {} : { recommendation }),
  };
}

function stepChecks(step: Step, ids: Set<string>, byId: Map<string, Step>, registry: ToolRegistry | undefined): CritiqueIssue[] {
  const issues: CritiqueIssue[] = [];
  if (step.critical && step.onFailure === 'stop' && canFailTransiently(step, registry)) {
    issues.push(
      issue(
        'optimism_bias',
        'warning',
        step.id,
        `Step "${step.id}" depends on something that can fail transiently (network, search, API, external command) but stops the run on its first failure.`,
        'Give steps that touch the network or external commands onFailure "retry" (with maxAttempts > 1) or "replan", or make them non-critical.',
      ),
    );
  }
  const deps = step.dependsOn.filter((dep) => ids.has(dep) && dep !== step.id && !ordersOnly(step, byId.get(dep), registry));
  if (deps.length > 0 && step.kind !== 'synthesis_gate') {
    const text = `${step.input ?? ''} ${step.args === undefined ? '' : JSON.stringify(step.args)}`;
    const unreferenced = deps.filter((dep) => !mentions(text, dep));
    if (unreferenced.length === deps.length) {
      issues.push(
        issue(
          'disconnected_flow',
          'warning',
          step.id,
          `Step "${step.id}" depends on ${deps.join(', ')} but its input refers to none of their results.`,
          'Refer to dependency results in the step input ({{results.<id>}}), or drop dependencies the step does not need.',
        ),
      );
    } else if (unreferenced.length > 0) {
      issues.push(issue('disconnected_flow', 'info', step.id, `Step "${step.id}" does not refer to the results of ${unreferenced.join(', ')}.`));
    }
  }
  const effect = step.tool === undefined ? undefined : toolEffectOf(step.tool, registry);
  if (step.requiresApproval === false && effect !== undefined && effectTraits[effect].changes) {
    issues.push(
      issue(
        'destructive_without_approval',
        'warning',
        step.id,
        `Step "${step.id}" asks to use ${step.tool} without approval, which a plan cannot do: the approval policy in the settings decides.`,
        'Drop "requiresApproval": false from the step; the review shows whether it will ask.',
      ),
    );
  }
  return issues;
}

/** A tool step by what its tool does; a model's step by what its text says; a person's step never. */
function canFailTransiently(step: Step, registry: ToolRegistry | undefined): boolean {
  if (performedBy(step.kind, 'tool')) {
    const effect = toolEffectOf(step.tool ?? '', registry);
    return effect === undefined ? flakyToolNames.test(step.tool ?? '') : effectTraits[effect].transient;
  }
  if (performedBy(step.kind, 'person')) return false;
  return flakyText.test(`${step.input ?? ''} ${step.title}`);
}

/**
 * True when `dep` is there for order, not for its result: every dependency of a step that is
 * not a model's (a tool call takes no text input, a person reads what they need), a person's
 * step, and a tool step that changes something (read before write, write before run).
 */
function ordersOnly(step: Step, dep: Step | undefined, registry: ToolRegistry | undefined): boolean {
  if (!performedBy(step.kind, 'model') || dep === undefined || dep.kind === 'manual') return true;
  if (dep.kind !== 'tool') return false;
  const effect = toolEffectOf(dep.tool ?? '', registry);
  return effect === undefined ? !readOnlyToolNames.has(dep.tool ?? '') : effect !== 'read';
}

/**
 * True when `text` mentions a dependency by its id as a whole word, as in `{{results.<id>}}`,
 * `$<id>` or plain text, ignoring case: `{{results.S10}}` does not mention `S1`.
 */
function mentions(text: string, id: string): boolean {
  const lower = text.toLowerCase();
  const needle = id.toLowerCase();
  let from = 0;
  for (;;) {
    const at = lower.indexOf(needle, from);
    if (at < 0) return false;
    const before = lower[at - 1];
    const after = lower[at + needle.length];
    if (!isWordChar(before) && !isWordChar(after)) return true;
    from = at + 1;
  }
}

function isWordChar(char: string | undefined): boolean {
  return char !== undefined && /[a-z0-9_]/.test(char);
}

function critiqueFromIssues(issues: CritiqueIssue[], blocked: boolean): Critique {
  const count = (severity: CritiqueIssue['severity']): number => issues.filter((issue) => issue.severity === severity).length;
  const critical = count('critical');
  const warning = count('warning');
  const info = count('info');
  const raw = 10 - 3 * critical - warning - 0.5 * info;
  const rounded = Math.max(1, Math.sign(raw) * Math.floor(Math.abs(raw) + 0.5));
  const score = blocked ? Math.min(rounded, maxScoreWithErrors) : rounded;
  const recommendations = [...new Set(issues.filter((issue) => issue.severity !== 'info' && issue.recommendation).map((issue) => issue.recommendation!))];
  const summary =
    issues.length === 0
      ? 'Score 10/10: no problems found.'
      : `Score ${score}/10: ${critical} critical, ${warning} warning${warning === 1 ? '' : 's'}, ${info} info.${blocked ? ' The plan cannot start until its errors are fixed.' : critical > 0 ? ' The plan cannot run well as it is.' : ''}`;
  return { score, issues, summary, recommendations };
}
