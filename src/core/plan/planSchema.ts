import { z } from 'zod';
import {
  failurePolicies,
  maxChecksPerStep,
  maxStepIdLength,
  maxWritePatternLength,
  maxWritePatterns,
  stepKinds,
  unprintableInStepId,
  type CheckKind,
  type StepKind,
} from '../../shared/vocabulary';
import { stepKindTraits } from './stepKindTraits';
import { maxModelNameLength } from '../llm/modelRoles';

export type { CheckKind, FailurePolicy, StepKind } from '../../shared/vocabulary';

/** The kinds a language model is asked to plan with (those the kind traits describe to the planner), in the vocabulary's order. */
export const modelPlannedStepKinds = stepKinds.filter((kind) => stepKindTraits[kind].forPlanner !== undefined) as [StepKind, ...StepKind[]];

/** Names of agents that need no entry in `Plan.agents`. */
export const builtinAgentNames = ['default', 'direct'] as const;

/**
 * Something a request or a step carries along: a URL, an image or a workspace file. A
 * selection is a `file` whose `ref` ends in its line range (`src/a.ts#L3-L7`) and whose
 * `text` is the text that was selected when the request was made.
 */
export const attachmentSchema = z.object({
  kind: z.enum(['link', 'image', 'file']),
  ref: z.string().min(1),
  label: z.string().optional(),
  text: z.string().optional(),
});
export type Attachment = z.infer<typeof attachmentSchema>;

/** A sub-agent: its system prompt and the names of the tools it may call. */
export const agentSchema = z.object({
  prompt: z.string(),
  tools: z.array(z.string()),
});
export type Agent = z.infer<typeof agentSchema>;

/**
 * A check the host runs after a step's work, before its `verification` predicate; every
 * check of a step must pass. Paths are workspace-relative (confined like every file
 * access); `argv` runs without a shell, `cwd` is workspace-relative, `expectExitCode`
 * defaults to 0; `no_new_diagnostics` looks at `paths` (default: the files the step
 * changed) for error diagnostics that were not there before the step.
 */
export const checkSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('file_exists'), path: z.string().min(1) }),
  z.object({ kind: z.literal('file_absent'), path: z.string().min(1) }),
  z.object({ kind: z.literal('file_contains'), path: z.string().min(1), text: z.string().optional(), pattern: z.string().optional() }),
  z.object({
    kind: z.literal('command'),
    argv: z.array(z.string()).min(1),
    cwd: z.string().optional(),
    expectExitCode: z.number().int().optional(),
    outputContains: z.string().optional(),
  }),
  z.object({ kind: z.literal('no_new_diagnostics'), paths: z.array(z.string().min(1)).optional() }),
]);
/** One check of a step. */
export type Check = z.infer<typeof checkSchema>;
// The union above names every kind of the vocabulary, and only those.
// Stryker disable next-line all: a check for the compiler, with no behaviour to mutate (the instrumenter cannot place mutants in this type).
true satisfies [CheckKind] extends [Check['kind']] ? ([Check['kind']] extends [CheckKind] ? true : never) : never;

/** A JSON Schema object (draft 2020-12 subset) that a step's structured result must satisfy. */
export const jsonSchemaObjectSchema = z.record(z.string(), z.unknown());

/**
 * Most steps a plan read from text (a model's answer, a plan file, a repair plan) may have: the largest plans the benches
 * and the panel are measured with (test/bench). Past it the review, the critic and the run's output all grow with a
 * plan no one can review (a model's plan of 100,000 steps).
 */
export const maxPlanSteps = 10_000;

/** Longest path or search named in a plan's basis or a step's `basedOn`, in characters. */
export const maxBasisEntryLength = 500;
/** Most files one step may cite in `basedOn`. */
export const maxBasedOnPerStep = 20;
/** Longest question or answer a plan's basis keeps, in characters. */
export const maxBasisAnswerLength = 2000;
/** Most files, searches and answers a plan's basis records, each. */
export const maxBasisEntries = 200;

/**
 * One step of a plan in canonical form. `maxAttempts` counts every attempt, the first
 * included (so 1 means "no retry"); `timeoutMs` is in milliseconds.
 */
