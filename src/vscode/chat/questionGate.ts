import type { PlanningQuestion } from '../../core/planner/investigateRequest';

/**
 * Where planning in the chat meets the conversation: the planner's `ask` waits here for an
 * answer, and the chat request following the planning learns of the question through
 * `next()`, so it can end with the question while planning waits. At most one question
 * waits at a time (the planner asks one at a time); an answer settles it once.
 */
export class QuestionGate {
  private asked: PlanningQuestion | undefined;
  private notify: ((question: PlanningQuestion) => void) | undefined;
  private settle: ((answer: string | undefined) => void) | undefined;

  /** The planner's `ask`: resolves with `answer()`'s text, or `undefined` when `signal` aborts first. */
  ask(question: PlanningQuestion, signal: AbortSignal): Promise<string | undefined> {
    return new Promise((resolve) => {
      if (signal.aborted) {
        resolve(undefined);
        return;
      }
      const gone = (): void => this.answer(undefined);
      signal.addEventListener('abort', gone, { once: true });
      this.settle = (answer) => {
        signal.removeEventListener('abort', gone);
        resolve(answer);
      };
      this.asked = question;
      this.notify?.(question);
    });
  }

  /** The question waiting now, or the next one asked. */
  next(): Promise<PlanningQuestion> {
    return new Promise((resolve) => {
      if (this.asked !== undefined) resolve(this.asked);
      else this.notify = resolve;
    });
  }

  /** Answers the question waiting (`undefined`: no answer, the model chooses); nothing when none waits. */
  answer(text: string | undefined): void {
    const settle = this.settle;
    this.settle = undefined;
    this.asked = undefined;
    this.notify = undefined;
    settle?.(text);
  }
}
