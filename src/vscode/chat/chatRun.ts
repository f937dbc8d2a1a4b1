import * as vscode from 'vscode';
import type { RunState } from '../../core/engine/runEvents';
import type { RunResult } from '../../core/engine/runOptions';
import { createToolRegistry } from '../../core/tools/createToolRegistry';
import { validatePlan } from '../../core/plan/validatePlan';
import { chatEventMarkdown, chatLimits, chatPlanMarkdown, chatSummaryMarkdown, chatText } from '../../core/view/chatMarkdown';
import { runSummary } from '../../core/view/runSummary';
import { oneLine } from '../../core/text/oneLine';
import { visibleControls } from '../../shared/visibleCharacters';
import { normalizeWorkspacePath } from '../../core/workspace/resolveInRoot';
import { errorMessage } from '../../shared/errorMessage';
import { planButtons, type ChatDeps } from './chatDeps';
import { planReference, referencedPlan } from './planReference';
import { newTenth } from '../../shared/progressPercent';

/** Most changed files the chat links after a run (the summary counts the rest). */
const maxLinkedFiles = 20;

/**
 * `@planner /run`: starts the Plan tree's current plan (the one reviewed) through the same
 * `RunController` as everywhere, with the model `/plan` would plan with, refusing a plan with errors (listed, with Review in
 * panel). While it runs the chat shows each step starting, finishing, failing or waiting
 * (what for: approvals and questions stay the editor's prompts), then the summary with
 * links to the changed files. Stopping the chat request cancels the run, as the Cancel
 * run command does: the run stays journaled and can be resumed from the Runs view.
 * A `/run` naming a plan (`planReference`, as a Start button does) starts nothing unless the
 * current plan is exactly that one: it shows the current plan with new buttons instead.
 */
export async function chatRun(
  deps: ChatDeps,
  request: vscode.ChatRequest,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): Promise<vscode.ChatResult> {
  const { tree, runs, tools, log } = deps;
  if (runs.isRunning()) {
    stream.markdown(vscode.l10n.t('A run is already going on; here is where it stands.') + '\n\n');
    return chatStatus(deps, stream);
  }
  const plan = tree.currentPlan();
  if (!plan) {
    stream.markdown(vscode.l10n.t('There is no plan to run yet: ask for one with /plan and what you want done.'));
    return {};
  }
  // A Start button names the plan it was shown with: a plan changed or replaced since is shown again, not started.
  const named = referencedPlan(request.prompt);
  if (named !== undefined && named !== planReference(plan)) {
    log.info('A Start button from the chat named a plan that is no longer the current one; nothing was started.');
    stream.markdown(
      vscode.l10n.t(
        'Nothing was started: the plan has changed since that Start button was shown (it was edited, or another plan replaced it). Here is the current plan; review it, then start it with the button below.',
      ) + '\n\n',
    );
    stream.markdown(chatPlanMarkdown(plan));
    planButtons(stream, plan);
    return { metadata: { command: 'run', stale: true } };
  }
  const errors = validatePlan(plan, { tools: createToolRegistry([...tools()]) }).filter((diagnostic) => diagnostic.severity === 'error');
  if (errors.length > 0) {
    stream.markdown(vscode.l10n.t('The plan cannot start: fix these first.') + '\n\n');
    for (const error of errors.slice(0, 10)) stream.markdown(`- ${chatText(error.message, chatLimits.line)}\n`);
    stream.button({ command: 'taskPlanner.showPlan', title: vscode.l10n.t('Review in panel') });
    return {};
  }
  let shown = plan;
  let titles = new Map(plan.steps.map((step) => [step.id, step.title]));
  let total = plan.steps.length;
  // The last percentage the chat said of each running step: it says each new tenth only, so a long step adds a few lines, not one per report.
  const said = new Map<string, number>();
  // The chat follows its own execution (its run, then its repair runs) in whichever folder it goes on, never the current
  // folder's run: the current folder can change while it runs.
  let execution: ReadonlySet<string> | undefined;
  let stopped = false;
  const events = runs.onDidExecutionEvent(({ event, state, execution: ids }) => {
    if (execution === undefined && event.type === 'run_started' && state.plan?.id === plan.id) {
      execution = ids;
      if (stopped) runs.cancel(event.runId);
    }
    if (ids !== execution) return;
    // A repair plan brings its own steps.
    if (state.plan && state.plan !== shown) {
      shown = state.plan;
      titles = new Map(shown.steps.map((step) => [step.id, step.title]));
      total = shown.steps.length;
    }
    // A progress line is Markdown too.
    const position = (stepId: string): number => [...titles.keys()].indexOf(stepId) + 1;
    const title = (stepId: string): string => chatText(titles.get(stepId) ?? stepId, chatLimits.title);
    if (event.type === 'step_started') {
      said.delete(event.stepId);
      stream.progress(vscode.l10n.t('Step {0} of {1}: {2}', position(event.stepId), total, title(event.stepId)));
    }
    if (event.type === 'step_progress' && event.percent !== undefined && newTenth(said.get(event.stepId), event.percent)) {
      said.set(event.stepId, event.percent);
      stream.progress(vscode.l10n.t('Step {0} of {1}: {2} ({3}%)', position(event.stepId), total, title(event.stepId), event.percent));
    }
    const line = chatEventMarkdown(event, (stepId) => titles.get(stepId) ?? stepId);
    if (line !== undefined) stream.markdown(line);
  });
  const stop = token.onCancellationRequested(() => {
    stopped = true;
    const latest = execution === undefined ? undefined : [...execution].at(-1);
    if (latest !== undefined) runs.cancel(latest);
  });
  let result: RunResult;
  try {
    stream.progress(total === 1 ? vscode.l10n.t('Starting the plan (1 step)…') : vscode.l10n.t('Starting the plan ({0} steps)…', total));
    // The model picked in the chat runs the plan it planned (under `auto`, as /plan).
    const { llm } = await deps.model(request.model);
    // Stopped while the model was looked up: nothing has started, so nothing starts.
    if (token.isCancellationRequested) {
      stream.markdown(vscode.l10n.t('You stopped the chat request before the run started, so nothing was started.'));
      return {};
    }
    result = await runs.start(plan, llm ? { llm } : {});
  } catch (error) {
    const message = errorMessage(error);
    log.error(`Run from the chat did not start: ${message}`);
    stream.markdown(vscode.l10n.t('The run did not start: {0}', chatText(message, chatLimits.answer)));
    return { errorDetails: { message: vscode.l10n.t('The run did not start.') } };
  } finally {
    events.dispose();
    stop.dispose();
  }
  // Its last run's snapshot (a repair run's, when the plan was repaired), wherever it ran.
  const state = [...(execution ?? []), result.runId].reverse().map((runId) => runs.runInfo(runId)?.state).find((known) => known !== undefined);
  if (state) showSummary(state, stream, runs.runInfo(state.runId)?.folder);
  if (stopped) stream.markdown(`\n${vscode.l10n.t('You stopped the chat request, so the run was cancelled. Resume it from the Runs view.')}\n`);
  return { metadata: { command: 'run', runId: state?.runId } };
}

