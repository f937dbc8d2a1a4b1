import { attemptLimit } from './attemptLimit';
import { effectTraits } from '../tools/effectTraits';
import type { ToolRegistry } from '../tools/tool';
import { toolEffectOf } from '../tools/toolEffectOf';
import { wordsAsCommandFindings } from './commandWordsFindings';
import { downloadIntoShellFindings } from './downloadIntoShellFindings';
import { critiqueIssue as issue, issueWeight, type CritiqueIssue } from './critiqueFindings';
import { planLevels } from './planLevels';
import type { Plan, Step } from './planSchema';
import { skippedInputFindings } from './skippedInputFindings';
import { unorderedChangeFindings } from './unorderedChangeFindings';
import { performedBy } from './stepKindTraits';
import { validatePlan } from './validatePlan';
import { verificationFindings } from './verificationFindings';
import { withheldHint, withheldReason } from '../tools/withheldFiles';
import { mcpToolRefOf } from '../mcp/mcpToolNames';
import { normalizeWorkspacePath } from '../workspace/resolveInRoot';
import { importedFrom } from './originTick';
import { saysOutside } from './outsideWords';

export { checkName, type CritiqueCheck, type CritiqueIssue } from './critiqueFindings';

/** What the critic knows about the run it reviews for: the same tools the run gets and, when known, the workspace's trust. */
export interface CritiquePlanOptions {
  /**
   * The tools of the run (names, or a registry with schemas). What a tool does comes from
   * the registry's declared effects, or without one from the built-in tool of that name.
   */
  tools?: readonly string[] | ToolRegistry;
  /**
   * Whether the workspace is trusted: `false` (Restricted Mode) flags the steps whose tools
   * it refuses (`refused_untrusted`); `undefined` (the CLI, or not known) flags none.
   */
  trusted?: boolean | undefined;
}

/** Largest number of steps a level may hold before the plan counts as a parallel explosion. */
export const maxParallelSteps = 10;
/** A level this wide wants a synthesis gate somewhere after it. */
export const gateWorthyLevelSize = 3;
/** The best score of a plan with a validation error: it cannot start as it is. */
export const maxScoreWithErrors = 3;

/** The critic's verdict: a score from 1 to 10, every finding, and what to do about them. */
export interface Critique {
  score: number;
  issues: CritiqueIssue[];
  summary: string;
  recommendations: string[];
}

