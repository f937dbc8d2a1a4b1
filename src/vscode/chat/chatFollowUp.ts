import * as vscode from 'vscode';
import { defaultAgentLimits } from '../../core/agent/agentLimits';
import { runStepAgent } from '../../core/agent/runStepAgent';
import { createPlanEditSession } from '../../core/plan/planEditTools';
import { createToolRegistry } from '../../core/tools/createToolRegistry';
import { chatAnswerMarkdown, chatLimits, chatPlanMarkdown, chatText } from '../../core/view/chatMarkdown';
import { timerClock } from '../../node/timerClock';
import { errorMessage } from '../../shared/errorMessage';
import { abortOn, planButtons, type ChatDeps } from './chatDeps';
import { planReference } from './planReference';
import { channelLogger } from '../channelLogger';

/** Model calls one follow-up may make (reading the plan, a few edits, the answer). */
const maxTurns = 8;
/** Longest a follow-up may take, in ms. */
const timeoutMs = 120_000;

const editorPrompt = `You are Task Planner's plan editor in the VS Code chat. The user asks about the current plan ("why step 3?") or asks to change it ("drop the README step").
- Read the plan with plan_read_plan first. Steps are numbered from 1 in plan order; refer to them by number and title in your answer.
- To change the plan use the plan_* tools; a refused call changed nothing: read its reason and try another way, or explain why it cannot be done.
- Change only what the user asked for. Never invent steps' results.
- Answer briefly in plain text (no Markdown links or HTML): what the step is for, or what you changed.`;

/**
 * A message without a command, about the Plan tree's current plan: the chat's model (or
 * the configured one) answers it with the `plan_*` tools of `createPlanEditSession`, so
 * every change goes through `editPlan` and is re-validated; the edited plan becomes the
 * current plan (a new version) and is shown with the plan's buttons. Without a model it
 * says plainly what works without one. Not while a run is going on. The edits are made only
 * when the current plan is still the one the model read and no run started meanwhile.
 */
export async function chatFollowUp(
  deps: ChatDeps,
  request: vscode.ChatRequest,
  text: string,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): Promise<vscode.ChatResult> {
  const { tree, runs, tools, log } = deps;
  const plan = tree.currentPlan();
  if (!plan) {
    stream.markdown(vscode.l10n.t('There is no plan yet. Ask for one with /plan and what you want done; then ask about it or ask for changes here.'));
    return {};
  }
  if (runs.isRunning()) {
    stream.markdown(vscode.l10n.t('The plan is running: ask /status for where it stands. Change the plan once the run has ended, or cancel it first.'));
    return {};
  }
  const abort = abortOn(token);
  try {
    const provider = await deps.model(request.model);
    if (!provider.llm) {
      stream.markdown(
        vscode.l10n.t(
          'Questions and changes in words need a model, and none is set up. Without one, /plan plans with the built-in planner, /run runs the plan and /status shows the run; in the panel you can remove, move, skip or take over steps yourself.',
        ),
      );
      stream.button({ command: 'taskPlanner.showPlan', title: vscode.l10n.t('Review in panel') });
      stream.button({ command: 'taskPlanner.setUpModel', title: vscode.l10n.t('Set up a model') });
      return {};
    }
    stream.progress(vscode.l10n.t('Reading the plan…'));
    const session = createPlanEditSession(plan, { tools: createToolRegistry([...tools()]) });
    const answer = await runStepAgent({
      llm: provider.llm,
      stepId: 'chat',
      agentPrompt: editorPrompt,
      stepPrompt: `The user's message about the plan "${plan.objective.slice(0, chatLimits.objective)}":\n\n${text}`,
      tools: session.tools,
      toolContext: {
        runId: 'chat',
        stepId: 'chat',
        stepTitle: 'Answer about the plan',
        workspace: runs.workspace(),
        interaction: deps.interaction,
        approvalPolicy: 'always',
        clock: timerClock,
        logger: channelLogger(log),
      },
      clock: timerClock,
      signal: abort.signal,
      maxTurns,
      timeoutMs,
      toolResultTokens: defaultAgentLimits.toolResultTokens,
      maxToolCallsPerTurn: defaultAgentLimits.maxToolCallsPerTurn,
      maxToolResultBytes: defaultAgentLimits.maxToolResultBytes,
      output: () => undefined,
      progress: () => stream.progress(vscode.l10n.t('Working on the plan…')),
    });
    stream.markdown(chatAnswerMarkdown(answer.text));
    const changes = session.changes();
    if (changes.length === 0) return { metadata: { command: 'followUp' } };
    const edited = session.plan();
    // The model took its time: a plan replaced or edited meanwhile (another /plan, the panel), or a run started, is not overwritten.
    const now = tree.currentPlan();
    if (runs.isRunning() || now === undefined || planReference(now) !== planReference(plan)) {
      log.info(`The chat did not change the plan: it changed while the model worked on it (${changes.length} change(s) dropped).`);
      stream.markdown(
        `\n${vscode.l10n.t('The plan changed while the model worked on it (it was edited, replaced or started elsewhere), so none of these changes were made. Ask again about the current plan.')}\n`,
      );
      return { metadata: { command: 'followUp' } };
    }
    tree.setPlan(edited);
    log.info(`The chat changed the plan (version ${edited.version}): ${changes.join(' ')}`);
    stream.markdown(`\n${vscode.l10n.t('Changes to the plan (now version {0}):', edited.version)}\n`);
    for (const change of changes) stream.markdown(`- ${chatText(change, chatLimits.line)}\n`);
    stream.markdown(`\n${chatPlanMarkdown(edited)}`);
    planButtons(stream, edited);
    return { metadata: { command: 'followUp', planId: edited.id } };
  } catch (error) {
    if (token.isCancellationRequested) {
      stream.markdown(vscode.l10n.t('Stopped; the plan is as it was.'));
      return {};
    }
    const message = errorMessage(error);
    log.error(`The chat could not answer about the plan: ${message}`);
    stream.markdown(vscode.l10n.t('No answer, and the plan is unchanged: {0}', chatText(message, chatLimits.answer)));
    return { errorDetails: { message: vscode.l10n.t('No answer.') } };
  } finally {
    abort.dispose();
  }
}
