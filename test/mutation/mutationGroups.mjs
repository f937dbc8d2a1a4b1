// Module groups mutated by StrykerJS (stryker.config.mjs, scripts/mutation.mjs).

/** Every test but those whose title promises linear time (they assert a time bound). */
const timeBoundTestsLeftOut = '^(?!.*(stays linear|in linear time))';

/**
 * Module groups. `threshold` is the lowest mutation score (percent) accepted for every file
 * the group mutates; `ci` groups also run in `npm test` (the safety-critical ones).
 * `spec` lists the tests that cover the group: only those run, and per-test coverage
 * runs only the tests that reach a mutant. `ignoreStatic` leaves out mutants of
 * module-level values (alias tables, key lists): each needs a fresh test process, which
 * made the plan-parsing group take more than twenty minutes; their tests still run.
 * `grep` (a mocha --grep pattern) picks the tests that run: it leaves out the tests that
 * bound a time (linear-time checks), which the instrumented code cannot meet.
 */
export const mutationGroups = [
  {
    name: 'workspace-policy',
    ci: true,
    threshold: 90,
    mutate: [
      'src/core/workspace/resolveInRoot.ts',
      'src/core/workspace/protectedPlaces.ts',
      'src/core/workspace/confinedWorkspace.ts',
      'src/core/workspace/confinedWalk.ts',
      'src/core/workspace/confinedEntry.ts',
      'src/core/workspace/atomicWrites.ts',
      'src/core/workspace/listConfined.ts',
      'src/core/workspace/readManyConfined.ts',
      'src/core/workspace/expectedContent.ts',
    ],
    spec: ['test/unit/core/workspace/**/*.test.ts', 'test/unit/conformance/**/*.test.ts', 'test/unit/node/nodeWorkspace.test.ts', 'test/unit/node/nodeWorkspaceLinks.test.ts', 'test/unit/node/temporaryFiles.test.ts', 'test/unit/core/tools/fileChange.test.ts'],
  },
  {
    name: 'file-changes',
    ci: true,
    threshold: 90,
    mutate: ['src/core/tools/fileChange.ts', 'src/core/tools/approvals.ts', 'src/core/tools/fileLocks.ts', 'src/core/tools/fileVersions.ts', 'src/core/tools/recordedChange.ts'],
    // Not resumeRun.changeCrash.test.ts: it kills child processes, too slow for every mutant.
    spec: ['test/unit/core/tools/**/*.test.ts', 'test/unit/core/engine/sharedFileChanges.test.ts', 'test/unit/core/engine/sharedFileChanges.property.test.ts'],
  },
  {
    // Not ignoreStatic: the tables of wrappers and interpreters are what refuses a blanket rule.
    name: 'command-allow-rules',
    ci: true,
    threshold: 90,
    mutate: ['src/core/tools/commandAllowRules.ts', 'src/core/tools/riskyArguments.ts', 'src/core/tools/commandDefiningFiles.ts'],
    spec: [
      'test/unit/core/tools/commandAllowRules.test.ts',
      'test/unit/core/tools/riskyArguments.test.ts',
      'test/unit/core/tools/commandDefiningFiles.test.ts',
      'test/unit/core/tools/runCommandTool.test.ts',
      'test/unit/core/engine/checkCommandConsent.test.ts',
    ],
  },
  {
    name: 'step-interaction',
    ci: true,
    threshold: 90,
    mutate: ['src/core/engine/stepInteraction.ts'],
    spec: ['test/unit/core/engine/stepInteraction.test.ts', 'test/unit/core/engine/runPlan.test.ts', 'test/unit/core/engine/resumeRun.test.ts', 'test/unit/core/engine/resumeRun.binding.test.ts', 'test/unit/core/engine/executors/manualExecutor.test.ts'],
  },
  {
    name: 'command-environment',
    ci: true,
    threshold: 90,
    mutate: ['src/node/commandEnvironment.ts'],
    spec: ['test/unit/node/commandEnvironment.test.ts'],
  },
  {
    name: 'predicate-sandbox',
    ci: true,
    threshold: 90,
    mutate: ['src/core/predicate/evaluatePredicate.ts'],
    spec: ['test/unit/core/predicate/**/*.test.ts'],
  },
  {
    name: 'engine',
    ci: false,
    threshold: 80,
    mutate: ['src/core/engine/failurePolicy.ts', 'src/core/engine/scheduler.ts'],
    spec: ['test/unit/core/engine/**/*.test.ts'],
  },
  {
    name: 'plan-parsing',
    ci: false,
    threshold: 80,
    ignoreStatic: true,
    mutate: ['src/core/plan/parsePlan.ts', 'src/core/plan/normalizeStep.ts'],
    spec: ['test/unit/core/plan/parsePlan.test.ts', 'test/unit/core/plan/normalizeStep.test.ts'],
  },
  {
    name: 'plan-critique',
    ci: false,
    threshold: 80,
    ignoreStatic: true,
    mutate: [
      'src/core/plan/critiquePlan.ts',
      'src/core/plan/critiqueFindings.ts',
      'src/core/plan/commandWordsFindings.ts',
      'src/core/plan/skippedInputFindings.ts',
      'src/core/plan/verificationFindings.ts',
    ],
    spec: [
      'test/unit/core/plan/critiquePlan.test.ts',
      'test/unit/core/plan/commandWordsFindings.test.ts',
      'test/unit/core/plan/skippedInputFindings.test.ts',
      'test/unit/core/plan/verificationFindings.test.ts',
      'test/unit/core/planner/reviewPlanWithModel.test.ts',
    ],
  },
  {
    name: 'workspace-support',
    ci: false,
    threshold: 80,
    mutate: ['src/core/workspace/globMatcher.ts', 'src/core/workspace/writeScope.ts', 'src/core/workspace/ignoreRules.ts', 'src/core/workspace/readTextMany.ts', 'src/core/workspace/workspaceError.ts'],
    spec: ['test/unit/core/workspace/**/*.test.ts', 'test/unit/conformance/**/*.test.ts', 'test/unit/core/tools/listFilesTool.test.ts', 'test/unit/core/tools/searchTextTool.test.ts'],
  },
  {
    name: 'plan-model',
    ci: false,
    threshold: 80,
    ignoreStatic: true,
    mutate: [
      'src/core/plan/*.ts',
      '!src/core/plan/parsePlan.ts',
      '!src/core/plan/normalizeStep.ts',
      '!src/core/plan/critiquePlan.ts',
      '!src/core/plan/critiqueFindings.ts',
      '!src/core/plan/commandWordsFindings.ts',
      '!src/core/plan/skippedInputFindings.ts',
      '!src/core/plan/verificationFindings.ts',
    ],
    spec: ['test/unit/core/plan/**/*.test.ts'],
  },
  {
    name: 'planner',
    ci: false,
    threshold: 80,
    ignoreStatic: true,
    mutate: ['src/core/planner/*.ts'],
    spec: ['test/unit/core/planner/**/*.test.ts'],
  },
  {
    name: 'capabilities',
    ci: false,
    threshold: 80,
    mutate: ['src/core/capabilities/*.ts'],
    spec: ['test/unit/core/capabilities/**/*.test.ts', 'test/unit/core/agent/capabilitySection.test.ts', 'test/unit/core/view/panelSession.capabilities.test.ts'],
  },
  {
    name: 'replan',
    ci: false,
    threshold: 80,
    mutate: ['src/core/replan/*.ts'],
    spec: ['test/unit/core/replan/**/*.test.ts'],
  },
  {
    name: 'session',
    ci: false,
    threshold: 80,
    ignoreStatic: true,
    mutate: ['src/core/session/*.ts'],
    spec: ['test/unit/core/session/**/*.test.ts', 'test/unit/core/llm/prompts/planningPrompt.test.ts'],
  },
  {
    name: 'agent',
    ci: false,
    threshold: 80,
    mutate: ['src/core/agent/*.ts', 'src/core/text/*.ts', 'src/node/timerClock.ts'],
    spec: [
      'test/unit/core/agent/**/*.test.ts', 'test/unit/core/text/**/*.test.ts', 'test/unit/node/timerClock.test.ts', 'test/unit/core/engine/runPlan.llm.test.ts',
      'test/unit/core/engine/agentChanges.test.ts', 'test/unit/core/engine/outputSchemas.test.ts', 'test/unit/core/engine/reviewStep.test.ts',
    ],
  },
  {
    name: 'verification',
    ci: false,
    threshold: 80,
    mutate: ['src/core/engine/shapeResult.ts', 'src/core/engine/reviewStep.ts', 'src/core/engine/stepOutcome.ts', 'src/core/llm/prompts/reviewPrompt.ts'],
    spec: [
      'test/unit/core/engine/shapeResult.test.ts', 'test/unit/core/engine/outputSchemas.test.ts', 'test/unit/core/engine/agentChanges.test.ts',
      'test/unit/core/engine/reviewStep.test.ts', 'test/unit/core/llm/prompts/reviewPrompt.test.ts',
    ],
  },
  {
    name: 'llm',
    ci: false,
    threshold: 80,
    ignoreStatic: true,
    mutate: [
      'src/core/llm/baseUrlProblem.ts', 'src/core/llm/budget.ts', 'src/core/llm/chatStructured.ts', 'src/core/llm/llmError.ts',
      'src/core/llm/modelPrices.ts', 'src/core/llm/modelSetup.ts', 'src/core/llm/redactSecrets.ts', 'src/core/llm/selectProvider.ts',
      'src/core/llm/llmTypes.ts',
    ],
    spec: [
      'test/unit/core/llm/baseUrlProblem.test.ts', 'test/unit/core/llm/budget.test.ts', 'test/unit/core/llm/chatStructured.test.ts',
      'test/unit/core/llm/llmError.test.ts', 'test/unit/core/llm/modelPrices.test.ts', 'test/unit/core/llm/modelSetup.test.ts',
      'test/unit/core/llm/redactSecrets.test.ts', 'test/unit/core/llm/selectProvider.test.ts',
    ],
    grep: timeBoundTestsLeftOut,
  },
  {
    name: 'llm-context',
    ci: false,
    threshold: 80,
    ignoreStatic: true,
    mutate: ['src/core/llm/tokenCount.ts', 'src/core/llm/contextCompactor.ts', 'src/core/llm/stepPrompt.ts'],
    spec: ['test/unit/core/llm/tokenCount.test.ts', 'test/unit/core/llm/contextCompactor.test.ts', 'test/unit/core/llm/stepPrompt.test.ts'],
    grep: timeBoundTestsLeftOut,
  },
  {
    name: 'llm-client',
    ci: false,
    threshold: 80,
    ignoreStatic: true,
    mutate: ['src/node/openAiClient.ts'],
    spec: ['test/unit/**/openAiClient*.test.ts'],
    grep: timeBoundTestsLeftOut,
  },
  {
    name: 'llm-prompts',
    ci: false,
    threshold: 80,
    ignoreStatic: true,
    mutate: ['src/core/llm/prompts/criticPrompt.ts', 'src/core/llm/prompts/planningPrompt.ts', 'src/core/llm/prompts/replanPrompt.ts'],
    spec: ['test/unit/core/llm/prompts/*.test.ts'],
  },
  {
    name: 'file-tools',
    ci: false,
    threshold: 80,
    ignoreStatic: true,
    mutate: [
      'src/core/tools/editFileTool.ts', 'src/core/tools/readFileTool.ts', 'src/core/tools/writeFileTool.ts', 'src/core/tools/deleteFileTool.ts',
      'src/core/tools/createDirectoryTool.ts', 'src/core/tools/listFilesTool.ts', 'src/core/tools/checkpointStore.ts', 'src/core/tools/undoRun.ts',
      'src/core/tools/describeUndo.ts', 'src/core/tools/undoScope.ts', 'src/core/tools/proposalTarget.ts', 'src/core/tools/commandApprovalText.ts',
    ],
    spec: ['test/unit/core/tools/**/*.test.ts'],
    grep: timeBoundTestsLeftOut,
  },
  {
    name: 'search-tools',
    ci: false,
    threshold: 80,
    ignoreStatic: true,
    mutate: ['src/core/tools/searchTextTool.ts', 'src/core/tools/jsRegexToRe2.ts', 'src/core/tools/textQueryMatcher.ts'],
    spec: ['test/unit/core/tools/searchTextTool.test.ts', 'test/unit/core/tools/jsRegexToRe2.test.ts'],
    grep: timeBoundTestsLeftOut,
  },
  {
    name: 'editor-tools',
    ci: false,
    threshold: 80,
    ignoreStatic: true,
    mutate: ['src/core/tools/fetchUrlTool.ts', 'src/core/web/fetchUrlTarget.ts', 'src/core/web/redirectNotFollowed.ts', 'src/core/tools/getDiagnosticsTool.ts', 'src/core/tools/codeNavigationTools.ts', 'src/core/tools/prefixedToolNames.ts'],
    spec: [
      'test/unit/core/tools/fetchUrlTool.test.ts', 'test/unit/core/web/fetchUrlTarget.test.ts', 'test/unit/core/tools/getDiagnosticsTool.test.ts',
      'test/unit/core/tools/codeNavigationTools.test.ts', 'test/unit/core/tools/prefixedToolNames.test.ts',
    ],
  },
  {
    name: 'tool-registry',
    ci: false,
    threshold: 80,
    ignoreStatic: true,
    mutate: [
      'src/core/tools/createToolRegistry.ts', 'src/core/tools/builtinTools.ts', 'src/core/tools/tool.ts', 'src/core/tools/deferral.ts',
      'src/core/tools/runCommandTool.ts', 'src/core/tools/askUserTool.ts', 'src/core/tools/toolParameters.ts', 'src/core/tools/jsonSchemaInput.ts',
      'src/core/tools/toolCallApprovalText.ts',
    ],
    spec: ['test/unit/core/tools/**/*.test.ts'],
    grep: timeBoundTestsLeftOut,
  },
  {
    name: 'view-models',
    ci: false,
    threshold: 80,
    ignoreStatic: true,
    mutate: [
      'src/core/view/planDiff.ts', 'src/core/view/planTreeModel.ts', 'src/core/view/planVersions.ts', 'src/core/view/runListModel.ts',
      'src/core/view/runTimeline.ts', 'src/core/view/sessionTreeModel.ts', 'src/core/view/stepRunnerLabel.ts', 'src/core/view/stepStatusView.ts',
      'src/core/view/treeDiff.ts', 'src/core/view/runSummary.ts', 'src/core/view/planMarkdown.ts', 'src/core/view/chatMarkdown.ts',
      'src/core/view/chatCommand.ts',
    ],
    spec: ['test/unit/core/view/**/*.test.ts'],
  },
  {
    name: 'panel-view',
    ci: false,
    threshold: 80,
    ignoreStatic: true,
    mutate: ['src/core/view/buildPanelViewModel.ts', 'src/core/view/panelSession.ts'],
    spec: ['test/unit/core/view/buildPanelViewModel*.test.ts', 'test/unit/core/view/panelSession*.test.ts'],
  },
  {
    name: 'engine-loop',
    ci: false,
    threshold: 80,
    mutate: ['src/core/engine/runEngine.ts', 'src/core/engine/pendingChanges.ts', 'src/core/engine/stepWriteScope.ts', 'src/core/engine/runEventSink.ts', 'src/core/engine/runOutcome.ts', 'src/core/engine/runStop.ts', 'src/core/engine/readyQueue.ts'],
    spec: ['test/unit/core/engine/**/*.test.ts'],
  },
  {
    name: 'engine-step',
    ci: false,
    threshold: 80,
    mutate: ['src/core/engine/stepAttempt.ts', 'src/core/engine/stepTimeout.ts', 'src/core/engine/journaledEffects.ts'],
    spec: ['test/unit/core/engine/**/*.test.ts'],
  },
  {
    name: 'engine-journal',
    ci: false,
    threshold: 80,
    mutate: [
      'src/core/engine/reduceRunEvent.ts', 'src/core/engine/replayJournal.ts', 'src/core/engine/journalWriter.ts', 'src/core/engine/runEventSchema.ts',
      'src/core/engine/memoryRunStore.ts', 'src/core/engine/runEvents.ts', 'src/core/engine/runHandle.ts', 'src/core/engine/runPlan.ts',
      'src/core/engine/resumeRun.ts', 'src/core/engine/bindAnswers.ts', 'src/core/engine/requestFingerprint.ts', 'src/core/engine/resolveRunOptions.ts',
      'src/core/engine/runInterruption.ts', 'src/core/engine/manualStepText.ts', 'src/core/engine/hostRunOptions.ts',
      // type declarations and the library's re-exports (no mutants), with the engine that implements them
      'src/core/engine/runOptions.ts', 'src/core/ports.ts', 'src/core/coreApi.ts',
    ],
    spec: ['test/unit/core/engine/**/*.test.ts'],
  },
  {
    name: 'engine-checks',
    ci: false,
    threshold: 80,
    mutate: ['src/core/engine/runChecks.ts', 'src/core/engine/evaluateCheck.ts', 'src/core/engine/checkCommandConsent.ts', 'src/core/engine/newErrors.ts'],
    spec: ['test/unit/core/engine/runChecks.test.ts', 'test/unit/core/engine/evaluateCheck.test.ts', 'test/unit/core/engine/checkCommandConsent.test.ts'],
  },
  {
    name: 'engine-executors',
    ci: false,
    threshold: 80,
    mutate: ['src/core/engine/executors/*.ts'],
    spec: ['test/unit/core/engine/**/*.test.ts'],
  },
  {
    name: 'attachments',
    ci: false,
    threshold: 80,
    mutate: ['src/core/engine/attachmentProblems.ts'],
    spec: ['test/unit/core/engine/attachmentProblems.test.ts'],
  },
  {
    // Not ignoreStatic: the traits are a module-level table, and the table is what matters.
    name: 'tool-effects',
    ci: false,
    threshold: 80,
    mutate: ['src/core/tools/effectTraits.ts', 'src/core/tools/toolEffectOf.ts', 'src/core/tools/workspaceTrustGate.ts', 'src/core/tools/stepApproval.ts'],
    spec: [
      'test/unit/core/tools/toolEffectOf.test.ts', 'test/unit/core/tools/effectTraits.test.ts', 'test/unit/core/plan/critiquePlan.test.ts', 'test/unit/core/view/buildPanelViewModel*.test.ts',
      'test/unit/core/tools/workspaceTrustGate.test.ts', 'test/unit/core/tools/stepApproval.test.ts', 'test/unit/core/view/panelSession.modelReview.test.ts',
    ],
  },
  {
    name: 'mcp',
    ci: false,
    threshold: 80,
    ignoreStatic: true,
    mutate: ['src/core/mcp/mcpConfig.ts', 'src/core/mcp/mcpToolNames.ts', 'src/core/mcp/mcpResult.ts', 'src/core/mcp/mcpTools.ts', 'src/core/mcp/mcpStartPolicy.ts'],
    spec: ['test/unit/core/mcp/**/*.test.ts'],
  },
];

/** Where a group's reports go; scripts/mutation.mjs reads the JSON one. */
export function reportDirectory(groupName) {
  return `test-results/mutation/${groupName}`;
}
