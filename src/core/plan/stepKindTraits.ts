import type { StepKind } from '../../shared/vocabulary';

/** Who does a step's work: a tool call, a language model, or a person (who answers, reviews or does it). */
export type StepPerformer = 'tool' | 'model' | 'person';

/** What the rest of the core needs to know about one step kind. */
export interface StepKindTraits {
  /**
   * Who does the work. Steps a model does need one (without it the review offers to hand
   * them to the user); a dependency of a step that is not a model's orders the work and need
   * not be referenced in its input; a person's step never fails transiently.
   */
  performer: StepPerformer;
  /** What the model planner is told the kind does; absent for kinds it may not plan (with a model, agents do a person's work). */
  forPlanner?: string;
}

/**
 * The traits of every step kind (docs/architecture.md §3, §8): a new kind in
 * `src/shared/vocabulary.ts` needs an entry here, and the compiler says so.
 */
export const stepKindTraits: Readonly<Record<StepKind, StepKindTraits>> = {
  tool: { performer: 'tool', forPlanner: `"tool" calls one tool directly with "tool" and "args" (args must match the tool's JSON Schema)` },
  agent: {
    performer: 'model',
    forPlanner: `"agent" gives an LLM sub-agent an "input" instruction (and optionally "agent": the name of an entry in "agents" with its own prompt and tool list; "default" has all tools)`,
  },
  synthesis_gate: { performer: 'model', forPlanner: `"synthesis_gate" condenses its dependencies' results` },
  human_review: { performer: 'person', forPlanner: `"human_review" asks the user to approve what was produced` },
  clarification: { performer: 'person', forPlanner: `"clarification" asks the user a question given in "input"` },
  manual: { performer: 'person' },
};

/** True when a step of `kind` is done by `performer`. */
export function performedBy(kind: StepKind, performer: StepPerformer): boolean {
  return stepKindTraits[kind].performer === performer;
}
