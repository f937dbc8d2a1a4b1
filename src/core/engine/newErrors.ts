import type { DiagnosticsSnapshot, EditorDiagnostic } from '../editorPorts';

/**
 * The errors of `now` that `before` did not have, by path, message and source (not line:
 * an edit above an old error moves it without making it new). An error reported more
 * often than before counts that many times more.
 */
export function newErrors(before: DiagnosticsSnapshot, now: readonly EditorDiagnostic[]): EditorDiagnostic[] {
  const known = new Map<string, number>();
  for (const error of before.errors) known.set(keyOf(error), (known.get(keyOf(error)) ?? 0) + 1);
  return now.filter((error) => {
    const left = known.get(keyOf(error)) ?? 0;
    known.set(keyOf(error), left - 1);
    return left <= 0;
  });
}

function keyOf(error: EditorDiagnostic): string {
  return JSON.stringify([error.path, error.message, error.source ?? '']);
}
