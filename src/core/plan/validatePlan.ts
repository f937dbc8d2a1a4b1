import { stepIdCharacter } from '../../shared/vocabulary';
import type { Tool, ToolRegistry } from '../tools/tool';
import { toolParameters } from '../tools/toolParameters';
import { checkLimitProblems } from './checkLimits';
import { checkProblems } from './checkProblems';
import { shownRef } from './attachmentTarget';
import { findCycles } from './findCycles';
import { issueWords } from './issueWords';
import { outputSchemaProblems } from '../tools/outputSchema';
import { builtinAgentNames, type Diagnostic, type Plan, type Step } from './planSchema';
import { predicateSyntaxError } from './predicateSyntax';
import { performedBy } from './stepKindTraits';
import { modelNameProblem } from '../llm/modelRoles';
import { unknownReferences } from './referencedDependencies';
import { pathArgumentProblems } from './pathArgumentProblems';
import { mcpToolRefOf } from '../mcp/mcpToolNames';

/** What `validatePlan` checks tools against: names only, or a registry with schemas. */
export interface ValidatePlanOptions {
  tools?: readonly string[] | ToolRegistry;
  /** The names of the skills the workspace's catalogue has; `Step.skills` is checked against them only when given. */
  skills?: readonly string[];
  /** The model names the run has configured (`configuredModels`); `Step.model` is checked against them only when given. */
  models?: readonly string[];
}

const templateLike = new RegExp(`\\{\\{\\s*results\\.|^\\$${stepIdCharacter}+$`);

/**
 * Returns every problem of `plan` at once (never fail-fast), errors and warnings, in a
 * stable order: plan-level problems first, then per step in plan order. Tool names and
 * arguments are checked only when `opts.tools` is given, skill names only when
 * `opts.skills` is.
 */
export function validatePlan(plan: Plan, opts: ValidatePlanOptions = {}): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const error = (code: Diagnostic['code'], message: string, stepId?: string): void => {
    diagnostics.push(stepId === undefined ? { code, severity: 'error', message } : { code, severity: 'error', stepId, message });
  };
  if (plan.steps.length === 0) error('empty_plan', 'The plan has no steps. Add at least one step.');

  const ids = new Set<string>();
  // Two ids that differ only in how their letters are encoded (é as one character or as e and an accent) are shown alike
  // everywhere a step is named: one would be taken for the other (an outside attack).
  const shownAs = new Map<string, string>();
  for (const step of plan.steps) {
    const shown = step.id.normalize('NFC');
    const alike = shownAs.get(shown);
    if (ids.has(step.id)) error('duplicate_id', `Step id "${step.id}" is used more than once; give each step its own id.`, step.id);
    else if (alike !== undefined) {
      const message = `Step ids "${alike}" and "${step.id}" look the same, and differ only in how their letters are encoded; give each step an id of its own.`;
      error('duplicate_id', message, step.id);
    }
    ids.add(step.id);
    if (alike === undefined) shownAs.set(shown, step.id);
  }

  const toolNames = opts.tools === undefined ? undefined : new Set(Array.isArray(opts.tools) ? opts.tools : (opts.tools as ToolRegistry).names());
  const registry = opts.tools !== undefined && !Array.isArray(opts.tools) ? (opts.tools as ToolRegistry) : undefined;

  for (const step of plan.steps) {
    for (const dep of step.dependsOn) {
      if (dep === step.id) error('self_dependency', `Step "${step.id}" depends on itself; remove "${dep}" from its dependencies.`, step.id);
      else if (!ids.has(dep)) {
        // Names the plan gives (a dependency, a tool, an agent) are quoted with shownRef: one bounded line whatever they hold,
        // since the CLI prints each message as one line of its own (a line break in one forged the CLI's lines).
        const shown = shownRef(dep);
        error(
          'missing_dependency',
          `Step "${step.id}" depends on "${shown}", which is not a step of this plan. Remove "${shown}" from its dependencies, or add a step "${shown}".`,
          step.id,
        );
      }
    }
    checkKindFields(step, error);
    for (const reference of unknownReferences(step, ids)) {
      diagnostics.push({
        code: 'unknown_reference',
        severity: 'warning',
        stepId: step.id,
        message: `Step "${step.id}" uses ${reference}, but no step of this plan has that id: it would stay as written. Correct the step id.`,
      });
    }
    const oversized = checkLimitProblems(step);
    for (const message of oversized) error('invalid_step', message, step.id);
    // Checks within the limits only: compiling 10,000 patterns of a megabyte each would stall the review.
    if (oversized.length === 0) for (const problem of checkProblems(step)) error('invalid_step', problem, step.id);
    if (step.kind === 'tool' && step.tool !== undefined && toolNames) {
      if (!toolNames.has(step.tool)) {
        error(
          'unknown_tool',
          `Step "${step.id}" uses tool "${shownRef(step.tool)}", which is not available.${missingServerNote(step.tool, toolNames)} Choose one of: ${[...toolNames].sort().join(', ') || 'none'}.`,
          step.id,
        );
      } else if (registry) {
        const tool = registry.get(step.tool);
        const message = tool ? argumentProblems(tool, step.args ?? {}) : undefined;
        if (tool && message) error('invalid_args', `Step "${step.id}": arguments for "${step.tool}" are invalid: ${message}. ${argumentHelp(tool)}`, step.id);
      }
    }
    for (const problem of pathArgumentProblems(step)) error('invalid_args', problem, step.id);
    if (step.kind === 'agent') {
      const agent = step.agent ?? 'default';
      if (!(builtinAgentNames as readonly string[]).includes(agent) && !Object.hasOwn(plan.agents, agent)) {
        error(
          'missing_agent',
          `Step "${step.id}" uses agent "${shownRef(agent)}", which the plan's agents do not define. Use the agent "default", or add "${shownRef(agent)}" to the plan's agents.`,
          step.id,
        );
      }
    }
    checkVerificationFields(step, error);
    checkSkills(step, opts.skills, error);
    checkModel(step, opts.models, error);
    for (const field of ['verification', 'when'] as const) {
      const expression = step[field];
      if (expression === undefined) continue;
      const problem = predicateSyntaxError(expression);
      if (problem) {
        error(
          'invalid_predicate',
          `Step "${step.id}": the ${field} predicate is not a valid JavaScript expression (${problem}). Correct it, or clear the field.`,
          step.id,
        );
      }
    }
  }

  if (toolNames) {
    for (const [name, agent] of Object.entries(plan.agents)) {
      for (const tool of agent.tools) {
        if (!toolNames.has(tool)) {
          diagnostics.push({
            code: 'unknown_tool',
            severity: 'warning',
            message: `Agent "${shownRef(name)}" lists tool "${shownRef(tool)}", which is not available; it will not be offered.`,
          });
        }
      }
    }
  }

  for (const cycle of findCycles(plan.steps)) {
    if (cycle.length === 1) continue; // reported as self_dependency above
    error(
      'cycle',
      `Steps form a dependency cycle: ${[...cycle, cycle[0]].join(' → ')} (each step depends on the next). Remove one of these dependencies.`,
      cycle[0],
    );
  }
  return diagnostics;
}