// A command is not an outside reason: a missing program or a red test suite fails the same way again.
const flakyToolNames = /^(?:fetch_url|mcp__.*|vscode__.*)$/;
const readOnlyToolNames = new Set(['read_file', 'list_files', 'search_text', 'get_diagnostics', 'find_symbols', 'find_references', 'go_to_definition']);
const separators = /[\s"'`.,;:!?()[\]{}]+/g;

/**
 * Reviews a plan statically (docs/architecture.md §3). Every `validatePlan` error (against `options.tools`,
 * as the run checks it) is a critical finding under its code and caps the score at
 * `maxScoreWithErrors`; then the critic's own checks. Score max(1, round(10 − the findings'
 * weights)), rounding half away from zero: 3 a critical finding, 1 a warning, 0.5 an info,
 * unless its check weighs otherwise (`issueWeight`). A dependency of a tool, manual,
 * review or question step, or on a step that changes files or runs a command, orders the
 * work and need not be referenced. Then how the plan verifies its work
 * (`verificationFindings`: a change nothing checks, a check that cannot pass or cannot
 * fail), as warnings. Pure and linear in steps + edges (plus the validation).
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
  const registry = options.tools !== undefined && !Array.isArray(options.tools) ? (options.tools as ToolRegistry) : undefined;

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
    const combined = upstreamOfGates(plan, byId);
    // A step whose work is what it changes (a write, a command, your own step) has no result to combine or to use; nor has one the run skips.
    const byEffect = new Set(plan.steps.filter((step) => step.skipped === true || worksByEffect(step, registry)).map((step) => step.id));
    levels.levels.forEach((level, index) => {
      const uncombined = level.filter((id) => !combined.has(id) && !byEffect.has(id));
      if (uncombined.length >= gateWorthyLevelSize) {
        issues.push(
          issue(
            'missing_gate',
            'warning',
            uncombined[0],
            `Level ${index} has ${level.length} parallel steps and no synthesis gate after ${uncombined.length === level.length ? 'them' : `${uncombined.join(', ')}`} to combine their results.`,
            'Add a synthesis_gate step that depends on the parallel steps to condense their results.',
          ),
        );
      }
    });
    const dependedOn = new Set(plan.steps.flatMap((step) => step.dependsOn));
    const lastLevel = new Set(levels.levels[levels.levels.length - 1] ?? []);
    for (const step of plan.steps) {
      if (!lastLevel.has(step.id) && !dependedOn.has(step.id) && !byEffect.has(step.id)) {
        issues.push(
          issue(
            'orphan_step',
            'info',
            step.id,
            `Nothing uses the result of step "${step.id}", and it is not among the steps that finish the plan.`,
            'Make a later step depend on it, or remove it.',
          ),
        );
      }
    }
  }

  for (const step of plan.steps) {
    issues.push(...stepChecks(step, ids, byId, registry, options.trusted));
  }
  for (const found of wordsAsCommandFindings(plan, registry)) {
    issues.push(
      issue(
        'words_as_command',
        'critical',
        found.stepId,
        `Step "${found.stepId}" runs \`${found.line}\`: ${found.words.map((word) => `"${word}"`).join(', ')} ${found.words.length === 1 ? 'is an English word' : 'are English words'}, not arguments the program takes, so the command fails or does something else.`,
        'Write the exact command line (a backticked command in the request gives one), or make the step a manual one that names the program.',
      ),
    );
  }
  for (const found of downloadIntoShellFindings(plan, registry)) {
    issues.push(
      issue(
        'download_into_shell',
        'critical',
        found.stepId,
        `Step "${found.stepId}" runs what a download sends (\`${found.command}\`): what runs is whatever the server sends then, which this review does not show. A file read while planning may have asked for it.`,
        'Remove the step unless you asked for it; otherwise download the script to a file in one step, read it, and run that file in another.',
      ),
    );
  }
  for (const found of skippedInputFindings(plan, registry)) {
    issues.push(issue('skipped_input', found.kind === 'fix' ? 'critical' : 'warning', found.stepId, found.message, found.recommendation));
  }
  for (const found of unorderedChangeFindings(plan, registry)) {
    issues.push(issue('unordered_changes', 'warning', found.stepId, found.message, found.recommendation));
  }
  const restated = restatedRequest(plan);
  if (restated !== undefined) issues.push(restated);
  for (const found of verificationFindings(plan, options.tools)) issues.push(issue(found.check, 'warning', found.stepId, found.message, found.recommendation));
  // A step the run skips (done already, as an imported ticked task is) does nothing that can go wrong: only what stops the plan is said of it.
  const skipped = new Set(plan.steps.filter((step) => step.skipped === true).map((step) => step.id));
  return critiqueFromIssues(
    issues.filter((found) => found.blocking === true || found.stepId === undefined || !skipped.has(found.stepId)),
    blocked,
  );
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

/** The ids of the steps some synthesis gate depends on, directly or through others: one walk back from every gate. */
function upstreamOfGates(plan: Plan, byId: ReadonlyMap<string, Step>): Set<string> {
  const queue = plan.steps.filter((step) => step.kind === 'synthesis_gate').flatMap((step) => step.dependsOn);
  const marked = new Set<string>();
  for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
    if (marked.has(id)) continue;
    marked.add(id);
    queue.push(...(byId.get(id)?.dependsOn ?? []));
  }
  return marked;
}

/**
 * `restated_request`: a plan of one step for a person whose text is the request itself
 * (ignoring case, spacing and punctuation): nothing in it is broken down, done or checked.
 */
