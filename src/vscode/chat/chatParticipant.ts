import type * as vscode from 'vscode';
import { parseChatCommand } from '../../core/view/chatCommand';
import { chatLimits, chatText } from '../../core/view/chatMarkdown';
import type { ChatDeps } from './chatDeps';
import { chatFollowUp } from './chatFollowUp';
import { chatAnswer, chatPlan } from './chatPlan';
import { questionIdOf } from './pendingQuestions';
import { chatRun, chatStatus } from './chatRun';

/**
 * The `@planner` chat participant's handler (loaded with the runtime on the first chat
 * request): `/plan <request>`, `/run`, `/status`, and messages without a command about the
 * current plan. A plain message right after a response that ended with a planning question
 * answers it (`chatAnswer`). A request it cannot read gets a sentence saying what to write instead.
 */
export async function handleChatRequest(
  deps: ChatDeps,
  request: vscode.ChatRequest,
  context: vscode.ChatContext,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): Promise<vscode.ChatResult> {
  const command = parseChatCommand(request.command, request.prompt);
  // The conversation's last response asked a planning question: a plain message answers it, anything else drops it.
  const questionId = questionIdOf(context.history);
  if (questionId !== undefined) {
    if (command.kind === 'followUp') return chatAnswer(deps, questionId, command.text, stream, token);
    deps.questions.drop(questionId, 'The conversation went on without answering it.');
  }
  switch (command.kind) {
    case 'plan':
      return chatPlan(deps, request, command.request, stream, token);
    case 'run':
      return chatRun(deps, request, stream, token);
    case 'status':
      return chatStatus(deps, stream);
    case 'followUp':
      return chatFollowUp(deps, request, command.text, stream, token);
    case 'problem':
      stream.markdown(chatText(command.message, chatLimits.answer));
      return {};
  }
}