function checkKindFields(step: Step, error: (code: Diagnostic['code'], message: string, stepId?: string) => void): void {
  if (step.kind === 'tool' && (step.tool === undefined || step.tool.trim() === '')) {
    error('invalid_step', `Step "${step.id}" is a tool step but names no tool; set "tool" or make it an agent step.`, step.id);
  }
  if (step.kind === 'manual' && (step.input ?? '').trim() === '' && step.title.trim() === '') {
    error('invalid_step', `Step "${step.id}" is yours to do but says nothing about what to do; write the instructions in its input.`, step.id);
  }
}

/** An output schema only where a model answers (agents, gates) and only a usable one; a review only of work a tool or a model did. */
function checkVerificationFields(step: Step, error: (code: Diagnostic['code'], message: string, stepId?: string) => void): void {
  if (step.outputSchema !== undefined) {
    if (!performedBy(step.kind, 'model')) {
      error(
        'invalid_output_schema',
        `Step "${step.id}" has an output schema, but only agent and synthesis-gate steps produce their result to one; remove it, or make the step an agent step.`,
        step.id,
      );
    } else {
      const problems = outputSchemaProblems(step.outputSchema);
      if (problems.length > 0) {
        error(
          'invalid_output_schema',
          `Step "${step.id}": its output schema is not a usable JSON Schema: ${problems.join('; ')}. Correct it, or remove it.`,
          step.id,
        );
      }
    }
  }
  if (step.review === true && performedBy(step.kind, 'person')) {
    error('invalid_step', `Step "${step.id}" asks for a model's review, but a person does this step; remove "review" from it.`, step.id);
  }
}

