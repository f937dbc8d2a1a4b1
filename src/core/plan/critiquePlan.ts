import { findCycles } from './findCycles';
import { planLevels } from './planLevels';
import type { Plan, Step } from './planSchema';

/** One finding of the static critic. */
export interface CritiqueIssue {
  check: string;
  severity: 'critical' | 'warning' | 'info';
  stepId?: string;
  message: string;
  recommendation?: string;
}

/** The critic's verdict: a score from 1 to 10, every finding, and what to do about them. */
export interface Critique {
  score: number;
  issues: CritiqueIssue[];
  summary: string;
  recommendations: string[];
}

/** Largest number of steps a level may hold before the plan counts as a parallel explosion. */
export const maxParallelSteps = 10;
/** A level this wide wants a synthesis gate somewhere after it. */
export const gateWorthyLevelSize = 3;

const flakyPattern = /\b(network|search\w*|fetch\w*|api|apis|https?|curl|wget|download\w*|web|external|request\w*)\b|run_command/i;
const destructiveTools = new Set(['write_file', 'edit_file', 'delete_file', 'run_command']);

/**
 * Reviews a plan statically (DESIGN §3): each check, its severity, and the score
 * max(1, round(10 − 3·critical − warning − 0.5·info)), rounding half away from zero.
 * Pure and linear in steps + edges.
 */
export function critiquePlan(plan: Plan): Critique {
  const issues: CritiqueIssue[] = [];
  const ids = new Set(plan.steps.map((step) => step.id));

  for (const step of plan.steps) {
    for (const dep of step.dependsOn) {
      if (!ids.has(dep) && dep !== step.id) {
        issues.push({ check: 'missing_dependency', severity: 'critical', stepId: step.id, message: `Step "${step.id}" depends on "${dep}", which does not exist.`, recommendation: 'Remove dependencies on steps that do not exist, or add the missing steps.' });
      }
    }
  }
  const levels = planLevels(plan);
  for (const cycle of levels.ok ? [] : findCycles(plan.steps)) {
    issues.push({ check: 'cycle', severity: 'critical', stepId: cycle[0], message: `Dependency cycle: ${[...cycle, cycle[0]].join(' → ')}; the plan cannot run.`, recommendation: 'Break every dependency cycle so the plan can run.' });
  }

  if (levels.ok) {
    levels.levels.forEach((level, index) => {
      if (level.length > maxParallelSteps) {
        issues.push({ check: 'parallel_explosion', severity: 'critical', stepId: level[0], message: `Level ${index} runs ${level.length} steps in parallel (more than ${maxParallelSteps}).`, recommendation: `Group parallel work so no level has more than ${maxParallelSteps} steps.` });
      }
    });
    const kindById = new Map(plan.steps.map((step) => [step.id, step.kind]));
    const lastGateLevel = levels.levels.findLastIndex((level) => level.some((id) => kindById.get(id) === 'synthesis_gate'));
    levels.levels.forEach((level, index) => {
      if (level.length >= gateWorthyLevelSize && lastGateLevel <= index) {
        issues.push({ check: 'missing_gate', severity: 'warning', stepId: level[0], message: `Level ${index} has ${level.length} parallel steps and no synthesis gate after it to combine their results.`, recommendation: 'Add a synthesis_gate step after wide parallel levels to condense their results.' });
      }
    });
    const dependedOn = new Set(plan.steps.flatMap((step) => step.dependsOn));
    const lastLevel = new Set(levels.levels[levels.levels.length - 1] ?? []);
    for (const step of plan.steps) {
      if (!lastLevel.has(step.id) && !dependedOn.has(step.id)) {
        issues.push({ check: 'orphan_step', severity: 'info', stepId: step.id, message: `Nothing uses the result of step "${step.id}" and it is not part of the final level.`, recommendation: 'Make a later step depend on it, or remove it.' });
      }
    }
  }

  for (const step of plan.steps) {
    issues.push(...stepChecks(step, ids));
  }
  return critiqueFromIssues(issues);
}

