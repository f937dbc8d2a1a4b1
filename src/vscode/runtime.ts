/**
 * The heavy part of the extension, bundled apart as `dist/runtime.js` and loaded on first
 * use through `loadRuntime` (never at activation): the engine, planner, tools, the
 * `openai` client, the predicate sandbox, the tokenizer, zod schemas, the WorkspaceFs
 * over `vscode.workspace.fs` and the plan panel. Everything here is re-exported as is.
 */
export { executeWithReplanning, resumeWithReplanning } from '../core/replan/executeWithReplanning';
export { resumeRun } from '../core/engine/resumeRun';
export { replayJournal } from '../core/engine/replayJournal';
export { initialRunState } from '../core/engine/reduceRunEvent';
export { interruptedRunState } from '../core/engine/interruptedRunState';
export { ExecutionFold } from '../core/replan/executionFold';
export { loadExecution } from '../core/replan/loadExecution';
export { runSummary } from '../core/view/runSummary';
export { createMemoryRunStore } from '../core/engine/memoryRunStore';
export { hostRunOptions } from '../core/engine/hostRunOptions';
export { toRegistry } from '../core/engine/resolveRunOptions';
export { noAllowRules } from '../core/engine/runEnvironment';
export { deferAllInteraction, describeApproval } from '../core/engine/stepInteraction';
export { createBudgetTracker } from '../core/llm/budget';
export { editPlan } from '../core/plan/editPlan';
export { findAttachmentProblems, replaceAttachment } from '../core/engine/attachmentProblems';
export { planRequest } from '../core/planner/planRequest';
export { imageForModel } from '../core/planner/imageForModel';
export { projectTestCommand } from '../core/planner/projectTestCommand';
export { timerClock } from '../node/timerClock';
export { createOtlpTraceExporter } from '../node/otlpTraceExporter';
export { shownTraceUrl } from '../core/trace/otlpTracesUrl';
export { exportRunTraces } from '../core/trace/exportRunTrace';
export { createToolRegistry } from '../core/tools/createToolRegistry';
export { builtinTools } from '../core/tools/builtinTools';
export { gateByWorkspaceTrust } from '../core/tools/workspaceTrustGate';
export { filesChangedSince, undoRunChain } from '../core/tools/undoRun';
export { runChain } from '../core/engine/replanRecord';
export { undoScope } from '../core/plan/undoScope';
export { undoneChanges } from '../core/tools/undoneChanges';
export { createPlanningTools } from '../core/tools/planningTools';
export { createOpenAiClient } from '../node/openAiClient';
export { createFileRunStore } from '../node/fileRunStore';
export { createNodeCommandRunner } from '../node/nodeCommandRunner';
export { createUserAnswerSeal } from '../node/userAnswerSeal';
export { sharedPredicateThreads } from '../node/predicateThreads';
export { createVscodeWorkspaceFs } from './vscodeWorkspaceFs';
export { readEditorCapabilities } from './editorCapabilities';
export { createVscodeDiagnostics } from './vscodeDiagnostics';
export { checkCommandsQuestion, describeCheckCommand, planCheckCommands, withProjectPrograms } from '../core/engine/checkCommandConsent';
export { createVscodeCommandAllowList, showCommandAllowRules } from './commandAllowRulesView';
export { createPlanPanelFlow } from './planPanelFlow';
export { showPlan } from './showPlanCommand';
export { exportPlanMarkdown, reviewPlanFile, runPlanFile, savePlanAsFile } from './planFileCommands';
export { planFileDocument, vscodePlanFileUi } from './vscodePlanFileUi';
export { jsonSchemaInput } from '../core/tools/jsonSchemaInput';
export { requireToolCallApproval } from '../core/tools/approvals';
export { capText } from '../core/text/capText';
export { visibleControls } from '../shared/visibleCharacters';
export { editorTools } from './editorTools';
export { prefixedToolNames } from '../core/tools/prefixedToolNames';
export { namingConfinement, quotableFolderName, toolsNamingConfinement } from './namingConfinement';
export { handleChatRequest } from './chat/chatParticipant';
export { McpServers, rememberedCallPrefix } from '../node/mcpServers';
export {
  maxMcpConfigBytes,
  mcpInputValueKey,
  mcpServerLaunchKey,
  mcpServerTarget,
  mergeMcpConfigs,
  parseMcpConfig,
  parseMcpConfigText,
} from '../core/mcp/mcpConfig';
export { readFolderConfig } from '../node/readFolderConfig';
export { mcpStartDecision } from '../core/mcp/mcpStartPolicy';
export { chooseExtensionTools, fitToolBudget, isDeniedTool, promptFit, toolSectionBudget, toolTokens } from '../core/tools/toolOffer';
export { countTokens } from '../core/llm/tokenCount';
export { exportPlanAsTaskFile, offersPlanFromFile, planFromTaskFile, vscodeTaskFileUi } from './taskFileCommands';
export { tickSourceCheckbox } from '../core/interop/tickSourceCheckbox';
