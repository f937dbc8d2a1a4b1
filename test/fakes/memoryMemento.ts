import type * as vscode from 'vscode';

/** A `vscode.Memento` (workspace or global state) in memory; `values` shows what was stored. */
export function memoryMemento(initial: Record<string, unknown> = {}): vscode.Memento & { values: Map<string, unknown> } {
  const values = new Map<string, unknown>(Object.entries(initial));
  return {
    values,
    keys: () => [...values.keys()],
    get: <T>(key: string, fallback?: T) => (values.has(key) ? (values.get(key) as T) : fallback),
    update: async (key: string, value: unknown) => {
      values.set(key, value);
    },
  };
}
