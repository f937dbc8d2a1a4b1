/**
 * A tool call was refused because its input breaks a rule (docs/architecture.md §10). Nothing changed;
 * the message says what was wrong and what to do instead, for the model to act on.
 */
export class ToolValidationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolValidationError';
  }
}