/**
 * Adds findings from elsewhere (an LLM review) to a critique: duplicates (same check, step
 * and message) are dropped, and score, summary and recommendations are recomputed.
 */
export function mergeCritique(critique: Critique, extra: readonly CritiqueIssue[]): Critique {
  const merged = new Map(critique.issues.map((issue) => [issueKey(issue), issue]));
  for (const issue of extra) if (!merged.has(issueKey(issue))) merged.set(issueKey(issue), issue);
  return critiqueFromIssues([...merged.values()]);
}

function issueKey(issue: CritiqueIssue): string {
  return `${issue.check}|${issue.stepId ?? ''}|${issue.message}`;
}

function stepChecks(step: Step, ids: Set<string>): CritiqueIssue[] {
  const issues: CritiqueIssue[] = [];
  if (step.critical && step.onFailure === 'stop' && flakyPattern.test(`${step.tool ?? ''} ${step.input ?? ''} ${step.title}`)) {
    issues.push({ check: 'optimism_bias', severity: 'warning', stepId: step.id, message: `Step "${step.id}" depends on something that can fail transiently (network, search, API, external command) but stops the run on its first failure.`, recommendation: 'Give steps that touch the network or external commands onFailure "retry" (with maxAttempts > 1) or "replan", or make them non-critical.' });
  }
  const deps = step.dependsOn.filter((dep) => ids.has(dep) && dep !== step.id);
  if (deps.length > 0 && step.kind !== 'synthesis_gate') {
    const text = `${step.input ?? ''} ${step.args === undefined ? '' : JSON.stringify(step.args)}`;
    const unreferenced = deps.filter((dep) => !mentions(text, dep));
    if (unreferenced.length === deps.length) {
      issues.push({ check: 'disconnected_flow', severity: 'warning', stepId: step.id, message: `Step "${step.id}" depends on ${deps.join(', ')} but its input refers to none of their results.`, recommendation: 'Refer to dependency results in the step input ({{results.<id>}}), or drop dependencies the step does not need.' });
    } else if (unreferenced.length > 0) {
      issues.push({ check: 'disconnected_flow', severity: 'info', stepId: step.id, message: `Step "${step.id}" does not refer to the results of ${unreferenced.join(', ')}.` });
    }
  }
  if (step.requiresApproval === false && step.tool !== undefined && destructiveTools.has(step.tool)) {
    issues.push({ check: 'destructive_without_approval', severity: 'warning', stepId: step.id, message: `Step "${step.id}" uses ${step.tool} with approval turned off.`, recommendation: 'Keep approval on for steps that overwrite or delete files or run commands.' });
  }
  return issues;
}

/** True when `text` mentions a dependency by `{{results.<id>`, `$<id>` or its id as a word, ignoring case. */
function mentions(text: string, id: string): boolean {
  const lower = text.toLowerCase();
  const needle = id.toLowerCase();
  if (lower.includes(`{{results.${needle}`) || lower.includes(`$${needle}`)) return true;
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

function critiqueFromIssues(issues: CritiqueIssue[]): Critique {
  const count = (severity: CritiqueIssue['severity']): number => issues.filter((issue) => issue.severity === severity).length;
  const critical = count('critical');
  const warning = count('warning');
  const info = count('info');
  const raw = 10 - 3 * critical - warning - 0.5 * info;
  const score = Math.max(1, Math.sign(raw) * Math.floor(Math.abs(raw) + 0.5));
  const recommendations = [...new Set(issues.filter((issue) => issue.severity !== 'info' && issue.recommendation).map((issue) => issue.recommendation!))];
  const summary =
    issues.length === 0
      ? 'Score 10/10: no problems found.'
      : `Score ${score}/10: ${critical} critical, ${warning} warning${warning === 1 ? '' : 's'}, ${info} info.${critical > 0 ? ' The plan cannot run as it is.' : ''}`;
  return { score, issues, summary, recommendations };
}
