/**
 * Why the user's feedback (Regenerate) cannot be used without a model, ending with what to
 * do in the host's words (`hint`): the heuristic planner would glue the feedback to the
 * objective instead of taking it into account.
 */
export function feedbackNeedsModel(hint: string): string {
  return `Regenerate needs a model to take your feedback into account, and none is set up: ${hint}`;
}
