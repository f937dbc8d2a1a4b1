/**
 * A step failure with an explicit say on retrying (a rejection is not worth retrying);
 * `notRetried` says why another attempt would not help, and the engine adds it when the
 * step had attempts left ("Not retried: the same command line fails the same way.").
 */
export class StepFailure extends Error {
  override readonly name = 'StepFailure';

  constructor(
    message: string,
    readonly retryable: boolean,
    readonly notRetried?: string,
  ) {
    super(message);
  }
}
