import { builtinTools } from '../tools/builtinTools';
import { effectTraits } from '../tools/effectTraits';
import type { ToolRegistry } from '../tools/tool';
import { toolEffectOf } from '../tools/toolEffectOf';
import { maxChecksPerStep } from '../../shared/vocabulary';
import { describeCheck } from './describeCheck';
import type { Check, Plan, Step } from './planSchema';

/** A finding of the critic about how a plan verifies its work. */
export interface VerificationFinding {
  check: 'unverified_change' | 'impossible_check' | 'check_without_retry' | 'check_cannot_fail';
  stepId: string;
  message: string;
  recommendation: string;
}

/** What the critic knows about the tools: names, a registry with declared effects, or (undefined) the built-in tools. */
export type ToolsForCritique = readonly string[] | ToolRegistry | undefined;

// What a model's step asks for when it means a change to the workspace.
const changeWords =
  /\b(?:write|create|add|implement|fix|refactor|update|edit|change|rename|modify|remove|delete|move|generate|replace|migrate|port|bump|upgrade|save|translate|insert|append|apply|patch|convert|rewrite|scaffold|document)\b/i;

let builtinNames: readonly string[] | undefined;

const unverifiedAdvice = 'Add a check to a step that changes files, e.g. run the tests after it (a command check) or check that the file it writes exists.';
const retryAdvice =
  'Set the step\'s "If a check fails" to retry (its Edit form in the plan panel; onVerificationFailure: "retry" in a plan file) when another attempt could pass its checks.';
const impossibleAdvice = 'Correct or remove a check that can never pass: the step would fail however well it did its work.';
const trivialAdvice = 'Check what the step must produce (e.g. result.answer.includes(...), a file_contains check, a command that tests it), or remove the check.';
// A predicate that is true whatever happened: `true`, `!false`, `1`, `(true)`, `return true;`.
const alwaysTrue = /^\(*\s*(?:return\s+)?(?:true|!\s*false|!\s*0|!!\s*1|1)\s*(?:\)+\s*)?;?$/;
// Programs that succeed whatever happened.
const alwaysSucceeds = new Set(['true', ':']);

/**
 * The critic's verification findings (docs/architecture.md §3), warnings all:
 * - `unverified_change`: an agent step whose agent can change files (one of its tools has a
 *   file-changing effect; the default agent has every tool) and whose text asks for a
 *   change, with no check, no verification predicate and no review, and no step after it
 *   (directly or through others) that checks the workspace: a command (a tool step that
 *   runs one, or a command or diagnostics check) or a person's review.
 * - `impossible_check`: checks that can never pass together, where that is cheap to see: a
 *   path checked both present and absent, a step that writes a path it checks absent or
 *   deletes a path it checks present. One finding per step.
 * - `check_without_retry`: a step retried on errors (`onFailure: retry`) whose checks or
 *   verification predicate stop it instead (`onVerificationFailure: stop`): its retries
 *   never come when a check fails, which is where a retry usually helps. A check broken on its own (a
 *   pattern, an empty command) and a step with more checks than `maxChecksPerStep` are
 *   `validatePlan`'s errors, not repeated here.
 * - `check_cannot_fail`: a verification predicate that is true whatever happened (`true`,
 *   `!false`, `1`) or a command check running `true` or `:` alone; such a check does not
 *   count as checking the step for `unverified_change`. One finding per step.
 * Linear in steps, edges and checks.
 */
export function verificationFindings(plan: Plan, tools: ToolsForCritique): VerificationFinding[] {
  const registry = tools !== undefined && !Array.isArray(tools) ? (tools as ToolRegistry) : undefined;
  const checkedLater = checkedLaterIds(plan, registry);
  const findings: VerificationFinding[] = [];
  for (const step of plan.steps) {
    if (step.kind === 'agent' && changesFiles(step, plan, tools, registry) && !checkedHere(step) && !checkedLater.has(step.id)) {
      findings.push({
        check: 'unverified_change',
        stepId: step.id,
        message: `Step "${step.id}" changes files but nothing checks its work.`,
        recommendation: unverifiedAdvice,
      });
    }
    if (step.onFailure === 'retry' && step.onVerificationFailure === 'stop' && ((step.checks ?? []).length > 0 || step.verification !== undefined)) {
      findings.push({
        check: 'check_without_retry',
        stepId: step.id,
        message: `Step "${step.id}" is retried when it fails, but a failed check or verification stops it (onVerificationFailure: stop).`,
        recommendation: retryAdvice,
      });
    }
    const trivial = trivialCheck(step);
    if (trivial !== undefined) findings.push({ check: 'check_cannot_fail', stepId: step.id, message: trivial, recommendation: trivialAdvice });
    const impossible = impossibleCheck(step, registry);
    if (impossible !== undefined) findings.push({ check: 'impossible_check', stepId: step.id, message: impossible, recommendation: impossibleAdvice });
  }
  return findings;
}

