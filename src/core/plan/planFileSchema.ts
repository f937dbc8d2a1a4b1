import { z } from 'zod';
import type { CheckKind } from '../../shared/vocabulary';
import { agentSchema, attachmentSchema, checkSchema, planSchema, stepSchema, type Plan, type Step } from './planSchema';

// What each field means, in the words of someone writing a plan file by hand: the editor
// shows these on hover and in completion. Keyed by every field of the canonical plan, so a
// new field does not compile until it is described here.
const planFieldHelp = {
  id: 'A name for this plan. Left out, one is made from the plan\'s content.',
  version: 'Counts the edits of this plan, from 1. Left out, it is 1.',
  objective: 'What the whole plan is for, in one sentence. Shown above the steps.',
  createdAt: 'When the plan was made, as an ISO-8601 time such as "2026-01-31T09:00:00.000Z". Optional.',
  agents: 'Your own agents by name, each with its instructions and the tools it may use. Steps name one in "agent"; "default" and "direct" need no entry.',
  steps: 'The steps, in the order they are shown. A step runs once every step it depends on has finished.',
  contextTags: 'Topics of the whole plan, such as "testing": every agent step also gets the skills whose tags include one of them.',
  basis: 'What the planner read before writing the plan: the workspace files it opened, the searches it made and your answers to its questions. Shown in the review; not used by the run.',
} satisfies Record<keyof Plan, string>;

const stepFieldHelp = {
  id: 'A short name for the step, unique in the plan, such as "S1" or "write-tests". Other steps name it in "dependsOn".',
  title: 'What the step does, in a few words, as the plan views show it. Left out, the id is shown.',
  kind: 'Who does the step: "agent" (a model with tools), "tool" (one tool call with "args"), "synthesis_gate" (a model combines earlier results), "human_review" (you approve the result so far), "clarification" (you answer a question), "manual" (you do it yourself and mark it done). Left out: "tool" when the step names a "tool", else "agent".',
  dependsOn: 'Ids of the steps that must finish before this one starts. Left out, the step can start at once.',
  tool: 'For a "tool" step: the name of the tool to call, such as "read_file" or "run_command".',
  args: 'For a "tool" step: the tool\'s arguments. "{{results.S1}}" in a text is replaced by step S1\'s result.',
  agent: 'For an "agent" step: which agent does it ("default", "direct", or a name from "agents").',
  input: 'What the step is asked to do, for an agent, a question or a manual step. "{{results.S1}}" is replaced by step S1\'s result.',
  onFailure: 'What happens when the step still fails after its attempts: "stop" the run, "skip" the step, "retry" it, or "replan" the rest. Default "stop".',
  maxAttempts: 'How many times the step is tried in all, the first try included (1 means no retry). From 1 to 20; default 1.',
  critical: 'Whether the run fails when this step fails. Default true.',
  verification: 'A JavaScript expression over the step\'s "result", "input", the results of the steps it depends on ("depends") and how its checks ended ("checks"); the step counts as done when it is true, such as "result.includes(\'ok\')".',
  onVerificationFailure: 'What happens when "verification" is false: "stop", "skip", "retry" or "replan". Default "stop".',
  when: 'A JavaScript expression over the results of the steps it depends on ("depends"); the step runs only when it is true and is skipped otherwise.',
  requiresApproval: 'Kept from older plans and not used: what asks for your approval is the approval setting and the kind of work (writes, deletes, commands); the review shows it for each step.',
  skipped: 'Leave the step out of the run (it stays in the plan).',
  timeoutMs: 'The longest the step may take, in milliseconds (60000 is one minute).',
  attachments: 'Links, images and workspace files the step is given along with its input.',
  checks: 'Checks run after the step\'s work, all of which must pass: a file exists or is gone, a file contains a text, a command succeeds, no new errors.',
  outputSchema: 'For an agent or synthesis_gate step: the JSON Schema its answer must satisfy; the parsed object becomes the step\'s result.',
  review: 'Have a separate model call judge the step\'s result against its input and checks.',
  skills: 'For an "agent" step: names of the workspace\'s skills (SKILL.md files in .github/skills, .claude/skills or your own skills folder) whose full text the agent gets.',
  writes: 'The files the step may change: workspace-relative paths (a folder covers everything in it) or globs such as "src/**/*.ts". Steps whose files overlap never run at once; a change outside them asks first.',
  basedOn: 'The workspace files the step rests on (what the planner read that led to it), as workspace-relative paths. Shown in the review.',
  model: 'For an "agent" or "synthesis_gate" step: the name of the model that runs it, one of the models set up for the run (the default model or a role\'s); absent: the run\'s agent model.',
} satisfies Record<keyof Step, string>;

