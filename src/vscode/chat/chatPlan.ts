import * as vscode from 'vscode';
import { estimateRun } from '../../core/agent/estimateRun';
import { estimateLines } from '../../core/agent/estimateText';
import { createToolRegistry } from '../../core/tools/createToolRegistry';
import { readSettings } from '../settings';
import { chatLimits, chatPlanMarkdown, chatStepLine, chatText } from '../../core/view/chatMarkdown';
import { errorMessage } from '../../shared/errorMessage';
import { chatAttachments } from './chatAttachments';
import type { PlanningQuestion } from '../../core/planner/investigateRequest';
import type { PlannedRequest } from '../../core/planner/planRequest';
import { abortOn, planButtons, type ChatDeps, type ChatModel } from './chatDeps';
import { pendingQuestionLimits, type QuestionMetadata } from './pendingQuestions';
import { QuestionGate } from './questionGate';

/** Most planner warnings the chat lists (the rest are in the log). */
const maxWarnings = 5;

/**
 * `@planner /plan <request>`: plans through "Plan task"'s `planRequest` (the chat's model
 * under `auto`, see `chatProvider`), writes each step as the model writes it (a model that
 * starts over is said to), makes the plan the Plan tree's current plan, and ends with the
 * plan, its critique and the buttons Review in panel and Start. Stopping the chat request
 * stops the planning. Every text from the plan or the model is escaped (`chatText`).
 * When the planner asks a question, the response ends with it (its suggestions as
 * follow-ups) and the planning waits in `deps.questions` for the conversation's next
 * message, which answers it and gets the rest of the planning (`chatAnswer`).
 */
export async function chatPlan(
  deps: ChatDeps,
  request: vscode.ChatRequest,
  text: string,
  firstStream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): Promise<vscode.ChatResult> {
  const { log } = deps;
  // The planning outlives this chat request when it asks: each request that follows it is `stream` in turn.
  let stream = firstStream;
  const planning = new AbortController();
  const gate = new QuestionGate();
  let written = 0;
  const streamed: string[] = [];
  const planned = (async () => {
    const model = await deps.model(request.model);
    stream.progress(vscode.l10n.t('Planning with the {0}…', chatText(model.label, chatLimits.title)));
    const { attachments, refused } = chatAttachments(text, request.references);
    for (const name of refused.slice(0, maxWarnings)) {
      stream.markdown(`- ⚠ ${vscode.l10n.t('Not attached: {0} is not a file of an open workspace folder.', chatText(name, chatLimits.line))}\n`);
    }
    const result = await deps.plan(text, attachments, {
      signal: planning.signal,
      model,
      progress: (line) => stream.progress(chatText(line, chatLimits.line)),
      ask: (question, signal) => gate.ask(question, signal),
      onPartialStep: (step, index) => {
        if (index < written) {
          stream.markdown(`\n${vscode.l10n.t('(The model started over.)')}\n\n`);
          written = 0;
          streamed.length = 0;
        }
        written = index + 1;
        // A model may write thousands of steps: the chat lists the first ones as they come, and the plan once checked.
        if (index > chatLimits.steps) return;
        if (index === chatLimits.steps) {
          stream.markdown(`${vscode.l10n.t('…more steps as the model writes them; the plan lists them once it is checked.')}\n`);
          return;
        }
        streamed[index] = step.title;
        stream.markdown(chatStepLine(step, index));
      },
    });
    return { planned: result, model };
  })();
  // A planning whose question expired fails with no request to report to: the log has it.
  planned.catch((error: unknown) => log.info(`Planning in the chat ended: ${errorMessage(error)}`));
  const follow = async (current: vscode.ChatResponseStream, currentToken: vscode.CancellationToken): Promise<vscode.ChatResult> => {
    stream = current;
    written = 0;
    streamed.length = 0;
    const abort = abortOn(currentToken);
    const stop = (): void => planning.abort(abort.signal.reason);
    abort.signal.addEventListener('abort', stop, { once: true });
    try {
      const next = await Promise.race([planned, gate.next()]);
      if ('question' in next) return askInChat(deps, next, gate, follow, planning, stream);
      return finishPlan(deps, next.planned, next.model, stream, { written, streamed });
    } catch (error) {
      if (currentToken.isCancellationRequested) {
        stream.markdown(vscode.l10n.t('Planning stopped.'));
        return {};
      }
      const message = errorMessage(error);
      log.error(`Planning in the chat failed: ${message}`);
      stream.markdown(vscode.l10n.t('Planning failed: {0}', chatText(message, chatLimits.answer)));
      stream.button({ command: 'taskPlanner.setUpModel', title: vscode.l10n.t('Set up a model') });
      return { errorDetails: { message: vscode.l10n.t('Planning failed.') } };
    } finally {
      abort.signal.removeEventListener('abort', stop);
      abort.dispose();
    }
  };
  return follow(firstStream, token);
}

