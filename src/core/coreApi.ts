/**
 * The public library entry point of the core (DESIGN §8), bundled to `dist/core.js`.
 * Names exported here are a contract: the CLI, tests and embedders rely on them.
 */
export type { Plan, Step, Agent, Attachment, Diagnostic, StepKind, FailurePolicy } from './plan/planSchema';
export { planSchema, stepSchema, plannerOutputSchema } from './plan/planSchema';
export type { Clock, Logger, WorkspaceFs, Interaction, ApprovalRequest, ApprovalDecision, ClarificationRequest, ReviewRequest, ReviewDecision, FileProposal, FileStat } from './ports';
export type { Tool, ToolRegistry, ToolContext, ToolEffect, ApprovalPolicy } from './tools/tool';
export { expandTemplates } from './plan/expandTemplates';
export { parsePlan } from './plan/parsePlan';
export { validatePlan } from './plan/validatePlan';
export { planLevels } from './plan/planLevels';
export { critiquePlan } from './plan/critiquePlan';
export type { CritiqueIssue, Critique } from './plan/critiquePlan';
export { editPlan } from './plan/editPlan';
export type { PlanEdit } from './plan/editPlan';
export { heuristicPlan } from './planner/heuristicPlan';
export { runPlan } from './engine/runPlan';
export { resumeRun } from './engine/resumeRun';
export { reduceRunEvent, foldRunEvents } from './engine/reduceRunEvent';
export type { RunOptions, ResumeOptions, RunResult, RunHandle, RunMetadata, StepRunner, StepRunnerContext } from './engine/runOptions';
export type { RunEvent, RunState, StepState, StepStatus, RunStatus, PendingRequest } from './engine/runEvents';
export { createMemoryRunStore } from './engine/memoryRunStore';
export { createFileRunStore } from '../node/fileRunStore';
export { evaluatePredicate } from './predicate/evaluatePredicate';
export type { PredicateOutcome, PredicateBindings } from './predicate/evaluatePredicate';
export { DeferredError, isDeferredError } from './tools/deferral';
export type { RunStore, JournalEntry, JournalSnapshot, LoadedJournal, RunListing } from './ports';