const checkHelp = {
  file_exists: 'Passes when the file at "path" (workspace-relative) exists.',
  file_absent: 'Passes when nothing is at "path" (workspace-relative).',
  file_contains: 'Passes when the file at "path" contains "text", or has a match of the regular expression "pattern".',
  command: 'Runs "argv" (program and arguments, no shell) in "cwd" (workspace-relative); passes when it exits with "expectExitCode" (default 0) and, if given, its output contains "outputContains".',
  no_new_diagnostics: 'Passes when the files in "paths" (default: the files the step changed) have no error the editor did not show before the step.',
} satisfies Record<CheckKind, string>;

const attachmentHelp = 'Something the step is given: a "link" (URL), an "image" or a "file" (workspace-relative "ref"; "src/a.ts#L3-L7" for lines).';
const agentHelp = 'An agent: its instructions ("prompt") and the names of the tools it may call ("tools").';

/** The fields a step in a plan file must have; every other field has a default. */
const requiredStepFields: ReadonlySet<string> = new Set<keyof Step>(['id']);

const fileCheckSchema = z.union(
  checkSchema.options.map((option) => option.strict().describe(checkHelp[option.shape.kind.value])) as unknown as [z.ZodType, z.ZodType, ...z.ZodType[]],
);

// Fields whose canonical schema is replaced by one with descriptions inside.
const nestedStepFields: Partial<Record<keyof Step, z.ZodType>> = {
  checks: z.array(fileCheckSchema),
  attachments: z.array(attachmentSchema.strict().describe(attachmentHelp)),
};

const fileStepSchema = z
  .object(
    Object.fromEntries(
      Object.entries(stepSchema.shape).map(([key, field]) => {
        const name = key as keyof Step;
        const schema: z.ZodType = nestedStepFields[name] ?? field;
        return [key, (requiredStepFields.has(key) ? schema : schema.optional()).describe(stepFieldHelp[name])];
      }),
    ),
  )
  .strict()
  .describe('One step of the plan. Only "id" is required.');

/**
 * What a `*.plan.json` file holds, as a person should write it: the canonical plan's fields
 * (`planSchema`), each described, with every field that has a default left optional and no
 * other field allowed (a misspelt field is an error in the editor). `$schema` may name this
 * schema. Every canonical plan (as "Save plan as file" writes it) is a valid plan file, and
 * every valid plan file is a plan `parsePlan` accepts.
 */
export const planFileSchema = z
  .object({
    $schema: z.string().optional().describe('The JSON Schema of plan files (the editor already applies it to every *.plan.json file).'),
    id: planSchema.shape.id.optional().describe(planFieldHelp.id),
    version: planSchema.shape.version.optional().describe(planFieldHelp.version),
    objective: planSchema.shape.objective.describe(planFieldHelp.objective),
    createdAt: planSchema.shape.createdAt.optional().describe(planFieldHelp.createdAt),
    agents: z.record(z.string(), agentSchema.strict().describe(agentHelp)).optional().describe(planFieldHelp.agents),
    steps: z.array(fileStepSchema).min(1).describe(planFieldHelp.steps),
    contextTags: planSchema.shape.contextTags.describe(planFieldHelp.contextTags),
  })
  .strict()
  .describe('A Task Planner plan: its objective and steps. Run it with "Run plan file" in the editor title, or `task-planner run <file>`.');

/** The plan file's JSON Schema (draft-07, which the editor's JSON support reads) as an object. */
export function planFileJsonSchema(): Record<string, unknown> {
  return { ...z.toJSONSchema(planFileSchema, { target: 'draft-7', io: 'input' }), title: 'Task Planner plan' };
}

/** The text of `plan.schema.json` as the build writes it: `planFileJsonSchema()`, indented by two spaces, ending in a newline. */
export function planFileSchemaText(): string {
  return `${JSON.stringify(planFileJsonSchema(), null, 2)}\n`;
}
