/**
 * The text to show for a caught value: an `Error`'s message (without its name or stack), or the
 * `String` of anything else that was thrown or given as a rejection reason (a string stays as it is).
 */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
