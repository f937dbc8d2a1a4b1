/**
 * The public API of the pure core (docs/architecture.md §11): what needs no Node adapter.
 * `src/node/nodeLibrary.ts`, the library entry point bundled to `dist/core.js`, adds the
 * Node adapters and real timers. Names exported here are a contract: the CLI, tests and
 * embedders rely on them.
 */
export type { Plan, Step, Agent, Attachment, Diagnostic, StepKind, FailurePolicy } from './plan/planSchema';
export { planSchema, stepSchema, plannerOutputSchema } from './plan/planSchema';
export type { Interaction, ApprovalRequest, ApprovalDecision, ClarificationRequest, ReviewRequest, ReviewDecision, FileProposal } from './interactionPorts';
export type { Clock, Logger } from './servicePorts';
export type { WorkspaceFs, FileStat } from './workspacePorts';
export type { Tool, ToolRegistry, ToolContext, ToolEffect, ApprovalPolicy } from './tools/tool';
export { expandTemplates } from './plan/expandTemplates';
export { parsePlan } from './plan/parsePlan';
export { validatePlan } from './plan/validatePlan';
export { planLevels } from './plan/planLevels';
export { critiquePlan, mergeCritique } from './plan/critiquePlan';
export { reviewPlanWithModel } from './planner/reviewPlanWithModel';
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
export { evaluatePredicate } from './predicate/evaluatePredicate';
export type { PredicateOutcome, PredicateBindings } from './predicate/evaluatePredicate';
export { DeferredError, isDeferredError } from './tools/deferral';
export type { RunStore, JournalEntry, JournalSnapshot, LoadedJournal, RunListing } from './runStorePorts';
export { createToolRegistry } from './tools/createToolRegistry';
export type { ToolCatalog, OpenAiToolDefinition } from './tools/createToolRegistry';
export { builtinTools } from './tools/builtinTools';
export type { BuiltinToolsOptions } from './tools/builtinTools';
export { needsApproval, ApprovalRejectedError } from './tools/approvals';
export { createMemoryCheckpointStore } from './tools/checkpointStore';
export type { MemoryCheckpointStore } from './tools/checkpointStore';
export type { Checkpoint, CheckpointStore, FileVersion } from './runStorePorts';
export { undoRun } from './tools/undoRun';
export type { UndoReport } from './tools/undoRun';
export type { CommandRunner, CommandSpec, CommandResult, ProjectProgram } from './commandPorts';
export type { Check, CheckKind } from './plan/planSchema';
export type { CheckResult } from './engine/runEvents';
export type { Diagnostics, DiagnosticsSnapshot, EditorDiagnostic } from './editorPorts';
export { planCheckCommands, checkCommandsQuestion } from './engine/checkCommandConsent';
export type { CheckCommand, CheckCommandConsent } from './engine/checkCommandConsent';
export type { FileChangeResult } from './tools/fileChange';
export { resolveInRoot, normalizeWorkspacePath, PathRefusedError } from './workspace/resolveInRoot';
export type { PathProbe, ResolvedPath } from './workspace/resolveInRoot';
export { WorkspaceError } from './workspace/workspaceError';
export type { WorkspaceErrorCode } from './workspace/workspaceError';
export { createSessionPlanner } from './session/createSessionPlanner';
export type { SessionPlanner } from './session/createSessionPlanner';
export { ToolValidationError } from './session/toolValidationError';
export type { SessionPlan, SessionStep, SessionPlanStatus, SessionStepStatus, SessionPlanResult, StepDraft } from './session/sessionPlan';
export { createPlanningTools } from './tools/planningTools';
export { renderPlanningSection, planningStrategies } from './session/planningPrompt';
export type { PlanningStrategy } from './session/planningPrompt';
export type { LlmClient } from './servicePorts';
export type {
  LlmMessage,
  LlmContentPart,
  LlmToolCall,
  LlmToolDefinition,
  LlmResponseFormat,
  LlmUsage,
  LlmDelta,
  LlmChatRequest,
  LlmChatResponse,
} from './llm/llmTypes';
export { LlmError, isLlmError } from './llm/llmError';
export type { LlmErrorKind } from './llm/llmError';
export { chatStructured, StructuredOutputError } from './llm/chatStructured';
export { generatePlan } from './planner/generatePlan';
export type { GeneratePlanOptions, GeneratePlanResult } from './planner/generatePlan';
export type { PlannerStep } from './planner/planStepStream';
export type { PlannerToolInfo, WorkspaceSnapshot } from './planner/prompts/planningPrompt';
export { selectProvider, isLocalBaseUrl } from './llm/selectProvider';
export type { ProviderSetting, ProviderChoice } from './llm/selectProvider';
export { compactContext } from './llm/contextCompactor';
export { buildStepPrompt, stepPromptHead, stepPromptSectionOrder } from './agent/stepPrompt';
export { createBudgetTracker, BudgetExceededError } from './llm/budget';
export type { BudgetLimits, BudgetUsage, BudgetExhaustion, BudgetTracker } from './llm/budget';
export { executeWithReplanning, resumeWithReplanning } from './replan/executeWithReplanning';
export type { ReplanOptions } from './replan/executeWithReplanning';
export type { ReplanRecord, TrialRecord } from './engine/replanRecord';
export { readCapabilities } from './capabilities/readCapabilities';
export type { ReadCapabilitiesOptions, SkillFolder } from './capabilities/readCapabilities';
export { emptyCatalogue, capabilityLimits } from './capabilities/capabilityCatalogue';
export type { CapabilityCatalogue, CapabilityDiagnostic, Instruction, InstructionKind, Skill } from './capabilities/capabilityCatalogue';
export { stepCapabilities } from './capabilities/stepCapabilities';
export type { StepCapabilities } from './capabilities/stepCapabilities';
export { runStepAgent } from './agent/runStepAgent';
export type { StepAgentOptions, StepAgentResult } from './agent/runStepAgent';
export { defaultAgentLimits } from './agent/agentLimits';
export type { AgentLimits } from './agent/agentLimits';
