import * as vscode from 'vscode';
import { askPlanningQuestion } from '../planningQuestion';
import { estimateRun } from '../../core/agent/estimateRun';
import { estimateLines } from '../../core/agent/estimateText';
import { createToolRegistry } from '../../core/tools/createToolRegistry';
import { readSettings } from '../settings';
import { chatLimits, chatPlanMarkdown, chatStepLine, chatText } from '../../core/view/chatMarkdown';
import { errorMessage } from '../../shared/errorMessage';
import { collectAttachments } from '../attachments';
import { abortOn, planButtons, type ChatDeps } from './chatDeps';

/** Most planner warnings the chat lists (the rest are in the log). */
const maxWarnings = 5;

/**
 * `@planner /plan <request>`: plans through "Plan task"'s `planRequest` (the chat's model
 * under `auto`, see `chatProvider`), writes each step as the model writes it (a model that
 * starts over is said to), makes the plan the Plan tree's current plan, and ends with the
 * plan, its critique and the buttons Review in panel and Start. Stopping the chat request
 * stops the planning. Every text from the plan or the model is escaped (`chatText`).
 */
export async function chatPlan(
  deps: ChatDeps,
  request: vscode.ChatRequest,
  text: string,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): Promise<vscode.ChatResult> {
  const { tree, log } = deps;
  const abort = abortOn(token);
  let written = 0;
  const streamed: string[] = [];
  try {
    const model = await deps.model(request.model);
    stream.progress(vscode.l10n.t('Planning with the {0}…', chatText(model.label, chatLimits.title)));
    const files = request.references.flatMap((reference) =>
      reference.value instanceof vscode.Uri ? [reference.value] : reference.value instanceof vscode.Location ? [reference.value.uri] : [],
    );
    const planned = await deps.plan(text, collectAttachments(text, files), {
      signal: abort.signal,
      model,
      progress: (line) => stream.progress(chatText(line, chatLimits.line)),
      // The question is asked in the conversation; the answer is picked or typed in the QuickPick it opens, then shown here too.
      ask: async (question, signal) => {
        const suggestions = question.suggestions.map((suggestion) => `- ${chatText(suggestion, chatLimits.line)}`).join('\n');
        stream.markdown(
          `\n**${vscode.l10n.t('Before planning: {0}', chatText(question.question, chatLimits.line))}**\n${suggestions === '' ? '' : `${suggestions}\n`}`,
        );
        const answer = await askPlanningQuestion(question, signal);
        stream.markdown(
          `${answer === undefined ? vscode.l10n.t('No answer: the planner chooses and says so in the plan.') : vscode.l10n.t('Your answer: {0}', chatText(answer, chatLimits.line))}\n\n`,
        );
        return answer;
      },
      onPartialStep: (step, index) => {
        if (index < written) {
          stream.markdown(`\n${vscode.l10n.t('(The model started over.)')}\n\n`);
          written = 0;
          streamed.length = 0;
        }
        streamed[index] = step.title;
        stream.markdown(chatStepLine(step, index));
        written = index + 1;
      },
    });
    const { plan, critique } = planned;
    for (const warning of planned.warnings) log.warn(warning);
    log.info(`Planned in the chat: ${plan.steps.length} step(s) for ${plan.objective}. Critic ${critique.score}/10.`);
    tree.setPlan(plan);
    // The steps streamed are the model's draft: listed again when the plan as parsed and checked differs.
    const sameAsStreamed = streamed.length === plan.steps.length && plan.steps.every((step, index) => streamed[index] === step.title);
    stream.markdown(`${written > 0 ? '\n' : ''}${chatPlanMarkdown(plan, critique, !sameAsStreamed)}`);
    for (const warning of planned.warnings.slice(0, maxWarnings)) stream.markdown(`- ⚠ ${chatText(warning, chatLimits.line)}\n`);
    if (planned.warnings.length > maxWarnings) {
      stream.markdown(vscode.l10n.t('…and {0} more warnings in the log.', planned.warnings.length - maxWarnings) + '\n');
    }
    if (model.llm) {
      const settings = readSettings();
      const estimate = estimateRun(plan, {
        model: model.llm.model,
        ...(model.models ? { models: model.models } : {}),
        tools: createToolRegistry([...deps.tools()]),
        agentLimits: settings.agentLimits,
        reviewCriticalSteps: settings.reviewCriticalSteps,
      });
      stream.markdown(`\n${estimateLines(estimate).map((line) => `- ${chatText(line.trim(), chatLimits.line)}`).join('\n')}\n`);
    }
    stream.markdown(`\n${vscode.l10n.t('The plan is in the Plan view. Review it in the panel, or start it.')}\n`);
    planButtons(stream);
    return { metadata: { command: 'plan', planId: plan.id } };
  } catch (error) {
    if (token.isCancellationRequested) {
      stream.markdown(vscode.l10n.t('Planning stopped.'));
      return {};
    }
    const message = errorMessage(error);
    log.error(`Planning in the chat failed: ${message}`);
    stream.markdown(vscode.l10n.t('Planning failed: {0}', chatText(message, chatLimits.answer)));
    stream.button({ command: 'taskPlanner.setUpModel', title: vscode.l10n.t('Set up a model') });
    return { errorDetails: { message: vscode.l10n.t('Planning failed.') } };
  } finally {
    abort.dispose();
  }
}