/** `@planner /status`: the current (or last) run of this window, as its summary, with links to the changed files; the plan's buttons when none ran yet. */
export function chatStatus(deps: ChatDeps, stream: vscode.ChatResponseStream): vscode.ChatResult {
  const { runs, tree } = deps;
  const state = runs.current();
  if (!state) {
    const plan = tree.currentPlan();
    stream.markdown(
      plan
        ? vscode.l10n.t('Nothing has run yet. The current plan has {0} steps.', plan.steps.length)
        : vscode.l10n.t('Nothing has run yet, and there is no plan: ask for one with /plan.'),
    );
    if (plan) planButtons(stream, plan);
    return {};
  }
  if (runs.isRunning()) stream.markdown(vscode.l10n.t('Running now.') + '\n\n');
  showSummary(state, stream, runs.runInfo(state.runId)?.folder);
  return { metadata: { command: 'status', runId: state.runId } };
}

/**
 * The run's summary (the core's `runSummary`, as every view builds it) and a link to each changed file, in `ranIn`, the
 * folder the run ran in (a window of one folder: that folder; unknown in several: no links, never links into another).
 */
function showSummary(state: RunState, stream: vscode.ChatResponseStream, ranIn: vscode.WorkspaceFolder | undefined): void {
  const summary = runSummary(state, { now: Date.now() });
  stream.markdown(`\n${chatSummaryMarkdown(summary)}`);
  const folders = vscode.workspace.workspaceFolders ?? [];
  const folder = ranIn ?? (folders.length === 1 ? folders[0] : undefined);
  if (!folder || summary.changedFiles.length === 0) return;
  stream.markdown(`\n${vscode.l10n.t('Changed files:')}\n`);
  for (const path of summary.changedFiles.slice(0, maxLinkedFiles)) {
    const inside = insideFolder(path);
    if (inside === undefined) {
      // A path no workspace tool would take (`..`, absolute), as a journal may hold: named, never a link out of the folder.
      stream.markdown(`- ${chatText(visibleControls(path), chatLimits.title)}\n`);
      continue;
    }
    const uri = vscode.Uri.joinPath(folder.uri, inside);
    stream.markdown('- ');
    // Its name as it is: a tag character or a line separator in it spelled out, never hidden or read as a space.
    stream.anchor(uri, oneLine(visibleControls(path), chatLimits.title));
    stream.markdown('\n');
    stream.reference(uri);
  }
  const more = summary.changedFiles.length - maxLinkedFiles + summary.moreChangedFiles;
  if (more > 0) stream.markdown(vscode.l10n.t('…and {0} more.', more) + '\n');
}

/**
 * `path`, a changed file as a run's journal names it, as a path inside the run's folder, or `undefined` when it is none
 * that the workspace's tools would take (`normalizeWorkspacePath`: a `..` out, an absolute path, a device, …), so the
 * chat links only into the folder.
 */
export function insideFolder(path: string): string | undefined {
  try {
    return normalizeWorkspacePath(path);
  } catch {
    return undefined;
  }
}
