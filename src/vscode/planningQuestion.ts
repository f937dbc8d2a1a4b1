import * as vscode from 'vscode';
import type { PlanningQuestion } from '../core/planner/investigateRequest';
import { pickAnswer } from './answerPicker';
import { shownQuestion } from './shownText';

/**
 * Asks the planner's question before the plan (`pickAnswer`): its suggestions to pick, or any text typed. Resolves to
 * the answer, `undefined` when the user closed it (the model then chooses and says so in the plan) or planning was
 * cancelled. The question and suggestions come bounded and on one line (`investigateRequest`); the question is shown as a
 * clarification's is (`shownQuestion`: zero-width characters visible).
 */
export async function askPlanningQuestion(question: PlanningQuestion, signal: AbortSignal): Promise<string | undefined> {
  if (signal.aborted) return undefined;
  return pickAnswer(
    { title: vscode.l10n.t('Task Planner asks before planning'), placeholder: shownQuestion(question.question), suggestions: question.suggestions },
    (hide) => {
      signal.addEventListener('abort', hide, { once: true });
      return new vscode.Disposable(() => signal.removeEventListener('abort', hide));
    },
  );
}