/** Ends the response with the planner's question and its suggestions, holding the planning for the conversation's next message. */
function askInChat(
  deps: ChatDeps,
  question: PlanningQuestion,
  gate: QuestionGate,
  follow: (stream: vscode.ChatResponseStream, token: vscode.CancellationToken) => Promise<vscode.ChatResult>,
  planning: AbortController,
  stream: vscode.ChatResponseStream,
): vscode.ChatResult {
  const suggestions = question.suggestions.map((suggestion) => `- ${chatText(suggestion, chatLimits.line)}`).join('\n');
  stream.markdown(
    `\n**${vscode.l10n.t('Before planning: {0}', chatText(question.question, chatLimits.line))}**\n${suggestions === '' ? '' : `${suggestions}\n`}\n` +
      vscode.l10n.t('Answer with your next message (or pick a suggestion below); planning continues with your answer.'),
  );
  const id = deps.questions.hold({
    resume: (answer, stream, token) => {
      gate.answer(answer);
      return follow(stream, token);
    },
    cancel: (reason) => {
      deps.log.info(`A planning question in the chat was dropped: ${reason}`);
      planning.abort(new Error(reason));
    },
  });
  const metadata: QuestionMetadata = { command: 'plan', question: id, suggestions: [...question.suggestions] };
  return { metadata };
}

/** The plan as planned: the Plan tree's current plan, listed with its critique, warnings and estimate, then the buttons. */
function finishPlan(
  deps: ChatDeps,
  planned: PlannedRequest,
  model: ChatModel,
  stream: vscode.ChatResponseStream,
  drafted: { written: number; streamed: readonly string[] },
): vscode.ChatResult {
  const { tree, log } = deps;
  const { written, streamed } = drafted;
  const { plan, critique } = planned;
  for (const warning of planned.warnings) log.warn(warning);
  log.info(`Planned in the chat: ${plan.steps.length} step(s) for ${plan.objective}. Critic ${critique.score}/10.`);
  tree.setPlan(plan);
  // The steps streamed are the model's draft: listed again when the plan as parsed and checked differs.
  const sameAsStreamed =
    written === plan.steps.length && streamed.length === plan.steps.length && plan.steps.every((step, index) => streamed[index] === step.title);
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
  planButtons(stream, plan);
  return { metadata: { command: 'plan', planId: plan.id } };
}

/**
 * A plain message of a conversation whose last response ended with a planning question
 * (`questionId`): the answer. The planning held for it continues and reports here; when it
 * is no longer held (it expired, was dropped, or VS Code restarted), the user is told so.
 */
export function chatAnswer(
  deps: ChatDeps,
  questionId: string,
  answer: string,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): Promise<vscode.ChatResult> {
  const held = deps.questions.take(questionId);
  if (held === undefined) {
    stream.markdown(
      vscode.l10n.t(
        'That planning question is no longer waiting (a question waits {0} minutes, and not across a restart of VS Code), so nothing was planned. Ask again with /plan and your request.',
        Math.round(pendingQuestionLimits.expiresMs / 60_000),
      ),
    );
    return Promise.resolve({});
  }
  stream.markdown(`${vscode.l10n.t('Your answer: {0}', chatText(answer, chatLimits.line))}\n\n`);
  return held.resume(answer, stream, token);
}