export const stepSchema = z.object({
  id: z
    .string()
    .min(1)
    .max(maxStepIdLength)
    .refine((id) => !unprintableInStepId.test(id), 'a step id holds no line break, control or invisible character'),
  title: z.string(),
  kind: z.enum(stepKinds),
  dependsOn: z.array(z.string()),
  tool: z.string().optional(),
  args: z.record(z.string(), z.unknown()).optional(),
  agent: z.string().optional(),
  input: z.string().optional(),
  onFailure: z.enum(failurePolicies),
  maxAttempts: z.number().int().min(1).max(20),
  critical: z.boolean(),
  verification: z.string().optional(),
  onVerificationFailure: z.enum(failurePolicies),
  when: z.string().optional(),
  requiresApproval: z.boolean().optional(),
  skipped: z.boolean().optional(),
  timeoutMs: z.number().int().positive().optional(),
  attachments: z.array(attachmentSchema).optional(),
  /** Host-run checks after the step's work, all required; see `checkSchema`. */
  checks: z.array(checkSchema).optional(),
  /** Agent and synthesis-gate steps: the JSON Schema their final answer is produced and validated against; the parsed object is the result. */
  outputSchema: jsonSchemaObjectSchema.optional(),
  /** A separate model call judges the result against the step's input and checks. */
  review: z.boolean().optional(),
  /** Agent steps: names of skills from the workspace's catalogue whose full text goes into the step's agent prompt. */
  skills: z.array(z.string()).optional(),
  /**
   * The files the step may change: workspace-relative paths (a folder covers what is in it)
   * or globs. Steps whose scopes overlap never run at once; a change outside it asks.
   */
  writes: z.array(z.string().min(1).max(maxWritePatternLength)).max(maxWritePatterns).optional(),
  /** The workspace files the step rests on (what the planner read that led to it): workspace-relative paths. */
  basedOn: z.array(z.string().min(1).max(maxBasisEntryLength)).max(maxBasedOnPerStep).optional(),
  /**
   * Agent and synthesis-gate steps: the model that runs the step, one of those the run has
   * configured (`validatePlan` with `models`); absent: the run's agent model.
   */
  model: z.string().min(1).max(maxModelNameLength).optional(),
});
export type Step = z.infer<typeof stepSchema>;

/**
 * What a model's plan is based on: what the planner read before writing it (files, searches
 * of text, symbols and references) and the user's answers to its questions. Paths are
 * workspace-relative; every entry is bounded.
 */
export const planBasisSchema = z.object({
  files: z.array(z.string().min(1).max(maxBasisEntryLength)).max(maxBasisEntries),
  searches: z.array(z.string().min(1).max(maxBasisEntryLength)).max(maxBasisEntries),
  answers: z
    .array(z.object({ question: z.string().min(1).max(maxBasisAnswerLength), answer: z.string().max(maxBasisAnswerLength) }))
    .max(maxBasisEntries),
});
/** See `planBasisSchema`. */
export type PlanBasis = z.infer<typeof planBasisSchema>;

/** A whole plan. `version` increments on every edit; `createdAt` is an ISO-8601 timestamp. */
export const planSchema = z.object({
  id: z.string().min(1),
  version: z.number().int().min(1),
  objective: z.string(),
  createdAt: z.string(),
  agents: z.record(z.string(), agentSchema),
  steps: z.array(stepSchema),
  /** Topics of the whole plan: every agent step also gets the skills tagged with one of them. */
  contextTags: z.array(z.string()).optional(),
  /** What the planner read and was told before writing the plan; absent when it read nothing (the heuristic planner). */
  basis: planBasisSchema.optional(),
});
export type Plan = z.infer<typeof planSchema>;

/**
 * The shape the LLM planner is asked to produce (sent as JSON Schema). Looser than
 * `planSchema`: defaults are filled in by `parsePlan`.
 */
export const plannerOutputSchema = z.object({
  objective: z.string(),
  agents: z.record(z.string(), agentSchema).optional(),
  contextTags: z.array(z.string()).optional(),
  steps: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      kind: z.enum(modelPlannedStepKinds),
      // Asked for (the JSON Schema lists it with its default), read as none when left out: a small model leaves it out of
      // a first step, and its repair round went to that instead of the plan's real problems (a newcomer's trial).
      dependsOn: z.array(z.string()).default([]),
      tool: z.string().optional(),
      args: z.record(z.string(), z.unknown()).optional(),
      agent: z.string().optional(),
      input: z.string().optional(),
      onFailure: z.enum(failurePolicies).optional(),
      maxAttempts: z.number().int().min(1).max(20).optional(),
      critical: z.boolean().optional(),
      verification: z.string().optional(),
      onVerificationFailure: z.enum(failurePolicies).optional(),
      when: z.string().optional(),
      checks: z.array(checkSchema).max(maxChecksPerStep).optional(),
      outputSchema: jsonSchemaObjectSchema.optional(),
      skills: z.array(z.string()).optional(),
      writes: z.array(z.string()).optional(),
      basedOn: z.array(z.string()).optional(),
    }),
  ),
});

/** Codes of `validatePlan` diagnostics (docs/architecture.md §3). */
export type DiagnosticCode =
  | 'empty_plan'
  | 'duplicate_id'
  | 'missing_dependency'
  | 'cycle'
  | 'unknown_tool'
  | 'invalid_args'
  | 'missing_agent'
  | 'invalid_predicate'
  | 'self_dependency'
  | 'invalid_step'
  | 'invalid_output_schema'
  | 'unknown_skill'
  | 'unknown_model'
  /** A `{{results.<id>}}` or `"$<id>"` naming no step: it stays as written, pasted into a file or a prompt. */
  | 'unknown_reference';

/** One problem found by `validatePlan`; errors make the plan unrunnable. */
export interface Diagnostic {
  code: DiagnosticCode;
  severity: 'error' | 'warning';
  stepId?: string;
  message: string;
}

/** Fills every default of docs/architecture.md §3 into a partial step. */
export function withStepDefaults(step: Pick<Step, 'id' | 'kind'> & Partial<Step>): Step {
  return {
    title: step.title ?? step.id,
    dependsOn: [],
    onFailure: 'stop',
    maxAttempts: 1,
    critical: true,
    onVerificationFailure: 'stop',
    ...step,
  };
}
