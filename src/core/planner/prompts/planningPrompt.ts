import { checkKinds, type CheckKind } from '../../../shared/vocabulary';
import { modelPlannedStepKinds, type Attachment } from '../../plan/planSchema';
import { performedBy, stepKindTraits } from '../../plan/stepKindTraits';
import type { PlanningStrategy } from '../../session/planningPrompt';
import type { LlmContentPart, LlmMessage } from '../../llm/llmTypes';
import { countTokens, truncateToTokens } from '../../llm/tokenCount';
import { plannerSkillCatalogue, type SkillSummary } from '../../capabilities/plannerCatalogue';
import type { Instruction } from '../../capabilities/capabilityCatalogue';
import { projectConventions } from '../../capabilities/projectConventions';

/** A tool as the planner describes it to the model; `parameters` is JSON Schema. */
export interface PlannerToolInfo {
  name: string;
  description: string;
  parameters?: Record<string, unknown>;
}

/** What the planner may know about the open workspace. Everything is optional. */
export interface WorkspaceSnapshot {
  /** A display name of the root. */
  rootLabel?: string;
  /** Workspace-relative file paths. */
  files?: readonly string[];
  /** Files open in editors, with (part of) their text when available. */
  openFiles?: readonly { path: string; text?: string }[];
  /** What the request carries: links, images (`data:` or http(s) URLs are sent as image parts), files. */
  attachments?: readonly Attachment[];
}

/** Inputs of the planning prompt. */
export interface PlanningPromptInput {
  objective: string;
  tools: readonly PlannerToolInfo[];
  strategy: PlanningStrategy;
  workspace?: WorkspaceSnapshot | undefined;
  /** The user's feedback on an earlier plan (Regenerate). */
  feedback?: string | undefined;
  /** Token budget of the whole workspace section (default 3 000). */
  snapshotTokenBudget?: number | undefined;
  /** The workspace's skills the plan's agent steps may name (`plannerSkillCatalogue`). */
  skills?: readonly SkillSummary[] | undefined;
  /** The project's instruction files (`projectConventions`): their commands shape the plan's command steps and checks. */
  instructions?: readonly Instruction[] | undefined;
}

/** Guidance per strategy (the `taskPlanner.strategy` setting); the rest of the prompt is the same for all of them. */
export const strategyGuidance: Readonly<Record<PlanningStrategy, string>> = {
  react:
    'Strategy: reason and act. Prefer small steps that each do one thing and produce an observable result; read or search before you write; let later steps use earlier results through templates.',
  plan_act_reflect:
    'Strategy: plan, act, reflect. Lay out the whole approach first; after each group of changes add a synthesis_gate step that reflects on the results against the objective; give steps a verification predicate wherever success can be checked.',
  goal_decompose_route_synthesise:
    'Strategy: decompose, route, synthesise. Break the goal into concrete sub-problems before assigning tools to each one: split the objective into independent sub-goals; route each to an agent defined in "agents" with only the tools it needs; let independent sub-goals run in parallel (no needless dependencies); finish with a synthesis_gate that depends on every branch and combines their results.',
};

const defaultSnapshotBudget = 3_000;

/** The fields of each kind of check as the planner is told them (every kind of the vocabulary, so a new one is taught). */
const checkFields: Readonly<Record<CheckKind, string>> = {
  file_exists: '{path}',
  file_absent: '{path}',
  file_contains: '{path, text?, pattern?}',
  command: '{argv, cwd?, expectExitCode? (default 0), outputContains?}',
  no_new_diagnostics: '{paths? (default: the changed files)}',
};

/** How the planner turns the usual shapes of a request into steps (the heuristic planner does the same without a model). */
const requestPatterns = `- A list of instructions runs in its order (each step depends on the one before) unless clearly independent (different files, \
"in parallel"); a command or test step depends on the changes before it. A question in the objective is a clarification step the work after it depends on.
- "argv" holds the program and real arguments only, never words of the request ("run mypy on src": ["mypy","src"]).
- Run the tests and fix what fails: a run_command step with "allowFailure": true (it returns {exitCode, stdout, stderr}); the fix depends on it, \
reads {{results.ID.stdout}}, has a command check running the tests again and "when": "depends.ID.exitCode !== 0 || 'the tests passed'" \
(not needed after a pass). A dependent of a failed or skipped step is skipped.`;

const planRules = `You are the planner of Task Planner, a VS Code extension that executes plans against the user's workspace.
Turn the user's objective into a plan: a JSON object {"objective", "agents"?, "steps"}.
Rules for steps:
- "id": short unique ids such as "S001", "S002"; "title": a few words; "dependsOn": ids of steps whose results this step needs (no cycles).
- "kind": ${modelPlannedStepKinds.map((kind) => stepKindTraits[kind].forPlanner).join('; ')}.
- Refer to an earlier step's result with {{results.ID}} (or {{results.ID.key}}) in "input" or "args"; an arg whose whole value is "$ID" receives that result \
as it is.
- "checks": what the host checks in the workspace after the step, all required: ${checkKinds.map((kind) => `${kind} ${checkFields[kind]}`).join(', ')}; \
e.g. [{"kind":"command","argv":["npm","test"]}].
- "outputSchema" (${wordList(modelPlannedStepKinds.filter((kind) => performedBy(kind, 'model')))} steps): a JSON Schema the answer must match, \
parsed into the result, e.g. {"type":"object","properties":{"city":{"type":"string"}}}.
- "verification": an optional JavaScript expression over input, result, depends and checks, true when the step succeeded or a string saying \
what is wrong, e.g. result.city === depends.S001.city. An agent's result is {"answer", "changes"} (test result.answer) or its outputSchema's object.
- Include verification: check that a file exists after writing it, run the tests after changing code.
- "onFailure": "stop" (default), "skip", "retry" (with "maxAttempts") or "replan"; "critical": false when the run can do without the step.
- "writes": files a step may change (["src/a.ts"], ["docs/**"]); overlapping steps run in turn, a writing step without it runs alone.
- Use only the tools listed below. Writes, edits, deletes and commands are approved by the user before they happen.
- Keep the plan as short as the objective allows. Ask a clarification step only when the objective is truly ambiguous.
${requestPatterns}`;