function checkedHere(step: Step): boolean {
  const predicate = step.verification !== undefined && !alwaysTrue.test(step.verification.trim());
  return (step.checks ?? []).some((check) => !cannotFail(check)) || predicate || step.review === true;
}

/** What makes a check of `step` one that cannot fail, in words, or `undefined`. */
function trivialCheck(step: Step): string | undefined {
  if (step.verification !== undefined && alwaysTrue.test(step.verification.trim())) {
    return `Step "${step.id}" verifies its result with "${step.verification.trim().slice(0, 40)}", which is true whatever the step did: it checks nothing.`;
  }
  const command = (step.checks ?? []).find(cannotFail);
  return command === undefined ? undefined : `Step "${step.id}" checks "${describeCheck(command)}", which succeeds whatever the step did: it checks nothing.`;
}

function cannotFail(check: Check): boolean {
  return (
    check.kind === 'command' &&
    check.argv.length === 1 &&
    alwaysSucceeds.has(check.argv[0]?.trim() ?? '') &&
    (check.expectExitCode ?? 0) === 0 &&
    check.outputContains === undefined
  );
}

/** True when the step checks the whole workspace for the steps before it: runs a command, checks diagnostics, or has a person review. */
function checksWorkspace(step: Step, registry: ToolRegistry | undefined): boolean {
  if (step.kind === 'human_review') return true;
  if (step.kind === 'tool' && toolEffectOf(step.tool ?? '', registry) === 'command') return true;
  return (step.checks ?? []).some((check) => (check.kind === 'command' && !cannotFail(check)) || check.kind === 'no_new_diagnostics');
}

/**
 * The ids of the steps that some step after them (a dependent, however deep) checks the
 * workspace for: every ancestor of such a step, found by one walk back from all of them.
 */
function checkedLaterIds(plan: Plan, registry: ToolRegistry | undefined): Set<string> {
  const byId = new Map(plan.steps.map((step) => [step.id, step]));
  const queue = plan.steps.filter((step) => checksWorkspace(step, registry)).flatMap((step) => step.dependsOn);
  const marked = new Set<string>();
  for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
    if (marked.has(id)) continue;
    marked.add(id);
    queue.push(...(byId.get(id)?.dependsOn ?? []));
  }
  return marked;
}

function changesFiles(step: Step, plan: Plan, tools: ToolsForCritique, registry: ToolRegistry | undefined): boolean {
  if (!changeWords.test(`${step.title} ${step.input ?? ''}`)) return false;
  const name = step.agent ?? 'default';
  const own = Object.hasOwn(plan.agents, name) ? plan.agents[name]?.tools : undefined;
  // An agent the plan does not define is validatePlan's finding; "direct" has no tools.
  const names = own ?? (name === 'default' ? allToolNames(tools) : []);
  return names.some((tool) => {
    const effect = toolEffectOf(tool, registry);
    return effect !== undefined && effectTraits[effect].changesFiles;
  });
}

function allToolNames(tools: ToolsForCritique): readonly string[] {
  builtinNames ??= builtinTools().map((tool) => tool.name);
  if (tools === undefined) return builtinNames;
  return Array.isArray(tools) ? (tools as readonly string[]) : (tools as ToolRegistry).names();
}

function impossibleCheck(step: Step, registry: ToolRegistry | undefined): string | undefined {
  const checks = step.checks ?? [];
  if (checks.length === 0 || checks.length > maxChecksPerStep) return undefined;
  const present = new Map<string, Check>();
  const absent = new Map<string, Check>();
  for (const check of checks) {
    if (check.kind === 'file_absent') absent.set(samePath(check.path), check);
    else if (check.kind === 'file_exists' || check.kind === 'file_contains') present.set(samePath(check.path), check);
  }
  for (const [path, check] of absent) {
    const other = present.get(path);
    if (other) return `Step "${step.id}" checks "${describeCheck(other)}" and "${describeCheck(check)}": both cannot pass.`;
  }
  const effect = step.kind === 'tool' ? toolEffectOf(step.tool ?? '', registry) : undefined;
  const target = typeof step.args?.['path'] === 'string' ? samePath(step.args['path']) : undefined;
  if (target !== undefined && effect === 'write' && absent.has(target)) {
    return `Step "${step.id}" writes a file it then checks is absent ("${describeCheck(absent.get(target)!)}"): the check cannot pass.`;
  }
  if (target !== undefined && effect === 'delete' && present.has(target)) {
    return `Step "${step.id}" deletes a file it then checks is there ("${describeCheck(present.get(target)!)}"): the check cannot pass.`;
  }
  return undefined;
}

/** `path` as the same file is named however it is written: without "./" segments, doubled or trailing slashes. */
function samePath(path: string): string {
  return path.replace(/\/{2,}/g, '/').replace(/(^|\/)(?:\.\/)+/g, '$1').replace(/\/$/, '');
}