function restatedRequest(plan: Plan): CritiqueIssue | undefined {
  const [only] = plan.steps;
  if (plan.steps.length !== 1 || only?.kind !== 'manual') return undefined;
  const request = words(plan.objective);
  const said = [only.input ?? '', only.title].map(words);
  if (request === '' || !said.some((text) => text !== '' && (text.includes(request) || request.includes(text)))) return undefined;
  return issue(
    'restated_request',
    'warning',
    only.id,
    `The plan is one step for you that says what the request says: nothing in it is broken down, done for you or checked.`,
    'Set up a model, or write the request as separate steps (a list, a backticked command, the files to read or change) so the planner can break it down.',
  );
}

/** The path a `read_file` tool step names, normalised, with why tools never read it (`withheldReason`). */
function withheldRead(step: Step): { path: string; reason: string } | undefined {
  const path = step.kind === 'tool' && step.tool === 'read_file' && typeof step.args?.['path'] === 'string' ? step.args['path'] : undefined;
  if (path === undefined) return undefined;
  let plain: string;
  try {
    plain = normalizeWorkspacePath(path);
  } catch {
    // A path the run refuses anyway: the validation's finding, not this one.
    return undefined;
  }
  const reason = withheldReason(plain);
  return reason === undefined ? undefined : { path: plain, reason };
}

function words(text: string): string {
  return text.toLowerCase().replace(separators, ' ').trim();
}