function checkSkills(step: Step, known: readonly string[] | undefined, error: (code: Diagnostic['code'], message: string, stepId?: string) => void): void {
  if (step.skills === undefined || step.skills.length === 0) return;
  if (step.kind !== 'agent') {
    error('invalid_step', `Step "${step.id}" names skills, but only agent steps use them; remove "skills" from it, or make it an agent step.`, step.id);
    return;
  }
  if (known === undefined) return;
  const unknown = step.skills.filter((name) => !known.includes(name));
  if (unknown.length === 0) return;
  const available = known.length === 0 ? 'this workspace has none (see the README on adding skills)' : `available: ${[...new Set(known)].sort().join(', ')}`;
  error(
    'unknown_skill',
    `Step "${step.id}" uses the skill${unknown.length === 1 ? '' : 's'} ${unknown.map((name) => `"${shownRef(name)}"`).join(', ')}, which ${unknown.length === 1 ? 'is' : 'are'} not in the catalogue; ${available}.`,
    step.id,
  );
}

function checkModel(step: Step, known: readonly string[] | undefined, error: (code: Diagnostic['code'], message: string, stepId?: string) => void): void {
  if (step.model === undefined) return;
  if (!performedBy(step.kind, 'model')) {
    error('invalid_step', `Step "${step.id}" names a model, but no model does this step; remove "model" from it.`, step.id);
    return;
  }
  const problem = modelNameProblem(step.model);
  if (problem !== undefined) {
    error('unknown_model', `Step "${step.id}" names the model "${shownRef(step.model)}": ${problem}.`, step.id);
    return;
  }
  if (known === undefined || known.includes(step.model)) return;
  error(
    'unknown_model',
    `Step "${step.id}" asks for the model "${shownRef(step.model)}", which is not set up for this run; set up: ${known.map((name) => `"${shownRef(name)}"`).join(', ') || 'none'}. Name one of them, remove "model" to use the run's agent model, or add it to the role settings.`,
    step.id,
  );
}

function argumentProblems(tool: Tool, args: Record<string, unknown>): string | undefined {
  const parsed = tool.inputSchema.safeParse(args);
  if (parsed.success) return undefined;
  // Values filled in from earlier results at run time cannot be checked now.
  const issues = parsed.error.issues.filter((issue) => !isTemplateAt(args, issue.path));
  // Stryker disable next-line ConditionalExpression: joining no issues gives '', which the caller treats as no problem too
  if (issues.length === 0) return undefined;
  // Said as the person who typed the arguments knows them ("content is missing"), not as the schema words it.
  const names = Object.keys((toolParameters(tool) as { properties?: Record<string, unknown> }).properties ?? {});
  return issues.map((issue) => issueWords(issue, args, 'argument', names)).join('; ');
}

function isTemplateAt(args: unknown, path: readonly PropertyKey[]): boolean {
  let value: unknown = args;
  for (const key of path) {
    // Stryker disable next-line ConditionalExpression,LogicalOperator,BooleanLiteral: zod reports no path below a value that is not an object, so the walk never meets one
    if (value === null || typeof value !== 'object') return false;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return typeof value === 'string' && templateLike.test(value);
}

/** "read_file takes: path (required), startLine, endLine." from the tool's input schema. */
function argumentHelp(tool: Tool): string {
  const schema = toolParameters(tool) as { properties?: Record<string, unknown>; required?: string[] };
  const names = Object.keys(schema.properties ?? {});
  if (names.length === 0) return `Edit the step's arguments to what "${tool.name}" expects.`;
  // Stryker disable next-line ArrayDeclaration: a schema without `required` names no property that a placeholder entry could match
  const required = new Set(schema.required ?? []);
  return `"${tool.name}" takes: ${names.map((name) => (required.has(name) ? `${name} (required)` : name)).join(', ')}.`;
}

/**
 * For a tool of an MCP server (`mcp__<server>__<tool>`) when that server offers no tool at all: said before the long
 * list of choices, since the whole server is missing (renamed or removed from its configuration, or not started), and
 * the same tool of another server, which may be its new name. Empty for any other tool.
 */
function missingServerNote(tool: string, available: ReadonlySet<string>): string {
  const missing = mcpToolRefOf(tool);
  if (!missing) return '';
  const offered = [...available].flatMap((name) => {
    const ref = mcpToolRefOf(name);
    return ref ? [{ name, ...ref }] : [];
  });
  if (offered.some((ref) => ref.server === missing.server)) return '';
  const server = shownRef(missing.server);
  const elsewhere = missing.tool === '' ? [] : offered.filter((ref) => ref.tool === missing.tool).map((ref) => ref.name).sort().slice(0, 3);
  return (
    ` No tool of the MCP server "${server}" is offered now: it is not in the configuration any more (renamed or removed), was not allowed to start, or did not start ("Task Planner: MCP servers" in the editor, "task-planner tools" on the command line, say which).` +
    (elsewhere.length > 0 ? ` The same tool of another server: ${elsewhere.join(', ')}.` : '')
  );
}