/**
 * The planning conversation (docs/architecture.md §5): a system message with the plan rules, the tools
 * with their schemas, the workspace's skills (names, tags, descriptions), the project's
 * conventions (its instruction files, bounded) and the strategy's guidance; a user message with the objective, the
 * workspace snapshot (file tree summary, open files, attachments) bounded to
 * `snapshotTokenBudget` tokens, and any feedback. Images among the attachments become image
 * parts. Deterministic for equal inputs.
 */
export function buildPlanningPrompt(input: PlanningPromptInput): LlmMessage[] {
  const tools = input.tools.length === 0
    ? `No tools are available: use only ${wordList(modelPlannedStepKinds.filter((kind) => kind !== 'tool'))} steps.`
    : input.tools.map((tool) => `- ${tool.name}: ${tool.description}${tool.parameters ? `\n  parameters: ${JSON.stringify(tool.parameters)}` : ''}`).join('\n');
  const skills = plannerSkillCatalogue(input.skills ?? []);
  const conventions = projectConventions(input.instructions ?? [], 'plan');
  const system = `${planRules}\n\nAvailable tools:\n${tools}\n\n${[skills, conventions].filter((part) => part !== '').map((part) => `${part}\n\n`).join('')}${strategyGuidance[input.strategy]}\n\nReply with the plan as JSON only.`;

  const sections = [`Objective:\n${input.objective.trim()}`];
  const snapshot = input.workspace ? renderWorkspace(input.workspace, input.snapshotTokenBudget ?? defaultSnapshotBudget) : '';
  if (snapshot !== '') sections.push(snapshot);
  if (input.feedback?.trim()) sections.push(`Feedback on the previous plan (take it into account):\n${input.feedback.trim()}`);
  const text = sections.join('\n\n');

  const images = (input.workspace?.attachments ?? []).filter(
    (attachment) => attachment.kind === 'image' && /^(data:image\/|https?:\/\/)/i.test(attachment.ref),
  );
  const content: string | LlmContentPart[] =
    images.length === 0 ? text : [{ type: 'text', text }, ...images.map((image): LlmContentPart => ({ type: 'image', url: image.ref }))];
  return [
    { role: 'system', content: system },
    { role: 'user', content },
  ];
}

/**
 * The workspace section within `budget` tokens: 40 % file tree (file counts per folder two
 * levels deep, then
 * as many paths as fit), 45 % open files (shared equally, each cut by tokens), 15 %
 * attachments. Unused shares are not redistributed, so the bound is simple and strict.
 */
export function renderWorkspace(workspace: WorkspaceSnapshot, budget: number): string {
  const parts: string[] = [];
  const files = workspace.files ?? [];
  if (workspace.rootLabel) parts.push(`Workspace: ${workspace.rootLabel}`);
  if (files.length > 0) parts.push(renderTree(files, Math.floor(budget * 0.4)));
  const open = workspace.openFiles ?? [];
  if (open.length > 0) {
    const each = Math.floor((budget * 0.45) / open.length);
    const rendered = open.map((file) =>
      file.text === undefined
        ? `- ${file.path}`
        : `--- ${file.path}\n${truncateToTokens(file.text, Math.max(0, each - countTokens(file.path) - 4), { marker: '\n… (cut)' })}`,
    );
    parts.push(`Open editors:\n${rendered.join('\n')}`);
  }
  const attachments = workspace.attachments ?? [];
  if (attachments.length > 0) {
    const list = attachments
      .map(
        (attachment) =>
          `- ${attachment.kind}: ${attachment.label ? `${attachment.label} ` : ''}${attachment.kind === 'image' && attachment.ref.startsWith('data:') ? '(image data attached)' : attachment.ref}`,
      )
      .join('\n');
    parts.push(`Attachments:\n${truncateToTokens(list, Math.floor(budget * 0.15), { marker: '\n… (more attachments)' })}`);
  }
  return truncateToTokens(parts.join('\n\n'), budget, { marker: '\n… (workspace summary cut)' });
}

function renderTree(files: readonly string[], budget: number): string {
  const full = `Files (${files.length}):\n${files.join('\n')}`;
  if (countTokens(full) <= budget) return full;
  const counts = new Map<string, number>();
  for (const file of files) {
    const segments = file.split('/');
    const top = segments.length === 1 ? '(root)' : `${segments.slice(0, Math.min(2, segments.length - 1)).join('/')}/`;
    counts.set(top, (counts.get(top) ?? 0) + 1);
  }
  const summary = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([folder, count]) => `${folder} ${count}`).join(', ');
  const head = truncateToTokens(`Files (${files.length}) by folder: ${summary}`, Math.floor(budget / 3), { marker: ' …' });
  const paths = truncateToTokens(files.join('\n'), budget - countTokens(head) - 8, { marker: '\n… (more files)' });
  return `${head}\nSome paths:\n${paths}`;
}

/** "a, b and c". */
function wordList(words: readonly string[]): string {
  return words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]!}`;
}