function stepChecks(step: Step, ids: Set<string>, byId: Map<string, Step>, registry: ToolRegistry | undefined, trusted: boolean | undefined): CritiqueIssue[] {
  const issues: CritiqueIssue[] = [];
  const halts = step.onFailure === 'stop' || step.onFailure === 'retry';
  const outside = step.critical && halts ? outsideDependency(step, registry) : undefined;
  if (outside !== undefined) {
    const fails = step.onFailure === 'retry' ? `if it still fails after its ${attemptLimit(step, 'retry')} attempts` : 'if it fails';
    issues.push(
      issue(
        'optimism_bias',
        'warning',
        step.id,
        `Step "${step.id}" ${outside} and is critical: ${fails}, the whole run stops.`,
        'Make steps that reach outside the workspace non-critical ("critical": false) when the plan can do without them, or give them onFailure "replan"; "retry" helps only with a short outage.',
      ),
    );
  }
  const withheld = withheldRead(step);
  if (withheld !== undefined) {
    const stops = step.critical && step.onFailure !== 'skip';
    issues.push(
      issue(
        'withheld_read',
        stops ? 'critical' : 'warning',
        step.id,
        `Step "${step.id}" reads ${withheld.path}, which tools refuse: ${withheld.reason}. The step fails${stops ? ' and the run stops there' : ''}.`,
        withheldHint(withheld.path),
      ),
    );
  }
  const refused = trusted === false ? refusedTools(step, registry) : [];
  if (refused.length > 0) {
    issues.push(
      issue(
        'refused_untrusted',
        step.critical && step.onFailure !== 'skip' ? 'critical' : 'warning',
        step.id,
        `Step "${step.id}" ${refused.join(' and ')}, which Restricted Mode refuses in this untrusted workspace: ${step.critical && step.onFailure !== 'skip' ? 'the run stops there' : 'the step is skipped'}.`,
        'Trust the workspace (Workspaces: Manage Workspace Trust) before starting, or do the step yourself (make it a manual step).',
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

/** What `step` does that Restricted Mode refuses: its tool, and the commands of its checks (run through `run_command`). */
function refusedTools(step: Step, registry: ToolRegistry | undefined): string[] {
  const refused: string[] = [];
  const effect = step.kind === 'tool' ? toolEffectOf(step.tool ?? '', registry) : undefined;
  if (effect !== undefined && effectTraits[effect].needsTrust) refused.push(`uses ${step.tool ?? ''}`);
  if ((step.checks ?? []).some((check) => check.kind === 'command')) refused.push('checks its work with a command');
  return refused;
}

/**
 * What outside the plan and the workspace `step` depends on, in words after its id ("calls the tool … of the MCP server
 * …"), when it can fail for such a reason: a tool step by what its tool does, a model's step by what its text says, a
 * person's step never.
 */
function outsideDependency(step: Step, registry: ToolRegistry | undefined): string | undefined {
  if (performedBy(step.kind, 'person')) return undefined;
  if (!performedBy(step.kind, 'tool')) {
    const reaches = saysOutside(`${step.input ?? ''}\n${step.title}`);
    return reaches ? "depends on something outside the workspace (the network, a web search, another service's API)" : undefined;
  }
  const tool = step.tool ?? '';
  const effect = toolEffectOf(tool, registry);
  if (effect === undefined ? !flakyToolNames.test(tool) : !effectTraits[effect].transient) return undefined;
  const mcp = mcpToolRefOf(tool);
  if (mcp) return `calls the tool "${mcp.tool}" of the MCP server "${mcp.server}" (another program: it can stop, time out or fail on its own)`;
  if (effect === 'network' || tool === 'fetch_url') return `reaches the network (${tool}: it can be down or slow)`;
  return `calls "${tool}" (another extension's tool: it can fail on its own)`;
}

/**
 * True when `dep` is there for order, not for its result: every dependency of a step that is
 * not a model's (a tool call takes no text input, a person reads what they need), of a step
 * imported from a task file (its dependencies are the file's order: `importedFrom`), a person's
 * step, a tool step that changes something (read before write, write before run), and an agent
 * step that says which files it changes (`writes`: its work is the change, as a write's is).
 */
function ordersOnly(step: Step, dep: Step | undefined, registry: ToolRegistry | undefined): boolean {
  if (!performedBy(step.kind, 'model') || dep === undefined || dep.kind === 'manual') return true;
  if (importedFrom(step.input ?? '') !== undefined) return true;
  if (dep.kind === 'agent') return (dep.writes?.length ?? 0) > 0;
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

/**
 * A critique's summary without the score it starts with ("Score 9/10: 0 critical, …" → "0 critical, …"), for a view that
 * shows the score beside it (the panel read "Critic: 9/10" then "Score 9/10: …"). A summary not so started is as it is.
 */
export function critiqueVerdict(critique: Pick<Critique, 'score' | 'summary'>): string {
  const scored = `Score ${critique.score}/10: `;
  if (!critique.summary.startsWith(scored)) return critique.summary;
  const rest = critique.summary.slice(scored.length);
  return `${rest.charAt(0).toUpperCase()}${rest.slice(1)}`;
}

function critiqueFromIssues(issues: CritiqueIssue[], blocked: boolean): Critique {
  const count = (severity: CritiqueIssue['severity']): number => issues.filter((issue) => issue.severity === severity).length;
  const critical = count('critical');
  const warning = count('warning');
  const info = count('info');
  const raw = issues.reduce((left, issue) => left - issueWeight(issue), 10);
  const rounded = Math.max(1, Math.sign(raw) * Math.floor(Math.abs(raw) + 0.5));
  const score = blocked ? Math.min(rounded, maxScoreWithErrors) : rounded;
  const recommendations = [...new Set(issues.filter((issue) => issue.severity !== 'info' && issue.recommendation).map((issue) => issue.recommendation!))];
  const summary =
    issues.length === 0
      ? // Not an assurance: a trial read "Critic 10/10" as the plan being right.
        'Score 10/10: no problems found in how the plan is built. The critic does not judge whether its steps do what you asked.'
      : `Score ${score}/10: ${critical} critical, ${warning} warning${warning === 1 ? '' : 's'}, ${info} info.${blocked ? ' The plan cannot start until its errors are fixed.' : critical > 0 ? ' The plan cannot run well as it is.' : ''}`;
  return { score, issues, summary, recommendations };
}

/** Whether `step`'s work is what it changes rather than a result: a tool step that writes, deletes or runs something, or a manual step. */
function worksByEffect(step: Step, registry: ToolRegistry | undefined): boolean {
  // An agent's step that says which files it changes works by them too: a trial's step writing README.md read "Result
  // never used".
  if (step.kind === 'manual' || (step.writes?.length ?? 0) > 0) return true;
  const effect = step.kind === 'tool' ? toolEffectOf(step.tool ?? '', registry) : undefined;
  return effect !== undefined && effectTraits[effect].changes;
}
